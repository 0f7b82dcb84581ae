"""The three unseen games played to their end through GameboardClient, with 429s on: the
random and first strategies finish every one and GenericChecks finds nothing."""

from __future__ import annotations

import random

import httpx
import pytest

from sunbot.client import GameboardClient, Rejected, RetryPolicy
from sunbot.strategies.generic import First, RandomLegal
from sunbot.testing.unseen import create_unseen_app
from tests.generic.helpers import play_through, unseen_client

GAMES = ["tic-tac-toe", "hidden-number", "take-away"]


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("name", ["random", "first"])
async def test_each_unseen_game_plays_to_its_end(slug, name):
    client, app = unseen_client(rate_limit_every=4)
    async with client:
        for seed in (0, 7, 11):
            bot = RandomLegal(random.Random(seed)) if name == "random" else First()
            played = await play_through(client, slug, bot, seed=seed)
            last = played.last
            assert last.game_over and last.legal_actions == [] and played.refused == 0
            assert played.checks.divergences == [], played.checks.divergences[:3]
            assert played.checks.responses_checked == played.steps + 1
            assert played.checks.grammar is not None
            if slug == "hidden-number":
                assert last.score == 10 - played.steps and isinstance(last.raw["state"], str)
            else:
                assert last.score in (-1, 0, 1)
    assert app.state.throttled > 0 and client.retries == app.state.throttled


async def test_first_on_hidden_number_guesses_upwards_from_one():
    client, _ = unseen_client()
    async with client:
        played = await play_through(client, "hidden-number", First(), seed=7)  # the number is 35
    assert [a["value"] for a in played.actions] == list(range(1, 11))
    assert played.last.score == 0 and played.last.observation["number"] == 35


async def test_first_on_take_away_from_five():
    client, _ = unseen_client()
    async with client:
        played = await play_through(client, "take-away", First(), seed=0)
    # 5: take 1 -> 4, no winning reply: the house's seeded draw for seed 0 takes 3 -> 1;
    # take 1: the last stone
    assert played.actions == [{"type": "take", "count": 1}] * 2
    assert played.last.raw["state"]["history"] == [1, 3, 1]
    assert played.last.score == 1 and played.last.observation["winner"] == "you"


async def test_a_refusal_mid_run_is_recorded_and_is_no_finding():
    client, _ = unseen_client(rate_limit_every=5)
    async with client:
        played = await play_through(client, "take-away", First(), seed=0)
        checks = played.checks
        pos = await client.init("take-away", 0)
        refused = await client.act("take-away", pos, {"type": "take", "count": 5})
        assert isinstance(refused, Rejected)
        assert checks.check_action(9, pos.raw, {"type": "take", "count": 5}, refused.raw) == []
    assert checks.refusals == [(9, "take 1 to 3 stones")] and checks.divergences == []


async def test_the_client_waits_out_each_retry_after():
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    policy = RetryPolicy(
        attempts=5, total_seconds=30, initial_wait=0.001, max_wait=0.01, sleep=sleep
    )
    app = create_unseen_app(rate_limit_every=3, retry_after_s=2)
    transport = httpx.ASGITransport(app=app)
    async with GameboardClient(transport=transport, policy=policy) as client:
        played = await play_through(client, "tic-tac-toe", First(), seed=3)
    assert played.last.game_over and played.checks.divergences == []
    assert len(waits) == app.state.throttled > 0 and all(w >= 2 for w in waits)
