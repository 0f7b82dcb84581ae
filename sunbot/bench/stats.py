"""Benchmark statistics, computed with SciPy and NumPy (this module is only glue).

- :func:`summarize`: mean with a 95% bootstrap CI (``scipy.stats.bootstrap``, BCa, fixed
  seed :data:`BOOTSTRAP_SEED`), median and quartiles (``numpy.percentile``, linear).
- :func:`survival`: share of runs still alive at each voyage/day.
- :func:`paired`: two strategies on the same seeds: mean difference with a bootstrap CI
  and the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``).
- :func:`ratio`: two strategies on the same seeds: the ratio of their mean scores with a
  paired bootstrap CI (resampling seeds), for a verdict such as "2.6x".
- :func:`win_rate`: wins out of matches with a Wilson interval
  (``scipy.stats.binomtest(...).proportion_ci(method="wilson")``).

Undefined values (a CI from fewer than two values, a test on no pairs) are ``nan``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats as st

CONFIDENCE = 0.95
BOOTSTRAP_SEED = 20240601
BOOTSTRAP_RESAMPLES = 9999
_BATCH = 500  # resamples per batch: bounds memory for large samples


@dataclass(frozen=True)
class Summary:
    """One sample's summary (``nan`` where undefined, e.g. the CI of fewer than 2 values)."""

    n: int
    mean: float
    ci_low: float
    ci_high: float
    median: float
    q1: float
    q3: float
    min: float
    max: float


@dataclass(frozen=True)
class Paired:
    """``a - b`` on the seeds both have: mean difference, its CI, Wilcoxon test.

    ``better``/``worse``/``ties``: seeds where ``a`` scored more / less / the same.
    """

    n: int
    mean_diff: float
    ci_low: float
    ci_high: float
    statistic: float
    p_value: float
    better: int
    worse: int
    ties: int


@dataclass(frozen=True)
class WinRate:
    """``wins`` of ``n`` with the Wilson interval ``[low, high]`` (``nan`` when ``n == 0``)."""

    wins: int
    n: int
    rate: float
    low: float
    high: float


def _array(values: Sequence[float] | NDArray[np.float64]) -> NDArray[np.float64]:
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-d sample, got shape {arr.shape}")
    return arr


def mean_ci(
    values: Sequence[float] | NDArray[np.float64], confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The bootstrap (BCa) confidence interval of the mean of ``values``.

    Deterministic (fixed seed). A constant sample gives ``(mean, mean)``; fewer than two
    values give ``(nan, nan)``.
    """
    arr = _array(values)
    if arr.size < 2:
        return math.nan, math.nan
    if np.all(arr == arr[0]):
        return float(arr[0]), float(arr[0])
    res = st.bootstrap(
        (arr,),
        np.mean,
        confidence_level=confidence,
        n_resamples=BOOTSTRAP_RESAMPLES,
        batch=_BATCH,
        method="BCa",
        rng=np.random.default_rng(BOOTSTRAP_SEED),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def summarize(values: Sequence[float] | NDArray[np.float64]) -> Summary:
    """Mean with its 95% bootstrap CI, median, quartiles, min and max of ``values``.

    Raises:
        ValueError: ``values`` is not one-dimensional.
    """
    arr = _array(values)
    if arr.size == 0:
        nan = math.nan
        return Summary(0, nan, nan, nan, nan, nan, nan, nan, nan)
    low, high = mean_ci(arr)
    q1, median, q3 = (float(q) for q in np.percentile(arr, [25, 50, 75]))
    return Summary(
        n=int(arr.size),
        mean=float(np.mean(arr)),
        ci_low=low,
        ci_high=high,
        median=median,
        q1=q1,
        q3=q3,
        min=float(arr.min()),
        max=float(arr.max()),
    )


def survival(
    progress: Sequence[int] | NDArray[np.int64], horizon: int | None = None
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Share of runs still alive at each voyage/day ``1..horizon``.

    A run that reached voyage (day) ``p`` was alive at ``1..p``.

    Args:
        progress: the voyage/day each run reached.
        horizon: last voyage/day to report (default: the largest reached).

    Returns:
        ``(t, share)``: ``t = [1, ..., horizon]`` and ``share[i]`` = fraction of runs with
        ``progress >= t[i]``; empty arrays for no runs.
    """
    arr = np.asarray(progress, dtype=np.int64)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    last = int(arr.max()) if horizon is None else horizon
    t = np.arange(1, last + 1, dtype=np.int64)
    share = (arr[:, None] >= t[None, :]).mean(axis=0)
    return t, share.astype(float)


def paired(a: Mapping[int, float], b: Mapping[int, float]) -> Paired:
    """Compare ``a`` and ``b`` (seed -> score) on their common seeds: ``a - b``.

    The Wilcoxon signed-rank test is two-sided, zero differences dropped (``wilcox``),
    exact for small samples without ties (SciPy's ``auto``); all-zero differences give
    ``p = 1``.
    """
    seeds = sorted(set(a) & set(b))
    if not seeds:
        nan = math.nan
        return Paired(0, nan, nan, nan, nan, nan, better=0, worse=0, ties=0)
    diff = np.array([a[s] - b[s] for s in seeds], dtype=float)
    low, high = mean_ci(diff)
    if np.all(diff == 0):
        statistic, p_value = 0.0, 1.0
    else:
        res = st.wilcoxon(diff)
        statistic, p_value = float(res.statistic), float(res.pvalue)
    return Paired(
        n=len(seeds),
        mean_diff=float(np.mean(diff)),
        ci_low=low,
        ci_high=high,
        statistic=statistic,
        p_value=p_value,
        better=int(np.sum(diff > 0)),
        worse=int(np.sum(diff < 0)),
        ties=int(np.sum(diff == 0)),
    )


@dataclass(frozen=True)
class Ratio:
    """``mean(a) / mean(b)`` on the seeds both have, with its 95% bootstrap CI (seeds
    resampled in pairs); every field ``nan`` where a ratio means nothing (see :func:`ratio`)."""

    n: int
    value: float
    ci_low: float
    ci_high: float


def ratio(a: Mapping[int, float], b: Mapping[int, float]) -> Ratio:
    """The ratio of ``a``'s mean score to ``b``'s on their common seeds (seed -> score).

    Only scores that are all zero or more, with both means above zero, have a ratio (a
    negative score makes "2x" mean nothing); otherwise every field but ``n`` is ``nan``.
    The CI is the paired BCa bootstrap of the ratio of means (:data:`BOOTSTRAP_SEED`),
    ``nan`` when a resample's mean of ``b`` is zero or fewer than two seeds are shared.
    """
    seeds = sorted(set(a) & set(b))
    nan = math.nan
    x = np.array([a[s] for s in seeds], dtype=float)
    y = np.array([b[s] for s in seeds], dtype=float)
    if not seeds or min(x.min(), y.min()) < 0 or x.mean() <= 0 or y.mean() <= 0:
        return Ratio(len(seeds), nan, nan, nan)
    value = float(x.mean() / y.mean())
    if len(seeds) < 2:
        return Ratio(1, value, nan, nan)
    if np.allclose(x, value * y, rtol=0, atol=1e-12 * max(1.0, float(np.abs(x).max()))):
        return Ratio(len(seeds), value, value, value)  # the same ratio on every seed

    def of_means(p: NDArray[np.float64], q: NDArray[np.float64], axis: int = -1) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.mean(p, axis=axis) / np.mean(q, axis=axis)

    # a resample (or a jackknife sample) whose mean of b is zero gives inf/nan, said as "no CI"
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", st.DegenerateDataWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        res = st.bootstrap(
            (x, y),
            of_means,
            paired=True,
            vectorized=True,
            confidence_level=CONFIDENCE,
            n_resamples=BOOTSTRAP_RESAMPLES,
            batch=_BATCH,
            method="BCa",
            rng=np.random.default_rng(BOOTSTRAP_SEED),
        )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        low = high = nan
    return Ratio(len(seeds), value, low, high)


def win_rate(wins: int, n: int, confidence: float = CONFIDENCE) -> WinRate:
    """``wins`` out of ``n`` with its Wilson score interval.

    Raises:
        ValueError: ``wins`` outside ``0..n``.
    """
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be between 0 and n={n}, got {wins}")
    if n == 0:
        return WinRate(0, 0, math.nan, math.nan, math.nan)
    ci = st.binomtest(wins, n).proportion_ci(confidence_level=confidence, method="wilson")
    return WinRate(wins, n, wins / n, float(ci.low), float(ci.high))
