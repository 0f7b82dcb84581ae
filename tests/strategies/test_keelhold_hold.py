"""Keelhold's long-horizon hold terms: dead hatches, rush crates that will turn into ballast,
and the default planner's choices they change (hand-computed situations)."""

from __future__ import annotations

import random

import pytest

from sunbot.engines import keelhold as kh
from sunbot.engines import keelhold_fast as kf
from sunbot.strategies.keelhold_hold import HoldEvaluator, HoldWeights, hatch_need, rush_odds
from sunbot.strategies.keelhold_planner import Planner, PlannerV2
from tests.engines.keelhold_helpers import build, crate

B = (3, -1, -1)  # a ballast crate of weight 3 in fast form


def c(cargo: int, due: int = -1) -> kf.Crate:
    """A crate of weight 3 aboard, in fast form."""
    return (3, cargo, due)


@pytest.mark.parametrize(
    ("hatch", "need"),
    [
        ((), 3),  # empty: any cargo can start a lot
        ((B, B, B), 3),  # three free slots: a new cargo still fits
        ((B, B, B, B), None),  # two free slots, no cargo: nothing can ever leave
        ((c(1), B, B, B), 2),  # c1 needs two more, two slots free
        ((c(1), B, B, B, B), None),  # c1 needs two more, one slot free: a lot that never completes
        ((B, c(4), B, B, B), None),
        ((c(1), c(1), B, B, B), 1),  # the pair completes with the last slot
        ((c(1), c(1), c(2), c(2)), 1),
        ((c(0), c(1), c(2), c(3), c(4)), None),  # five singles, one slot
        ((c(0), c(0), c(1), c(2), c(3), c(4)), None),  # full
    ],
)
def test_hatch_need_counts_the_crates_a_lot_still_needs(hatch, need):
    assert hatch_need(hatch, 6, 3) == need


def test_rush_odds_are_the_binomial_tail():
    assert rush_odds(0, 5, 0.2) == 1.0
    assert rush_odds(2, 1, 0.9) == 0.0  # two more crates in one placement: impossible
    assert rush_odds(1, 8, 0.15) == pytest.approx(1 - 0.85**8)
    # at least two of three with p = 1/2: 3 * 1/8 + 1/8
    assert rush_odds(2, 3, 0.5) == pytest.approx(0.5)


#: Round weights for hand computation (not the tuned defaults).
W = HoldWeights(
    dead=100.0,
    dead_more=20.0,
    dump=10.0,
    ballast=(0.0, 1.0, 2.0, 4.0),
    pair=8.0,
    single=2.0,
    blocked=5.0,
    mixed=6.0,
    split=3.0,
    tight=7.0,
    aboard=1.0,
    rush_hit=1.0,
)


def _voyage() -> kf.Voyage:
    """Voyage 60's terms: capacity 6, lots of 3, six cargo types, ballast every 10th draw,
    so a drawn crate is a given cargo with probability 0.9 / 6 = 0.15."""
    s, _ = kf.from_observation(kh.observation(build(voyage=60)))
    return s.voyage


def test_a_dead_hatch_is_one_loss_and_its_free_slots_a_dump():
    """Four ballast crates: nothing can ever leave (value -dead + 2 free x dump = -80).
    A fifth is worth only one dump slot less (-90): dumping into a dead hatch is cheap,
    while the same crate in a live ``BBB...`` hatch kills it (from -3 x 1 aboard - 3 x 4
    ballast at need 3 - 7 tight, three free for a need of three, = -22 to -80)."""
    ev, v = HoldEvaluator(W), _voyage()
    assert ev.hatch((B, B, B, B), v, 1000) == (-80.0, (), True)
    assert ev.hatch((B, B, B, B, B), v, 1000) == (-90.0, (), True)
    assert ev.hatch((B, B, B), v, 1000) == (-22.0, (), False)


def test_live_hatch_terms_by_hand():
    """``c1 c1 B B B .``: five aboard (-5), three ballast at need 1 (-3), a pair (+8),
    one free slot for a need of one (tight, -7): -7."""
    ev, v = HoldEvaluator(W), _voyage()
    assert ev.hatch((c(1), c(1), B, B, B), v, 1000) == (-7.0, (1,), False)
    # c2 c2 c3 .: three aboard (-3), a pair (+8), a single (+2), two cargos (-6): +1
    assert ev.hatch((c(2), c(2), c(3)), v, 1000) == (1.0, (2, 3), False)


def test_a_rush_crate_counts_as_the_ballast_it_will_likely_become():
    """``c1(rush, due 1002) B B B . .`` at turn 1000: c1 needs two more crates of cargo 1
    within three placements (turns 1000-1002), odds 1 - 0.85^3 - 3 x 0.15 x 0.85^2 =
    0.06075. As it stands the hatch is worth -4 (aboard) - 3 x 2 (ballast, need 2) + 2
    (single) - 7 (two free for a need of two) = -15; if the crate expires it is ``B B B B``,
    dead: -80. Expected: -15 - (1 - 0.06075) x 65."""
    ev, v = HoldEvaluator(W), _voyage()
    odds = 1 - 0.85**3 - 3 * 0.15 * 0.85**2
    value, kinds, dead = ev.hatch((c(1, due=1002), B, B, B), v, 1000)
    assert value == pytest.approx(-15 - (1 - odds) * 65)
    assert (kinds, dead) == ((1,), False)
    # past any chance (two more needed, one placement left): counted as ballast outright
    assert ev.hatch((c(1, due=1000), B, B, B), v, 1000)[0] == pytest.approx(-80.0)
    # the same crate without a due date is plain cargo
    assert ev.hatch((c(1), B, B, B), v, 1000)[0] == -15.0


def test_each_further_dead_hatch_costs_more():
    """Two dead hatches cost 2 x dead_more more than twice one (the hold's slack shrinks)."""
    ev = HoldEvaluator(W)
    dead = ((B, B, B, B),)
    one = build(voyage=60, hold={0: [crate(None, 3, 1 + i) for i in range(4)]}, turn=1000)
    two = build(
        voyage=60,
        hold={
            0: [crate(None, 3, 1 + i) for i in range(4)],
            6: [crate(None, 3, 11 + i) for i in range(4)],
        },
        turn=1000,
    )
    s1, _ = kf.from_observation(kh.observation(one))
    s2, _ = kf.from_observation(kh.observation(two))
    assert s2.hold[6] == dead[0] and s1.hold[6] == ()
    # hatch 6 adds its own -80 and the pair's 2 x 1 x dead_more; the trim (weight 12 at arm
    # 3 against 12 at arm -3) balances to 0 from -36: the margin term, capped at 8, is 8 in
    # both (tolerance 124)
    assert ev.value(s2) - ev.value(s1) == pytest.approx(-80.0 - 2 * W.dead_more)


def _rush_trap() -> dict:
    """Voyage 60 at turn 1000, trim +21 (tolerance 124). Hatch 6 holds ``c1 B B B``; in hand
    a rush crate of cargo 1 (window 8). On hatch 6 it pairs with c1, but if no third c1
    lands there within 8 placements it turns into ballast and hatch 6 is ``c1 B B B B``:
    dead for the rest of the run."""
    ballast = [crate(None, 3, 2 + i) for i in range(3)]
    hold = {
        6: [crate(1, 3, 1), *ballast],
        0: [crate(2, 3, 5), crate(2, 3, 6)],
        1: [crate(3, 3, 7)],
        2: [crate(4, 3, 8)],
        4: [crate(0, 3, 9), crate(0, 3, 10)],
        5: [crate(5, 3, 11)],
    }
    queue = [crate(1, 3, 20, rush=8), crate(2, 3, 21), crate(0, 3, 22)]
    return build(voyage=60, hold=hold, queue=queue, turn=1000)


def test_default_keeps_a_rush_crate_away_from_a_hatch_its_expiry_would_kill():
    s = _rush_trap()
    assert s["trim"] == 21 and s["safeBays"] == list(range(7))
    obs, legal = kh.observation(s), kh.legal_actions(s)
    assert PlannerV2(random.Random(0)).choose(obs, legal) == {"type": "PLACE", "bay": 6}
    chosen = Planner(random.Random(0)).choose(obs, legal)
    assert chosen["type"] == "PLACE" and chosen["bay"] != 6
    # what planner-v2 risks: the crate expires after its due turn, in hatch 6
    after = kh.step(s, {"type": "PLACE", "bay": 6})
    due = after["hold"][6][-1]["due"]
    assert due == 1008
    expired = [
        (cr["weight"], -1 if cr["cargo"] is None else cr["cargo"], -1) for cr in after["hold"][6]
    ]
    expired[-1] = (3, -1, -1)
    assert hatch_need(tuple(expired), 6, 3) is None
