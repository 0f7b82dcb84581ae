"""The Naptuft upper bound of benchmarks/naptuft_bound.py: hand-computed values, the wish
search against brute force, and the bound above every strategy's real score."""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from pathlib import Path

import pytest

from sunbot import strategies
from sunbot.engines import naptuft as nt

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
nb = importlib.import_module("naptuft_bound")
nt_trace = importlib.import_module("naptuft_trace")
nt_gamble = importlib.import_module("naptuft_gamble")


def test_seed_7_day_1_by_hand():
    """Spec §4 vectors: windows [nap, feed] at pressure 1 (loss 7), [play] and [play] at 0
    (loss 6). Losses 4x4x7 + 2x4x4x6 = 304; the last window's losses are all 6, so the
    needs end at most at 94 + 88 + 82 + 76 = 340, and care points at most 340 - 280 + 304 =
    364; comfort 12 x 10; day bonus 120; wishes 120 (x1) + 60 (x2) + 60 (x3) = 420.
    Total 1,024."""
    b = nb.upper_bound(7, 1)
    assert (b.care, b.comfort, b.day_bonus, b.wishes) == (364, 120, 120, 420)
    assert b.total == 1024 and b.per_day == 1024.0


def test_final_room_by_hand():
    """The dearest loss goes to the need cared last: losses 8, 6, 7, 8 sorted 8, 8, 7, 6
    give 400 - (8 + 16 + 21 + 24) = 331 (seed 125's day 30); all 8: 400 - 80 = 320."""
    assert nb.final_room((8, 6, 7, 8)) == 331
    assert nb.final_room((8, 8, 8, 8)) == 320
    assert nb.final_room((6, 6, 6, 6)) == 340


def test_final_room_bounds_every_care_order():
    """Any 4 cares of the last window from needs at 100: the final sum never exceeds
    final_room, and the best order (dearest cared last) reaches it."""
    losses = (8, 6, 7, 8)
    best = 0
    for cares in itertools.product(range(4), repeat=4):
        needs = [100, 100, 100, 100]
        for c in cares:
            needs[c] = min(100, needs[c] + 36)
            needs = [v - loss for v, loss in zip(needs, losses, strict=True)]
        best = max(best, sum(needs))
    assert best == nb.final_room(losses)


def test_a_blocked_four_step_wish_is_worth_skipping_the_one_before():
    """Day 7 (no repeats): [feed, play, brush, nap] can only finish on nap at moment 3, which
    blocks [nap, feed, play, brush] in the next window. Finishing the first pays 240 (x1),
    the second expires, [play] 60 (x1): 300. Skipping the first: 240 (x1) + 120 (x2) = 360."""
    assert nb.wish_points([[0, 1, 2, 3], [3, 0, 1, 2], [1]], 1, first_day=7) == 360
    # before day 7 a repeat is allowed: all three, 240 + 480 + 180
    assert nb.wish_points([[0, 1, 2, 3], [3, 0, 1, 2], [1]], 1, first_day=6) == 900


def test_wish_points_with_a_start_and_a_forced_choice():
    """The same day as above, from a streak of 2 and last care feed: [feed, play, brush,
    nap] cannot start at moment 0, so it cannot finish (4 steps in 3 moments); [nap, feed,
    play, brush] then pays 240 (x1) and [play] 120 (x2) = 360. Forcing the second wish
    unfinished leaves [play] at x1: 60. Forcing the first finished has no line."""
    wishes = [[0, 1, 2, 3], [3, 0, 1, 2], [1]]
    assert nb.wish_points(wishes, 1, first_day=7, streak=2, last=0) == 360
    assert nb.wish_points(wishes, 1, first_day=7, streak=2, last=0, must={1: False}) == 60
    with pytest.raises(ValueError, match="no line"):
        nb.wish_points(wishes, 1, first_day=7, streak=2, last=0, must={0: True})
    # from last care nap instead, the first wish is open: 240 x3 = 720, the second
    # expires (blocked by nap), [play] at x1: 780; or skip it: 240 x1 + 120 x2 = 360
    assert nb.wish_points(wishes, 1, first_day=7, streak=2, last=3) == 780
    assert nb.wish_points(wishes, 1, first_day=7, streak=2, last=3, must={0: False}) == 360


def test_gamble_worlds_follow_the_deck_ramp():
    """Spec §4 lengths: 1-2 steps on days 1-2 (4 + 12 orders), 2-4 from day 6 (12 + 24 +
    24); each length has half or a third of the weight."""
    early, late = nt_gamble.worlds(1), nt_gamble.worlds(6)
    assert (len(early), len(late)) == (16, 60)
    for ws in (early, late):
        assert sum(p for _, p in ws) == pytest.approx(1.0)
    assert dict((tuple(w), p) for w, p in late)[(0, 1)] == pytest.approx(1 / 36)
    assert dict((tuple(w), p) for w, p in late)[(3, 2, 1, 0)] == pytest.approx(1 / 72)


def test_seed_141_miss_is_a_bet_lost():
    """Seed 141's day 26 (streak 29, last feed; worked out by hand in docs/decisions.md):
    finishing [play, nap, brush, feed] forces feed last, which blocks day 27's [feed, brush,
    play] at its first moment, so that wish must end on play at its last moment. Only a
    4-step wish starting with play in day 27's second window (unseen on day 26: 6 of the 60
    draws, 1/12) punishes that. It did: finishing is worth 240 + 480 = 720 on days 26-27
    against 1,020 for skipping it, -300; averaged over the draws it is worth +520."""
    streak, last, finished = nt_gamble.balancer_day(141, 26, 30)
    assert (streak, last) == (29, 0)
    assert finished == {75, 77}  # the balancer took the bet (77); 76 it let expire
    first = 75
    deck = [[nb._CARE[c] for c in nt.descriptor(141, k)["wish"]] for k in range(first, 90)]
    real = [
        nb.wish_points(deck, 5, 26, streak=streak, last=last, must={77 - first: done})
        for done in (True, False)
    ]
    assert real[0] - real[1] == -300


def brute_force(wishes: list[list[int]], first_day: int) -> int:
    """Every care sequence of two windows, played by the §6.2 wish rules, then a one-step
    third wish (always doable: a blocked first moment leaves three) at the streak left."""
    best = 0
    for cares in itertools.product(range(4), repeat=8):
        points, streak, last, ok = 0, 0, -1, True
        for w, wish in enumerate(wishes[:2]):
            prog = 0
            for m in range(4):
                c = cares[4 * w + m]
                if first_day + w // 3 >= 7 and c == last:
                    ok = False
                    break
                last = c
                if prog >= 0 and wish[prog] == c:
                    prog += 1
                    if prog == len(wish):
                        points += 60 * len(wish) * min(streak + 1, 3)
                        streak, prog = streak + 1, -1
            if not ok:
                break
            if prog >= 0:
                streak = 0
        if ok:
            best = max(best, points + 60 * min(streak + 1, 3))
    return best


@pytest.mark.parametrize("case", range(6))
def test_wish_search_equals_brute_force(case):
    """One whole day of random wishes on day 3 and day 7 (the third wish one step long, so
    the brute force enumerates 4^8 sequences of the first two windows)."""
    rnd = random.Random(case)
    wishes = []
    for _ in range(2):
        order = list(range(4))
        rnd.shuffle(order)
        wishes.append(order[: rnd.randint(1, 4)])
    wishes.append([rnd.randrange(4)])
    first_day = 7 if case % 2 else 3
    assert nb.wish_points(wishes, 1, first_day=first_day) == brute_force(wishes, first_day)


@pytest.mark.parametrize("name", ["balancer", "clairvoyant", "rotation"])
def test_no_strategy_scores_above_the_bound(name):
    """Seeds 1-3 to the day break of day 8 (repeats banned from day 7): the bound holds and
    the default comes within 1% of it."""
    for seed in range(1, 4):
        bot = strategies.create("naptuft", name, random.Random(seed))
        if hasattr(bot, "day_cap"):
            bot.day_cap = 8
        if hasattr(bot, "on_start"):
            bot.on_start("naptuft", seed)
        s = nt.init(seed)
        while not (s["phase"] == "dayBreak" and s["day"] >= 8):
            assert not nt.is_over(s)
            s = nt.step(s, bot.choose(nt.observation(s), nt.legal_actions(s)))
        bound = nb.upper_bound(seed, 8).total
        assert s["score"] <= bound
        if name == "balancer":
            assert s["score"] >= 0.99 * bound


def test_bad_days_are_refused():
    with pytest.raises(ValueError):
        nb.upper_bound(1, 0)
    with pytest.raises(ValueError):
        nb.wish_points([[0]], 1)


@pytest.mark.parametrize(("name", "seed"), [("balancer", 4), ("clairvoyant", 9), ("rotation", 2)])
def test_trace_splits_a_run_into_the_bounds_parts(name, seed):
    """The split adds up to the score, care points are the final needs' sum - 280 + the
    deck's losses (the identity the bound rests on), and each part is within its bound."""
    parts = nt_trace.split_run(name, seed, 8)
    bound = nb.upper_bound(seed, 8)
    assert not parts.fatal
    assert parts.care + parts.comfort + parts.day_bonus + parts.wishes == parts.score
    assert sum(parts.wishes_by_day.values()) == parts.wishes
    assert parts.care - parts.final_needs == bound.care - bound.final_needs
    assert parts.final_needs <= bound.final_needs
    assert parts.comfort <= bound.comfort and parts.day_bonus <= bound.day_bonus
    assert parts.wishes <= bound.wishes
    if name == "rotation":  # wishes only by chance, and comfort at every moment (§9)
        assert parts.comfort == bound.comfort and parts.wishes < bound.wishes / 2


def test_gamble_prints_the_bet_on_the_real_deck_and_on_redrawn_ones():
    """The command the README quotes: -300 on seed 141's deck, and on average over decks
    redrawn after day 26's view a clear gain (the 1-in-12 loss is rare)."""
    from typer.testing import CliRunner

    out = CliRunner().invoke(nt_gamble.app, ["141", "--decide", "77", "--samples", "200"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "[play, nap, brush, feed]? the balancer did: yes" in text
    assert "finishing it is worth -300 wish points" in text
    mean = float(text.split("worth ")[-1].split(" on average")[0])
    assert 400 < mean < 650
