"""A plain Sunloaf state's score, dayCosyRaw and chain must be ones a run can hold at its day
and turn (sunbot.engines.sunloaf_history): every state of real runs passes, made-up ones fail."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from sunbot.engines import sunloaf as sl
from sunbot.engines.sunloaf_history import bounds
from sunbot.strategies.sunloaf import Planner

REST = {"type": "REST"}


def _run(seed: int, days: int, explore: float) -> list[dict[str, Any]]:
    """Every state of one run: the reference policy, replaced with probability ``explore``
    by a random legal action other than END_RUN, until over or past ``days``."""
    rng, s, states = random.Random(seed), sl.init(seed), []
    while not sl.is_over(s) and s["day"] <= days and len(states) < 2000:
        states.append(s)
        legal = [a for a in sl.legal_actions(s) if a["type"] != "END_RUN"]
        explored = s["phase"] == "day" and rng.random() < explore
        s = sl.step(s, rng.choice(legal) if explored else sl.reference_action(s))
    return [*states, s]


def _check_all(states: list[dict[str, Any]]) -> int:
    for s in states:
        sl.check_state(s)
    return len(states)


def test_every_state_of_real_runs_passes():
    """Past day 33 (every term of a day at its ceiling) on the reference line, random play
    that misses a quota early, a mix of both, and the golden planner transcript."""
    long_run = _run(7, 36, 0.0)
    assert long_run[-1]["day"] == 37 and _check_all(long_run) > 600
    for seed in range(4):
        _check_all(_run(seed, 40, 1.0))
        _check_all(_run(seed, 8, 0.25))
    golden = Path(__file__).parents[2] / "transcripts" / "golden-sunloaf-seed7.jsonl"
    states = [(json.loads(x).get("response") or {}).get("state") for x in golden.open()]
    assert _check_all([s for s in states if s]) > 60


def test_every_state_of_a_planner_run_passes():
    """The default strategy scores well above the reference line: nearer the ceiling (it
    dozes, so a day takes fewer decisions than turns)."""
    planner, s, n = Planner(random.Random(1), budget_ms=20), sl.init(1), 0
    while not sl.is_over(s) and s["day"] <= 5:
        sl.check_state(s)
        s, n = sl.step(s, planner.choose(sl.observation(s), sl.legal_actions(s))), n + 1
    sl.check_state(s)
    assert s["day"] == 6 and n > 50


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 12))
def test_every_state_of_more_runs_passes(seed):
    _check_all(_run(seed, 36, 0.0))
    _check_all(_run(seed, 20, 0.1))


def _at_turn(seed: int, turn: int) -> dict[str, Any]:
    s = sl.init(seed)
    for _ in range(turn):
        s = sl.step(s, REST)
    return s


def test_bounds_by_hand():
    """Seed 7 day 1 (bowl on mat 27 at turn 7, 2 cats, mult 100). The most a cat earns on
    turns 0..7 is tier 1..6 with pile 6: 25, 50, 75, 125, 175, 250, 250, 250 = 1200 raw."""
    assert bounds(sl.init(7)) == {"chain": (0, 0), "dayCosyRaw": (0, 0), "score": (0, 0)}
    s = _at_turn(7, 8)
    assert bounds(s) == {
        "chain": (0, 1),  # one bowl served so far
        "dayCosyRaw": (0, 2 * 1200 + 240),
        "score": (s["dayCosyRaw"], 2 * 1200 + 240),
    }
    # day 2, turn 0: day 1 was cleared (bonus 100); a whole day 1 pays at most
    # 2 cats x (25+50+75+125+175 + 16 x 250) + one bowl at chain 8 = 2 x 4450 + 240
    day2 = _run(7, 1, 0.0)[-1]
    assert (day2["day"], day2["turn"], day2["phase"]) == (2, 0, "day")
    low, high = bounds(day2)["score"]
    assert (low, high) == (100 + 15 * day2["chain"] * (day2["chain"] + 1), 100 + 9140)


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda s: s.__setitem__("score", 10**9), "score 1000000000 is not one a run holds"),
        (lambda s: s.__setitem__("score", 2641), "score 2641 .* day 1, turn 8 .*to 2640"),
        (lambda s: s.__setitem__("dayCosyRaw", 2641), "dayCosyRaw 2641"),
        (lambda s: s.__setitem__("chain", 2), "chain 2 is not one a run holds"),
        (lambda s: s.update(chain=1, score=29, dayCosyRaw=0), "score 29 .*from 30"),
    ],
)
def test_fabricated_day_one_states_are_refused(edit, needle):
    s = copy.deepcopy(_at_turn(7, 8))
    sl.check_state(s)
    edit(s)
    with pytest.raises(ValueError, match=needle):
        sl.check_state(s)


def test_fabricated_later_states_are_refused():
    """A later day needs every earlier day's bonus; a day far past the ramp's end keeps the
    same terms, so only the bonus floor tells that no run got there (and it is computed at
    once, not day by day)."""
    day2 = _run(7, 1, 0.0)[-1]
    poor = copy.deepcopy(day2)
    poor.update(score=99, chain=0)
    with pytest.raises(ValueError, match="score 99 is not one a run holds at day 2, turn 0"):
        sl.check_state(poor)
    late = _run(7, 35, 0.0)[-1]
    assert late["day"] == 36
    sl.check_state(late)
    far = copy.deepcopy(late)
    far["day"] = 10**6
    low = bounds(far)["score"][0]
    assert low > 3000 * (10**6 - 30)
    with pytest.raises(ValueError, match=f"from {low} to"):
        sl.check_state(far)
