"""``sunbot games --server URL`` and ``sunbot rules SLUG --server URL`` over loopback: the
unseen server, our own, another one, a hostile and a broken one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from typer.testing import CliRunner

from sunbot import strategies
from sunbot.cli import app
from sunbot.games import available, get_game
from sunbot.server import TokenCodec, create_app
from sunbot.testing.otherserver import OtherOptions, create_other_app
from sunbot.testing.unseen import create_unseen_app
from sunbot.testing.unseen.take_away import SPEC as TAKE_AWAY_SPEC
from tests.conftest import LoopbackServer, free_port

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


@pytest.fixture(scope="module")
def unseen() -> Iterator[str]:
    with LoopbackServer(create_unseen_app()) as srv:
        yield srv.url


def rows_of(output: str, columns: int) -> dict[str, list[str]]:
    """A rich table's body rows: first cell -> the others, stripped."""
    out = {}
    for ln in output.splitlines():
        if ln.count("│") == columns + 1:
            cells = [c.strip() for c in ln.split("│")[1:-1]]
            if cells[0]:
                out[cells[0]] = cells[1:]
    return out


def test_games_lists_every_game_of_the_server_marked_generic(unseen):
    res = runner.invoke(app, ["games", "--server", unseen], env=WIDE)
    assert res.exit_code == 0, res.output
    assert rows_of(res.stdout, 5) == {
        "hidden-number": ["Hidden Number", "puzzle", "generic", "random, first, search"],
        "take-away": ["Take Away", "strategy", "generic", "random, first, search"],
        "tic-tac-toe": ["Tic-Tac-Toe", "board", "generic", "random, first, search"],
    }
    res = runner.invoke(app, ["games", "--server", unseen, "--json"])
    body = json.loads(res.stdout)
    assert body["server"] == unseen
    assert [(g["slug"], g["support"], g["strategies"], g["replayable"]) for g in body["games"]] == [
        ("hidden-number", "generic", ["random", "first", "search"], False),
        ("take-away", "generic", ["random", "first", "search"], False),
        ("tic-tac-toe", "generic", ["random", "first", "search"], False),
    ]
    assert body["games"][0]["description"] == "Higher or lower: find the number in ten guesses."


def test_games_on_our_server_marks_rules_and_the_tuned_strategies():
    with LoopbackServer(create_app(TokenCodec())) as srv:
        table = runner.invoke(app, ["games", "--server", srv.url], env=WIDE)
        res = runner.invoke(app, ["games", "--server", srv.url, "--json"])
    assert table.exit_code == 0 and res.exit_code == 0, table.output + res.output
    rows = rows_of(table.stdout, 5)
    assert rows["keelhold"][2] == "rules, replayable"  # it announces our local choices
    assert rows["keelhold"][3].startswith("planner (default), safe-greedy")
    assert rows["harvest-watch"][3].startswith("adaptive (default)")
    by = {g["slug"]: g for g in json.loads(res.stdout)["games"]}
    assert list(by) == [g.slug for g in available()]
    for slug, g in by.items():
        assert g["support"] == "rules" and g["replayable"] is True
        assert g["strategies"] == strategies.names(slug)


def test_games_without_a_server_lists_the_embedded_games_as_json():
    res = runner.invoke(app, ["games", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["games"]
    assert [r["slug"] for r in rows] == ["keelhold", "sunloaf", "naptuft", "harvest-watch"]
    keelhold = rows[0]
    assert keelhold["kind"] == "single" and keelhold["default"] == "planner"
    assert keelhold["strategies"] == strategies.names("keelhold")
    assert rows[3]["kind"] == "match"


def hostile_app() -> FastAPI:
    odd = FastAPI()

    @odd.get("/api/games")
    def index() -> dict[str, Any]:
        rows = [{"slug": "odd", "name": "[bold red]Boom[/] \x1b[2J", "genre": "[link=x]y"}]
        return {"games": rows, "count": 1}

    @odd.get("/{path:path}")
    def page(path: str) -> HTMLResponse:
        return HTMLResponse("<html>not an API</html>")

    return odd


def test_a_servers_words_are_printed_as_text_never_as_markup():
    with LoopbackServer(hostile_app()) as srv:
        res = runner.invoke(app, ["games", "--server", srv.url], env=WIDE)
    assert res.exit_code == 0, res.output
    assert rows_of(res.stdout, 5)["odd"][:3] == [
        "[bold red]Boom[/] \ufffd[2J",
        "[link=x]y",
        "generic",
    ]
    assert "\x1b" not in res.stdout


def test_a_server_that_cannot_be_read_is_one_line_and_exit_1():
    nothing = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    res = runner.invoke(app, ["games", "--server", nothing], env=WIDE)
    assert res.exit_code == 1, res.output
    assert res.stdout == ""
    assert res.stderr.splitlines() == [
        f"error: cannot read {nothing}/api/games: All connection attempts failed"
    ]
    garbage = FastAPI()

    @garbage.get("/api/games")
    def not_an_index() -> dict[str, Any]:
        return {"hello": "world"}

    with LoopbackServer(garbage) as srv:
        res = runner.invoke(app, ["games", "--server", srv.url, "--retry-seconds", "0.3"], env=WIDE)
    assert res.exit_code == 1 and len(res.stderr.splitlines()) == 1, res.output
    assert res.stderr.startswith(f"error: cannot read {srv.url}/api/games: game index: games")
    with LoopbackServer(hostile_app()) as srv:  # an HTML page where the API should be
        res = runner.invoke(app, ["rules", "x", "--server", srv.url, "--retry-seconds", "0.3"])
    assert res.exit_code == 1 and len(res.stderr.splitlines()) == 1, res.output
    assert "is not JSON (text/html" in res.stderr
    res = runner.invoke(app, ["games", "--server", "localhost:8000"])
    assert res.exit_code == 2 and "did you mean http://localhost:8000" in res.output


def test_rules_of_a_game_sunbot_does_not_know(unseen):
    res = runner.invoke(app, ["rules", "take-away", "--server", unseen], env=WIDE)
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert f"Goal\n{TAKE_AWAY_SPEC['goal']}\n" in text
    for i, rule in enumerate(TAKE_AWAY_SPEC["rules"], 1):
        assert f"{i}. {rule}\n" in text
    assert "Action grammar (spec.actions)\n{" in text
    assert f"served by {unseen}; sunbot play take-away --server {unseen} plays it" in text
    as_json = runner.invoke(app, ["rules", "take-away", "--server", unseen, "--json"])
    assert json.loads(as_json.stdout) == TAKE_AWAY_SPEC


def test_rules_of_a_known_game_come_from_the_server_not_our_copy():
    with LoopbackServer(create_other_app(OtherOptions(throttle_every=0))) as srv:
        res = runner.invoke(app, ["rules", "keelhold", "--server", srv.url], env=WIDE)
        as_json = runner.invoke(app, ["rules", "keelhold", "--server", srv.url, "--json"])
    assert res.exit_code == 0, res.output
    ours = get_game("keelhold").spec
    theirs = json.loads(as_json.stdout)
    assert "actionGrammar" in theirs and "actionSchema" not in theirs and theirs != ours
    assert "Keelhold (keelhold)" in res.stdout
    assert "Action grammar (spec.actionGrammar)" in res.stdout  # where that server keeps it


def test_rules_usage_and_unknown_games(unseen):
    res = runner.invoke(app, ["rules", "chess"])  # no --server: our games only
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output
    assert "--server URL plays any game that server lists" in " ".join(res.output.split())
    res = runner.invoke(app, ["rules", "../admin", "--server", unseen])
    assert res.exit_code == 2 and "'../admin' is not a game slug" in res.output
    res = runner.invoke(app, ["rules", "chess", "--server", unseen], env=WIDE)
    assert res.exit_code == 1 and len(res.stderr.splitlines()) == 1
    assert "no rules of chess" in res.stderr and "404" in res.stderr


def test_play_of_a_game_without_an_engine_says_its_rules_were_not_checked(unseen):
    res = runner.invoke(
        app, ["play", "take-away", "--seed", "3", "--server", unseen, "--quiet", "--no-transcript"],
        env=WIDE,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = rows_of(res.output, 2)
    assert rows["rules"] == ["not checked (sunbot has no rules engine for this game)"]
    assert int(rows["generic checks"][0]) >= 2 and "mirror checked" not in rows


def test_play_of_a_known_game_has_no_rules_row():
    res = runner.invoke(
        app, ["play", "keelhold", "--seed", "7", "--max-voyages", "1", "--quiet", "--no-transcript"],
        env=WIDE,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = rows_of(res.output, 2)
    assert "rules" not in rows and int(rows["mirror checked"][0]) >= 2
