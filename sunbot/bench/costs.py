"""What a language-model strategy spent, beside how well it played: tokens and money per
game and per decision, the score per dollar, and its decisions' health per phase, from the
stored bench rows (``tokens``, ``cost_usd``, ``decisions``, ``health``). Bench's and
tournament's tables show these cells next to the score or the rating."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sunbot.agents.health import Health
from sunbot.bench.jobs import Result

#: The cost columns, in the order tables show them.
COST_HEAD = ["tokens/run", "USD/run", "tokens/decision", "USD/decision", "score per USD"]


@dataclass(frozen=True)
class Cost:
    """A strategy's spend over ``runs`` rows that carry tokens: ``tokens``, ``usd``
    (``None`` without a price), ``decisions``, and the sum of their ``score``."""

    runs: int
    tokens: int
    usd: float | None
    decisions: int
    score: float

    def per_run(self) -> tuple[float, float]:
        """Mean tokens and USD a run (nan when unknown)."""
        usd = math.nan if self.usd is None else self.usd / self.runs
        return self.tokens / self.runs, usd

    def per_decision(self) -> tuple[float, float]:
        """Tokens and USD a decision (nan when unknown)."""
        if not self.decisions:
            return math.nan, math.nan
        usd = math.nan if self.usd is None else self.usd / self.decisions
        return self.tokens / self.decisions, usd

    def score_per_usd(self) -> float:
        """Mean score over mean cost a run: strength per dollar (nan without a price or
        at no cost)."""
        if self.usd is None or self.usd <= 0:
            return math.nan
        return (self.score / self.runs) / (self.usd / self.runs)


def cost_of(rows: Iterable[Result]) -> Cost | None:
    """The :class:`Cost` of the rows that carry tokens (a model's), ``None`` when none do."""
    mine = [r for r in rows if r.tokens is not None]
    if not mine:
        return None
    priced = [r.cost_usd for r in mine if r.cost_usd is not None]
    usd = sum(priced) if len(priced) == len(mine) else None
    return Cost(len(mine), sum(r.tokens or 0 for r in mine), usd,
                sum(r.decisions for r in mine), float(sum(r.score for r in mine)))  # fmt: skip


def _n(x: float, digits: int) -> str:
    return "-" if math.isnan(x) else f"{x:,.{digits}f}"


def cost_cells(cost: Cost | None) -> list[str]:
    """The :data:`COST_HEAD` cells of ``cost`` (``-`` where unknown)."""
    if cost is None:
        return ["-"] * len(COST_HEAD)
    tokens, usd = cost.per_run()
    per_tokens, per_usd = cost.per_decision()
    return [_n(tokens, 0), _n(usd, 4), _n(per_tokens, 0), _n(per_usd, 6),
            _n(cost.score_per_usd(), 1)]  # fmt: skip


def health_of(game: str, rows: Iterable[Result]) -> Health:
    """The summed per-phase health of rows that carry one."""
    health = Health()
    for r in rows:
        if r.health:
            try:
                health.add_counts(game, json.loads(r.health))
            except ValueError:
                continue
    return health


HEALTH_HEAD = ["strategy", "phase", "decisions", "illegal", "unparsable", "truncated", "late"]
HEALTH_HEAD += ["fallback"]


def health_rows(game: str, groups: Sequence[tuple[str, Sequence[Result]]]) -> list[list[str]]:
    """One row per strategy and phase: decisions and the share of each kind of bad one."""
    out = []
    for name, rows in groups:
        for row in health_of(game, rows).rows():
            cells = [name, row["phase"], str(row["decisions"])]
            cells += [f"{row[k]:.1%}" for k in HEALTH_HEAD[3:]]
            out.append(cells)
    return out


def over_fallback(
    game: str, groups: Sequence[tuple[str, Sequence[Result]]], threshold: float
) -> list[str]:
    """``strategy: game phase: fallback N% of M decisions`` for each phase over
    ``threshold``; ``[]`` when none is."""
    return [
        f"{name}: {line}"
        for name, rows in groups
        for line in health_of(game, rows).over("fallback", threshold)
    ]


__all__ = [
    "COST_HEAD",
    "HEALTH_HEAD",
    "Cost",
    "cost_cells",
    "cost_of",
    "health_of",
    "health_rows",
    "over_fallback",
]
