"""The verdict sentences and the one W-L-T notation (sunbot.bench.verdict)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from sunbot.bench import stats
from sunbot.bench.analysis import analyse, pair_rows, wlt
from sunbot.bench.jobs import Result
from sunbot.bench.ratings import Rating, rank_paired
from sunbot.bench.verdict import (
    bench_verdict,
    compare,
    interval,
    p_text,
    ranking_verdict,
    rating_verdict,
)

SEEDS = range(1, 9)


def result(strategy: str, seed: int, score: float) -> Result:
    return Result(
        game="naptuft", strategy=strategy, seed=seed, cap=2, score=score, progress=2,
        progress_field="day", cause=None, ended_by="cap", error=None, steps=1,
        refused=0, decisions=1, seat=None, rank=None, table="", seating="", lineup="",
        win_share=None, decision_p50_ms=None, decision_p95_ms=None, wall_s=0.0, version="0",
    )  # fmt: skip


def test_wlt_is_wins_losses_ties() -> None:
    assert wlt(12, 5, 3) == "12-5-3"


@pytest.mark.parametrize(
    ("p", "said"),
    [(0.0004, "p < 0.001"), (0.0078125, "p = 0.0078"), (0.4123, "p = 0.41"), (1.0, "p = 1"),
     (math.nan, "p undefined")],
)  # fmt: skip
def test_p_values_in_words(p: float, said: str) -> None:
    assert p_text(p) == said


def test_twice_the_score_on_every_seed_is_a_clear_2x() -> None:
    a = {s: 20.0 * s for s in SEEDS}
    b = {s: 10.0 * s for s in SEEDS}
    c = compare("b", b, "a", a)  # the higher mean is named first whatever the order given
    assert (c.better, c.worse, c.clear) == ("a", "b", True)
    # 8 positive differences: the exact two-sided Wilcoxon p is 2 / 2**8
    assert c.paired.p_value == pytest.approx(2 / 256)
    assert c.sentence() == (
        "a scores 2.00x b on 8 paired seeds, 95% CI [2.00, 2.00], p = 0.0078 (W-L-T 8-0-0)"
    )


def test_a_small_edge_is_written_with_the_places_that_show_it() -> None:
    """1.25 more points in 2,500 on every seed: a ratio of 1.0005, written 1.0005x, not a
    clear '1.00x' beside an interval of [1.00, 1.00]."""
    a = {s: 2500.0 + 1.25 for s in SEEDS}
    b = {s: 2500.0 for s in SEEDS}
    said = compare("a", a, "b", b).sentence()
    assert said.startswith("a scores 1.0005x b on 8 paired seeds, 95% CI [1.0005, 1.0005]")


def test_where_lower_is_better_the_lower_mean_wins_and_says_so() -> None:
    """A puzzle scored in moves: 50 against 100 on every seed is a clear win of the lower."""
    moves = {s: 50.0 for s in SEEDS}
    wander = {s: 100.0 for s in SEEDS}
    c = compare("wander", wander, "search", moves, lower_is_better=True)
    assert (c.better, c.worse, c.clear) == ("search", "wander", True)
    assert (c.paired.better, c.paired.worse) == (8, 0)  # a won seed is one scored lower
    assert c.sentence() == (
        "search scores 0.50x wander (lower is better) on 8 paired seeds, 95% CI [0.50, 0.50],"
        " p = 0.0078 (W-L-T 8-0-0)"
    )
    rows = [result("search", s, 50.0) for s in SEEDS] + [result("wander", s, 100.0) for s in SEEDS]
    a = analyse(
        "maze",
        rows,
        ["wander", "search"],
        lower_is_better=True,
        order_said="spec.scoreOrder 'ascending'",
    )
    assert bench_verdict(a).startswith("search scores 0.50x wander (lower is better)")
    assert bench_verdict(a).endswith("; lower is better by spec.scoreOrder 'ascending'")
    # the pairs table agrees with the verdict: wander lost every seed to search, by 50 moves
    ((x, y, p),) = a.pairs
    assert (x, y, p.better, p.worse, p.ties, p.mean_diff) == ("wander", "search", 0, 8, 0, 50.0)
    assert pair_rows(a)[1][0][4] == "0-8-0"
    # the same scores read the usual way crown the other
    assert bench_verdict(analyse("maze", rows, ["wander", "search"])).startswith(
        "wander scores 2.00x"
    )


def test_negative_scores_give_the_difference_not_a_ratio() -> None:
    a = {s: 3.0 - s for s in SEEDS}
    b = {s: -float(s) for s in SEEDS}
    c = compare("a", a, "b", b)
    assert math.isnan(c.ratio.value)
    assert c.sentence() == (
        "a scores 3 a seed more than b on 8 paired seeds, 95% CI [3, 3], p = 0.0078 (W-L-T 8-0-0)"
    )


def test_a_wavering_difference_is_not_clear() -> None:
    a = {s: 100.0 + (5 if s % 2 else -4) for s in SEEDS}
    b = {s: 100.0 for s in SEEDS}
    c = compare("a", a, "b", b)
    assert not c.clear and c.paired.p_value > 0.05
    assert c.sentence().startswith("no clear difference: a scores 1.005x b on 8 paired seeds")
    assert c.sentence().endswith("(W-L-T 4-4-0)")


def test_too_few_seeds_say_how_many_can_tell() -> None:
    c = compare("a", {1: 2.0, 2: 4.0, 3: 9.0}, "b", {1: 1.0, 2: 2.0, 3: 3.0})
    assert c.paired.p_value == pytest.approx(0.25)  # 3 wins: 2 / 2**3
    assert c.sentence().endswith("(W-L-T 3-0-0); 6 or more paired seeds can tell")


def test_equal_scores_and_no_common_seed() -> None:
    assert compare("a", {1: 5.0, 2: 6.0}, "b", {1: 5.0, 2: 6.0}).sentence() == (
        "a and b scored the same on all 2 paired seeds"
    )
    assert "no seed in common" in compare("a", {1: 5.0}, "b", {2: 6.0}).sentence()


def test_the_bench_verdict_names_the_best_and_the_next_best() -> None:
    rows = [result(strategy=n, seed=s, score=k * s) for s in SEEDS for n, k in
            (("low", 1), ("top", 3), ("mid", 2))]  # fmt: skip
    a = analyse("naptuft", rows, ["low", "top", "mid"])
    assert bench_verdict(a) == (
        "top scores highest: 1.50x mid, the next highest, on 8 paired seeds, 95% CI [1.50, 1.50],"
        " p = 0.0078 (W-L-T 8-0-0)"
    )
    one = analyse("naptuft", [r for r in rows if r.strategy == "top"], ["top"])
    assert bench_verdict(one).startswith("top averages 13.50 on 8 seeds, 95% CI [")
    assert bench_verdict(one).endswith("(one strategy: nothing to compare)")
    # the paired table says the same in the same notation: low vs top, 0 wins 8 losses
    head, cells = pair_rows(a)
    assert head[4] == "A vs B W-L-T" and cells[0][4] == "0-8-0"


def test_the_ranking_verdict_says_who_leads() -> None:
    ranking = rank_paired({"a": {s: 10.0 + s for s in SEEDS}, "b": {s: float(s) for s in SEEDS}})
    assert ranking_verdict(ranking) == (
        "a leads: it scores 10 a seed more than b on 8 paired seeds, 95% CI [10, 10],"
        " p = 0.0078 (W-L-T 8-0-0)"
    )


def test_the_rating_verdict_checks_the_intervals() -> None:
    top = Rating("a", mu=30.0, sigma=2.0, ordinal=24.0, matches=10)
    far = Rating("b", mu=20.0, sigma=2.0, ordinal=14.0, matches=10)
    near = Rating("c", mu=27.0, sigma=2.0, ordinal=21.0, matches=10)
    assert interval(top) == pytest.approx((26.08, 33.92))
    assert rating_verdict([far, top]) == (
        "a leads: mu 30.0, 95% interval [26.1, 33.9]; b next: mu 20.0, [16.1, 23.9]:"
        " the lead is beyond the rating intervals"
    )
    assert rating_verdict([near, top]).endswith(
        "the intervals overlap, so the lead is not yet beyond them (more matches can tell)"
    )
    assert rating_verdict([]) == "no match was rated"


def test_a_ratio_needs_scores_of_zero_or_more() -> None:
    r = stats.ratio({1: 3.0, 2: 6.0, 3: 0.0}, {1: 1.0, 2: 2.0, 3: 1.0})
    assert r.value == pytest.approx(9 / 4) and r.ci_low <= r.value <= r.ci_high
    assert math.isnan(stats.ratio({1: -1.0, 2: 4.0}, {1: 1.0, 2: 1.0}).value)
    assert math.isnan(stats.ratio({1: 1.0}, {1: 0.0}).value)


def test_where_lower_is_better_a_run_stopped_at_the_cap_is_no_finished_score() -> None:
    """Crate-push's undo counts its moves off: a policy that never solves ends at the cap
    with 5 moves, one that solves every seed with 80. Finished runs decide: 8 seeds where
    only search finished are a sign test's 2 / 2**8 = 0.0078."""
    solved = [replace(result("search", s, 80.0), ended_by="rules") for s in SEEDS]
    undoing = [result("random", s, 5.0) for s in SEEDS]  # ended_by "cap"
    a = analyse(
        "crates", solved + undoing, ["random", "search"], lower_is_better=True,
        order_said="spec.scoreOrder 'ascending'",
    )  # fmt: skip
    assert bench_verdict(a) == (
        "search finishes 8 of 8 runs by the rules, random 0 of 8 (a run stopped at the cap has"
        " no final score when lower is better), p = 0.0078 on the 8 seeds where only one of"
        " the two finished (8-0); lower is better by spec.scoreOrder 'ascending'"
    )
    # the paired table counts the seeds the same way: search won all 8, though it scored more
    ((x, y, p),) = a.pairs
    assert (x, y, p.better, p.worse, p.ties, p.mean_diff) == ("random", "search", 0, 8, 0, -75.0)
    # three seeds are too few to tell: 2 / 2**3 = 0.25, and the verdict says how many can
    few = analyse("crates", solved[:3] + undoing[:3], ["random", "search"], lower_is_better=True)
    assert bench_verdict(few).startswith("no clear difference: search finishes 3 of 3 runs")
    assert bench_verdict(few).endswith("(3-0); 6 or more such seeds can tell")
    # as many finished on each side: the scores decide, as before
    both = [replace(r, ended_by="rules") for r in undoing]
    assert bench_verdict(
        analyse("crates", solved + both, ["random", "search"], lower_is_better=True)
    ).startswith("random scores 0.06x search (lower is better)")
