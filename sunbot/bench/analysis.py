"""A benchmark's statistics, computed once from its result rows: :func:`analyse`.

Per strategy (or strategy and Harvest Watch table): score and progress summaries, the
survival curve, errors, caps, decision times and, for matches, rank-1 rates; per pair of
strategies, the paired comparison on their common seeds. The tables' text is made here too
(:func:`summary_rows`, :func:`pair_rows`, :func:`compare_rows`), so the terminal tables
(:mod:`sunbot.cli.bench_output`) and the HTML report (:mod:`sunbot.bench.report`, drawn by
:mod:`sunbot.bench.plots`) show the same cells.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

import sunbot.bench.stats as stats
from sunbot.bench.costs import COST_HEAD, cost_cells, cost_of
from sunbot.bench.jobs import Result, group_of

#: A table as text: its head and its rows, one string per cell.
Rows = tuple[list[str], list[list[str]]]


@dataclass
class StrategyStats:
    """One strategy's rows and their statistics.

    ``results`` are the rows that ended without an error: every statistic (score, progress,
    wins, the paired comparisons) is theirs alone. Errored jobs are only counted
    (``errors``); ``first_error`` is the lowest seed's error message.

    Match games: ``wins`` counts rank-1 finishes (sole wins and draws, spec §3.9; the
    project's Harvest Watch figures use the same rate) with its Wilson interval, ``sole``
    the sole wins, ``draws`` the shared rank 1s.
    """

    name: str
    results: list[Result]
    score: stats.Summary
    progress: stats.Summary
    survival: tuple[NDArray[np.int64], NDArray[np.float64]]
    errors: int
    capped: int
    decision_p50_ms: float
    decision_p95_ms: float
    timeouts: int = 0
    wins: stats.WinRate | None = None
    sole: int = 0
    draws: int = 0
    first_error: str | None = None


@dataclass
class Analysis:
    """Every strategy's statistics, and ``a - b`` for each pair in the order given."""

    game: str
    progress_field: str
    strategies: list[StrategyStats]
    pairs: list[tuple[str, str, stats.Paired]] = field(default_factory=list)
    #: The game's served spec says a lower score is better (:attr:`order_said`: where).
    lower_is_better: bool = False
    order_said: str = ""


def analyse(
    game: str,
    results: Sequence[Result],
    order: Sequence[str],
    *,
    lower_is_better: bool = False,
    order_said: str = "",
) -> Analysis:
    """Statistics of ``results`` per group (in ``order``) and for each pair of groups.

    A group is a strategy, or a strategy and its Harvest Watch table
    (:func:`~sunbot.bench.jobs.group_of`: ``"coalition vs 5 guard"``). ``lower_is_better``
    (a game whose served spec says so, ``order_said`` quoting where): the verdict names the
    lower mean the better (:func:`sunbot.bench.verdict.bench_verdict`).
    """
    by_name: dict[str, list[Result]] = {name: [] for name in order}
    for r in results:
        by_name.setdefault(group_of(r), []).append(r)
    horizon = max((r.progress for r in results), default=0)
    field_name = results[0].progress_field if results else "day"
    out: list[StrategyStats] = []
    for name, every in by_name.items():
        # an errored or timed-out job has no score
        rows = [r for r in every if r.ended_by not in ("error", "timeout")]
        errored = [r for r in every if r.ended_by == "error"]
        p50 = [r.decision_p50_ms for r in rows if r.decision_p50_ms is not None]
        p95 = [r.decision_p95_ms for r in rows if r.decision_p95_ms is not None]
        s = StrategyStats(
            name=name,
            results=rows,
            score=stats.summarize([r.score for r in rows]),
            progress=stats.summarize([r.progress for r in rows]),
            survival=stats.survival([r.progress for r in rows], horizon),
            errors=len(errored),
            timeouts=sum(r.ended_by == "timeout" for r in every),
            first_error=_first_error(errored),
            capped=sum(r.ended_by == "cap" for r in rows),
            decision_p50_ms=float(np.median(p50)) if p50 else math.nan,
            decision_p95_ms=float(np.median(p95)) if p95 else math.nan,
        )
        if any(r.rank is not None for r in rows):
            s.wins = stats.win_rate(sum(r.rank == 1 for r in rows), len(rows))
            s.sole = sum(r.cause == "win" for r in rows)
            s.draws = sum(r.cause == "draw" for r in rows)
        out.append(s)
    pairs = [
        (a.name, b.name, _won_lost(stats.paired(scores_by_seed(a.results),
                                                scores_by_seed(b.results)), lower_is_better,
                                   a.results, b.results))
        for a, b in itertools.combinations(out, 2)
    ]  # fmt: skip
    return Analysis(game, field_name, out, pairs, lower_is_better, order_said)


def _won_lost(
    p: stats.Paired,
    lower_is_better: bool,
    a_rows: Sequence[Result] = (),
    b_rows: Sequence[Result] = (),
) -> stats.Paired:
    """``p`` with its seeds won and lost counted in the game's direction: where a lower
    score is better, ``a`` won the seeds it scored less on, and a seed where only one of
    the two finished by the rules (the other stopped at the cap: its score is no final
    score) is won by the one that finished, as the verdict judges it. The mean difference,
    its CI and the Wilcoxon p stay ``a - b`` as scored."""
    if not lower_is_better:
        return p
    done_a, done_b = finished_by_seed(a_rows), finished_by_seed(b_rows)
    seeds = set(done_a) & set(done_b)
    if not any(done_a[s] != done_b[s] for s in seeds):
        return dataclasses.replace(p, better=p.worse, worse=p.better)
    score_a, score_b = scores_by_seed(a_rows), scores_by_seed(b_rows)
    won = lost = 0
    for s in seeds:
        fin_a, fin_b = done_a[s], done_b[s]
        if fin_a != fin_b:
            won, lost = (won + 1, lost) if fin_a else (won, lost + 1)
        elif score_a[s] != score_b[s]:
            won, lost = (won + 1, lost) if score_a[s] < score_b[s] else (won, lost + 1)
    return dataclasses.replace(p, better=won, worse=lost, ties=len(seeds) - won - lost)


def _first_error(rows: Sequence[Result]) -> str | None:
    """``seed N: error`` of the lowest-seeded errored row, or ``None``."""
    if not rows:
        return None
    first = min(rows, key=lambda r: r.seed)
    return f"seed {first.seed}: {first.error}"


def scores_by_seed(rows: Sequence[Result]) -> dict[int, float]:
    """Seed -> score of ``rows`` (the pairing key of :func:`sunbot.bench.stats.paired`)."""
    return {r.seed: float(r.score) for r in rows}


def finished_by_seed(rows: Sequence[Result]) -> dict[int, bool]:
    """Seed -> whether that run ended by the rules (not at its cap): where a lower score is
    better, only such a run's score is final."""
    return {r.seed: r.ended_by == "rules" for r in rows}


def num(x: float) -> str:
    """A number for tables: ``-`` for nan, thousands separators from 100 up."""
    if math.isnan(x):
        return "-"
    return f"{x:,.0f}" if abs(x) >= 100 or x == int(x) else f"{x:.2f}"


def _ms(p50: float, p95: float) -> str:
    """``choose`` time percentiles, ``0.025/0.037``; ``-`` when no job timed one (every
    job of the group errored)."""
    return "-" if math.isnan(p50) or math.isnan(p95) else f"{p50:.3f}/{p95:.3f}"


def ci(low: float, high: float) -> str:
    """A confidence interval for tables: ``[1.20, 3.40]``; ``-`` when undefined (nan)."""
    return "-" if math.isnan(low) else f"[{num(low)}, {num(high)}]"


#: The column head of win/loss/tie counts: one notation in every bench and tournament table.
WLT = "W-L-T"


def wlt(wins: int, losses: int, ties: int) -> str:
    """``"12-5-3"``: wins, losses and ties, in that order (the :data:`WLT` notation)."""
    return f"{wins}-{losses}-{ties}"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _mean_ci(s: stats.Summary) -> str:
    return f"{num(s.mean)} {ci(s.ci_low, s.ci_high)}"


def summary_rows(a: Analysis) -> Rows:
    """Per strategy: runs, mean score with 95% CI, median, quartiles, progress, capped and
    errored runs, decision times; for matches also rank-1 rates, win share and mean rank;
    for a language model also tokens and USD per run and per decision and the score per USD
    (:mod:`sunbot.bench.costs`); for a search its lookahead requests per decision."""
    head = ["strategy", "runs", "mean score", "95% CI", "median", "Q1-Q3"]
    timeouts = any(s.timeouts for s in a.strategies)
    ended = "capped/errors/timeouts" if timeouts else "capped/errors"
    head += [f"{a.progress_field} (median)", ended, "choose ms p50/p95"]
    matches = any(s.wins is not None for s in a.strategies)
    if matches:
        head += ["rank 1", "rank-1 rate [95% Wilson]", "sole wins/draws", "win share"]
        head += ["mean rank"]
    model = any(r.tokens is not None for s in a.strategies for r in s.results)
    if model:
        head += COST_HEAD
    looked = any(r.requests is not None for s in a.strategies for r in s.results)
    if looked:
        head += ["requests/decision"]
    rows = []
    for s in a.strategies:
        sc = s.score
        row = [s.name, str(sc.n), num(sc.mean), ci(sc.ci_low, sc.ci_high), num(sc.median)]
        ends = f"{s.capped}/{s.errors}" + (f"/{s.timeouts}" if timeouts else "")
        row += [f"{num(sc.q1)}-{num(sc.q3)}", num(s.progress.median), ends]
        row += [_ms(s.decision_p50_ms, s.decision_p95_ms)]
        if matches:
            w = s.wins or stats.win_rate(0, 0)
            ranks = [r.rank for r in s.results if r.rank is not None]
            mean_rank = float(np.mean(ranks)) if ranks else math.nan
            row += [str(w.wins), f"{_pct(w.rate)} [{_pct(w.low)}, {_pct(w.high)}]"]
            shares = [r.win_share for r in s.results if r.win_share is not None]
            share = _pct(float(np.mean(shares))) if shares else "-"
            row += [f"{s.sole}/{s.draws}", share, num(mean_rank)]
        if model:
            row += cost_cells(cost_of(s.results))
        if looked:
            row += [requests_per_decision(s.results)]
        rows.append(row)
    return head, rows


def requests_per_decision(rows: Sequence[Result]) -> str:
    """The lookahead requests a decision sent, over ``rows`` (``-`` without a lookahead):
    all their requests over all their decisions."""
    looked = [r for r in rows if r.requests is not None]
    decisions = sum(r.decisions for r in looked)
    if not looked or not decisions:
        return "-"
    return f"{sum(r.requests or 0 for r in looked) / decisions:.1f}"


def pair_rows(a: Analysis) -> Rows:
    """Each pair of strategies on their common seeds: mean difference, CI, A's seeds won,
    lost and tied against B (:data:`WLT`), Wilcoxon p."""
    head = ["A - B", "seeds", "mean diff", "95% CI", f"A vs B {WLT}", "Wilcoxon p"]
    rows = [
        [
            f"{x} - {y}",
            str(p.n),
            num(p.mean_diff),
            ci(p.ci_low, p.ci_high),
            wlt(p.better, p.worse, p.ties),
            "-" if math.isnan(p.p_value) else f"{p.p_value:.3g}",
        ]
        for x, y, p in a.pairs
    ]
    return head, rows


def compare_rows(a: Analysis, b: Analysis) -> Rows:
    """Two stored runs side by side (``a`` is run A), per strategy; ``B - A`` paired on their
    common seeds."""
    head = ["strategy", "runs A", "mean A [95% CI]", "runs B", "mean B [95% CI]"]
    head += ["median A/B", "B - A (paired)", "95% CI", "Wilcoxon p"]
    rows: list[list[str]] = []
    left = {s.name: s for s in a.strategies}
    right = {s.name: s for s in b.strategies}
    for name in [*left, *(n for n in right if n not in left)]:
        sa, sb = left.get(name), right.get(name)
        cells = [name]
        for s in (sa, sb):
            cells += ["0", "-"] if s is None else [str(s.score.n), _mean_ci(s.score)]
        medians = [num(s.score.median) if s else "-" for s in (sa, sb)]
        cells.append(" / ".join(medians))
        if sa is not None and sb is not None:
            p = stats.paired(scores_by_seed(sb.results), scores_by_seed(sa.results))
            pv = "-" if math.isnan(p.p_value) else f"{p.p_value:.3g}"
            cells += [f"{num(p.mean_diff)} on {p.n}", ci(p.ci_low, p.ci_high), pv]
        else:
            cells += ["-", "-", "-"]
        rows.append(cells)
    return head, rows
