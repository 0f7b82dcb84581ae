"""Runs under injected faults end exactly like fault-free runs (real loopback server)."""

from __future__ import annotations

import random

import pytest

from sunbot import strategies
from sunbot.client import GameboardClient, RetryPolicy
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.server.faults import FaultInjector, FaultPlan
from tests.conftest import LoopbackServer


async def _no_sleep(_: float) -> None:
    return None


POLICY = RetryPolicy(
    attempts=12, total_seconds=120, initial_wait=0.001, max_wait=0.01, sleep=_no_sleep
)


#: (game, strategy, cap): full Keelhold runs (first-safe ends by the rules quickly) and
#: Sunloaf runs to the sunset of day 2 with the deterministic reference player.
RUNS = {"keelhold": ("first-safe", None), "sunloaf": ("reference", 2)}


async def _run(url: str, seed: int, timeout: float = 5.0, game: str = "keelhold"):
    name, cap = RUNS[game]
    bot = strategies.create(game, name, random.Random(seed))
    async with GameboardClient(url, policy=POLICY, timeout=timeout) as client:
        return await play_run(client, game, seed, bot, cap=cap, mirror=Mirror(game))


def test_plan_parsing():
    plan = FaultPlan.parse("429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01,retry-after=2")
    assert plan.rates == {"429": 0.05, "503": 0.05, "slow": 0.02, "drop": 0.02, "garbage": 0.01}
    assert plan.retry_after == 2 and plan.slow_seconds == 20.0
    assert plan.pick(0.0) == "429" and plan.pick(0.07) == "503" and plan.pick(0.13) == "drop"
    assert plan.pick(0.2) is None
    for bad in ("teapot=0.1", "429=2", "429=0.6,503=0.6", "429", "503=x"):
        with pytest.raises(ValueError):
            FaultPlan.parse(bad)


@pytest.fixture(scope="module")
def baseline():
    import asyncio

    with LoopbackServer(create_app(TokenCodec())) as srv:
        out = {seed: asyncio.run(_run(srv.url, seed)) for seed in (2, 7)}
        out["sunloaf"] = asyncio.run(_run(srv.url, 7, game="sunloaf"))
        return out


@pytest.mark.parametrize("kind", ["429", "503", "slow", "drop", "garbage"])
async def test_full_run_under_each_fault_ends_identically(kind, baseline):
    plan = FaultPlan.parse(f"{kind}=0.25,retry-after=0,slow-seconds=0.6")
    injector = FaultInjector(create_app(TokenCodec()), plan, seed=11)
    with LoopbackServer(injector) as srv:
        for game, clean in (("keelhold", baseline[7]), ("sunloaf", baseline["sunloaf"])):
            got = await _run(srv.url, 7, timeout=0.3, game=game)
            assert got.ended_by == clean.ended_by, got.error
            assert got.final_state == clean.final_state and got.score == clean.score
            assert got.steps == clean.steps and not got.divergences
    assert injector.counts[kind] > 0


async def test_all_faults_together_at_the_issue_rates(baseline):
    plan = FaultPlan.parse(
        "429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01,retry-after=0,slow-seconds=0.6"
    )
    injector = FaultInjector(create_app(TokenCodec()), plan, seed=5)
    with LoopbackServer(injector) as srv:
        for seed in (2, 7):
            got = await _run(srv.url, seed, timeout=0.3)
            assert got.final_state == baseline[seed].final_state and got.retries > 0
