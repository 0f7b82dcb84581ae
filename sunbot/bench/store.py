"""The results store: one SQLite table, one row per job, and CSV export.

Table ``results``: the run label ``run``, every :class:`~sunbot.bench.jobs.Result` field, and
``finished_at`` (UTC, ISO 8601). The primary key is ``(run, strategy, table, seed)``
(``table`` is ``""`` for single-player games); a run holds one game, one cap and one
seating (checked by :meth:`Store.check_run`). A store written before tables existed is
upgraded when opened: its Harvest Watch rows were five house bots seated as the server
seats (``seating = "server"``); a column added later (``win_share``, ``ranks``) is added
empty (NULL, ``""``) to the rows stored before it (``health`` too). Each row is committed as its job
finishes (WAL journal), so an interrupted benchmark keeps every finished job and
``--resume`` runs only the missing ones; runs stay side by side for ``--compare``.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from sunbot._text import csv_cells
from sunbot._text.atomic_write import write_atomic
from sunbot.bench.jobs import RESULT_FIELDS, Result

_TYPES = {
    "seed": "INTEGER NOT NULL",
    "cap": "INTEGER",
    "score": "INTEGER NOT NULL",
    "progress": "INTEGER NOT NULL",
    "steps": "INTEGER NOT NULL",
    "refused": "INTEGER NOT NULL",
    "decisions": "INTEGER NOT NULL",
    "seat": "INTEGER",
    "rank": "INTEGER",
    "decision_p50_ms": "REAL",
    "decision_p95_ms": "REAL",
    "wall_s": "REAL NOT NULL",
    "cause": "TEXT",
    "error": "TEXT",
    "table": "TEXT NOT NULL DEFAULT ''",
    "seating": "TEXT NOT NULL DEFAULT ''",
    "lineup": "TEXT NOT NULL DEFAULT ''",
    "ranks": "TEXT NOT NULL DEFAULT ''",
    "health": "TEXT NOT NULL DEFAULT ''",
    "win_share": "REAL",
    "timeouts": "INTEGER NOT NULL DEFAULT 0",
    "tokens": "INTEGER",
    "cost_usd": "REAL",
    "requests": "INTEGER",
    "clairvoyant": "INTEGER NOT NULL DEFAULT 0",
}
#: Column names of the ``results`` table, in order.
COLUMNS: tuple[str, ...] = ("run", *RESULT_FIELDS, "finished_at")
#: ``table`` is an SQL keyword: every column name is quoted.
_NAMES = ", ".join(f'"{c}"' for c in COLUMNS)
_RESULT_NAMES = ", ".join(f'"{c}"' for c in RESULT_FIELDS)
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS results (\n  "
    + ",\n  ".join(f'"{c}" {_TYPES.get(c, "TEXT NOT NULL")}' for c in COLUMNS)
    + ',\n  PRIMARY KEY (run, strategy, "table", seed)\n)'
)
#: What a run's rows of one strategy were played with (``search``: its forward model and
#: the file's hash, its lookahead...), as JSON: a resumed run must play them alike.
_SETUP_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS setups (\n  run TEXT NOT NULL,\n  strategy TEXT NOT NULL,"
    "\n  setup TEXT NOT NULL,\n  PRIMARY KEY (run, strategy)\n)"
)
#: The five house bots of a store written before tables existed.
_OLD_TABLE = ",".join(("house",) * 5)


class RunMismatch(ValueError):
    """A stored run holds another game or cap than the one asked for."""


@dataclass(frozen=True)
class RunInfo:
    """A stored run: label, game, cap, rows, strategies (first-stored order), time span."""

    run: str
    game: str
    cap: int | None
    rows: int
    strategies: tuple[str, ...]
    first: str
    last: str


class Store:
    """The SQLite results file at ``path`` (created with its table if missing).

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)  # autocommit: a row per commit
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._upgrade()
        self._db.execute(_SCHEMA)
        self._db.execute(_SETUP_SCHEMA)

    def _upgrade(self) -> None:
        """Rebuild a ``results`` table from before tables (its key lacked ``table``); add a
        column a later version defined (``win_share``: NULL, ``ranks``: ``""`` for rows
        stored before it)."""
        have = [str(r[1]) for r in self._db.execute("PRAGMA table_info(results)")]
        if not have:
            return
        if "table" in have:  # later columns without a default are added as NULL
            for c in COLUMNS:
                if c not in have:
                    self._db.execute(f'ALTER TABLE results ADD COLUMN "{c}" {_TYPES[c]}')
            return
        match = "(game = 'harvest-watch')"
        filled = {
            "table": f"CASE WHEN {match} THEN '{_OLD_TABLE}' ELSE '' END",
            "seating": f"CASE WHEN {match} THEN 'server' ELSE '' END",
            "lineup": "''",
        }
        new = [c for c in COLUMNS if c in have or c in filled]
        names = ", ".join(f'"{c}"' for c in new)
        values = ", ".join(f'"{c}"' if c in have else filled[c] for c in new)
        self._db.execute("BEGIN")
        self._db.execute("ALTER TABLE results RENAME TO results_before_tables")
        self._db.execute(_SCHEMA)
        self._db.execute(
            f"INSERT INTO results ({names}) SELECT {values} FROM results_before_tables"
        )
        self._db.execute("DROP TABLE results_before_tables")
        self._db.execute("COMMIT")

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the database (every row is already committed)."""
        self._db.close()

    def add(self, run: str, result: Result) -> None:
        """Append one job's row to ``run`` and commit it.

        Raises:
            sqlite3.IntegrityError: ``run`` already has a row for this strategy, table and
                seed.
        """
        values = [run, *result.to_row().values(), datetime.now(UTC).isoformat()]
        marks = ", ".join("?" * len(COLUMNS))
        self._db.execute(f"INSERT INTO results ({_NAMES}) VALUES ({marks})", values)

    def done(self, run: str) -> set[tuple[str, str, int]]:
        """``(strategy, table, seed)`` keys already stored for ``run``
        (:func:`~sunbot.bench.jobs.job_key`)."""
        cur = self._db.execute('SELECT strategy, "table", seed FROM results WHERE run = ?', (run,))
        return {(str(r[0]), str(r[1]), int(r[2])) for r in cur}

    def results(self, run: str, strategies: Sequence[str] | None = None) -> list[Result]:
        """The rows of ``run`` as results, by strategy (first-stored order), table, then seed.

        ``strategies`` keeps only those, in that order.
        """
        info = self.run_info(run)
        order = (
            list(strategies) if strategies is not None else list(info.strategies if info else ())
        )
        cur = self._db.execute(
            f"SELECT {_RESULT_NAMES} FROM results WHERE run = ? ORDER BY seed", (run,)
        )
        rows = [Result(**{**dict(r), "clairvoyant": bool(r["clairvoyant"])}) for r in cur]
        rank = {name: i for i, name in enumerate(order)}
        kept = [r for r in rows if r.strategy in rank]
        return sorted(kept, key=lambda r: (rank[r.strategy], r.table, r.seed))

    def run_info(self, run: str) -> RunInfo | None:
        """What ``run`` holds, or ``None`` if nothing is stored under that label."""
        cur = self._db.execute(
            "SELECT game, cap, strategy, MIN(finished_at) AS first, MAX(finished_at) AS last,"
            " COUNT(*) AS n FROM results WHERE run = ? GROUP BY game, cap, strategy"
            " ORDER BY first",
            (run,),
        )
        groups = list(cur)
        if not groups:
            return None
        return RunInfo(
            run=run,
            game=str(groups[0]["game"]),
            cap=groups[0]["cap"],
            rows=sum(int(g["n"]) for g in groups),
            strategies=tuple(dict.fromkeys(str(g["strategy"]) for g in groups)),
            first=min(str(g["first"]) for g in groups),
            last=max(str(g["last"]) for g in groups),
        )

    def runs(self, game: str | None = None) -> list[RunInfo]:
        """Every stored run (optionally of one game), oldest first."""
        cur = self._db.execute("SELECT DISTINCT run FROM results")
        infos = [i for r in cur if (i := self.run_info(str(r[0]))) is not None]
        return sorted(
            (i for i in infos if game is None or i.game == game), key=lambda i: (i.first, i.run)
        )

    def check_run(self, run: str, game: str, cap: int | None, seating: str = "") -> None:
        """Make sure adding ``game`` jobs capped at ``cap`` (match games: seated by
        ``seating``) to ``run`` keeps it one benchmark.

        Raises:
            RunMismatch: ``run`` already holds another game, another cap or another seating.
        """
        info = self.run_info(run)
        if info is not None and (info.game, info.cap) != (game, cap):
            raise RunMismatch(
                f"run {run!r} holds {info.game} with cap {info.cap}, not {game} with cap {cap}"
            )
        cur = self._db.execute("SELECT DISTINCT seating FROM results WHERE run = ?", (run,))
        held = [str(r[0]) for r in cur if r[0] != seating]
        if held:
            raise RunMismatch(f"run {run!r} holds matches seated {held[0]!r}, not {seating!r}")

    def check_setup(self, run: str, strategy: str, setup: dict[str, Any]) -> None:
        """Make sure ``strategy``'s rows of ``run`` are played as ``setup`` says (JSON data:
        ``search``'s model and its file's hash, its lookahead...), and record it. A run
        stored before setups were kept is taken as it is (nothing to compare with).

        Raises:
            RunMismatch: ``run`` holds rows of ``strategy`` played with another setup (the
                message names the first option that differs).
        """
        text = json.dumps(setup, sort_keys=True, default=str)
        got = self._db.execute(
            "SELECT setup FROM setups WHERE run = ? AND strategy = ?", (run, strategy)
        ).fetchone()
        held = self._db.execute(
            "SELECT 1 FROM results WHERE run = ? AND strategy = ? LIMIT 1", (run, strategy)
        ).fetchone()
        if got is not None and held is not None and str(got[0]) != text:
            stored = json.loads(str(got[0]))
            now = json.loads(text)
            name = next(k for k in sorted({*stored, *now}) if stored.get(k) != now.get(k))
            was, new = (_said(v.get(name)) for v in (stored, now))
            raise RunMismatch(
                f"run {run!r} holds {strategy} rows played with {name} {was}, not {new}"
            )
        if held is None or got is None:
            self._db.execute(
                "INSERT OR REPLACE INTO setups (run, strategy, setup) VALUES (?, ?, ?)",
                (run, strategy, text),
            )


def _said(value: Any) -> str:
    return "none" if value is None else repr(value)


def after_failure(exc: sqlite3.Error, label: str) -> str:
    """What a user can do after a row of run ``label`` could not be stored, by ``exc``'s
    kind (one clause, for the end of an error line):

    - a full disk: once there is room, ``--resume --run LABEL`` runs the missing jobs;
    - a lock (another process writes the store): once it is done, the same;
    - a damaged file ("malformed", "not a database"): ``--resume`` cannot open it, so
      start again with another ``--out`` or restore the file;
    - a read-only file: make it writable, then ``--resume``;
    - anything else: ``--resume`` once the cause above is fixed.
    """
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    again = f"continue with the same command plus --resume --run {label}"
    if name == "SQLITE_FULL" or "full" in text:
        return f"once there is room, {again}"
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in text or "busy" in text:
        return f"another process holds the store: once it is done, {again}"
    if (
        name in ("SQLITE_CORRUPT", "SQLITE_NOTADB")
        or "malformed" in text
        or "not a database" in text
    ):
        return (
            "the store file is damaged, so --resume cannot open it: start again with another"
            " --out (or restore the file from a copy)"
        )
    if name == "SQLITE_READONLY" or "readonly" in text:
        return f"the store cannot be written: make it writable, then {again}"
    return f"once that is fixed, {again}"


def export_csv(results: Iterable[Result], path: Path) -> int:
    """Write ``results`` to ``path`` as CSV with a header of the result fields.

    Returns:
        The number of rows written.

    Raises:
        OSError: the folder cannot be made; :class:`~sunbot._text.atomic_write.WriteFailed`: the
            file cannot be written (none is left behind).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    buf = io.StringIO(newline="")
    writer = csv.DictWriter(buf, fieldnames=list(RESULT_FIELDS))
    writer.writeheader()
    for r in results:
        writer.writerow(_csv_row(r.to_row()))
        n += 1
    write_atomic(path, buf.getvalue())  # whole or not at all (a full disk leaves nothing)
    return n


def _csv_row(row: dict[str, Any]) -> dict[str, Any]:
    """A result as CSV cells: ``None`` empty, text a spreadsheet would run as a formula (a
    server's error or cause, a strategy's name) neutralised (:mod:`sunbot._text.csv_cells`)."""
    return csv_cells.mapping({k: "" if v is None else v for k, v in row.items()})
