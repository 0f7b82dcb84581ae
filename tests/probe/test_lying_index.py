"""A server whose spec route answers for another game, and an index with a bad entry
(issue 26 cases 6 and 8): the lie is caught, the bad entry listed beside the real games."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from sunbot.cli import app as cli_app
from sunbot.client import GameboardClient, WrongGame
from sunbot.client.models import read_index
from sunbot.client.spec_check import check_spec
from sunbot.generic.index import read_listing, served_rules
from sunbot.probe.report import fit, run_probe
from sunbot.server import TokenCodec, create_app
from tests.conftest import FAST_RETRY, LoopbackServer

runner = CliRunner()


def lying(spec_of: dict[str, str] | None = None, index: Any = None, init_as: str | None = None):
    """Our server, but the spec route of each key of ``spec_of`` answers the other game's
    spec, the index is ``index`` (when given), and every init answer says ``slug:
    init_as`` (when given)."""
    inner = create_app(TokenCodec())
    spec_of = spec_of or {}

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return await inner(scope, receive, send)
        path = scope["path"]
        if index is not None and path == "/api/games":
            body = json.dumps(index).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return None
        for asked, given in spec_of.items():
            if path == f"/api/games/{asked}/spec":
                scope = {**scope, "path": f"/api/games/{given}/spec", "raw_path": None}
        if init_as is not None and path.endswith("/init"):

            async def send2(msg):
                if msg["type"] == "http.response.body" and msg.get("body"):
                    msg = {
                        **msg,
                        "body": json.dumps({**json.loads(msg["body"]), "slug": init_as}).encode(),
                    }
                elif msg["type"] == "http.response.start":
                    msg = {
                        **msg,
                        "headers": [h for h in msg["headers"] if h[0] != b"content-length"],
                    }
                await send(msg)

            return await inner(scope, receive, send2)
        return await inner(scope, receive, send)

    return app


def client_of(app) -> GameboardClient:
    return GameboardClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY)


def test_check_spec_compares_slug_and_name_and_skips_what_is_absent():
    assert check_spec({"slug": "keelhold", "spec": {}}, "keelhold").said == "checked (slug)"
    assert check_spec({"spec": {"goal": "x"}}, "keelhold").checked == ()
    assert "not checked" in check_spec({"spec": {}}, "keelhold").said
    wrong = check_spec({"ok": True, "slug": "sunloaf"}, "keelhold")
    assert wrong.mismatch == "the spec route of 'keelhold' answered for 'sunloaf'"
    named = check_spec({"spec": {"name": "Sunloaf"}}, "keelhold", "Keelhold")
    assert "named 'Sunloaf', not 'Keelhold'" in (named.mismatch or "")
    same = check_spec({"slug": "KeelHold", "name": " keelhold "}, "keelhold", "Keelhold")
    assert same.mismatch is None and same.checked == ("slug", "name")
    assert check_spec({"name": "Other"}, "keelhold").checked == ()  # no index name: not checked
    assert check_spec({"slug": 5, "name": None}, "keelhold", "Keelhold").checked == ()


async def test_lying_spec_route_is_an_error_not_sunloafs_rules():
    async with client_of(lying({"keelhold": "sunloaf"})) as client:
        with pytest.raises(WrongGame, match="of 'keelhold' answered for 'sunloaf'"):
            await served_rules(client, "keelhold")
        with pytest.raises(WrongGame):
            await client.spec("keelhold")
        assert "goal" in await served_rules(client, "naptuft")  # the honest routes still work


async def test_init_answer_naming_another_game_is_refused_before_any_action():
    async with client_of(lying(init_as="sunloaf")) as client:
        with pytest.raises(WrongGame, match="init answer of 'keelhold' answered for 'sunloaf'"):
            await client.init("keelhold", 7)


def test_rules_command_says_one_line_for_a_lying_spec_route():
    with LoopbackServer(lying({"keelhold": "sunloaf"})) as server:
        result = runner.invoke(cli_app, ["rules", "keelhold", "--server", server.url])
    assert result.exit_code == 1
    out = result.output.strip()
    assert len(out.splitlines()) == 1 and "answered for 'sunloaf'" in out
    assert "Sunloaf" not in out.replace("'sunloaf'", "")


async def test_probe_reports_the_lying_spec_route_as_a_finding():
    reports, _ = await run_probe(
        "http://sunbot.local", 7, 2, False,
        transport=httpx.ASGITransport(app=lying({"keelhold": "sunloaf"})), policy=FAST_RETRY,
    )  # fmt: skip
    by = {r.slug: r for r in reports}
    keel = by["keelhold"]
    assert not keel.playable and not fit(reports)
    assert keel.findings == ["spec route: the spec route of 'keelhold' answered for 'sunloaf'"]
    assert by["sunloaf"].playable and by["sunloaf"].spec_route == "checked (slug)"


GOOD_ROWS = [{"slug": s, "name": s.title()} for s in ("keelhold", "sunloaf", "naptuft")]


def test_index_is_read_entry_by_entry():
    rows = [*GOOD_ROWS, {"slug": None, "name": "Ghost"}, 7, {"slug": "x", "genre": ["a"]}]
    index = read_index({"service": "s", "count": "many", "games": rows})
    assert [g.slug for g in index.games] == ["keelhold", "sunloaf", "naptuft", "x"]
    assert index.positions == [0, 1, 2, 5] and index.games[3].genre is None
    assert [(b.position, b.slug, b.reason) for b in index.bad] == [
        (3, None, "slug: Input should be a valid string"),
        (4, None, "the entry is not a JSON object"),
    ]
    assert index.count is None and index.service == "s"


BAD_INDEX = {
    "games": [
        *GOOD_ROWS,
        {"slug": None, "name": "Ghost"},
        {"slug": "a b", "name": "Spaced"},
        {"slug": "keelhold", "name": "Again"},
    ]
}


async def test_listing_sets_bad_entries_aside_with_their_reasons():
    async with client_of(lying(index=BAD_INDEX)) as client:
        listed, bad = await read_listing(client)
    assert [g.slug for g in listed] == ["keelhold", "sunloaf", "naptuft"]
    assert [(b.position, b.slug, b.reason) for b in bad] == [
        (3, None, "slug: Input should be a valid string"),
        (4, "'a b'", "slug: not a game slug"),
        (5, "'keelhold'", "slug: repeats entry 0"),
    ]


async def test_probe_probes_the_real_games_beside_a_bad_entry():
    reports, _ = await run_probe(
        "http://sunbot.local", 7, 2, False,
        transport=httpx.ASGITransport(app=lying(index=BAD_INDEX)), policy=FAST_RETRY,
    )  # fmt: skip
    by = {r.slug: r for r in reports}
    assert all(by[s].playable for s in ("keelhold", "sunloaf", "naptuft"))
    ghost = by["entry 3"]
    assert ghost.support == "bad entry" and not ghost.playable
    assert ghost.error == "index entry 3: slug: Input should be a valid string"
    assert not fit(reports)  # the index breaks the protocol: the probe says so


def test_games_command_lists_a_bad_entry_with_its_reason():
    with LoopbackServer(lying(index=BAD_INDEX)) as server:
        result = runner.invoke(cli_app, ["games", "--server", server.url, "--json"])
        table = runner.invoke(cli_app, ["games", "--server", server.url])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert [g["slug"] for g in body["games"]] == ["keelhold", "sunloaf", "naptuft"]
    assert body["badEntries"][0] == {
        "position": 3,
        "slug": None,
        "reason": "slug: Input should be a valid string",
    }
    assert table.exit_code == 0
    assert "bad index entry 3 (entry 3): slug: Input should be a valid string" in table.output
