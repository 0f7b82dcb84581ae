"""Statistics against values computed by hand on small fixed samples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sunbot.bench import stats

SAMPLE = [2.0, 4.0, 4.0, 5.0, 10.0]


def test_summary_of_five_values():
    s = stats.summarize(SAMPLE)
    assert s.n == 5
    assert s.mean == 5.0  # 25 / 5
    assert s.median == 4.0
    # linear interpolation: Q1 at position 0.25 * 4 = 1 -> 4.0; Q3 at position 3 -> 5.0
    assert (s.q1, s.q3) == (4.0, 5.0)
    assert (s.min, s.max) == (2.0, 10.0)
    assert s.min < s.ci_low < s.mean < s.ci_high < s.max


def test_quartiles_interpolate_between_values():
    # positions 0.75 and 2.25 on [1, 2, 3, 4]: 1.75 and 3.25
    s = stats.summarize([4, 1, 3, 2])
    assert (s.q1, s.median, s.q3) == (1.75, 2.5, 3.25)


def test_bootstrap_ci_is_deterministic_and_sane():
    a = stats.mean_ci(SAMPLE)
    assert a == stats.mean_ci(list(SAMPLE))
    rng = np.random.default_rng(0)
    big = rng.normal(100.0, 10.0, 400)
    low, high = stats.mean_ci(big)
    # the normal-theory interval is mean +- 1.96 * 10 / 20 = +- 0.98; bootstrap is close
    assert high - low == pytest.approx(2 * 1.96 * big.std(ddof=1) / 20, rel=0.1)
    assert low < big.mean() < high


def test_degenerate_samples():
    assert stats.mean_ci([3.0, 3.0, 3.0]) == (3.0, 3.0)
    assert all(math.isnan(x) for x in stats.mean_ci([3.0]))
    empty = stats.summarize([])
    assert empty.n == 0 and math.isnan(empty.mean)
    with pytest.raises(ValueError):
        stats.summarize([[1.0, 2.0]])


def test_survival_shares():
    t, share = stats.survival([1, 3, 3, 5])
    assert t.tolist() == [1, 2, 3, 4, 5]
    # alive at 1: all 4; at 2 and 3: 3 of 4; at 4 and 5: 1 of 4
    assert share.tolist() == [1.0, 0.75, 0.75, 0.25, 0.25]
    t, share = stats.survival([2, 2], horizon=4)
    assert share.tolist() == [1.0, 1.0, 0.0, 0.0]
    t, share = stats.survival([])
    assert t.size == 0 and share.size == 0


def test_wilcoxon_on_a_tiny_paired_sample():
    # all five differences positive: W- = 0, the most extreme of 2^5 sign patterns on
    # each side, so the exact two-sided p is 2 / 32 = 0.0625
    a = {1: 11.0, 2: 22.0, 3: 33.0, 4: 44.0, 5: 55.0}
    b = {1: 10.0, 2: 20.0, 3: 30.0, 4: 40.0, 5: 50.0, 6: 99.0}  # seed 6 is not paired
    p = stats.paired(a, b)
    assert p.n == 5
    assert p.mean_diff == 3.0  # (1+2+3+4+5)/5
    assert p.statistic == 0.0
    assert p.p_value == pytest.approx(0.0625)
    assert (p.better, p.worse, p.ties) == (5, 0, 0)
    assert p.ci_low <= 3.0 <= p.ci_high


def test_wilcoxon_one_negative_difference():
    # diffs 1, 2, -3, 4, 5: W- = 3 (rank of |-3|); patterns with W- <= 3: sums 0, 1, 2,
    # 3 (= {3} or {1,2}) -> 5 of 32 per side -> p = 10 / 32 = 0.3125
    p = stats.paired(
        {i: float(d) for i, d in enumerate([1, 2, -3, 4, 5])}, dict.fromkeys(range(5), 0.0)
    )
    assert p.statistic == 3.0
    assert p.p_value == pytest.approx(0.3125)
    assert (p.better, p.worse) == (4, 1)


def test_paired_identical_and_disjoint():
    same = stats.paired({1: 5.0, 2: 7.0}, {1: 5.0, 2: 7.0})
    assert (same.mean_diff, same.p_value, same.ties) == (0.0, 1.0, 2)
    assert (same.ci_low, same.ci_high) == (0.0, 0.0)
    none = stats.paired({1: 1.0}, {2: 1.0})
    assert none.n == 0 and math.isnan(none.p_value)


def test_wilson_interval_matches_the_formula():
    # 3 wins of 10, z = 1.959964: centre (0.3 + z^2/20) / (1 + z^2/10) = 0.355507,
    # half-width z * sqrt(0.3*0.7/10 + z^2/400) / (1 + z^2/10) = 0.247715
    w = stats.win_rate(3, 10)
    assert w.rate == 0.3
    assert w.low == pytest.approx(0.107791, abs=1e-6)
    assert w.high == pytest.approx(0.603222, abs=1e-6)
    z = 1.959963984540054
    centre = (0.3 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.021 + z * z / 400) / (1 + z * z / 10)
    assert (w.low, w.high) == pytest.approx((centre - half, centre + half), abs=1e-12)


def test_wilson_edges():
    zero = stats.win_rate(0, 10)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.277533, abs=1e-6)  # z^2/(n+z^2)
    empty = stats.win_rate(0, 0)
    assert math.isnan(empty.rate)
    with pytest.raises(ValueError):
        stats.win_rate(11, 10)
