"""The Harvest Watch joint-night search (issue 11 point 4): the spec's worked nights are
explained, a night no legal joint action gives is not, and no legal night is ever flagged
(engine matches over many seeds with random, house, coalition, farmer and guard seats)."""

from __future__ import annotations

import pytest

from sunbot.mirror.harvest_night import Night, explain_night, fits, suspects
from tests.benchmark_module import load_benchmark

bench = load_benchmark("harvest_night")
engine_nights, farm_bug = bench.engine_nights, bench.farm_bug

SIX = tuple(range(6))
COOP_1 = {"act": "farm_coop", "with": 1}


def test_e1_mutual_coop_one_sided_coop_and_guard_are_explained() -> None:
    # Harvest Watch worked example E1: 0<->1 mutual (4.5), 2 one-sided, 3 farm, 4 guard, 5 -> 4
    night = Night((50,) * 6, (45, 45, 40, 40, 40, 40), SIX, 0, COOP_1, (), ())
    verdict = explain_night(night)
    assert verdict.acts is not None and not verdict.exhausted
    assert verdict.acts[1] == {"act": "farm_coop", "with": 0}  # 4.5 needs the returned coop


def test_a_farm_paying_one_and_a_half_is_flagged_naming_the_seat() -> None:
    # E1 with seat 3's farm paying 1.5: 5.0 + 1.5 - 3.0 = 3.5. A 0.5 step needs a mutual coop
    # (no partner: every other seat moved by whole food) or a split theft (the target would
    # be at 0.0, and nobody is): no joint action gives it.
    night = Night((50,) * 6, (45, 45, 40, 35, 40, 40), SIX, 0, COOP_1, (), ())
    assert explain_night(night).unexplained
    assert suspects(night) == [3]


def test_e2_two_thieves_splitting_a_store() -> None:
    # E2: seat 2 farms from 1.0 to 3.0; seats 1 (4.0) and 4 (2.0) steal it: 1.5 each
    opening = (50, 40, 10, 50, 20, 50)
    final = (40, 25, 0, 40, 5, 40)
    me = {"act": "steal", "target": 2}
    assert not explain_night(Night(opening, final, SIX, 4, me, (), (1,))).unexplained
    # our collided list says nobody else was on seat 2: then it held 3.0 >= 2.0 and our
    # loot was 2.0, not 1.5
    assert explain_night(Night(opening, final, SIX, 4, me, (), ())).unexplained


def test_e3_a_guard_catches_two_thieves() -> None:
    # E3: seat 3 (2.0) guards; seats 0 (4.0) and 5 (3.0) steal from it and are blocked
    living = (0, 3, 5)
    opening = (40, 0, 0, 20, 0, 30)
    final = (10, 0, 0, 10, 0, 0)
    guard = {"act": "guard"}
    verdict = explain_night(Night(opening, final, living, 3, guard, (0, 5), ()))
    assert verdict.acts == {
        3: guard,
        0: {"act": "steal", "target": 3},
        5: {"act": "steal", "target": 3},
    }


def test_e7_a_full_night_with_a_donation_and_crossed_thefts() -> None:
    # E7 from seat 3's view (it donated to seat 4); seats 3 and 4 go out
    opening = (45, 38, 32, 30, 0, 40)
    final = (40, 33, 2, 0, 0, 10)
    night = Night(opening, final, SIX, 3, {"act": "donate", "to": 4}, (), ())
    assert not explain_night(night).unexplained


def test_fits_counts_the_rules_amounts() -> None:
    assert fits(50, 40, "farm", (0, 0), (0, 0))  # +2.0 - 3.0
    assert not fits(50, 35, "farm", (0, 5), (0, 5))  # a 0.5 step is a coop's
    assert fits(50, 45, "coop", (0, 0), (0, 0))
    assert fits(20, 10, "guard", (0, 0), (3, 3))  # thefts on a guard move nothing
    assert not fits(5, 0, "donate", (0, 0), (0, 0))  # donate needs 1.0 at the opening
    assert fits(30, 15, "steal", (0, 0), (0, 0))  # a split loot of 1.5


def test_a_spent_budget_is_undecided_not_a_divergence() -> None:
    night = Night((50,) * 6, (45, 45, 40, 35, 40, 40), SIX, 0, COOP_1, (), ())
    verdict = explain_night(night, budget=3)
    assert verdict.exhausted and not verdict.unexplained


def _never_flags(seeds: range) -> int:
    nights = 0
    for seed in seeds:
        for night, acts in engine_nights(seed):
            verdict = explain_night(night)
            assert verdict.acts is not None, (seed, night, acts)
            nights += 1
    return nights


def test_no_legal_night_is_flagged_over_seeds() -> None:
    assert _never_flags(range(60)) > 1000


@pytest.mark.slow
def test_no_legal_night_is_flagged_over_many_seeds() -> None:
    assert _never_flags(range(60, 1060)) > 20000


def test_a_planted_farm_bug_is_flagged_on_most_nights() -> None:
    flagged = planted = 0
    for seed in range(40):
        for night, acts in engine_nights(seed):
            bugged = farm_bug(night, acts)  # the other server's hw-farm: farm pays 1.5
            if bugged is None:
                continue
            planted += 1
            flagged += explain_night(bugged).unexplained
    # some planted nights have another legal reading (a split theft can hide a 0.5 step)
    assert planted > 100 and flagged >= 0.75 * planted, (flagged, planted)
