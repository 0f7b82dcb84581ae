"""The spend ledger: what was spent each UTC day, per meter, in one SQLite file.

Table ``spend``: ``day`` (``YYYY-MM-DD``, UTC), ``meter`` (``model-tokens``,
``model-usd``, ``requests <origin>``), ``amount`` (a number), one row per day and meter.
Every change is one SQL statement, so it is atomic across threads and processes (SQLite
locks the file; the WAL journal lets readers go on meanwhile): two runs adding at once
both count, and a conditional add (:meth:`Ledger.take`) never takes a total past its cap.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS spend (day TEXT NOT NULL, meter TEXT NOT NULL,"
    " amount REAL NOT NULL, PRIMARY KEY (day, meter))"
)
#: Seconds a statement waits for another process's write lock before it fails.
BUSY_TIMEOUT_S = 30.0


def utc_day() -> str:
    """Today's date in UTC, ``YYYY-MM-DD``: the day a cap counts (days turn at 00:00 UTC)."""
    return datetime.now(UTC).strftime("%Y-%m-%d")


class Ledger:
    """The spend file at ``path`` (created with its folder and table if missing).

    Thread-safe (one connection behind a lock); use as a context manager or call
    :meth:`close`. ``today`` gives the day to count in (default :func:`utc_day`).

    Raises:
        OSError, sqlite3.Error: the file cannot be created or opened.
    """

    def __init__(self, path: Path, today: Callable[[], str] = utc_day) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path, self.today = path, today
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def __enter__(self) -> Ledger:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (every change is already committed)."""
        with self._lock:
            self._db.close()

    def used(self, meter: str, day: str | None = None) -> float:
        """What ``meter`` counted on ``day`` (default today); 0 when nothing was."""
        with self._lock:
            row = self._db.execute(
                "SELECT amount FROM spend WHERE day = ? AND meter = ?",
                (day or self.today(), meter),
            ).fetchone()
        return float(row[0]) if row else 0.0

    def day(self, day: str | None = None) -> dict[str, float]:
        """Every meter of ``day`` (default today): ``{meter: amount}``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT meter, amount FROM spend WHERE day = ? ORDER BY meter",
                (day or self.today(),),
            ).fetchall()
        return {str(m): float(a) for m, a in rows}

    def add(self, meter: str, amount: float) -> float:
        """Add ``amount`` (at least 0) to today's ``meter``; returns its new total."""
        with self._lock:
            row = self._db.execute(
                "INSERT INTO spend (day, meter, amount) VALUES (?, ?, ?)"
                " ON CONFLICT (day, meter) DO UPDATE SET amount = amount + excluded.amount"
                " RETURNING amount",
                (self.today(), meter, max(0.0, float(amount))),
            ).fetchone()
        return float(row[0])

    def take(self, meter: str, amount: float, cap: float) -> float | None:
        """Add ``amount`` to today's ``meter`` only if the total stays within ``cap``, in
        one statement (so concurrent runs never take it past): the new total, or ``None``
        when it would pass the cap (nothing is added then)."""
        amount = max(0.0, float(amount))
        if amount > cap:
            return None
        with self._lock:
            row = self._db.execute(
                "INSERT INTO spend (day, meter, amount) VALUES (?, ?, ?)"
                " ON CONFLICT (day, meter) DO UPDATE SET amount = amount + excluded.amount"
                " WHERE amount + excluded.amount <= ? RETURNING amount",
                (self.today(), meter, amount, cap),
            ).fetchone()
        return float(row[0]) if row else None
