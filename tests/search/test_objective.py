"""The objective: read from the spec's score order or its scoring words, else --objective,
else assumed; a won end first under ``win``."""

from __future__ import annotations

import pytest

from sunbot.search.objective import OUTCOME_WEIGHT, PENDING, outcome, resolve


@pytest.mark.parametrize(
    ("spec", "direction", "source"),
    [
        ({"scoreOrder": "ascending"}, "min", "spec"),
        ({"scoreOrder": "descending"}, "max", "spec"),
        ({"lowerIsBetter": True}, "min", "spec"),
        ({"scoring": "Score is the number of slides used; fewer is better."}, "min", "spec"),
        ({"scoring": "Higher is better (descending)."}, "max", "spec"),
        ({"scoring": "Win = 100 + pieces left. Draw = 25."}, "max", "default"),
        ({"scoring": "lower is better, higher is better"}, "max", "default"),  # says both
        (None, "max", "default"),
    ],
)
def test_the_direction_comes_from_the_spec(spec, direction, source) -> None:
    got = resolve(spec)
    assert (got.direction, got.source, got.win_first) == (direction, source, False)


def test_the_option_takes_over_and_says_what_the_spec_said() -> None:
    got = resolve({"scoreOrder": "ascending"}, "max")
    assert (got.direction, got.source) == ("max", "option")
    assert "the spec says min" in got.said
    won = resolve({"scoreOrder": "ascending"}, "win")
    assert (won.direction, won.win_first, won.name) == ("min", True, "win+min")
    with pytest.raises(ValueError, match="one of max, min, win"):
        resolve(None, "most")


def test_values_are_higher_better() -> None:
    low = resolve({"scoreOrder": "ascending"})
    assert low.value(12, True) == -12
    assert low.value(3, False) == -3 - PENDING  # unsolved is worse than any solution
    high = resolve(None, "win")
    assert high.value(5, True, {"result": "loss"}) == 5 - OUTCOME_WEIGHT
    assert high.value(5, True, {"result": "win"}) == 5 + OUTCOME_WEIGHT
    assert high.value(5, False, {"result": None}) == 5


@pytest.mark.parametrize(
    ("obs", "result"),
    [
        ({"result": "win"}, 1),
        ({"phase": "solved"}, 1),
        ({"won": True}, 1),
        ({"winner": "house"}, -1),
        ({"result": "draw"}, 0),
        ({"result": None}, None),
        ("text", None),
    ],
)
def test_outcome_reads_the_result_words(obs, result) -> None:
    assert outcome(obs) == result
