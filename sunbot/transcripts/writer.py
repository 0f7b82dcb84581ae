"""Writing a transcript: :class:`TranscriptWriter`, one line at a time, each flushed.

The first line appears whole or not at all (written to a temporary file beside the
transcript, then linked into place), a file a killed run left without a line
(:func:`is_unstarted`) is used again, and the bounds of :mod:`sunbot.transcripts.bounds`
hold (a line at most :data:`~sunbot.transcripts.bounds.MAX_LINE_BYTES`, a file at most
its size limit). The format: ``docs/transcripts.md``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import math
import os
import secrets
import stat
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any

try:  # POSIX: one writer per transcript
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None  # type: ignore[assignment]

from sunbot._text.atomic_write import WriteFailed
from sunbot._text.safe import scrub
from sunbot._version import __version__
from sunbot.transcripts.bounds import (
    DEFAULT_MAX_TRANSCRIPT_MB,
    MAX_LINE_BYTES,
    TranscriptFull,
    size_text,
)
from sunbot.transcripts.schema import SCHEMA_VERSION

log = logging.getLogger("sunbot.transcripts")
#: Bytes in a MiB.
MIB = 1 << 20
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


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

    A new transcript never overwrites a file (``FileExistsError``), but one that holds no
    line yet (:func:`is_unstarted`: empty, or the start of a header a killed run left) is
    used again (:attr:`reused`). Its first line is written to a temporary file beside
    ``path`` and flushed, and only then does ``path`` appear: a run killed before its
    header leaves no file. ``append=True`` continues an existing one (a resumed run). The
    writer holds an exclusive lock on the file while open, so two processes never write one
    transcript (:class:`TranscriptBusy`). Use as a context manager or call :meth:`close`.

    ``max_bytes`` bounds the file (``None``: no bound): a line that would take it past that
    size, or any line longer than :data:`MAX_LINE_BYTES`, is not written and
    :class:`~sunbot.transcripts.bounds.TranscriptFull` is raised; the ``resume`` and
    ``result`` lines (small by construction) are always written, so the file stays whole.

    Raises:
        FileExistsError, TranscriptBusy, OSError: the file cannot be created or locked.
    """

    def __init__(
        self,
        path: Path,
        *,
        append: bool = False,
        max_bytes: int | None = DEFAULT_MAX_TRANSCRIPT_MB * MIB,
    ) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.failed: WriteFailed | None = None
        """The write error that stopped this writer (a full disk), else ``None``."""
        self.lines = 0
        """Whole lines written by this writer."""
        self.reused = False
        """``path`` held no line yet (:func:`is_unstarted`) and is used for this run."""
        self._pending: Path | None = None  # the temporary file until the first line is in
        path.parent.mkdir(parents=True, exist_ok=True)
        if append:
            self._fh: IO[bytes] = path.open("ab")
            self._lock()
        else:
            if os.path.lexists(path):
                if not is_unstarted(path):
                    raise FileExistsError(errno.EEXIST, "File exists", str(path))
                self._take_over(path)
            tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY, 0o666)
            self._pending = tmp
            self._fh = os.fdopen(fd, "wb")
            self._lock()
        self._whole = os.fstat(self._fh.fileno()).st_size  # bytes up to the last whole line

    def _lock(self) -> None:
        if fcntl is not None:
            try:
                fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._fh.close()
                self._drop_pending()
                raise TranscriptBusy(
                    f"{self.path} is being written by another sunbot process"
                ) from None

    def _take_over(self, path: Path) -> None:
        """Remove the unstarted file at ``path`` (unless a writer still holds it)."""
        with path.open("rb") as fh:
            if fcntl is not None:
                try:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise TranscriptBusy(
                        f"{path} is being written by another sunbot process"
                    ) from None
            path.unlink()
        self.reused = True
        log.info("%s held no transcript line yet: it is used for this run", path)

    def _publish(self) -> None:
        """After the first whole line is flushed: let ``path`` appear, never over a file (a
        link where the file system has them, else a rename after a check). No ``fsync``,
        as for every other line: a killed process loses nothing the OS was handed, and
        the empty file a power cut may leave instead is treated as absent
        (:func:`is_unstarted`)."""
        tmp = self._pending
        assert tmp is not None
        try:
            os.link(tmp, self.path)
        except FileExistsError:
            raise
        except OSError:  # no hard links here (some network or FAT file systems)
            if os.path.lexists(self.path):
                raise FileExistsError(errno.EEXIST, "File exists", str(self.path)) from None
            os.rename(tmp, self.path)
        else:
            os.unlink(tmp)
        self._pending = None

    def _drop_pending(self) -> None:
        if self._pending is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._pending)
            self._pending = None

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
        in a form :func:`~sunbot.transcripts.jsonl.read_transcript` turns back into the same value.

        Raises:
            TranscriptFull: the line would take the file past :attr:`max_bytes`, or is
                longer than :data:`MAX_LINE_BYTES` (nothing of it is written; the writer
                still takes the ``result`` line).
            WriteFailed: the line cannot be written (one line naming the file and why:
                ``disk full``); :attr:`failed` keeps it, and the file is cut back to the
                whole lines before it (cutting needs no free space).
        """
        if self.failed is not None:
            raise self.failed
        data = (encode_line(record) + "\n").encode("utf-8")
        self._check_room(record, len(data))
        try:
            self._fh.write(data)
            self._fh.flush()
            if self._pending is not None:
                self._publish()
        except OSError as exc:
            self.failed = WriteFailed(self.path, exc)
            self._cut_to_whole()
            raise self.failed from None
        self.lines += 1
        self._whole += len(data)

    def _check_room(self, record: dict[str, Any], size: int) -> None:
        """Raise :class:`TranscriptFull` for a line of ``size`` bytes that must not go in."""
        kind = record.get("type")
        where = f"{kind} line" + (f" {record['index']}" if "index" in record else "")
        if size > MAX_LINE_BYTES:
            raise TranscriptFull(
                self.path,
                f"the {where} would be {size_text(size)}, longer than a transcript line may be"
                f" ({size_text(MAX_LINE_BYTES)}: the server's answer is too large to record);"
                f" {self.path} is whole up to the line before",
            )
        room = self.max_bytes
        if room is not None and kind not in ("resume", "result") and self._whole + size > room:
            raise TranscriptFull(
                self.path,
                f"the transcript {self.path} would pass its size limit of {size_text(room)} with"
                f" the {where} ({size_text(size)}); it is whole up to the line before: continue"
                f" with sunbot play --resume {self.path} --max-transcript-mb N (N > "
                f"{-(-room // MIB)}; for a server, add --server URL)",
            )

    def _cut_to_whole(self) -> None:
        """After a failed write: drop the part of a line the OS took (best effort)."""
        with contextlib.suppress(OSError, ValueError):
            os.ftruncate(self._fh.fileno(), self._whole)

    def make_whole(self) -> None:
        """Before the process is ended at once (``sunbot play``'s bound on a stop; no
        :meth:`close` follows): cut the file back to its whole lines, dropping any part of a
        line the OS took, and remove the temporary file of a header not yet in place. Every
        whole line is already with the OS (each is flushed). Best effort, never raises:
        it may run on another thread while the run is stuck in a model's call."""
        self._cut_to_whole()
        self._drop_pending()

    def header(
        self,
        game: str,
        seed: int | None,
        strategy: str,
        server: str,
        cap: int | None = None,
        identity: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """The first line (``cap``: the run's voyage/day cap, kept so a resumed run keeps it;
        ``identity``: what the server said of itself in ``GET /api/games``, ``service`` and
        ``localChoices``, or ``None`` when it did not answer; ``extra``: more header fields,
        such as ``model`` and ``lookahead``, ``docs/transcripts.md``)."""
        record = {
            "type": "header",
            "schemaVersion": SCHEMA_VERSION,
            "game": game,
            "seed": seed,
            "strategy": strategy,
            "server": server,
            "sunbotVersion": __version__,
            "startedAt": datetime.now(UTC).isoformat(),
            "cap": cap,
            "serverIdentity": identity,
        }
        record.update((k, v) for k, v in (extra or {}).items() if k not in record)
        self.write(record)

    def close(self) -> None:
        """Close the file (idempotent). After a failed write the file is cut back to its
        whole lines again, since closing may flush part of the failed line (the error was
        already raised by :meth:`write`). A writer that never wrote a whole line leaves no
        file (its temporary file is removed)."""
        if not self._fh.closed:
            try:
                self._fh.close()
            except OSError:
                if self.failed is None and self._pending is None:
                    raise
            if self._pending is not None:
                self._drop_pending()
            elif self.failed is not None:  # closing may have flushed part of a line
                with contextlib.suppress(OSError):
                    os.truncate(self.path, self._whole)


class NoHeader(ValueError):
    """The file holds no transcript line yet (:func:`is_unstarted`): a run stopped before
    its header was whole. ``sunbot play --transcript`` uses such a file again."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} holds no transcript line yet (empty, or only the start of a header: its"
            f" run stopped before it began): nothing to read or resume; sunbot play GAME"
            f" --transcript {path} uses the file again"
        )
        self.path = path


#: The start of every header line :class:`TranscriptWriter` writes.
_HEADER_START = b'{"type":"header"'


def is_unstarted(path: Path) -> bool:
    """Whether ``path`` is a regular file that holds no transcript line yet: empty (or
    blank), or one unfinished line that begins as a header does (a run killed while its
    first line was being written, by a version that wrote it in place). Such a file is
    treated as absent: nothing in it is a transcript, so a new run may use it. Any other
    content, a line end included, is someone's file and is never taken."""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_LINE_BYTES:
            return False
        if st.st_size == 0:
            return True
        data = path.read_bytes()[: MAX_LINE_BYTES + 1]
    except OSError:
        return False
    if not data.strip():
        return True
    return b"\n" not in data and data.lstrip(b"\xef\xbb\xbf").startswith(_HEADER_START)


__all__ = [
    "MIB",
    "NON_FINITE_KEY",
    "NoHeader",
    "TranscriptBusy",
    "TranscriptWriter",
    "encode_line",
    "is_unstarted",
    "loads_line",
]
