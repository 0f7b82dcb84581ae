"""Writing an output file whole or not at all (a report, a page, an export).

The text goes to a temporary file beside the target, which is renamed over it only once
every byte is on disk, so a full disk (or any write error) leaves no partial or empty file
behind and never harms a file that was already there.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

#: The ``errno`` values of an out-of-space write (a full disk, a user's quota).
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def why_not_written(exc: OSError) -> str:
    """One line for a failed write: ``disk full`` for an out-of-space error (ENOSPC,
    EDQUOT), else the system's words (``Permission denied``)."""
    if exc.errno in NO_SPACE:
        return "disk full (no space left on the device)"
    return exc.strerror or str(exc)


class WriteFailed(OSError):
    """An output file could not be written; ``str()`` is one line naming the file and why
    (``cannot write out.csv: disk full (no space left on the device)``)."""

    def __init__(self, path: Path, exc: OSError) -> None:
        super().__init__(exc.errno, f"cannot write {path}: {why_not_written(exc)}")
        self.path = path

    def __str__(self) -> str:
        return str(self.strerror)


def _new_file_mode() -> int:
    """The mode a newly created file gets here (0666 less the umask)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: Path, data: bytes | str) -> int:
    """Write ``data`` (``str`` as UTF-8) to ``path`` whole, through a temporary file in the
    same folder renamed over it; returns the bytes written.

    Raises:
        WriteFailed: the file could not be written (nothing is left behind, and a file
            already at ``path`` is unchanged).
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.fchmod(fd, _new_file_mode())  # as open() would make it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise WriteFailed(path, exc) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return len(raw)


__all__ = [
    "NO_SPACE",
    "WriteFailed",
    "why_not_written",
    "write_atomic",
]
