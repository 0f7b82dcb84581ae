"""Issue 12 cases 4, 5 and 9: a Keelhold run behind a misbehaving server (a 503 outage
longer than six attempts, an answer trickled in byte by byte, a malformed Retry-After)
ends exactly like its fault-free twin. Real loopback, real (short) time."""

from __future__ import annotations

import random

import pytest

from sunbot import strategies
from sunbot.client import GameboardClient, RetryPolicy
from sunbot.client.retry import parse_retry_after
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.runs.summary import RunSummary
from sunbot.server import TokenCodec, create_app
from sunbot.server.faults import FaultInjector, FaultPlan
from tests.conftest import LoopbackServer

SEED = 7


def test_malformed_retry_after_is_ignored():
    for bad in ("\u00b2", "\u0663", "-1", "1e3", "12abc", "", "  ", "Fri, 99 Foo 2026"):
        assert parse_retry_after(bad) is None, bad
    assert parse_retry_after(" 3 ") == 3.0 and parse_retry_after("1.5") == 1.5


async def _run(url: str, policy: RetryPolicy, timeout: float = 5.0) -> RunSummary:
    bot = strategies.create("keelhold", "first-safe", random.Random(SEED))
    async with GameboardClient(url, policy=policy, timeout=timeout) as client:
        return await play_run(client, "keelhold", SEED, bot, mirror=Mirror("keelhold"))


@pytest.fixture(scope="module")
def twin() -> RunSummary:
    import asyncio

    with LoopbackServer(create_app(TokenCodec())) as srv:
        return asyncio.run(_run(srv.url, RetryPolicy()))


def _same(got: RunSummary, clean: RunSummary) -> None:
    assert got.ended_by == clean.ended_by == "rules", got.error
    assert got.final_state == clean.final_state and got.score == clean.score
    assert got.steps == clean.steps and not got.divergences


@pytest.mark.parametrize(
    ("faults", "timeout", "budget"),
    [
        # 503 for 1.5 s: six attempts with short waits used to run out long before it ended
        ("outage=1.5", 5.0, 3.0),
        # the 3rd answer at 20 bytes/s (minutes for a Keelhold answer): the attempt is cut
        # by its deadline (2 x timeout) and retried inside the budget
        ("trickle=3,trickle-seconds=0.05", 0.5, 2.0),
        # a Retry-After that str.isdigit() accepts and float() refuses: just back off
        ("429-bad=0.2", 5.0, 3.0),
    ],
)
async def test_run_ends_like_its_fault_free_twin(faults, timeout, budget, twin):
    injector = FaultInjector(create_app(TokenCodec()), FaultPlan.parse(faults), seed=3)
    policy = RetryPolicy(total_seconds=budget, initial_wait=0.05, max_wait=0.2)
    with LoopbackServer(injector) as srv:
        got = await _run(srv.url, policy, timeout=timeout)
    _same(got, twin)
    assert got.retries > (6 if "outage" in faults else 0)
    assert sum(injector.counts.values()) > 0
