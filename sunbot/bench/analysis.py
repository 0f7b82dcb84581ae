"""A benchmark's statistics, computed once from its result rows: :func:`analyse`.

Per strategy (or strategy and Harvest Watch table): score and progress summaries, the
survival curve, errors, caps, decision times and, for matches, rank-1 rates; per pair of
strategies, the paired comparison on their common seeds. The terminal tables and the HTML
report (:mod:`sunbot.bench.report`, drawn by :mod:`sunbot.bench.plots`) all read this.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from sunbot.bench import stats
from sunbot.bench.jobs import Result, group_of


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


def analyse(game: str, results: Sequence[Result], order: Sequence[str]) -> Analysis:
    """Statistics of ``results`` per group (in ``order``) and for each pair of groups.

    A group is a strategy, or a strategy and its Harvest Watch table
    (:func:`~sunbot.bench.jobs.group_of`: ``"coalition vs 5 guard"``).
    """
    by_name: dict[str, list[Result]] = {name: [] for name in order}
    for r in results:
        by_name.setdefault(group_of(r), []).append(r)
    horizon = max((r.progress for r in results), default=0)
    field_name = results[0].progress_field if results else "day"
    out: list[StrategyStats] = []
    for name, every in by_name.items():
        rows = [r for r in every if r.ended_by != "error"]  # an errored job has no score
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
        (a.name, b.name, stats.paired(scores_by_seed(a.results), scores_by_seed(b.results)))
        for a, b in itertools.combinations(out, 2)
    ]
    return Analysis(game, field_name, out, pairs)


def _first_error(rows: Sequence[Result]) -> str | None:
    """``seed N: error`` of the lowest-seeded errored row, or ``None``."""
    if not rows:
        return None
    first = min(rows, key=lambda r: r.seed)
    return f"seed {first.seed}: {first.error}"


def scores_by_seed(rows: Sequence[Result]) -> dict[int, float]:
    """Seed -> score of ``rows`` (the pairing key of :func:`sunbot.bench.stats.paired`)."""
    return {r.seed: float(r.score) for r in rows}
