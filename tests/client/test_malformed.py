"""The client fed malformed answers fails clearly and the run's transcript stays whole."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from sunbot import strategies
from sunbot.client import GameboardClient, MalformedResponse, RetryPolicy
from sunbot.client import http as client_http
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript


async def _no_sleep(_: float) -> None:
    return None


POLICY = RetryPolicy(
    attempts=3, total_seconds=30, initial_wait=0.001, max_wait=0.01, sleep=_no_sleep
)


def answering(body: bytes, after: int = 0, status: int = 200, ctype: str = "application/json"):
    """The real server for the first `after` requests, then always `body`."""
    inner = create_app(TokenCodec())
    seen = {"n": 0}

    async def app(scope, receive, send):
        if scope["type"] == "http":
            seen["n"] += 1
            if seen["n"] > after:
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [(b"content-type", ctype.encode())],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await inner(scope, receive, send)

    return app


ENVELOPE = {
    "ok": True,
    "state": {},
    "stateToken": "t",
    "observation": {},
    "legalActions": [],
    "score": 0,
    "gameOver": False,
}


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (
            json.dumps({k: v for k, v in ENVELOPE.items() if k != "legalActions"}).encode(),
            "legalActions",
        ),
        (json.dumps({**ENVELOPE, "score": "lots"}).encode(), "score"),
        (json.dumps({**ENVELOPE, "gameOver": "no"}).encode(), "gameOver"),
        (json.dumps([1, 2, 3]).encode(), "envelope"),
        (b"<!doctype html><html><body>Maintenance</body></html>", "not JSON"),
        (b'{"ok": true, "state": {"tu', "not JSON"),
        (b"", "not JSON"),
    ],
)
async def test_malformed_answers_fail_clearly(body, needle):
    client = GameboardClient(transport=httpx.ASGITransport(app=answering(body)), policy=POLICY)
    async with client:
        with pytest.raises(MalformedResponse, match=needle):
            await client.init("keelhold", 7)


async def test_huge_body_is_refused(monkeypatch):
    monkeypatch.setattr(client_http, "MAX_BODY_BYTES", 10_000)
    client = GameboardClient(
        transport=httpx.ASGITransport(app=answering(b" " * 20_000)), policy=POLICY
    )
    async with client:
        with pytest.raises(MalformedResponse, match="larger than"):
            await client.init("keelhold", 7)


async def test_malformed_answer_mid_run_keeps_the_transcript_whole(tmp_path):
    # requests: the index (server identity), init, 7 steps; then only the broken body
    app = answering(b"<html>bad gateway page</html>", after=9)
    path = tmp_path / "run.jsonl"
    bot = strategies.create("keelhold", "safe-greedy", random.Random(7))
    async with GameboardClient(transport=httpx.ASGITransport(app=app), policy=POLICY) as client:
        with TranscriptWriter(path) as writer:
            summary = await play_run(
                client, "keelhold", 7, bot, mirror=Mirror("keelhold"), transcript=writer
            )
    assert summary.ended_by == "error" and "MalformedResponse" in summary.error
    t = read_transcript(path)
    assert t.error is None and len(t.steps) == 7 and t.result["endedBy"] == "error"
    assert t.result["score"] == t.steps[-1]["response"]["score"]
