"""Bots behind HTTP (sunbot.agents.http): a whole run through a bot on a loopback server,
each failure a one-line bot error, one retry on connection errors only, credentials never
shown."""

from __future__ import annotations

import asyncio
import base64
import logging
import time

import httpx
import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse

import sunbot
from sunbot.agents.clock import BotError, Decider
from sunbot.agents.http import MAX_BODY_BYTES, HttpStrategy
from sunbot.agents.spec import create_agent
from tests.conftest import LoopbackServer

PASSWORD = "s3cret-bot-password"


def bot_app() -> FastAPI:
    app = FastAPI()
    seen: list[dict] = []
    app.state.seen = seen

    @app.post("/move")
    async def move(request: Request) -> JSONResponse:
        body = await request.json()
        seen.append(body)
        return JSONResponse(body["legalActions"][0])

    @app.post("/echo")
    async def echo(request: Request) -> JSONResponse:
        body = await request.json()
        return JSONResponse({"id": body["id"], "action": body["legalActions"][0]})

    @app.post("/wrong-id")
    async def wrong_id(request: Request) -> JSONResponse:
        return JSONResponse({"id": 99, "action": {"k": 0}})

    @app.post("/redirect")
    async def redirect() -> RedirectResponse:
        return RedirectResponse("/move", status_code=307)

    @app.post("/fail")
    async def fail() -> PlainTextResponse:
        return PlainTextResponse("boom\nsecond line", status_code=500)

    @app.post("/text")
    async def text() -> PlainTextResponse:
        return PlainTextResponse("I think PLACE 3")

    @app.post("/big")
    async def big() -> Response:
        return Response(b'"' + b"x" * (MAX_BODY_BYTES + 10) + b'"', media_type="application/json")

    @app.post("/slow")
    async def slow(request: Request) -> JSONResponse:
        body = await request.json()
        await asyncio.sleep(0.6)
        return JSONResponse(body["legalActions"][0])

    @app.post("/auth")
    async def auth(request: Request) -> JSONResponse:
        expected = "Basic " + base64.b64encode(f"bot:{PASSWORD}".encode()).decode()
        if request.headers.get("authorization") != expected:
            return JSONResponse({"detail": "no"}, status_code=401)
        body = await request.json()
        return JSONResponse(body["legalActions"][0])

    return app


@pytest.fixture(scope="module")
def server():
    app = bot_app()
    with LoopbackServer(app) as srv:
        srv.app = app
        yield srv


def legal(k: int) -> list[dict[str, int]]:
    return [{"k": k}]


def test_naptuft_plays_a_whole_run_through_an_http_bot(server):
    bot = HttpStrategy(f"{server.url}/move", game="naptuft")
    summary = sunbot.play("naptuft", seed=8, strategy=bot, max_days=1)
    bot.close()
    ref = sunbot.play("naptuft", seed=8, strategy=lambda o, legal: legal[0], max_days=1)
    assert summary.error is None and summary.divergences == [] and summary.refused == 0
    assert (summary.score, summary.steps) == (ref.score, ref.steps)
    request = server.app.state.seen[-1]
    assert sorted(request) == ["game", "id", "legalActions", "observation"]
    assert request["game"] == "naptuft" and request["id"] == bot.totals()["decisions"]


def test_an_answer_with_an_id_is_matched_by_it(server):
    bot = HttpStrategy(f"{server.url}/echo", game="keelhold")
    assert [bot.choose({}, legal(k)) for k in (1, 2)] == [{"k": 1}, {"k": 2}]
    wrong = HttpStrategy(f"{server.url}/wrong-id", game="keelhold")
    with pytest.raises(BotError, match=r"answered decision 99 at decision 1$"):
        wrong.choose({}, legal(1))


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/redirect", "answered HTTP 307 (a redirect) at decision 1; redirects are not followed"),
        ("/fail", "answered HTTP 500 at decision 1: 'boom\ufffdsecond line'"),
        ("/text", "answered a body that is not JSON at decision 1: 'I think PLACE 3'"),
        ("/big", f"answered a body over {MAX_BODY_BYTES} bytes at decision 1"),
        ("/nowhere", "answered HTTP 404 at decision 1"),
    ],
)
def test_every_failure_is_one_line_naming_the_bot(server, path, expected):
    bot = HttpStrategy(f"{server.url}{path}", game="keelhold")
    with pytest.raises(BotError) as caught:
        bot.choose({}, legal(1))
    assert str(caught.value).startswith(f"http bot {server.url}{path}: {expected}")
    assert "\n" not in str(caught.value)
    bot.close()


def _counting(exc: type[Exception]) -> tuple[httpx.MockTransport, list[int]]:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        raise exc("refused", request=request)

    return httpx.MockTransport(handler), calls


def test_a_connection_error_is_retried_once_and_nothing_else_is():
    transport, calls = _counting(httpx.ConnectError)
    bot = HttpStrategy("http://127.0.0.1:9/move", game="keelhold", transport=transport)
    with pytest.raises(
        BotError, match=r"http bot http://127.0.0.1:9/move: could not connect at decision 1"
    ):
        bot.choose({}, legal(1))
    assert len(calls) == 2 and bot.totals()["retries"] == 1
    transport, calls = _counting(httpx.ReadError)  # the request may have reached the bot
    bot = HttpStrategy("http://127.0.0.1:9/move", game="keelhold", transport=transport)
    with pytest.raises(BotError, match="ReadError at decision 1"):
        bot.choose({}, legal(1))
    assert len(calls) == 1


def test_a_real_refused_connection_is_the_bots_error():
    from tests.conftest import free_port

    bot = HttpStrategy(f"http://127.0.0.1:{free_port()}/move", game="keelhold")
    with pytest.raises(BotError, match="could not connect at decision 1"):
        bot.choose({}, legal(1))


def test_credentials_in_the_url_are_sent_and_never_shown(server, caplog):
    caplog.set_level(logging.DEBUG)
    url = server.url.replace("http://", f"http://bot:{PASSWORD}@")
    bot = HttpStrategy(f"{url}/auth?token=abc123", game="keelhold")
    assert bot.choose({}, legal(1)) == {"k": 1}
    failing = HttpStrategy(f"{url}/fail", game="keelhold")
    with pytest.raises(BotError) as caught:
        failing.choose({}, legal(1))
    shown = [str(caught.value), repr(bot), str(bot.totals()), str(bot.last_decision()), caplog.text]
    assert all(PASSWORD not in s and "bot:" not in s.replace("http bot", "") for s in shown)
    assert bot.totals()["url"] == f"{server.url}/auth"  # no credentials, no query


async def test_a_slow_http_bot_under_the_move_clock_gets_the_fallback(server):
    bot = HttpStrategy(f"{server.url}/slow", game="keelhold")
    d = Decider(bot, move_timeout_s=0.2)
    t0 = time.monotonic()
    decision = await d.decide({}, legal(1), fallback=lambda: "fallback")
    assert decision.timed_out and decision.action == "fallback" and time.monotonic() - t0 < 0.5
    await asyncio.sleep(0.1)
    assert bot.totals()["late"] == 1
    d.close()


def test_no_clock_means_the_bots_own_timeout(server):
    bot = HttpStrategy(f"{server.url}/slow", game="keelhold", timeout_s=0.2)
    with pytest.raises(BotError, match=r"no answer within 0.2 s at decision 1$"):
        bot.choose({}, legal(1))


@pytest.mark.parametrize(
    ("text", "message"),
    [("http://", "http bot: 'http://' is not a server URL"),
     ("http://127.0.0.1:99999/move", "port 99999 is out of range")],
)  # fmt: skip
def test_malformed_urls_are_one_line_value_errors(text, message):
    with pytest.raises(ValueError, match=message):
        create_agent("keelhold", text, rng=None)


def test_an_http_agent_from_its_text(server):
    bot = create_agent("keelhold", f"{server.url}/move", rng=None, timeout_s=5)
    assert isinstance(bot, HttpStrategy) and bot.timeout_s == 5 and bot.game == "keelhold"


def test_the_example_http_bot_plays_a_whole_run():
    import subprocess
    import sys
    from pathlib import Path

    from tests.conftest import free_port

    example = Path(__file__).parents[2] / "examples" / "bots" / "first_legal_http.py"
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(example), str(port)])
    try:
        bot = HttpStrategy(f"http://127.0.0.1:{port}/move", game="naptuft")
        for _ in range(100):  # until it listens
            try:
                httpx.post(f"http://127.0.0.1:{port}/move", json={"id": 0, "legalActions": [0]})
                break
            except httpx.TransportError:
                time.sleep(0.05)
        summary = sunbot.play("naptuft", seed=6, strategy=bot, max_days=1)
        bot.close()
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    ref = sunbot.play("naptuft", seed=6, strategy=lambda o, legal: legal[0], max_days=1)
    assert summary.error is None and summary.divergences == []
    assert (summary.score, summary.steps) == (ref.score, ref.steps)


def test_a_clocked_request_carries_the_deadline_in_its_body_and_a_header():
    seen: list[tuple[object, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = __import__("json").loads(request.content)
        seen.append((body.get("deadlineMs"), request.headers.get("x-sunbot-deadline-ms")))
        return httpx.Response(200, json=body["legalActions"][0])

    bot = HttpStrategy(
        "http://bot.test/move", game="naptuft", transport=httpx.MockTransport(handler)
    )
    bot.choose_by({"day": 1}, [{"k": 1}], time.monotonic() + 2.0)
    bot.choose({"day": 1}, [{"k": 1}])
    bot.close()
    (ms, header), unclocked = seen
    assert type(ms) is int and 1900 <= ms <= 2000
    assert 0 <= ms - int(header) <= 50  # the header is taken as the attempt is sent, later
    assert unclocked == (None, None)  # no clock: neither the field nor the header


def test_the_deadline_sent_is_the_bots_own_timeout_when_that_comes_first():
    # --move-timeout 90 with the bot's 60 s timeout: a bot told 90 s that used 70 s ended
    # the run with "no answer within 60 s"; it is told the time it really has
    seen: list[tuple[object, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = __import__("json").loads(request.content)
        seen.append((body.get("deadlineMs"), request.headers.get("x-sunbot-deadline-ms")))
        return httpx.Response(200, json=body["legalActions"][0])

    bot = HttpStrategy(
        "http://bot.test/move", game="naptuft", timeout_s=0.5,
        transport=httpx.MockTransport(handler),
    )  # fmt: skip
    bot.choose_by({"day": 1}, [{"k": 1}], time.monotonic() + 90.0)
    bot.close()
    ((ms, header),) = seen
    assert type(ms) is int and 400 <= ms <= 500 and 0 <= ms - int(header) <= 50
