"""A transcript read one line at a time: memory bounded by the largest line, not the file.

:class:`TranscriptLines` yields each valid record of a transcript file in file order,
validated against the schema (:mod:`sunbot.transcripts.schema`), and stops at the first
line that is not one, saying where and why (:attr:`TranscriptLines.error`), exactly as
:func:`sunbot.transcripts.jsonl.read_transcript` reads a file (which is built on it). A
``view`` line written as ``sameAs`` (a repeat of one of the seat's last full views,
``docs/transcripts.md``) gets that view's body back from a bounded window of each seat's
latest full views (:data:`SAME_AS_WINDOW`), so a reader that streams never holds more than
a few lines at once. ``sunbot replay`` checks a file this way
(:func:`sunbot.transcripts.replay.replay_file`).
"""

from __future__ import annotations

import json
import stat
from collections import OrderedDict, deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from sunbot.transcripts.bounds import MAX_LINE_BYTES
from sunbot.transcripts.schema import RECORD
from sunbot.transcripts.writer import NoHeader, is_unstarted, loads_line

#: Full view bodies kept per seat to give ``sameAs`` lines their body back (the writer
#: refers to one of a seat's last two: ``sunbot.runs.match.REPEAT_WINDOW``).
SAME_AS_WINDOW = 4
#: Seats whose latest views are kept (the least recently seen seat's are dropped past it:
#: a table has six seats).
SAME_AS_SEATS = 8


class TranscriptLines:
    """The records of the transcript at ``path``, one line at a time.

    Iterate it once for ``(line number, record)`` pairs, the header first. When the
    iteration ends: :attr:`error` is ``None`` for a whole file, else a message naming the
    first unreadable line (a **cut** last line, or a **corrupt** one in the middle:
    :attr:`corrupt`, with :attr:`lines_after` counting the non-blank lines after it, which
    are not read); :attr:`resume_at` is the byte offset just after the last whole header,
    init or step line; :attr:`counts` counts the records of each type.

    Args:
        path: the transcript file.
        fill_repeats: give each ``sameAs`` view line the body of the seat's full view it
            names, when that is among the seat's last :data:`SAME_AS_WINDOW` full views
            (else the body stays ``None``: nothing to check).

    Raises:
        ValueError: at construction: not a regular file (a folder, FIFO, device); while
            iterating: the first record is not a transcript header, or the file holds no
            valid line at all.
        NoHeader: the file is empty, or holds only the start of a header (a run killed
            before its first line).
        OSError: the file cannot be read.
    """

    def __init__(self, path: Path, *, fill_repeats: bool = True) -> None:
        check_regular_file(path)
        self.path = path
        self.fill_repeats = fill_repeats
        self.header: dict[str, Any] | None = None
        self.error: str | None = None
        self.corrupt = False
        self.lines_after = 0
        self.resume_at = 0
        self.counts: dict[str, int] = {}
        self._bodies: OrderedDict[Any, deque[tuple[Any, Any]]] = OrderedDict()

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        offset = 0
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
                too_long = len(raw) > MAX_LINE_BYTES
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8", errors="replace")
                offset += len(raw)
                if not too_long and not line.strip():
                    continue
                record, why = (None, _too_long()) if too_long else parse(line)
                if why is None and not line.endswith("\n"):
                    why = "no end of line"
                if why is not None or record is None:
                    self._stop(fh, lineno, line, why or "not a record", too_long)
                    break
                del raw, line  # the parsed record is all that is held
                kind = record["type"]
                if self.header is None:
                    if kind != "header":
                        raise ValueError(
                            f"{self.path} is not a sunbot transcript (no valid header line)"
                        )
                    self.header = record
                self.counts[kind] = self.counts.get(kind, 0) + 1
                if kind in ("header", "init", "step"):
                    self.resume_at = offset
                if kind == "view" and self.fill_repeats:
                    self._repeat(record)
                yield lineno, record
        if self.header is None:
            if is_unstarted(self.path):
                raise NoHeader(self.path)
            detail = f": {self.error}" if self.error else ""
            raise ValueError(
                f"{self.path} is not a sunbot transcript (no valid header line){detail}"
            )

    def _stop(self, fh: IO[bytes], lineno: int, line: str, why: str, too_long: bool) -> None:
        """Note why reading stops at line ``lineno`` (see :attr:`error`)."""
        after = count_lines(fh, inside_line=too_long)  # the rest of the file, once
        kept = f"kept the {sum(self.counts.values())} lines before it"
        # JSON ended by its end of line was written whole: a kill mid-write leaves no such
        # line, so one that fails the schema was edited, even as the last
        whole = not too_long and line.endswith("\n") and not why.startswith(UNREAD)
        self.corrupt, self.lines_after = after > 0 or whole, after
        if self.corrupt:
            self.error = f"line {lineno} is corrupt: {why}; {kept}" + (
                f", the {after} lines after it are not read"
                if after
                else " (a whole line, not the end of a cut run)"
            )
        else:
            cut = (
                " (the file ends mid-line: cut or still being written)"
                if not line.endswith("\n") and not too_long
                else ""
            )
            self.error = f"line {lineno} is unreadable{cut}: {why}; {kept}"

    def _repeat(self, rec: dict[str, Any]) -> None:
        """Fill a ``sameAs`` view's body from its seat's window, or remember a full one."""
        seat = rec.get("seat")
        if rec.get("body") is None and rec.get("sameAs") is not None:
            recent = self._bodies.get(seat, ())
            rec["body"] = next((b for i, b in recent if i == rec["sameAs"]), None)
        elif rec.get("body") is not None:
            recent = self._bodies.pop(seat, None) or deque(maxlen=SAME_AS_WINDOW)
            recent.append((rec.get("index"), rec["body"]))
            self._bodies[seat] = recent  # the most recently seen seat last
            while len(self._bodies) > SAME_AS_SEATS:
                self._bodies.popitem(last=False)


def _too_long() -> str:
    return f"longer than {MAX_LINE_BYTES} bytes (the most a transcript line may hold)"


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


def count_lines(fh: IO[bytes], *, inside_line: bool) -> int:
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


#: How :func:`parse` says why for a line that could not be read as JSON at all (which a run
#: killed mid-write can leave), as opposed to JSON that is not a valid record.
UNREAD = ("not JSON", "nested too deeply")


def parse(line: str) -> tuple[dict[str, Any] | None, str | None]:
    """``(record, None)`` for a valid record line, else ``(None, why)`` (one line)."""
    try:
        rec = loads_line(line)
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg})"
    except RecursionError:  # a hand-made line nested thousands deep
        return None, "nested too deeply to read"
    if not isinstance(rec, dict) or not isinstance(rec.get("type"), str):
        return None, "not a transcript record (an object with a 'type')"
    try:
        RECORD.validate_python(rec)
    except RecursionError:
        return None, "nested too deeply to read"
    except ValidationError as exc:
        err = exc.errors()[0]
        if err["type"] == "union_tag_invalid":
            return None, f"unknown record type {rec['type']!r}"
        where = ".".join(str(p) for p in err["loc"][1:]) or "record"
        return None, f"{rec['type']} line, {where}: {err['msg']}"
    return rec, None
