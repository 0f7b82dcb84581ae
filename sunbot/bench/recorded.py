"""Bench rows from transcripts: runs and matches played elsewhere, rated beside strategies.

An agent sunbot cannot run itself (an assistant that played over MCP, ``sunbot mcp``) still
leaves transcripts. ``sunbot tournament GAME --transcripts DIR`` reads them with
:func:`read_recorded` and stores each finished one as the row its job would have made, so
the tournament's standings (paired scores on the same seeds, or OpenSkill ratings of
matches) take the recorded entrant beside the strategies it plays itself:

- a single-player run is a row of the header's strategy label (``mcp:LABEL``) on its seed
  and cap; only a run that ended by the rules or its cap counts (an interrupted or failed
  run has no score);
- a Harvest Watch match whose header names its lineup seat by seat (``A,B,mcp:LABEL,...``,
  as ``sunbot mcp`` writes it) is a row of a lineup job (:func:`~sunbot.bench.tournament.draw_job`)
  with every seat's final rank; a match without final ranks is left out.

Every transcript is read in file-name order, its lines checked by the reader
(:func:`~sunbot.transcripts.jsonl.read_transcript`); one that cannot be used is named in
:attr:`Recorded.skipped` with the reason, never silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot.bench.jobs import LINEUP_SEATING, MATCH_SEATS, Result
from sunbot.games import GameInfo
from sunbot.transcripts.jsonl import read_transcript

__all__ = ["Recorded", "read_recorded"]

#: Transcripts one folder may hold for :func:`read_recorded`.
MAX_FILES = 100_000


@dataclass
class Recorded:
    """What a folder of transcripts holds for one game.

    Attributes:
        rows: one per usable run or match, in file-name order (a seed a label already
            played is kept once: the first).
        lineups: matches: each row's six seats (``rows`` order).
        skipped: ``(file name, why)`` of each transcript of the game left out.
        other_games: transcripts of other games (not an error: a shared folder).
    """

    rows: list[Result] = field(default_factory=list)
    lineups: list[tuple[str, ...]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    other_games: int = 0

    @property
    def labels(self) -> list[str]:
        """The entrants the transcripts add, in first-seen order (matches: every seat's)."""
        names = (n for lineup in self.lineups for n in lineup) if self.lineups else None
        if names is None:
            names = (r.strategy for r in self.rows)
        return list(dict.fromkeys(names))

    @property
    def caps(self) -> set[int | None]:
        """The caps of the single-player rows."""
        return {r.cap for r in self.rows}


def read_recorded(folder: Path, info: GameInfo) -> Recorded:
    """The finished runs (matches) of ``info``'s game recorded in ``folder``'s ``*.jsonl``.

    Raises:
        ValueError: ``folder`` is not a folder, or holds more than :data:`MAX_FILES`
            transcripts.
    """
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder of transcripts")
    paths = sorted(folder.glob("*.jsonl"))
    if len(paths) > MAX_FILES:
        raise ValueError(f"{folder} holds more than {MAX_FILES:,} transcripts")
    out = Recorded()
    seen: set[tuple[str, str, int]] = set()
    for path in paths:
        try:
            t = read_transcript(path)
        except (ValueError, OSError) as exc:
            out.skipped.append((path.name, str(exc)))
            continue
        if t.header.get("game") != info.slug:
            out.other_games += 1
            continue
        try:
            row, lineup = _row(info, t.header, t.result, _final(t.steps, t.init))
        except ValueError as exc:
            out.skipped.append((path.name, str(exc)))
            continue
        key = (row.strategy, row.table, row.seed)
        if key in seen:
            out.skipped.append((path.name, f"{row.strategy} on seed {row.seed} is counted once"))
            continue
        seen.add(key)
        out.rows.append(row)
        if lineup:
            out.lineups.append(lineup)
    return out


def _final(steps: list[dict[str, Any]], init: dict[str, Any] | None) -> dict[str, Any]:
    """The last accepted answer's state (or observation) of a single-player transcript."""
    answers = [init["response"]] if init is not None else []
    answers += [s["response"] for s in steps if s["response"].get("ok") is not False]
    last = answers[-1] if answers else {}
    state = last.get("state") if isinstance(last.get("state"), dict) else last.get("observation")
    return state if isinstance(state, dict) else {}


def _row(
    info: GameInfo,
    header: dict[str, Any],
    result: dict[str, Any] | None,
    final: dict[str, Any],
) -> tuple[Result, tuple[str, ...]]:
    """The row (and, for a match, the lineup) of one transcript.

    Raises:
        ValueError: why it cannot be rated (no result line, not finished, no seed, a
            match header that does not name six seats, ranks that are not six).
    """
    if result is None:
        raise ValueError("no result line (a run still going, or cut)")
    ended = str(result.get("endedBy"))
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("no seed in its header (a joined match)")
    base: dict[str, Any] = {
        "game": info.slug, "seed": seed, "error": None,
        "refused": int(result.get("refused") or 0), "decision_p50_ms": None,
        "decision_p95_ms": None, "wall_s": float(result.get("elapsedMs") or 0) / 1000,
        "version": str(header.get("sunbotVersion", "")),
        "timeouts": int(result.get("timeouts") or 0),
    }  # fmt: skip
    if info.kind != "match":
        if ended not in ("rules", "cap"):
            raise ValueError(f"ended by {ended}: no score to rate")
        progress = final.get(info.cap_field or "day", 0)
        steps = int(result.get("steps") or 0)
        row = Result(
            **base, strategy=str(header.get("strategy")), cap=header.get("cap"),
            cause=result.get("cause"),
            score=result.get("score", 0), progress=progress if type(progress) is int else 0,
            progress_field=info.cap_field or "day", ended_by=ended,  # type: ignore[arg-type]
            steps=steps, decisions=steps, seat=None, rank=None, table="", seating="",
            lineup="", win_share=None,
        )  # fmt: skip
        return row, ()
    lineup = tuple(str(header.get("strategy", "")).split(","))
    if len(lineup) != MATCH_SEATS or not all(lineup):
        raise ValueError("its header does not name the strategy of each of the six seats")
    ranks = result.get("ranks")
    if not isinstance(ranks, list) or len(ranks) != MATCH_SEATS or ended != "rules":
        raise ValueError(f"the match did not finish (ended by {ended})")
    if not all(type(r) is int and 1 <= r <= MATCH_SEATS for r in ranks):
        raise ValueError("its final ranks are not six ranks from 1 to 6")
    mine = ranks[0]
    cause = "lost" if mine != 1 else "win" if ranks.count(1) == 1 else "draw"
    row = Result(
        **base, strategy=lineup[0], cause=cause, cap=None, score=sum(r > mine for r in ranks),
        progress=0, progress_field="day", ended_by="rules", steps=int(result.get("steps") or 0),
        decisions=0, seat=0, rank=mine, table=",".join(lineup[1:]), seating=LINEUP_SEATING,
        lineup=",".join(lineup), ranks=",".join(map(str, ranks)),
        win_share=1.0 / ranks.count(1) if mine == 1 else 0.0,
    )  # fmt: skip
    return row, lineup
