"""Strategies read only what the rule texts publish (issue 11): the default strategies choose
the same with our server's bookkeeping (the cursor, the seed where not promised, the crate
counters) left out and with unknown fields added, as another server may send them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sunbot import strategies
from sunbot.games import get_game

#: Fields of our states that the rule texts do not promise, per game.
NOT_PROMISED = {
    "keelhold": ("rng", "drawn", "nextCrateId"),
    "sunloaf": ("rng", "seed"),
    "naptuft": (),
}


def foreign(observation: dict[str, Any], game: str) -> dict[str, Any]:
    out = {k: v for k, v in observation.items() if k not in NOT_PROMISED[game]}
    out["rev"] = 3  # an unknown field
    return out


@pytest.mark.parametrize(
    ("game", "name", "steps"),
    [
        ("keelhold", "safe-greedy", 60),
        ("sunloaf", "planner", 25),
        ("sunloaf", "reference", 40),
        ("naptuft", "balancer", 40),
    ],
)
def test_default_strategies_choose_alike_without_our_bookkeeping(game, name, steps):
    eng = get_game(game).engine
    ours = strategies.create(game, name, random.Random(5))
    theirs = strategies.create(game, name, random.Random(5))
    state = eng.init(9)
    for _ in range(steps):
        if eng.is_over(state):
            break
        obs, legal = eng.observation(state), eng.legal_actions(state)
        action = ours.choose(obs, legal)
        assert theirs.choose(foreign(obs, game), legal) == action
        state = eng.step(state, action)
