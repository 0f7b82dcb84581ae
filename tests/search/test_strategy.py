"""The search strategy over forward models: hand-known best moves, and runs that beat the
generic strategies on the unseen server."""

from __future__ import annotations

import random

import pytest

import sunbot
from sunbot.strategies.search import Search
from tests.forward.conftest import MODELS, unseen_url  # noqa: F401 (a fixture)
from tests.forward.models import TakeAway, TicTacToe


def decide(strategy: Search, observation: dict, legal: list, game: str) -> dict:
    strategy.on_start(game, 1, spec=None)
    return strategy.choose(observation, legal)


def test_take_away_takes_the_winning_count() -> None:
    # from a pile of 7 the only winning take is 3 (leave a multiple of 4)
    s = Search(random.Random(0), model=TakeAway)
    obs = {"pile": 7, "start": 7, "taken": [], "houseTook": None, "winner": None}
    legal = [{"type": "take", "count": n} for n in (1, 2, 3)]
    assert decide(s, obs, legal, "take-away") == {"type": "take", "count": 3}
    assert s.totals()["objective"] == "max"


def test_tic_tac_toe_wins_when_it_can() -> None:
    s = Search(random.Random(0), model=TicTacToe)
    obs = {"rows": ["XX.", "OO.", "..."], "you": "X", "result": None}
    legal = [{"type": "mark", "cell": c} for c in (2, 5, 6, 7, 8)]
    assert decide(s, obs, legal, "tic-tac-toe") == {"type": "mark", "cell": 2}


def test_no_model_for_an_unknown_game_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="search has no forward model of chess: give --engine"):
        Search(random.Random(0)).on_start("chess", 1)


def test_options_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        Search(random.Random(0), engine="m.py:M", lookahead=3)
    with pytest.raises(ValueError, match="--allow-peek applies with --lookahead"):
        Search(random.Random(0), allow_peek=True)


@pytest.mark.slow  # a strength benchmark: 36 runs, ~10 s of an idle machine
def test_search_beats_random_and_first_on_the_unseen_games(unseen_url: str) -> None:  # noqa: F811
    for game, name in (("take-away", "TakeAway"), ("tic-tac-toe", "TicTacToe")):
        means = {}
        for strategy in ("random", "first", "search"):
            scores = [
                sunbot.play(game, seed=seed, strategy=strategy, server=unseen_url,
                            engine=f"{MODELS}:{name}").score
                for seed in range(1, 7)
            ]  # fmt: skip
            means[strategy] = sum(scores) / len(scores)
        assert means["search"] > max(means["random"], means["first"]), (game, means)
