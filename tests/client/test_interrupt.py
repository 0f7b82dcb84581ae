"""A retry wait ends at once when the client is interrupted (issue 12: one Ctrl-C must not
sit out a 60 s retry budget)."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from sunbot.client import GameboardClient, RetryInterrupted, RetryPolicy


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
