"""JSON Lines transcripts: one object a line, flushed as each line is written.

Schema version 1 (documented in ``docs/transcripts.md``):

- ``{"type": "header", "schemaVersion", "game", "seed", "strategy", "server",
  "sunbotVersion", "startedAt"}``: first line.
- ``{"type": "init", "response", "mirror": {"ok", "divergences"}, "elapsedMs"}``: the init
  answer, as received.
- ``{"type": "step", "index", "action", "response", "mirror": {"ok", "divergences"},
  "elapsedMs"}``: one per action sent (index from 1), refused ones included.
- ``{"type": "result", "score", "gameOver", "steps", "divergences", "endedBy", ...}``: last line.

A run that stops early (an error, a kill) leaves every whole line readable; the reader
stops at the first broken line and says where.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sunbot.games import GAMES
from sunbot.transcripts.bounds import MAX_LINE_BYTES
from sunbot.transcripts.stream import TranscriptLines, check_regular_file
from sunbot.transcripts.writer import (
    MIB,
    NON_FINITE_KEY,
    NoHeader,
    TranscriptBusy,
    TranscriptWriter,
    encode_line,
    is_unstarted,
    loads_line,
)

DEFAULT_DIR = Path("transcripts")


def default_path(
    game: str,
    seed: int | None,
    strategy: str,
    directory: Path = DEFAULT_DIR,
    *,
    match_id: str | None = None,
) -> Path:
    """``transcripts/<game>-seed<N>-<strategy>-<UTC timestamp>.jsonl``; a strategy given as
    ``path/to/bot.py:Cls`` appears as ``path_to_bot.py_Cls`` (one file name, no folders).
    A joined match (``match_id``; its seed is the creator's, not ours) is named by its id:
    ``<game>-match-<id>-<strategy>-<timestamp>.jsonl``."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    safe = file_name_part(strategy) or "strategy"
    run = (
        f"match-{file_name_part(match_id)[:40] or 'id'}" if match_id is not None else f"seed{seed}"
    )
    return directory / f"{game}-{run}-{safe}-{stamp}.jsonl"


def file_name_part(text: str) -> str:
    """``text`` as one flat file-name part: each run of characters other than letters,
    digits, ``.``, ``_`` and ``-`` becomes ``_``, and leading or trailing ``.``/``_`` go
    (so no folders and no ``..``); may be empty."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")


@dataclass
class Transcript:
    """A transcript as read back: its records by type, and how reading ended.

    ``error`` is ``None`` for a whole file, else a message naming the first unreadable line
    (everything before it is kept). That line is either the end of a **cut** file (the last
    line: a run killed mid-write, or still being written) or a **corrupt** line in the
    middle: ``corrupt`` is then true and ``lines_after`` counts the non-blank lines after
    it, which are not read. A last line of JSON ended by its end of line that is not a
    valid record is corrupt too (``lines_after`` 0): it was written whole, then edited.
    ``resume_at`` is the byte offset just after the last
    whole init or step line: where a resumed run continues writing.
    """

    header: dict[str, Any]
    init: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    other: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    resume_at: int = 0
    corrupt: bool = False
    lines_after: int = 0
    #: The file's line number of the init line and of each step line (``steps`` order);
    #: empty for a transcript not read from a file.
    init_line: int | None = None
    step_lines: list[int] = field(default_factory=list)

    @property
    def views(self) -> list[dict[str, Any]]:
        """The ``view`` lines of a match transcript, in order."""
        return [r for r in self.other if r["type"] == "view"]

    @property
    def is_match(self) -> bool:
        """A transcript of a match game (by the games table; by its lines if unknown)."""
        game = GAMES.get(str(self.header.get("game")))
        return game.kind == "match" if game is not None else bool(self.views)


def read_transcript(path: Path) -> Transcript:
    """Read and validate a transcript, keeping every whole valid line up to the first bad one.

    Each line is checked against the schema (:mod:`sunbot.transcripts.schema`); a broken,
    cut or invalid line stops the reading there, and :attr:`Transcript.error` says which
    line and why: a cut (the last line) or a corrupt line in the middle
    (:attr:`Transcript.corrupt`: more lines follow it). A line longer than
    :data:`MAX_LINE_BYTES` is such a bad line, read no further than the cap.

    Raises:
        ValueError: not a regular file, the file is empty, or its first line is not a valid
            transcript header.
        OSError: the file cannot be read.
    """
    lines = TranscriptLines(path, fill_repeats=False)
    read = list(lines)
    out = Transcript(header=read[0][1], error=lines.error, resume_at=lines.resume_at)
    out.corrupt, out.lines_after = lines.corrupt, lines.lines_after
    for number, rec in read[1:]:
        kind = rec["type"]
        if kind == "init":
            out.init, out.init_line = rec, number
        elif kind == "step":
            out.steps.append(rec)
            out.step_lines.append(number)
        elif kind == "result":
            out.result = rec
        else:
            out.other.append(rec)
    _fill_repeats(out.other)
    return out


def _fill_repeats(records: list[dict[str, Any]]) -> None:
    """Give each ``view`` line written as ``sameAs`` (a repeat of an earlier view of its
    seat, ``docs/transcripts.md``) that earlier line's body, so every reader sees the view
    read; a reference to no earlier view line of that seat is left without a body."""
    bodies: dict[tuple[Any, Any], Any] = {}
    for rec in records:
        if rec["type"] != "view":
            continue
        if rec.get("body") is None and rec.get("sameAs") is not None:
            rec["body"] = bodies.get((rec.get("seat"), rec["sameAs"]))
        elif rec.get("body") is not None:
            bodies[(rec.get("seat"), rec.get("index"))] = rec["body"]


__all__ = [
    "DEFAULT_DIR",
    "MAX_LINE_BYTES",
    "MIB",
    "NON_FINITE_KEY",
    "NoHeader",
    "Transcript",
    "TranscriptBusy",
    "TranscriptWriter",
    "check_regular_file",
    "default_path",
    "encode_line",
    "file_name_part",
    "is_unstarted",
    "loads_line",
    "read_transcript",
]
