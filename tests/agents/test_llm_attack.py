"""Hostile chat endpoints (not the scripted one): answers that are not a chat completion
at all must cost one failed call and the decision's fallback, never the run."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from sunbot.agents.llm import LLMError, LLMStrategy
from sunbot.testing.llm_endpoint import in_process_client

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
