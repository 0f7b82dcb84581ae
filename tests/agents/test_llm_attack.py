"""Hostile chat endpoints (not the scripted one): answers that are not a chat completion,
come too slowly or are too large must cost one call and the decision's fallback, never
the run or the call's time bound."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response, StreamingResponse

from sunbot.agents._llm_client import MAX_BODY_BYTES
from sunbot.agents.llm import LLMError, LLMStrategy
from sunbot.testing.llm_endpoint import in_process_client, running

LEGAL = [{"type": "PLACE", "bay": 0}, {"type": "PLACE", "bay": 1}]
OBS = {"phase": "voyage", "score": 0}


def _hostile(body: bytes | object) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat() -> Response:
        if isinstance(body, bytes):
            return Response(content=body, media_type="application/json")
        return JSONResponse(body)

    return app


_COMPLETION = (
    b'{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,'
    b'"message":{"role":"assistant","content":"\xff\xfe"},"finish_reason":"stop"}]}'
)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (_COMPLETION, "not JSON"),  # invalid UTF-8
        (b"<html>not json</html>", "not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "not JSON"),  # nesting past the parser's recursion
        ({"id": "x", "object": "chat.completion", "choices": "zzz"}, "not a chat completion"),
        ({"id": "x", "object": "chat.completion", "choices": [None]}, "not a chat completion"),
    ],
)
def test_an_answer_that_is_not_a_chat_completion_falls_back(body, why):
    bot = LLMStrategy(
        "m", game="keelhold", client=in_process_client(_hostile(body)), max_attempts=1
    )
    assert bot.choose(OBS, LEGAL) == LEGAL[0]
    record = bot.last_decision()
    assert record is not None and record["fallback"] is True
    assert why in record["reason"] and "\n" not in record["reason"]
    assert bot.totals()["errors"] == 1
    bot.choose(OBS, LEGAL)
    with pytest.raises(LLMError, match="3 decisions in a row"):
        bot.choose(OBS, LEGAL)  # an endpoint that never answers still stops the run


def _streaming(chunk: bytes, count: int, pause_s: float) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat() -> Response:
        async def body() -> AsyncIterator[bytes]:
            yield b'{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"content":"'
            for _ in range(count):
                yield chunk
                await asyncio.sleep(pause_s)

        return StreamingResponse(body(), media_type="application/json")

    return app


def test_an_answer_trickled_byte_by_byte_ends_at_the_call_timeout():
    # one byte every 50 ms: each read is quick, so only a deadline on the whole body stops it
    with running(_streaming(b" ", 10_000, 0.05)) as url:
        bot = LLMStrategy("m", game="keelhold", base_url=url, timeout_s=1.0, max_attempts=1)
        start = time.monotonic()
        assert bot.choose(OBS, LEGAL) == LEGAL[0]
        took = time.monotonic() - start
        bot.close()
    assert took < 3.0, took
    record = bot.last_decision()
    assert record is not None and record["fallback"] and record["late"]


def test_an_answer_over_the_body_limit_is_a_failed_call():
    with running(_streaming(b"a" * (1 << 20), 64, 0.0)) as url:  # 64 MiB
        bot = LLMStrategy("m", game="keelhold", base_url=url, timeout_s=30.0, max_attempts=1)
        assert bot.choose(OBS, LEGAL) == LEGAL[0]
        bot.close()
    record = bot.last_decision()
    assert record is not None and record["fallback"] and not record["late"]
    assert f"over {MAX_BODY_BYTES} bytes" in record["reason"]
    assert bot.totals()["errors"] == 1


def test_an_endpoint_that_never_finishes_an_answer_stops_the_run():
    # An endpoint that streams forever made every decision late (timeout_s each, the
    # fallback played) and the run went on: a Keelhold run of 60 s calls took hours
    # while measuring only the fallback. Late decisions without an answer count like
    # failed ones now (outside a Harvest Watch beat, where late is the beat's clock).
    with running(_streaming(b"a", 100_000, 0.01)) as url:
        bot = LLMStrategy("m", game="keelhold", base_url=url, timeout_s=0.3, max_attempts=1)
        assert bot.choose(OBS, LEGAL) == LEGAL[0]
        assert bot.choose(OBS, LEGAL) == LEGAL[0]
        with pytest.raises(LLMError, match="3 decisions in a row without an answer"):
            bot.choose(OBS, LEGAL)
        bot.close()
    assert bot.totals()["late"] == 3


def _slow_every_other() -> FastAPI:
    app = FastAPI()
    calls = [0]

    @app.post("/v1/chat/completions")
    async def chat() -> Response:
        calls[0] += 1
        if calls[0] % 2:
            await asyncio.sleep(1.0)
        message = {"role": "assistant", "content": '{"action": {"type": "PLACE", "bay": 1}}'}
        return JSONResponse(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            }
        )

    return app


def test_late_decisions_between_answers_do_not_stop_the_run():
    # a slow answer now and then is a counted late fallback, not an endpoint that is down
    with running(_slow_every_other()) as url:
        bot = LLMStrategy("m", game="keelhold", base_url=url, timeout_s=0.3, max_attempts=1)
        got = [bot.choose(OBS, LEGAL) for _ in range(6)]
        bot.close()
    assert got == [LEGAL[0], LEGAL[1]] * 3
    assert bot.totals()["late"] == 3
