"""A long run's health file: ``OUT/RUN/status.json``, kept by ``sunbot bench`` and
``sunbot tournament`` while they run, read by ``sunbot status DIR``.

The file is one JSON object (:class:`RunStatus` as :meth:`RunStatus.to_json`), rewritten
whole (never half-written) at most every :data:`WRITE_EVERY_S` seconds while jobs finish,
and at every change of state: ``running``, ``waiting`` (a daily spend cap reached; the run
goes on when the day turns), ``stopped`` (a daily spend cap reached; ``--resume`` goes
on), ``interrupted`` (a signal), ``failed`` (the backend or the store), ``done``. A file
that says ``running`` or ``waiting`` but whose process is gone (:func:`liveness`) is a
run that crashed or whose machine rebooted: ``--resume`` continues it from the store.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sunbot._text.atomic_write import write_atomic
from sunbot.bench.jobs import Result

#: The file's name in a run's folder.
STATUS_NAME = "status.json"
#: Most seconds between two writes while jobs finish.
WRITE_EVERY_S = 5.0
#: A running run's file not rewritten for this long (with its process not to be checked
#: from here: another machine) is said to be stale.
STALE_AFTER_S = 600.0
#: The states a run's file may say.
STATES = ("running", "waiting", "stopped", "interrupted", "failed", "done")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def boot_id() -> str:
    """This boot of the machine (Linux's ``boot_id``; ``""`` elsewhere): a process id
    written before a reboot says nothing of the processes after it."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


@dataclass
class RunStatus:
    """What a long run says of itself.

    Attributes:
        command: ``bench`` or ``tournament``.
        run, game: the run's label and game.
        jobs: the jobs the command asked for; ``stored``: how many of them the store holds
            (before and during this command); ``ran``: stored by this command.
        errors, timeouts: this command's jobs that ended on an error, or timed out.
        refusals: actions the rules refused, summed over this command's jobs.
        tokens, usd: what this command's stored jobs spent on a model (``None`` when they
            used none).
        rate_per_hour: this command's jobs per hour so far.
        state, reason: see the module doc; ``reason`` says why it stopped or waits.
        spend_today: today's totals of the daily spend ledger (``{meter: amount}``), when
            daily caps are set.
        started, updated: UTC times (ISO 8601) this command started and last wrote.
        pid, host, boot: the process writing it, its machine and that machine's boot.
        resume: how to go on after a crash, a reboot or a stop.
    """

    command: str
    run: str
    game: str
    jobs: int
    stored: int
    ran: int = 0
    errors: int = 0
    timeouts: int = 0
    refusals: int = 0
    tokens: int | None = None
    usd: float | None = None
    rate_per_hour: float | None = None
    state: str = "running"
    reason: str | None = None
    spend_today: dict[str, float] = field(default_factory=dict)
    started: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    pid: int = field(default_factory=os.getpid)
    host: str = field(default_factory=socket.gethostname)
    boot: str = field(default_factory=boot_id)
    resume: str = ""

    def to_json(self) -> dict[str, Any]:
        """The file's object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> RunStatus:
        """A status read back (unknown keys ignored).

        Raises:
            ValueError: not a status object.
        """
        if not isinstance(data, dict):
            raise ValueError("not a status object")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        try:
            return cls(**known)
        except TypeError as exc:
            raise ValueError(f"not a status object ({exc})") from None


class StatusFile:
    """Keeps ``path`` (a run's ``status.json``) up to date for one command.

    Writes never stop the run: a file that cannot be written (a full disk) is skipped and
    tried again at the next write.
    """

    def __init__(self, path: Path, status: RunStatus, spend_today: Any = None) -> None:
        self.path, self.status = path, status
        self._spend_today = spend_today  # () -> {meter: amount}, read at each write
        self._t0 = time.monotonic()
        self._last = 0.0
        self.write()

    def add(self, result: Result) -> None:
        """Count one stored job's row; write when :data:`WRITE_EVERY_S` passed."""
        s = self.status
        s.ran += 1
        s.stored += 1
        s.errors += result.ended_by == "error"
        s.timeouts += result.ended_by == "timeout"
        s.refusals += result.refused
        if result.tokens is not None:
            s.tokens = (s.tokens or 0) + result.tokens
        if result.cost_usd is not None:
            s.usd = round((s.usd or 0.0) + result.cost_usd, 6)
        if time.monotonic() - self._last >= WRITE_EVERY_S:
            self.write()

    def set(self, state: str, reason: str | None = None) -> None:
        """Change the state (one of :data:`STATES`) and write now."""
        self.status.state, self.status.reason = state, reason
        self.write()

    def write(self) -> None:
        """Rewrite the file whole (a failure is skipped)."""
        s = self.status
        hours = (time.monotonic() - self._t0) / 3600
        s.rate_per_hour = round(s.ran / hours, 1) if s.ran and hours > 0 else None
        s.updated = _now()
        if self._spend_today is not None:
            with contextlib.suppress(Exception):  # the ledger busy or gone: the last totals stay
                s.spend_today = dict(self._spend_today())
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps(s.to_json(), indent=1) + "\n")
        except OSError:
            pass
        self._last = time.monotonic()


def read_status(path: Path) -> RunStatus:
    """The status in ``path`` (a ``status.json``).

    Raises:
        ValueError: not JSON or not a status object; OSError: cannot be read.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg})") from None
    return RunStatus.from_json(data)


def find_status_files(folder: Path) -> list[Path]:
    """``folder/status.json`` if there is one, else each ``folder/*/status.json`` (the runs
    of a ``--out`` folder), by name."""
    own = folder / STATUS_NAME
    if own.is_file():
        return [own]
    return sorted(p for p in folder.glob(f"*/{STATUS_NAME}") if p.is_file())


def liveness(status: RunStatus, now: datetime | None = None) -> str:
    """Whether a ``running`` or ``waiting`` run is still going: ``"alive"`` (its process
    runs on this machine, or it wrote recently), ``"gone"`` (its process is not running on
    this machine: it crashed, was killed, or the machine rebooted) or ``"stale"`` (another
    machine's run that has not written for :data:`STALE_AFTER_S`); ``"ended"`` for the
    other states."""
    if status.state not in ("running", "waiting"):
        return "ended"
    if status.host == socket.gethostname():
        rebooted = bool(status.boot) and status.boot != boot_id()
        return "alive" if not rebooted and _pid_alive(status.pid) else "gone"
    try:
        updated = datetime.fromisoformat(status.updated)
    except ValueError:
        return "stale"
    age = ((now or datetime.now(UTC)) - updated).total_seconds()
    waiting = status.state == "waiting"  # it writes when the day turns, not before
    return "alive" if waiting or age < STALE_AFTER_S else "stale"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True
