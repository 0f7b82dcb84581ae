"""One plain sentence saying who is better and how sure we are, for a bench or a tournament.

- :func:`bench_verdict`: the strategy of a bench with the highest mean score against the
  next highest, paired on the seeds both finished: ``safe-greedy scores 1.85x first-safe on
  30 paired seeds, 95% CI [1.53, 2.22], p < 0.001 (W-L-T 27-3-0)``. A difference is *clear* when the
  Wilcoxon signed-rank test gives ``p < 0.05`` and the 95% interval leaves out "no
  difference" (0 for a difference, 1 for a ratio); otherwise the sentence says there is no
  clear difference.
- :func:`ranking_verdict`: a single-player tournament's leader against the entrant ranked
  second, the same way.
- :func:`rating_verdict`: a Harvest Watch tournament's leader and whether its lead is
  beyond the rating intervals (mu ± 1.96 sigma, about 95%: the two intervals do not
  overlap).

Win/loss/tie counts are written one way everywhere (:func:`sunbot.bench.analysis.wlt`):
``W-L-T 12-5-3`` (12 seeds or seat pairs won, 5 lost, 3 tied), as in the bench's paired
table and the tournament tables.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scipy.stats import binomtest

import sunbot.bench.stats as stats
from sunbot.bench.analysis import (
    WLT,
    Analysis,
    StrategyStats,
    finished_by_seed,
    num,
    scores_by_seed,
    wlt,
)
from sunbot.bench.ratings import PairedRank, Rating, leaderboard_order
from sunbot.bench.tournament_standings import Standings

__all__ = [
    "ALPHA",
    "RATING_Z",
    "WLT",
    "Comparison",
    "bench_verdict",
    "compare",
    "interval",
    "p_text",
    "ranking_verdict",
    "rating_verdict",
    "standings_verdict",
    "wlt",
]

#: A difference counts as clear below this Wilcoxon p (and with its 95% CI clear of none).
ALPHA = 0.05
#: Standard deviations either side of mu in a rating interval (about 95%).
RATING_Z = 1.96
#: Fewest paired seeds with which the two-sided Wilcoxon test can reach p < 0.05.
MIN_SEEDS = 6


def p_text(p: float) -> str:
    """``p < 0.001``, ``p = 0.034``, ``p = 1``; ``p undefined`` for ``nan``."""
    if math.isnan(p):
        return "p undefined"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}"


def _times(x: float, places: int = 2) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}" if x >= 10 else f"{x:.{places}f}"


def _places(*xs: float) -> int:
    """Decimal places (2 to 4) that keep a ratio below 10 that is not exactly 1 from
    reading as ``1.00`` (a 0.1% edge is ``1.001x``, not a clear ``1.00x``)."""
    for places in (2, 3):
        if all(x >= 10 or x == 1 or f"{x:.{places}f}" != f"{1:.{places}f}" for x in xs):
            return places
    return 4


@dataclass(frozen=True)
class Comparison:
    """``better`` against ``worse`` (the higher mean first) on the seeds both finished.

    Attributes:
        better, worse: the two names.
        paired: ``better - worse`` per seed (mean difference, its CI, Wilcoxon p, W-L-T).
        ratio: ``mean(better) / mean(worse)`` with its CI (all ``nan`` where scores can be
            negative or a mean is not above zero: then the sentence gives the difference).
        clear: whether the difference is clear (module docstring).
    """

    better: str
    worse: str
    paired: stats.Paired
    ratio: stats.Ratio
    #: A lower score is better: ``paired`` is of the negated scores (a positive difference
    #: is a better seed) and ``ratio`` of the scores as they are (below 1 is better).
    lower: bool = False

    @property
    def clear(self) -> bool:
        """Wilcoxon ``p < ALPHA`` and the 95% interval clear of no difference."""
        p = self.paired
        if math.isnan(p.p_value) or p.p_value >= ALPHA or not p.ci_low > 0:
            return False
        if not self._has_ratio():
            return True
        return self.ratio.ci_high < 1 if self.lower else self.ratio.ci_low > 1

    def _has_ratio(self) -> bool:
        r = self.ratio
        return not (math.isnan(r.value) or math.isnan(r.ci_low))

    def sentence(self, style: str = "plain") -> str:
        """The comparison in words (see the module docstring). ``style``: ``"plain"``
        (``A scores 2.63x B on ...``), ``"best"`` (``A scores highest: 2.63x B, the next highest,
        on ...``: a bench of three or more) or ``"lead"`` (``A leads: it scores 2.63x B on
        ...``: a tournament)."""
        p, r = self.paired, self.ratio
        if p.n == 0:
            return f"{self.better} and {self.worse} finished no seed in common: nothing to compare"
        seeds = f"{p.n:,} paired seed{'s' if p.n != 1 else ''}"
        if p.ties == p.n:
            return f"{self.better} and {self.worse} scored the same on all {seeds}"
        tally = f"({WLT} {wlt(p.better, p.worse, p.ties)})"
        if self._has_ratio():
            d = _places(r.value, r.ci_low, r.ci_high)
            amount = f"{_times(r.value, d)}x"
            ci = f"95% CI [{_times(r.ci_low, d)}, {_times(r.ci_high, d)}]"
            against = self.worse
        else:
            amount = f"{num(p.mean_diff)} a seed {'less' if self.lower else 'more'} than"
            ci = "no CI" if math.isnan(p.ci_low) else f"95% CI [{num(p.ci_low)}, {num(p.ci_high)}]"
            against = self.worse
        clear = self.clear
        if clear and style == "best":
            most = "lowest" if self.lower else "highest"
            what = f"{self.better} scores {most}: {amount} {against}, the next {most},"
        elif clear and style == "lead":
            what = f"{self.better} leads: it scores {amount} {against}"
        else:
            what = f"{self.better} scores {amount} {against}"
        said_lowest = clear and style == "best"  # "scores lowest" says it already
        lower = " (lower is better)" if self.lower and not said_lowest else ""
        said = f"{what}{lower} on {seeds}, {ci}, {p_text(p.p_value)} {tally}"
        if clear:
            return said
        hint = f"; {MIN_SEEDS} or more paired seeds can tell" if p.n < MIN_SEEDS else ""
        return f"no clear difference: {said}{hint}"


def compare(
    a: str,
    a_scores: Mapping[int, float],
    b: str,
    b_scores: Mapping[int, float],
    *,
    lower_is_better: bool = False,
) -> Comparison:
    """``a`` and ``b`` (seed -> score) compared on their common seeds, the one with the
    better mean on those seeds first (``a`` on a tie): the higher, or the lower where
    ``lower_is_better`` (a game whose served spec says so; a won seed is then one scored
    lower)."""
    seeds = set(a_scores) & set(b_scores)
    mean_a = sum(a_scores[s] for s in seeds) / len(seeds) if seeds else 0.0
    mean_b = sum(b_scores[s] for s in seeds) / len(seeds) if seeds else 0.0
    if (mean_b < mean_a) if lower_is_better else (mean_b > mean_a):
        a, a_scores, b, b_scores = b, b_scores, a, a_scores
    if lower_is_better:
        neg_a = {s: -v for s, v in a_scores.items()}
        neg_b = {s: -v for s, v in b_scores.items()}
        paired = stats.paired(neg_a, neg_b)
        return Comparison(a, b, paired, stats.ratio(a_scores, b_scores), lower=True)
    return Comparison(a, b, stats.paired(a_scores, b_scores), stats.ratio(a_scores, b_scores))


def bench_verdict(a: Analysis) -> str:
    """One sentence for a bench: the best group by mean score against the next best, paired
    on their common seeds; one group: its mean and CI; none finished: says so."""
    groups = [s for s in a.strategies if s.results]
    if not groups:
        return "no run finished: nothing to compare"
    lower = a.lower_is_better
    ranked = sorted(groups, key=lambda s: s.score.mean if lower else -s.score.mean)
    if len(ranked) == 1:
        s = ranked[0].score
        ci = f", 95% CI [{num(s.ci_low)}, {num(s.ci_high)}]" if not math.isnan(s.ci_low) else ""
        return (
            f"{ranked[0].name} averages {num(s.mean)} on {s.n:,} seed{'s' if s.n != 1 else ''}"
            f"{ci} (one strategy: nothing to compare)"
        )
    if lower:
        finished = _finished_first(groups)
        if finished:
            return f"{finished}; lower is better by {a.order_said}" if a.order_said else finished
    best, second = ranked[0], ranked[1]
    c = compare(
        best.name, scores_by_seed(best.results), second.name, scores_by_seed(second.results),
        lower_is_better=lower,
    )  # fmt: skip
    said = c.sentence("best" if len(ranked) > 2 else "plain")
    return f"{said}; lower is better by {a.order_said}" if lower and a.order_said else said


def _finished_first(groups: Sequence[StrategyStats]) -> str | None:
    """Where a lower score is better, a run stopped at the cap (or by its step limit) has
    not finished the game and its score is no final score: a puzzle whose ``undo`` counts
    moves off scores a run that never solved lowest of all. The group that finished the
    most runs by the rules is then the better one, judged on the seeds where exactly one of
    the two finished (an exact two-sided sign test); ``None`` where the two groups with the
    most finished runs finished as many (the scores decide, as usual)."""
    done = {g.name: finished_by_seed(g.results) for g in groups}
    ranked = sorted(groups, key=lambda g: -sum(done[g.name].values()))
    best, second = ranked[0].name, ranked[1].name
    n_best, n_second = sum(done[best].values()), sum(done[second].values())
    if n_best == n_second:
        return None
    seeds = set(done[best]) & set(done[second])
    only_best = sum(done[best][s] and not done[second][s] for s in seeds)
    only_second = sum(done[second][s] and not done[best][s] for s in seeds)
    told = only_best + only_second
    p = float(binomtest(only_best, told).pvalue)
    clear = p < ALPHA
    said = (
        f"{best} finishes {n_best} of {len(done[best])} runs by the rules, {second} "
        f"{n_second} of {len(done[second])} (a run stopped at the cap has no final score "
        f"when lower is better), {p_text(p)} on the {told} seed{'s' if told != 1 else ''}"
        f" where only one of the two finished ({only_best}-{only_second})"
    )
    if clear:
        return said
    hint = f"; {MIN_SEEDS} or more such seeds can tell" if told < MIN_SEEDS else ""
    return f"no clear difference: {said}{hint}"


def ranking_verdict(ranking: Sequence[PairedRank]) -> str:
    """One sentence for a single-player tournament: the leader against the entrant ranked
    second, on the seeds every entrant finished."""
    if not ranking:
        return "nothing ranked"
    if len(ranking) == 1 or ranking[1].vs_best is None:
        return f"{ranking[0].strategy} alone is ranked"
    first, second = ranking[0], ranking[1]
    p = second.vs_best
    assert p is not None
    flipped = stats.Paired(
        n=p.n, mean_diff=-p.mean_diff, ci_low=-p.ci_high, ci_high=-p.ci_low,
        statistic=p.statistic, p_value=p.p_value, better=p.worse, worse=p.better, ties=p.ties,
    )  # fmt: skip
    nan = math.nan
    ratio = stats.Ratio(p.n, nan, nan, nan)
    if first.mean > 0 and second.mean > 0:
        ratio = stats.Ratio(p.n, first.mean / second.mean, nan, nan)
    return Comparison(first.strategy, second.strategy, flipped, ratio).sentence("lead")


def interval(r: Rating, z: float = RATING_Z) -> tuple[float, float]:
    """``(mu - z sigma, mu + z sigma)``: the rating's interval (about 95% by default)."""
    return r.mu - z * r.sigma, r.mu + z * r.sigma


def rating_verdict(ratings: Sequence[Rating]) -> str:
    """One sentence for a Harvest Watch tournament: who leads (the highest ordinal) and
    whether its rating interval lies wholly above the runner-up's."""
    rated = [r for r in leaderboard_order(ratings) if r.matches > 0]
    if not rated:
        return "no match was rated"
    first = rated[0]
    lo, hi = interval(first)
    if len(rated) == 1:
        return (
            f"{first.strategy} alone was rated: mu {first.mu:.1f},"
            f" 95% interval [{lo:.1f}, {hi:.1f}]"
        )
    second = rated[1]
    lo2, hi2 = interval(second)
    said = (
        f"{first.strategy} leads: mu {first.mu:.1f}, 95% interval [{lo:.1f}, {hi:.1f}];"
        f" {second.strategy} next: mu {second.mu:.1f}, [{lo2:.1f}, {hi2:.1f}]"
    )
    if lo > hi2:
        return f"{said}: the lead is beyond the rating intervals"
    return (
        f"{said}: the intervals overlap, so the lead is not yet beyond them (more matches can tell)"
    )


def standings_verdict(s: Standings) -> str:
    """A tournament's verdict: :func:`rating_verdict` for Harvest Watch, else
    :func:`ranking_verdict` (or why nothing could be ranked)."""
    if s.kind == "match":
        return rating_verdict(s.ratings)
    return s.failed or ranking_verdict(s.ranking)
