"""Client retries against servers that answer 429/503/timeouts (ASGI apps and real loopback)."""

from __future__ import annotations

import asyncio
import email.utils
import logging
import time

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from sunbot.client import (
    GameboardClient,
    MalformedResponse,
    Rejected,
    RetryPolicy,
    ServerRefused,
    TransientHTTPError,
)
from sunbot.client.retry import parse_retry_after
from sunbot.server import TokenCodec, create_app
from tests.conftest import LoopbackServer


class Recorder:
    def __init__(self):
        self.waits: list[float] = []

    async def sleep(self, s: float) -> None:
        self.waits.append(s)


def flaky(failures: list[tuple[int, dict[str, str], bytes]]):
    """The real local app, but the first requests answer the given (status, headers, body)."""
    inner = create_app(TokenCodec())
    queue = list(failures)
    calls = {"n": 0}

    async def app(scope, receive, send):
        if scope["type"] == "http":
            calls["n"] += 1
            if queue:
                status, headers, body = queue.pop(0)
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await inner(scope, receive, send)

    return app, calls


def client_for(app, rec: Recorder, attempts: int = 5) -> GameboardClient:
    policy = RetryPolicy(
        attempts=attempts, total_seconds=120, initial_wait=0.01, max_wait=0.05, sleep=rec.sleep
    )
    return GameboardClient(transport=httpx.ASGITransport(app=app), policy=policy)


async def test_429_with_retry_after_seconds_is_honoured():
    app, calls = flaky([(429, {"retry-after": "3"}, b'{"ok":false,"reason":"slow down"}')])
    rec = Recorder()
    async with client_for(app, rec) as c:
        pos = await c.init("keelhold", 7)
    assert pos.score == 0 and calls["n"] == 2
    assert rec.waits == [pytest.approx(3.0, abs=0.06)] and rec.waits[0] >= 3.0
    assert c.retries == 1


async def test_a_first_retry_is_info_and_a_repeated_failure_a_warning(caplog):
    app, _ = flaky([(429, {}, b"slow down"), (503, {}, b"busy"), (503, {}, b"busy")])
    rec = Recorder()
    with caplog.at_level(logging.INFO, logger="sunbot.client"):
        async with client_for(app, rec) as c:
            await c.init("keelhold", 7)
    said = [(r.levelname, r.getMessage()[-11:]) for r in caplog.records if "retrying" in r.msg]
    assert said == [("INFO", "(attempt 1)"), ("WARNING", "(attempt 2)"), ("WARNING", "(attempt 3)")]


async def test_retry_after_http_date_is_honoured():
    when = email.utils.formatdate(time.time() + 5, usegmt=True)
    app, _ = flaky([(503, {"retry-after": when}, b"busy")])
    rec = Recorder()
    async with client_for(app, rec) as c:
        await c.init("keelhold", 7)
    assert 3.5 <= rec.waits[0] <= 5.1


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_gateway_errors_retried_with_jittered_backoff(status):
    app, calls = flaky([(status, {}, b"<html>bad gateway</html>")] * 3)
    rec = Recorder()
    async with client_for(app, rec) as c:
        pos = await c.init("keelhold", 3)
    assert calls["n"] == 4 and pos.state is not None
    assert len(rec.waits) == 3 and all(0 <= w <= 0.05 for w in rec.waits)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 422, 500])
async def test_ordinary_4xx_and_500_not_retried(status):
    app, calls = flaky([(status, {}, b'{"ok":false,"reason":"nope"}')])
    rec = Recorder()
    async with client_for(app, rec) as c:
        with pytest.raises(ServerRefused) as err:
            await c.init("keelhold", 7)
    assert err.value.status == status and err.value.reason == "nope"
    assert calls["n"] == 1 and rec.waits == []


async def test_attempts_are_bounded():
    app, calls = flaky([(503, {}, b"")] * 10)
    rec = Recorder()
    async with client_for(app, rec, attempts=4) as c:
        with pytest.raises(TransientHTTPError):
            await c.init("keelhold", 7)
    assert calls["n"] == 4


async def test_total_time_is_bounded():
    app, calls = flaky([(503, {}, b"")] * 10_000)
    policy = RetryPolicy(total_seconds=0.5, initial_wait=0.02, max_wait=0.05)  # real sleeps
    t0 = time.monotonic()
    async with GameboardClient(transport=httpx.ASGITransport(app=app), policy=policy) as c:
        with pytest.raises(TransientHTTPError):
            await c.init("keelhold", 7)
    # the budget is time: at least 0.5 s of 503s ridden out, then one last wait at most
    assert 0.5 <= time.monotonic() - t0 < 2.0 and calls["n"] > 6


async def test_cut_body_retried_web_page_not_then_fails_clearly():
    app, calls = flaky([(200, {}, b'{"ok": true, "sta')] * 2)
    rec = Recorder()
    async with client_for(app, rec) as c:
        assert (await c.init("keelhold", 7)).score == 0
    assert calls["n"] == 3
    app, calls = flaky([(200, {}, b"<html>oops</html>")] * 1000)
    brief = RetryPolicy(initial_wait=0.01, max_wait=0.02, brief_seconds=0.2)  # real sleeps
    t0 = time.monotonic()
    async with GameboardClient(transport=httpx.ASGITransport(app=app), policy=brief) as c:
        with pytest.raises(MalformedResponse, match="API's origin"):
            await c.init("keelhold", 7)
    # a web page: asked again only briefly (a glitch clears at once, a web site never does):
    # a 0.2 s budget, not the default 60 s (10 s leaves room for a loaded machine)
    assert time.monotonic() - t0 < 10.0 and 2 <= calls["n"] < 100
    app, _ = flaky([(200, {}, b'{"ok": true, "score": "x"}')] * 9)
    async with client_for(app, Recorder(), attempts=3) as c:
        with pytest.raises(MalformedResponse, match="envelope"):
            await c.init("keelhold", 7)


async def test_refusal_is_a_typed_value_not_an_error(asgi_client):
    async with asgi_client as c:
        pos = await c.init("keelhold", 7)
        out = await c.act("keelhold", pos, {"type": "PLACE", "bay": 6})
    assert isinstance(out, Rejected) and "shut" in out.reason
    assert out.legal_actions == pos.legal_actions


async def test_carries_plain_state_when_server_gives_no_token():
    inner = create_app(TokenCodec())
    seen = []

    async def strip_token(scope, receive, send):
        async def send2(msg):
            if msg["type"] == "http.response.body" and msg.get("body"):
                import json

                body = json.loads(msg["body"])
                body.pop("stateToken", None)
                msg = {**msg, "body": json.dumps(body).encode()}
            await send(msg)

        if scope["type"] == "http" and scope["method"] == "POST":
            body = b""
            while True:
                m = await receive()
                body += m.get("body", b"")
                if not m.get("more_body"):
                    break
            seen.append(body)

            async def receive2():
                return {"type": "http.request", "body": body, "more_body": False}

            await inner(scope, receive2, _strip_length(send2))
            return
        await inner(scope, receive, _strip_length(send2))

    async with GameboardClient(transport=httpx.ASGITransport(app=strip_token)) as c:
        pos = await c.init("keelhold", 7)
        assert pos.carry() == {"state": pos.state}
        nxt = await c.act("keelhold", pos, {"type": "PLACE", "bay": 3})
    assert nxt.state["turn"] == 1
    assert b'"state"' in seen[0] and b"stateToken" not in seen[0]


def _strip_length(send):
    async def wrapped(msg):
        if msg["type"] == "http.response.start":
            msg = {
                **msg,
                "headers": [(k, v) for k, v in msg["headers"] if k.lower() != b"content-length"],
            }
        await send(msg)

    return wrapped


def slow_app(delays: list[float]) -> FastAPI:
    app = FastAPI()
    inner = create_app(TokenCodec())
    pending = list(delays)

    @app.get("/api/games/{slug}/init")
    async def init(slug: str, request: Request):
        if pending:
            await asyncio.sleep(pending.pop(0))
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=inner), base_url="http://i"
        ) as c:
            r = await c.get(f"/api/games/{slug}/init", params=dict(request.query_params))
        return JSONResponse(r.json(), status_code=r.status_code)

    @app.get("/boom")
    async def boom():
        return PlainTextResponse("x")

    return app


async def test_timeouts_retried_on_real_loopback():
    # the first answer comes after 2.5 s, past the 1 s timeout: retried. A later attempt
    # answers at once, though on a loaded machine even that can pass 1 s, so one more
    # retry is allowed (the attempts bound it).
    with LoopbackServer(slow_app([2.5])) as srv:
        rec = Recorder()
        policy = RetryPolicy(
            attempts=3, total_seconds=30, initial_wait=0.01, max_wait=0.02, sleep=rec.sleep
        )
        async with GameboardClient(srv.url, policy=policy, timeout=1.0) as c:
            pos = await c.init("keelhold", 7)
    assert pos.score == 0 and 1 <= len(rec.waits) <= 2


async def test_connection_refused_is_retried_then_raised():
    from tests.conftest import free_port

    rec = Recorder()
    policy = RetryPolicy(
        attempts=3, total_seconds=30, initial_wait=0.01, max_wait=0.02, sleep=rec.sleep
    )
    async with GameboardClient(f"http://127.0.0.1:{free_port()}", policy=policy, timeout=1) as c:
        with pytest.raises(httpx.ConnectError):
            await c.init("keelhold", 7)
    assert len(rec.waits) == 2


def test_parse_retry_after():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    now = 1_000_000_000.0
    assert parse_retry_after(
        email.utils.formatdate(now + 30, usegmt=True), now=now
    ) == pytest.approx(30)
    assert parse_retry_after(email.utils.formatdate(now - 30, usegmt=True), now=now) == 0.0


async def test_an_answer_that_trickles_in_hits_the_attempt_deadline():
    from starlette.responses import StreamingResponse

    app = FastAPI()

    @app.get("/api/games/{slug}/init")
    async def drip(slug: str):
        async def gen():
            for _ in range(100):
                yield b" "
                await asyncio.sleep(0.1)

        return StreamingResponse(gen(), media_type="application/json")

    rec = Recorder()
    policy = RetryPolicy(
        attempts=2, total_seconds=30, initial_wait=0.01, max_wait=0.02, sleep=rec.sleep
    )
    with LoopbackServer(app) as srv:
        t0 = time.monotonic()
        async with GameboardClient(srv.url, policy=policy, timeout=0.5, deadline=0.6) as c:
            with pytest.raises(httpx.ReadTimeout, match="not complete within"):
                await c.init("keelhold", 7)
        assert time.monotonic() - t0 < 5 and len(rec.waits) == 1
