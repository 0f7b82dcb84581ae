"""A tournament's standings from its stored bench rows, and how they are shown.

- :func:`match_standings` (Harvest Watch): each drawn match's row back as a
  :class:`~sunbot.bench.tournament.MatchResult`, OpenSkill ratings and the crosstable; a
  match whose row ended on an error is left out and listed in :attr:`Standings.errors`.
- :func:`paired_standings` (single-player games): the paired ranking and the win matrix of
  the rows that finished; errored runs are listed likewise (their seed drops out for every
  entrant, :func:`~sunbot.bench.ratings.rank_paired`).

:class:`Standings` gives the JSON object of ``--json`` (:meth:`~Standings.json`) and the
report page (:meth:`~Standings.write`); the terminal tables are
:mod:`sunbot.cli.tournament_output`'s. Every entrant name and error text is outside text:
tables print it as plain text, the page escapes it, errors are clipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot._text.safe import clip
from sunbot.bench.costs import Cost, cost_of
from sunbot.bench.jobs import Job, Result, entrant, job_key
from sunbot.bench.ratings import (
    Crosstable,
    PairedRank,
    Rating,
    crosstable,
    leaderboard_json,
    paired_json,
    paired_win_matrix,
    rank_paired,
    rate_matches,
    scores_of,
)
from sunbot.bench.tournament import MatchResult, TableDraw, draw_job, match_result
from sunbot.bench.tournament_report import write_tournament_report

#: Errored matches (runs) listed one by one in :meth:`Standings.json`; the rest are counted.
MAX_LISTED_ERRORS = 100
#: Errored matches (runs) the report page names.
PAGE_ERRORS = 10

Key = tuple[str, str, int]
#: How rows without a score ended: on an error, or stopped at a bench ``--job-timeout``
#: (a run label shared with ``sunbot bench``).
NO_SCORE = ("error", "timeout")


@dataclass(frozen=True)
class Errored:
    """A match (``match`` its index, ``lineup`` its seats) or run (``strategy``) that ended
    on an error, on ``seed``; ``error`` is the row's one-line reason, clipped."""

    seed: int
    error: str
    match: int | None = None
    lineup: tuple[str, ...] = ()
    strategy: str | None = None

    def label(self) -> str:
        """``match 3 (seed 4)`` or ``balancer on seed 4``."""
        if self.match is not None:
            return f"match {self.match} (seed {self.seed})"
        return f"{self.strategy} on seed {self.seed}"

    def to_json(self) -> dict[str, Any]:
        """``{"match", "seed", "lineup", "error"}`` or ``{"strategy", "seed", "error"}``."""
        if self.match is not None:
            return {"match": self.match, "seed": self.seed, "lineup": list(self.lineup),
                    "error": self.error}  # fmt: skip
        return {"strategy": self.strategy, "seed": self.seed, "error": self.error}


@dataclass
class Standings:
    """A tournament's outcome.

    Attributes:
        game: the game's slug.
        kind: ``"match"`` (Harvest Watch: ratings) or ``"single"`` (paired ranking).
        meta: label -> value lines for the report page.
        scheduled: jobs the tournament holds (matches, or entrants x seeds).
        played: of those, the ones whose rows are stored.
        errors: the stored ones that ended on an error (left out of the standings).
        ratings, table, matches: Harvest Watch: the leaderboard, crosstable, rated matches.
        ranking, wins: single-player games: the paired ranking and the win matrix.
        failed: why nothing could be ranked (no seed every entrant finished), else ``None``.
        costs: a language model's spend by entrant (its rows' tokens and USD,
            :mod:`sunbot.bench.costs`); empty when no entrant is one.
    """

    game: str
    kind: str
    meta: dict[str, str]
    scheduled: int
    played: int
    errors: list[Errored] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    table: Crosstable | None = None
    matches: list[MatchResult] = field(default_factory=list)
    ranking: list[PairedRank] = field(default_factory=list)
    wins: Crosstable | None = None
    failed: str | None = None
    costs: dict[str, Cost] = field(default_factory=dict)

    @property
    def unit(self) -> str:
        """``match`` (Harvest Watch) or ``run``."""
        return "match" if self.kind == "match" else "run"

    def json(self, run: str, report: Path | None) -> dict[str, Any]:
        """The ``--json`` object: Harvest Watch ``{"ratings": [{"strategy", "mu", "sigma",
        "ordinal", "matches"}, ...], "crosstable": {row: {column: {"ahead", "level",
        "behind", "meetings"}}}, "run", "game", "matches": {"scheduled", "rated",
        "errored"}, "errors": [{"match", "seed", "lineup", "error"}], "report"}``;
        single-player ``{"ranking": [...], "wins": {...}, "run", "game", "runs":
        {"scheduled", "ranked", "errored"}, "errors": [{"strategy", "seed", "error"}],
        "report", "error"}`` (:func:`~sunbot.bench.ratings.paired_json`; ``error`` says why
        nothing was ranked, else ``null``). ``errors`` lists at most
        :data:`MAX_LISTED_ERRORS`; ``report`` is the page's path or ``null``. Plain JSON
        values only (no NaN)."""
        listed = [e.to_json() for e in self.errors[:MAX_LISTED_ERRORS]]
        tail: dict[str, Any] = {"run": run, "game": self.game}
        errored = len(self.errors)
        if self.kind == "match":
            standings = leaderboard_json(self.ratings, self.table or {})
            tail["matches"] = {
                "scheduled": self.scheduled,
                "rated": len(self.matches),
                "errored": errored,
            }
        else:
            standings = paired_json(self.ranking, self.wins or {})
            tail["runs"] = {
                "scheduled": self.scheduled,
                "ranked": self.played - errored,
                "errored": errored,
            }
        tail |= {"errors": listed, "report": str(report) if report is not None else None}
        if self.kind != "match":
            tail["error"] = self.failed
        if self.costs:
            tail["costs"] = {name: _cost_json(c) for name, c in self.costs.items()}
        return {**standings, **tail}

    def write(self, where: Path) -> Path:
        """Write the report page ``where/tournament.html``
        (:func:`~sunbot.bench.tournament_report.write_tournament_report`; its errors)."""
        meta = dict(self.meta)
        if self.errors:
            named = self.errors[:PAGE_ERRORS]
            meta["left out"] = "; ".join(f"{e.label()}: {e.error}" for e in named)
            if len(self.errors) > PAGE_ERRORS:
                meta["left out"] += f"; and {len(self.errors) - PAGE_ERRORS:,} more"
        return write_tournament_report(
            where, self.game, meta, ratings=self.ratings, table=self.table,
            ranking=self.ranking, wins=self.wins, matches=self.matches, costs=self.costs,
        )  # fmt: skip


def _costs(rows: Iterable[Result | None]) -> dict[str, Cost]:
    """Each entrant's :class:`~sunbot.bench.costs.Cost` over its rows with tokens."""
    by: dict[str, list[Result]] = {}
    for r in rows:
        if r is not None and r.tokens is not None:
            by.setdefault(r.strategy, []).append(r)
    return {name: c for name, mine in by.items() if (c := cost_of(mine)) is not None}


def _cost_json(cost: Cost) -> dict[str, Any]:
    """A cost as plain JSON: runs, tokens, usd, decisions and the per-run, per-decision
    figures (``null`` where unknown)."""
    import math

    tokens, usd = cost.per_run()
    per_tokens, per_usd = cost.per_decision()

    def value(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 6)

    return {
        "runs": cost.runs, "tokens": cost.tokens, "usd": cost.usd, "decisions": cost.decisions,
        "tokensPerRun": value(tokens), "usdPerRun": value(usd),
        "tokensPerDecision": value(per_tokens), "usdPerDecision": value(per_usd),
        "scorePerUsd": value(cost.score_per_usd()),
    }  # fmt: skip


def match_standings(
    game: str,
    draws: Sequence[TableDraw],
    rows: Mapping[Key, Result],
    entrants: Sequence[str],
    meta: dict[str, str],
) -> Standings:
    """The Harvest Watch standings of ``draws`` from their stored ``rows`` (by
    :func:`~sunbot.bench.jobs.job_key`), matches applied in schedule order; every entrant
    is listed, one whose matches all failed at the starting rating."""
    out = Standings(game, "match", meta, scheduled=len(draws), played=0)
    for d in draws:
        row = rows.get(job_key(draw_job(d)))
        if row is None:
            continue
        out.played += 1
        result = match_result(row, d.match_index)
        if result is None:
            why = clip(row.error or "ended on an error")
            out.errors.append(Errored(d.seed, why, match=d.match_index, lineup=d.lineup))
        else:
            out.matches.append(result)
    out.costs = _costs(rows.get(job_key(draw_job(d))) for d in draws)
    out.ratings = rate_matches(out.matches, entrants=entrants)
    out.table = crosstable(out.matches)
    return out


def paired_standings(
    game: str, jobs: Sequence[Job], rows: Mapping[Key, Result], meta: dict[str, str]
) -> Standings:
    """The single-player standings of ``jobs`` from their stored ``rows``: the paired
    ranking on the seeds every entrant finished (``failed`` says why when there is none)."""
    found = [r for j in jobs if (r := rows.get(job_key(j))) is not None]
    out = Standings(game, "single", meta, scheduled=len(jobs), played=len(found))
    out.errors = [
        Errored(r.seed, clip(r.error or "ended on an error"), strategy=r.strategy)
        for r in found
        if r.ended_by in NO_SCORE
    ]
    scores = scores_of(r for r in found if r.ended_by not in NO_SCORE)
    out.costs = _costs(found)
    named = {r.strategy: entrant(r) for r in found}
    missing = [j.strategy for j in jobs if named.get(j.strategy, j.strategy) not in scores]
    try:
        if missing:
            raise ValueError(f"{clip(missing[0])} finished no run")
        out.ranking = rank_paired(scores)
        out.wins = paired_win_matrix(scores)
    except ValueError as exc:
        out.failed = f"nothing to rank: {exc}"
    return out
