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

import contextlib
import json
import math
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from pydantic import ValidationError

try:  # POSIX: one writer per transcript
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]

import sunbot
from sunbot._text.atomic_write import WriteFailed
from sunbot._text.safe import scrub
from sunbot.games import GAMES
from sunbot.transcripts.schema import RECORD, SCHEMA_VERSION

DEFAULT_DIR = Path("transcripts")
MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest transcript line read (16 MiB). Real lines are a few KB (the largest in the
golden transcripts is under 6 KB); a longer line is reported as corrupt and never read
whole, so a file with no line ends cannot exhaust memory."""


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


NON_FINITE_KEY = "$nonFiniteNumber"
"""A JSON number that strict JSON cannot hold (``NaN``, ``Infinity``, ``-Infinity``, which a
server's answer may carry) is written as ``{"$nonFiniteNumber": "NaN"}`` and read back as the
float (docs/transcripts.md)."""
_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _mark_non_finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by its marker object."""
    if isinstance(value, float) and not math.isfinite(value):
        return {
            NON_FINITE_KEY: "NaN"
            if math.isnan(value)
            else ("Infinity" if value > 0 else "-Infinity")
        }
    if isinstance(value, dict):
        return {k: _mark_non_finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_mark_non_finite(v) for v in value]
    return value


def _unmark_non_finite(obj: dict[str, Any]) -> Any:
    """``json.loads`` object hook: a marker object back to its float."""
    if len(obj) == 1 and isinstance(obj.get(NON_FINITE_KEY), str):
        return _NON_FINITE.get(obj[NON_FINITE_KEY], obj)
    return obj


def encode_line(record: dict[str, Any]) -> str:
    """``record`` as one line of strict JSON that UTF-8 can hold, secrets scrubbed.

    Non-finite floats become marker objects (:data:`NON_FINITE_KEY`); a line whose text
    holds a lone surrogate (``"\\ud800"`` is valid JSON, but not encodable in UTF-8) is
    written with ASCII escapes instead, as our server's ``SafeJSONResponse`` does, so it
    reads back as the same string.
    """
    try:
        text = json.dumps(record, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError:  # NaN / Infinity somewhere in an answer
        record = _mark_non_finite(record)
        text = json.dumps(record, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    line = scrub(text)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = scrub(json.dumps(record, separators=(",", ":"), allow_nan=False))
    return line


def loads_line(line: str) -> Any:
    """One transcript line as written by :func:`encode_line` back to its value (marker
    objects back to NaN/Infinity).

    Raises:
        json.JSONDecodeError: not JSON.
    """
    return json.loads(line, object_hook=_unmark_non_finite)


class TranscriptBusy(OSError):
    """Another process is writing this transcript (it holds the file's lock)."""


class TranscriptWriter:
    """Writes transcript lines to ``path`` (parents created), flushing every line.

    A new transcript never overwrites a file (``FileExistsError``); ``append=True`` continues
    an existing one (a resumed run). The writer holds an exclusive lock on the file while
    open, so two processes never write one transcript (:class:`TranscriptBusy`). Use as a
    context manager or call :meth:`close`.

    Raises:
        FileExistsError, TranscriptBusy, OSError: the file cannot be created or locked.
    """

    def __init__(self, path: Path, *, append: bool = False) -> None:
        self.path = path
        self.failed: WriteFailed | None = None
        """The write error that stopped this writer (a full disk), else ``None``."""
        self.lines = 0
        """Whole lines written by this writer."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh: IO[str] = path.open("a" if append else "x", encoding="utf-8")
        if fcntl is not None:
            try:
                fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._fh.close()
                raise TranscriptBusy(f"{path} is being written by another sunbot process") from None
        self._whole = os.fstat(self._fh.fileno()).st_size  # bytes up to the last whole line

    def truncate(self, offset: int) -> None:
        """Cut the file back to ``offset`` bytes (a resumed run drops a half-written line)."""
        self._fh.flush()
        self._fh.truncate(offset)
        self._fh.seek(offset)
        self._whole = offset

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def write(self, record: dict[str, Any]) -> None:
        """Write one object as one line and flush it to the OS. Every secret we hold (a seat
        token, a URL password: :func:`sunbot._text.safe.remember`) is redacted by value,
        wherever a server echoed it. The line is always strict JSON in UTF-8
        (:func:`encode_line`): a lone surrogate or a NaN/Infinity a server sent is kept,
        in a form :func:`read_transcript` turns back into the same value.

        Raises:
            WriteFailed: the line cannot be written (one line naming the file and why:
                ``disk full``); :attr:`failed` keeps it, and the file is cut back to the
                whole lines before it (cutting needs no free space).
        """
        if self.failed is not None:
            raise self.failed
        try:
            self._fh.write(encode_line(record) + "\n")
            self._fh.flush()
        except OSError as exc:
            self.failed = WriteFailed(self.path, exc)
            self._cut_to_whole()
            raise self.failed from None
        self.lines += 1
        self._whole = os.fstat(self._fh.fileno()).st_size

    def _cut_to_whole(self) -> None:
        """After a failed write: drop the part of a line the OS took (best effort)."""
        with contextlib.suppress(OSError, ValueError):
            os.ftruncate(self._fh.fileno(), self._whole)

    def header(
        self,
        game: str,
        seed: int | None,
        strategy: str,
        server: str,
        cap: int | None = None,
        identity: dict[str, Any] | None = None,
    ) -> None:
        """The first line (``cap``: the run's voyage/day cap, kept so a resumed run keeps it;
        ``identity``: what the server said of itself in ``GET /api/games``, ``service`` and
        ``localChoices``, or ``None`` when it did not answer)."""
        self.write(
            {
                "type": "header",
                "schemaVersion": SCHEMA_VERSION,
                "game": game,
                "seed": seed,
                "strategy": strategy,
                "server": server,
                "sunbotVersion": sunbot.__version__,
                "startedAt": datetime.now(UTC).isoformat(),
                "cap": cap,
                "serverIdentity": identity,
            }
        )

    def close(self) -> None:
        """Close the file (idempotent). After a failed write the file is cut back to its
        whole lines again, since closing may flush part of the failed line (the error was
        already raised by :meth:`write`)."""
        if not self._fh.closed:
            try:
                self._fh.close()
            except OSError:
                if self.failed is None:
                    raise
            if self.failed is not None:  # closing may have flushed part of a line
                with contextlib.suppress(OSError):
                    os.truncate(self.path, self._whole)


@dataclass
class Transcript:
    """A transcript as read back: its records by type, and how reading ended.

    ``error`` is ``None`` for a whole file, else a message naming the first unreadable line
    (everything before it is kept). That line is either the end of a **cut** file (the last
    line: a run killed mid-write, or still being written) or a **corrupt** line in the
    middle: ``corrupt`` is then true and ``lines_after`` counts the non-blank lines after
    it, which are not read. ``resume_at`` is the byte offset just after the last
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
    check_regular_file(path)
    records: list[dict[str, Any]] = []
    numbers: list[int] = []  # each record's line number (blank lines are skipped)
    error: str | None = None
    offset = resume_at = after = 0
    corrupt = False
    with path.open("rb") as fh:
        for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
            too_long = len(raw) > MAX_LINE_BYTES
            line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8", errors="replace")
            offset += len(raw)
            if not too_long and not line.strip():
                continue
            why = (
                f"longer than {MAX_LINE_BYTES} bytes (the most a transcript line may hold)"
                if too_long
                else _invalid(line) or (None if line.endswith("\n") else "no end of line")
            )
            if why is not None:
                after = _count_lines(fh, inside_line=too_long)  # the rest of the file, once
                kept = f"kept the {len(records)} lines before it"
                corrupt = after > 0
                if corrupt:
                    error = (
                        f"line {lineno} is corrupt: {why}; {kept},"
                        f" the {after} lines after it are not read"
                    )
                else:
                    cut = (
                        " (the file ends mid-line: cut or still being written)"
                        if not line.endswith("\n") and not too_long
                        else ""
                    )
                    error = f"line {lineno} is unreadable{cut}: {why}; {kept}"
                break
            record = loads_line(line)
            records.append(record)
            numbers.append(lineno)
            if record["type"] in ("header", "init", "step"):
                resume_at = offset
    if not records or records[0].get("type") != "header":
        detail = f": {error}" if error else ""
        raise ValueError(f"{path} is not a sunbot transcript (no valid header line){detail}")
    out = Transcript(header=records[0], error=error, resume_at=resume_at)
    out.corrupt, out.lines_after = corrupt, after
    for rec, number in zip(records[1:], numbers[1:], strict=True):
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


def check_regular_file(path: Path) -> None:
    """Refuse anything but a regular file before opening it (a FIFO would block, a device
    such as ``/dev/zero`` never ends).

    Raises:
        ValueError: ``path`` is a folder, FIFO, device or socket.
        OSError: ``path`` cannot be examined (missing, no permission).
    """
    mode = path.stat().st_mode
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO or device?)"
        raise ValueError(f"{path} is {kind}: give a transcript file")


def _count_lines(fh: IO[bytes], *, inside_line: bool) -> int:
    """Non-blank lines left in ``fh``, read in bounded chunks; with ``inside_line`` the
    rest of the current line is skipped first (it is not counted)."""
    count, content, skipping = 0, False, inside_line
    for chunk in iter(lambda: fh.readline(1 << 16), b""):
        if not skipping and chunk.strip():
            content = True
        if chunk.endswith(b"\n"):
            count += content
            content = skipping = False
    return count + content


def _invalid(line: str) -> str | None:
    """``None`` for a valid record line, else why it is not one."""
    try:
        rec = loads_line(line)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg})"
    except RecursionError:  # a hand-made line nested thousands deep
        return "nested too deeply to read"
    if not isinstance(rec, dict) or not isinstance(rec.get("type"), str):
        return "not a transcript record (an object with a 'type')"
    try:
        RECORD.validate_python(rec)
    except RecursionError:
        return "nested too deeply to read"
    except ValidationError as exc:
        err = exc.errors()[0]
        if err["type"] == "union_tag_invalid":
            return f"unknown record type {rec['type']!r}"
        where = ".".join(str(p) for p in err["loc"][1:]) or "record"
        return f"{rec['type']} line, {where}: {err['msg']}"
    return None


__all__ = [
    "DEFAULT_DIR",
    "MAX_LINE_BYTES",
    "NON_FINITE_KEY",
    "Transcript",
    "TranscriptBusy",
    "TranscriptWriter",
    "check_regular_file",
    "default_path",
    "encode_line",
    "file_name_part",
    "loads_line",
    "read_transcript",
]
