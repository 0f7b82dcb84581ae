"""What ``sunbot.bench(...)`` and ``sunbot.tournament(...)`` return: typed results with the
statistics the command line prints.

- :class:`BenchResult`: per strategy (:class:`StrategyStats`: mean with its 95% CI,
  median, quartiles, capped and errored runs; rank-1 rates for matches), per pair of
  strategies (:class:`PairStats`: the paired difference with its CI, the ratio of means
  with its CI, the Wilcoxon p and W-L-T counts) and the :attr:`~BenchResult.verdict`
  sentence (:mod:`sunbot.bench.verdict`). It is also the sequence of its rows
  (:attr:`~BenchResult.rows`), so code that iterated the list ``sunbot.bench`` used to
  return keeps working.
- :class:`TournamentResult`: Harvest Watch ratings with their intervals
  (:class:`RatingStats`), or a single-player tournament's paired ranking, and the verdict.

Both convert to a pandas ``DataFrame`` when pandas is installed (``.to_pandas()``, the same
as ``.to_dataframe()``; ``pip install pandas``) and show as HTML tables in a notebook
(``_repr_html_``); ``str()`` of either is the plain-text summary.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any, overload

import sunbot.bench.stats as stats
from sunbot.bench.analysis import WLT, Analysis, num, pair_rows, scores_by_seed, summary_rows, wlt
from sunbot.bench.jobs import Result
from sunbot.bench.ratings import PairedRank, Rating, leaderboard_order
from sunbot.bench.report import html_table
from sunbot.bench.verdict import compare, interval

__all__ = [
    "BenchResult",
    "PairStats",
    "RatingStats",
    "StrategyStats",
    "TournamentResult",
]


@dataclass(frozen=True)
class StrategyStats:
    """One strategy's (or, in Harvest Watch, one strategy at one table's) statistics over
    the runs that finished (errored and timed-out runs are only counted).

    Attributes:
        strategy: the strategy, or ``"coalition vs 5 guard"`` for a Harvest Watch table.
        runs: runs that finished (the statistics' sample).
        mean, ci_low, ci_high: mean score and its 95% bootstrap (BCa) interval (``nan``
            with fewer than two runs).
        median, q1, q3, min, max: the score's median, quartiles and range.
        progress_median: median voyage (Keelhold) or day (others) reached.
        capped, errors, timeouts: runs ended by the cap, on an error, at the job timeout.
        decision_p50_ms, decision_p95_ms: median over runs of ``choose`` time percentiles.
        rank1_rate, rank1_low, rank1_high: Harvest Watch: the share of matches finished at
            rank 1 (draws included) with its 95% Wilson interval; ``None`` otherwise.
    """

    strategy: str
    runs: int
    mean: float
    ci_low: float
    ci_high: float
    median: float
    q1: float
    q3: float
    min: float
    max: float
    progress_median: float
    capped: int
    errors: int
    timeouts: int
    decision_p50_ms: float
    decision_p95_ms: float
    rank1_rate: float | None = None
    rank1_low: float | None = None
    rank1_high: float | None = None


@dataclass(frozen=True)
class PairStats:
    """Strategy ``a`` minus strategy ``b`` on the seeds both finished.

    Attributes:
        a, b: the two strategies, in the order the bench was given them.
        seeds: the common seeds.
        mean_diff, ci_low, ci_high: the mean per-seed difference ``a - b`` and its 95%
            bootstrap interval.
        ratio, ratio_low, ratio_high: ``mean(a) / mean(b)`` and its 95% paired bootstrap
            interval (``nan`` where scores can be negative or a mean is not above zero).
        p_value: the two-sided Wilcoxon signed-rank test of the differences.
        wins, losses, ties: seeds where ``a`` scored more, less, the same (W-L-T).
        verdict: the comparison in one sentence, the better one named first.
    """

    a: str
    b: str
    seeds: int
    mean_diff: float
    ci_low: float
    ci_high: float
    ratio: float
    ratio_low: float
    ratio_high: float
    p_value: float
    wins: int
    losses: int
    ties: int
    verdict: str


def _strategy_stats(s: Any) -> StrategyStats:
    sc = s.score
    w = s.wins
    return StrategyStats(
        strategy=s.name, runs=sc.n, mean=sc.mean, ci_low=sc.ci_low, ci_high=sc.ci_high,
        median=sc.median, q1=sc.q1, q3=sc.q3, min=sc.min, max=sc.max,
        progress_median=s.progress.median, capped=s.capped, errors=s.errors,
        timeouts=s.timeouts, decision_p50_ms=s.decision_p50_ms,
        decision_p95_ms=s.decision_p95_ms,
        rank1_rate=None if w is None else w.rate,
        rank1_low=None if w is None else w.low,
        rank1_high=None if w is None else w.high,
    )  # fmt: skip


def _pair_stats(a: Analysis) -> list[PairStats]:
    by = {s.name: s for s in a.strategies}
    out = []
    for x, y, p in a.pairs:
        sx, sy = scores_by_seed(by[x].results), scores_by_seed(by[y].results)
        r = stats.ratio(sx, sy)
        out.append(
            PairStats(
                a=x, b=y, seeds=p.n, mean_diff=p.mean_diff, ci_low=p.ci_low,
                ci_high=p.ci_high, ratio=r.value, ratio_low=r.ci_low, ratio_high=r.ci_high,
                p_value=p.p_value, wins=p.better, losses=p.worse, ties=p.ties,
                verdict=compare(x, sx, y, sy).sentence(),
            )
        )  # fmt: skip
    return out


def _frame(records: list[dict[str, Any]], columns: list[str]) -> Any:
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "to_pandas() needs pandas, which sunbot does not install: pip install pandas"
        ) from None
    return pd.DataFrame.from_records(records, columns=columns)


def _names(cls: Any) -> list[str]:
    return [f.name for f in fields(cls)]


def _text_table(head: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: columns padded, the first left-aligned, the others right."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(head), *(line(r) for r in rows)])


class BenchResult(Sequence[Result]):
    """A benchmark's rows and their statistics (see the module docstring).

    As a sequence it is its rows (``len(result)``, ``result[0]``, ``for row in result``),
    seed by seed and each seed's strategies in the order given.

    Attributes:
        game: the game's slug.
        cap: the runs' cap (voyages or days), ``None`` for none.
        rows: one :data:`sunbot.BenchRow` per job.
        strategies: one :class:`StrategyStats` per strategy, in the order given.
        pairs: one :class:`PairStats` per pair of strategies, in the order given.
        verdict: one sentence: the best strategy against the next best, paired on their
            common seeds, and how sure that is (:func:`sunbot.bench.verdict.bench_verdict`).
    """

    def __init__(
        self, game: str, rows: list[Result], analysis: Analysis, verdict: str, cap: int | None
    ) -> None:
        self.game = game
        self.cap = cap
        self.rows = rows
        self.analysis = analysis
        self.strategies = [_strategy_stats(s) for s in analysis.strategies]
        self.pairs = _pair_stats(analysis)
        self.verdict = verdict

    @overload
    def __getitem__(self, index: int) -> Result: ...
    @overload
    def __getitem__(self, index: slice) -> list[Result]: ...
    def __getitem__(self, index: int | slice) -> Result | list[Result]:
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.rows)

    def to_pandas(self, what: str = "strategies") -> Any:
        """A pandas ``DataFrame``: ``"strategies"`` (one row per strategy, the fields of
        :class:`StrategyStats`), ``"pairs"`` (one per pair, :class:`PairStats`) or
        ``"rows"`` (one per job, the fields of a bench row).

        Raises:
            ImportError: pandas is not installed (``pip install pandas``).
            ValueError: another ``what``.
        """
        if what == "strategies":
            return _frame([asdict(s) for s in self.strategies], _names(StrategyStats))
        if what == "pairs":
            return _frame([asdict(p) for p in self.pairs], _names(PairStats))
        if what == "rows":
            return _frame([r.to_row() for r in self.rows], [f.name for f in fields(Result)])
        raise ValueError(f"what must be 'strategies', 'pairs' or 'rows', got {what!r}")

    to_dataframe = to_pandas

    def summary(self) -> str:
        """The plain-text summary: the verdict, the per-strategy table and the paired
        table, with the command line's cells."""
        parts = [f"{self.game}: {self.verdict}", "", _text_table(*summary_rows(self.analysis))]
        if self.analysis.pairs:
            parts += ["", _text_table(*pair_rows(self.analysis))]
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        names = [s.strategy for s in self.strategies]
        return f"BenchResult(game={self.game!r}, rows={len(self.rows)}, strategies={names!r})"

    def _repr_html_(self) -> str:
        """The notebook view: the verdict, then the per-strategy and paired tables."""
        parts = [
            f"<p><b>{html.escape(self.game)}</b>: {html.escape(self.verdict)}</p>",
            html_table(*summary_rows(self.analysis)),
        ]
        if self.analysis.pairs:
            parts.append(html_table(*pair_rows(self.analysis)))
        return "\n".join(parts)


@dataclass(frozen=True)
class RatingStats:
    """One Harvest Watch entrant's rating after a tournament.

    Attributes:
        strategy: the entrant.
        mu, sigma: OpenSkill's skill estimate and its uncertainty (one standard deviation).
        low, high: ``mu -/+ 1.96 sigma``, the rating's 95% interval.
        ordinal: ``mu - 3 sigma``, the leaderboard's order.
        matches: matches the entrant sat in.
    """

    strategy: str
    mu: float
    sigma: float
    low: float
    high: float
    ordinal: float
    matches: int


@dataclass
class TournamentResult:
    """A tournament's standings and verdict.

    Attributes:
        game: the game's slug.
        ratings: Harvest Watch: one :class:`RatingStats` per entrant, by ordinal (highest
            first); empty for single-player games.
        ranking: single-player games: the paired ranking (:class:`sunbot.bench.ratings.PairedRank`,
            best mean first); empty for Harvest Watch.
        rows: every job's row (a match or a run).
        errors: ``"label: error"`` of each match (run) that ended on an error, left out.
        verdict: one sentence: who leads, and whether the lead is beyond the rating
            intervals (Harvest Watch) or clear on the shared seeds (single-player games).
    """

    game: str
    ratings: list[RatingStats] = field(default_factory=list)
    ranking: list[PairedRank] = field(default_factory=list)
    rows: list[Result] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    verdict: str = ""

    @staticmethod
    def rating_stats(ratings: Sequence[Rating]) -> list[RatingStats]:
        """:class:`RatingStats` of ``ratings``, in leaderboard order."""
        out = []
        for r in leaderboard_order(ratings):
            low, high = interval(r)
            out.append(RatingStats(r.strategy, r.mu, r.sigma, low, high, r.ordinal, r.matches))
        return out

    def _table(self) -> tuple[list[str], list[list[str]]]:
        if self.ratings:
            head = ["#", "strategy", "mu", "95% interval", "sigma", "ordinal", "matches"]
            return head, [
                [str(i), r.strategy, f"{r.mu:.2f}", f"[{r.low:.2f}, {r.high:.2f}]",
                 f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.matches)]
                for i, r in enumerate(self.ratings, start=1)
            ]  # fmt: skip
        head = ["#", "strategy", "seeds", "mean score", "minus the best", "95% CI", WLT, "p"]
        rows = []
        for r in self.ranking:
            p = r.vs_best
            row = [str(r.rank), r.strategy, str(r.seeds), num(r.mean)]
            if p is None:
                row += ["(best)", "-", "-", "-"]
            else:
                ci = "-" if math.isnan(p.ci_low) else f"[{num(p.ci_low)}, {num(p.ci_high)}]"
                pv = "-" if math.isnan(p.p_value) else f"{p.p_value:.3g}"
                row += [num(p.mean_diff), ci, wlt(p.better, p.worse, p.ties), pv]
            rows.append(row)
        return head, rows

    def to_pandas(self) -> Any:
        """A pandas ``DataFrame``: one row per entrant (Harvest Watch: the fields of
        :class:`RatingStats`; single-player: strategy, rank, seeds, mean and the paired
        difference to the best with its CI, p and W-L-T).

        Raises:
            ImportError: pandas is not installed (``pip install pandas``).
        """
        if self.ratings or not self.ranking:
            return _frame([asdict(r) for r in self.ratings], _names(RatingStats))
        cols = ["strategy", "rank", "seeds", "mean", "minus_best", "ci_low", "ci_high"]
        cols += ["p_value", "wins", "losses", "ties", "seed_wins"]
        nan = math.nan
        records: list[dict[str, Any]] = []
        for r in self.ranking:
            p = r.vs_best
            records.append(
                dict(zip(cols, [
                    r.strategy, r.rank, r.seeds, r.mean,
                    *((0.0, nan, nan, nan, None, None, None) if p is None else
                      (p.mean_diff, p.ci_low, p.ci_high, p.p_value, p.better, p.worse, p.ties)),
                    r.wins,
                ], strict=True))
            )  # fmt: skip
        return _frame(records, cols)

    to_dataframe = to_pandas

    def summary(self) -> str:
        """The plain-text summary: the verdict and the standings."""
        return f"{self.game}: {self.verdict}\n\n{_text_table(*self._table())}"

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        """The notebook view: the verdict, then the standings."""
        return (
            f"<p><b>{html.escape(self.game)}</b>: {html.escape(self.verdict)}</p>\n"
            + html_table(*self._table())
        )
