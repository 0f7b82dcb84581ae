"""search on a game sunbot knows, with its rules engine as the forward model
(sunbot.search.simulators.EngineModel): the hidden cursor is drawn in the engine's own form,
so every legal action steps, and the objective is the rules' (a higher score is better)."""

from __future__ import annotations

import random

import pytest

import sunbot
from sunbot.engines import keelhold, sunloaf
from sunbot.search.objective import resolve
from sunbot.search.simulators import EngineModel


@pytest.mark.parametrize(
    ("game", "engine", "drawn"), [("keelhold", keelhold, True), ("sunloaf", sunloaf, False)]
)
def test_every_legal_action_steps_from_a_rebuilt_observation(game, engine, drawn) -> None:
    model = EngineModel(random.Random(1), game)
    assert model.stochastic is drawn  # our Keelhold hides its cursor, our Sunloaf shows it
    for seed in (1, 2, 7):
        state = engine.init(seed)
        rebuilt = model.from_observation(engine.observation(state))
        assert type(rebuilt["rng"]) is type(state["rng"])  # Keelhold: [cursor], Sunloaf: int
        legal = model.legal_actions(rebuilt)
        assert legal == engine.legal_actions(state)
        for action in legal:  # a Keelhold cursor drawn as an int had failed every step
            model.step(rebuilt, action)


def test_a_known_game_searches_for_the_higher_score_by_its_rules() -> None:
    o = resolve({}, None, known="keelhold")
    assert (o.direction, o.source) == ("max", "rules")
    assert "the rules of keelhold" in o.said
    assert resolve({"scoreOrder": "ascending"}, None, known="keelhold").direction == "min"
    assert resolve({}, None).source == "default"


def test_search_on_keelhold_reaches_the_cap_of_its_first_voyage() -> None:
    run = sunbot.play("keelhold", seed=1, strategy="search", max_voyages=1,
                      agent_options={"iterations": 40})  # fmt: skip
    assert run.ended_by == "cap" and run.score > 0, run.outcome
