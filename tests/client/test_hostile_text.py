"""A hostile server's text in our messages: tokens redacted by value, long text cut,
wrong types named plainly, redirects kept on the server's origin (sunbot/_text/safe.py)."""

from __future__ import annotations

import json
import logging
import random

import httpx
import pytest

from sunbot import strategies
from sunbot._text.safe import MAX_TEXT, clip, scrub
from sunbot.cli import play as cli_play
from sunbot.cli.log import setup_logging
from sunbot.cli.match_report import print_summary as print_match_summary
from sunbot.client import GameboardClient
from sunbot.client.retry import CrossOriginRedirect
from sunbot.mirror import Mirror
from sunbot.runs.match import run_match
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter
from tests.conftest import FAST_RETRY

SEAT_TOKEN = "seat-Zq9xK2mPw7Rt"  # short and oddly shaped: only redaction by value finds it
FLOOD = "x" * 1_000_000


def test_clip_says_how_much_was_cut():
    assert clip("abc", 5) == "abc"
    assert clip("abcdefgh", 5) == "abcde… (3 more characters)"
    assert scrub("a abcdefghij b", ["abcdefghij"]) == "a *** b"
    assert scrub("short xyz", ["xyz"]) == "short xyz"  # under MIN_SECRET: not a secret


async def test_state_token_echoed_in_a_refusal_is_redacted_and_cut(tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    real = httpx.ASGITransport(app=create_app(TokenCodec()))
    sent: list[str] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/action"):
            sent.append(json.loads(request.content)["stateToken"])
            reason = f"stale token {sent[-1]} {FLOOD}"
            return httpx.Response(400, json={"ok": False, "reason": reason})
        return await real.handle_async_request(request)

    client = GameboardClient(transport=httpx.MockTransport(handler), policy=FAST_RETRY)
    bot = strategies.create("keelhold", "first-safe", random.Random(1))
    out = tmp_path / "k.jsonl"
    async with client:
        with TranscriptWriter(out) as writer:
            s = await play_run(client, "keelhold", 3, bot, strategy_name="first-safe",
                               mirror=Mirror("keelhold"), transcript=writer)  # fmt: skip
    token = sent[0]
    assert s.ended_by == "error" and s.error is not None
    assert s.error.startswith("ServerRefused: HTTP 400: stale token *** xxx")
    assert s.error.endswith(" more characters)") and "…" in s.error
    assert len(s.error) < MAX_TEXT + 80 and token not in s.error
    assert s.error_traceback is not None and token not in s.error_traceback
    assert len(s.error_traceback) < 10_000
    result = json.loads(out.read_text().splitlines()[-1])
    assert result["error"] == s.error and out.stat().st_size < 200_000
    cli_play._print_summary(s)
    printed = capsys.readouterr()
    assert token not in printed.out + printed.err and len(printed.out) < 10_000
    assert all(token not in r.getMessage() for r in caplog.records)


async def test_seat_token_echoed_by_a_match_server_appears_nowhere(tmp_path, capsys):
    setup_logging(2)  # debug, through the CLI's own handler on stderr

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/api/matches/harvest-watch":
            return httpx.Response(200, json={"matchId": "m1", "seats": [{"seat": 0, "token": SEAT_TOKEN}]})  # fmt: skip
        logging.getLogger("sunbot.test").warning("server saw %s", request.url.params.get("token"))
        reason = f"unknown token {SEAT_TOKEN} {FLOOD}"
        return httpx.Response(403, json={"ok": False, "reason": reason})

    out = tmp_path / "hw.jsonl"
    with TranscriptWriter(out) as writer:
        result = await run_match(game="harvest-watch", seed=1, strategy="coalition",
                                 server="http://h.test", match_id=None, seats=1, writer=writer,
                                 strict=False, transport=httpx.MockTransport(handler))  # fmt: skip
    assert result["endedBy"] == "error"
    seat_error = result["seats"][0]["error"]
    assert seat_error.startswith("ServerRefused: HTTP 403: unknown token *** xxx")
    assert len(seat_error) < MAX_TEXT + 80
    text = out.read_text()
    assert SEAT_TOKEN not in text and len(text) < 100_000
    print_match_summary(cli_play.console, result, 1, "coalition")
    printed = capsys.readouterr()
    assert SEAT_TOKEN not in printed.out + printed.err and "unknown token ***" in printed.out
    assert "server saw ***" in printed.err


async def test_a_redirect_to_another_host_is_refused_and_never_sent():
    hosts: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        hosts.append(request.url.host)
        return httpx.Response(307, headers={"location": "http://169.254.169.254/latest/x"})

    async with GameboardClient("http://h.test", transport=httpx.MockTransport(handler),
                               policy=FAST_RETRY) as client:  # fmt: skip
        with pytest.raises(CrossOriginRedirect, match=r"another origin \(http://169\.254\.169\.254/latest/x\)"):  # fmt: skip
            await client.init("keelhold", 1)
    assert hosts == ["h.test"]  # one attempt, never re-sent elsewhere


async def test_a_redirect_on_the_same_origin_is_followed():
    app = httpx.ASGITransport(app=create_app(TokenCodec()))

    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/old/init":
            return httpx.Response(307, headers={"location": "/api/games/keelhold/init?seed=1"})
        return await app.handle_async_request(request)

    async with GameboardClient("http://h.test", transport=httpx.MockTransport(handler),
                               policy=FAST_RETRY) as client:  # fmt: skip
        data = await client.request_json("spec", slug="keelhold")  # plain route works
        assert "spec" in data
        pos = await client._http.get("/old/init")
        assert pos.status_code == 200 and pos.json()["gameOver"] is False


async def test_a_timeout_names_the_route_and_the_limit():
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("", request=request)

    policy = FAST_RETRY
    async with GameboardClient("http://h.test", transport=httpx.MockTransport(handler),
                               policy=policy, timeout=7) as client:  # fmt: skip
        with pytest.raises(httpx.ReadTimeout) as info:
            await client.init("keelhold", 1)
    assert str(info.value) == "GET /api/games/keelhold/init: no read progress within 7 s"


@pytest.mark.parametrize(("bad", "shown"), [("lots", '"lots"'), (float("nan"), "NaN")])
async def test_a_score_of_the_wrong_type_is_one_plain_line(asgi_client, bad, shown):
    mirror = Mirror("naptuft")
    async with asgi_client as client:
        pos = await client.init("naptuft", 4)
        mirror.check_init(pos.raw)
        action = pos.legal_actions[0]
        nxt = await client.act("naptuft", pos, action)
    prev = json.loads(json.dumps(pos.raw))
    prev["state"]["score"] = bad
    got = json.loads(json.dumps(nxt.raw))
    got["state"]["score"] = bad
    found = mirror.check_action(1, prev, action, got)  # no exception escapes
    notes = [d.note for d in found]
    assert f"server answer: score is {shown}, expected an integer" in notes
