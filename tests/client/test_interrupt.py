"""A retry wait ends at once when the client is interrupted (issue 12: one Ctrl-C must not
sit out a 60 s retry budget)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

import httpx
import pytest

from sunbot import strategies
from sunbot.client import GameboardClient, RetryInterrupted, RetryPolicy
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript


def _busy(request: httpx.Request) -> httpx.Response:
    return httpx.Response(503, text="busy", request=request)


async def test_interrupt_cuts_a_retry_wait_short():
    policy = RetryPolicy(total_seconds=60, initial_wait=20, max_wait=20)  # waits of ~10-20 s
    client = GameboardClient(transport=httpx.MockTransport(_busy), policy=policy)
    loop = asyncio.get_running_loop()
    t0 = time.monotonic()
    loop.call_later(0.3, client.interrupt)
    with pytest.raises(RetryInterrupted, match="interrupted while waiting"):
        await client.init("keelhold", 7)
    assert time.monotonic() - t0 < 3 and client.retries >= 1
    with pytest.raises(RetryInterrupted):  # and every later wait, without waiting
        await client.init("keelhold", 7)
    assert time.monotonic() - t0 < 3
    await client.aclose()


async def test_an_interrupted_client_still_answers_what_needs_no_retry():
    """Interrupting stops waits only: a call that succeeds at once still does."""
    ok = httpx.MockTransport(lambda r: httpx.Response(200, json={"games": []}, request=r))
    client = GameboardClient(transport=ok)
    client.interrupt()
    assert (await client.games()).games == []
    await client.aclose()


async def test_a_run_interrupted_in_a_retry_wait_ends_interrupted_with_whole_steps(tmp_path):
    """The runner: the server goes down after 5 steps; Ctrl-C (``interrupt``) during the
    retry wait of the 6th ends the run ``interrupted`` with 5 steps, in the summary and in
    the transcript's result line, which ``--resume`` continues from."""
    inner = httpx.ASGITransport(app=create_app(TokenCodec()))
    seen = {"n": 0}
    holder: dict[str, GameboardClient] = {}

    async def handle(request: httpx.Request) -> httpx.Response:
        seen["n"] += 1
        if seen["n"] <= 7:  # the index, init and 5 steps
            return await inner.handle_async_request(request)
        asyncio.get_running_loop().call_later(0.2, holder["client"].interrupt)
        return httpx.Response(503, text="down", request=request)

    policy = RetryPolicy(total_seconds=60, initial_wait=20, max_wait=20)
    client = holder["client"] = GameboardClient(transport=_Handler(handle), policy=policy)
    path = tmp_path / "k.jsonl"
    t0 = time.monotonic()
    async with client:
        with TranscriptWriter(path) as writer:
            bot = strategies.create("keelhold", "safe-greedy", random.Random(7))
            s = await play_run(client, "keelhold", 7, bot, transcript=writer)
    assert time.monotonic() - t0 < 5 and s.ended_by == "interrupted" and s.error is None
    t = read_transcript(path)
    assert s.steps == len(t.steps) == t.result["steps"] == 5
    assert t.result["endedBy"] == "interrupted"


class _Handler(httpx.AsyncBaseTransport):
    def __init__(self, handle: Callable[[httpx.Request], Awaitable[httpx.Response]]) -> None:
        self.handle = handle

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.handle(request)
