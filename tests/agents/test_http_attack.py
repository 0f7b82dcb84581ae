"""An HTTP bot's URL may carry a password or a key in its query: neither reaches the run's
summary, its error, the transcript or the transcript's file name."""

from __future__ import annotations

import json

from fastapi import FastAPI, Request

import sunbot
from sunbot.testing.llm_endpoint import running

PASSWORD = "pw-attack-123456"
QUERY_KEY = "QKEY-attack-987654"


def _bot() -> FastAPI:
    app = FastAPI()

    @app.post("/move")
    async def move(request: Request) -> object:
        return json.loads(await request.body())["legalActions"][0]

    return app


def test_an_http_bots_credentials_and_query_are_not_in_the_run_or_its_transcript(tmp_path):
    with running(_bot()) as base:
        port = base.rsplit(":", 1)[1].split("/")[0]
        url = f"http://user:{PASSWORD}@127.0.0.1:{port}/move?key={QUERY_KEY}"
        path = tmp_path / "run.jsonl"
        summary = sunbot.play("naptuft", seed=1, strategy=url, max_steps=2, transcript=path)
    assert summary.steps == 2
    assert summary.strategy == f"http://127.0.0.1:{port}/move"
    text = path.read_text() + repr(summary)
    assert PASSWORD not in text and QUERY_KEY not in text


def test_a_failing_http_bots_error_names_it_without_its_password(tmp_path):
    url = f"http://user:{PASSWORD}@127.0.0.1:1/move?key={QUERY_KEY}"
    summary = sunbot.play("naptuft", seed=1, strategy=url, max_steps=2)
    assert summary.ended_by == "error"
    assert "raised by the strategy http://127.0.0.1:1/move at step 1" in summary.error
    assert PASSWORD not in repr(summary) and QUERY_KEY not in repr(summary)
