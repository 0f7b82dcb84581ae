"""A bot in another process, in any language: one JSON line in, one JSON line out.

For each decision :class:`ExecStrategy` writes one line to the bot's stdin::

    {"id": 5, "game": "keelhold", "observation": {...}, "legalActions": [...], "deadlineMs": 980}

(``deadlineMs``: whole milliseconds left for this decision when the line is written, the
clock's or ``timeout_s``'s when that ends first, only under a move clock; advisory, the
clock is enforced here) and reads one line from its
stdout: the action (``{"type": "PLACE", "bay": 2}``), or ``{"id": 5, "action": {...}}`` to
say which decision it answers. Blank lines are skipped.
When the move clock gave up on a decision, the bot's late line for it is not taken as the next
answer: an answer with an ``id`` is matched by it, one without is dropped while decisions are
still owed their (late) answers. Protocol, examples and errors: ``docs/guide-other-processes.md``.

The bot's stderr is logged (``sunbot.agents.exec``, level INFO) line by line, each line cut to
about 300 characters, at most 20 lines a second (the rest counted;
:class:`~sunbot.agents._process.StderrLog`); its last lines ride on the
:class:`~sunbot.agents.clock.BotError` for ``-v``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from sunbot._text.safe import ENV_SECRETS, remember_environment
from sunbot._text.terminal import outside
from sunbot.agents._guard import BotError
from sunbot.agents._process import (
    EOF,
    MAX_LINE_BYTES,
    TOO_LONG,
    StderrLog,
    exit_text,
    read_lines,
    reap,
)
from sunbot.agents.clock import DecisionTimeout, ms_left

#: Seconds a bot may stay silent on one decision when no move clock bounds it.
DEFAULT_TIMEOUT_S = 120.0
_SKIP = object()
#: Seconds between checks, while waiting for an answer, that the bot still runs.
_POLL_S = 0.25
#: Seconds an exited bot's output may still bring lines before its exit is the error.
_EXITED_GRACE_S = 0.5


def _executable(argv0: str, cwd: str | os.PathLike[str] | None, env: dict[str, str] | None) -> None:
    """Raises ValueError when ``argv0`` names no executable file (or nothing on PATH)."""
    if "/" in argv0:
        path = Path(argv0) if Path(argv0).is_absolute() else Path(cwd or ".") / argv0
        if not path.is_file() or not os.access(path, os.X_OK):
            raise ValueError(f"exec: {outside(argv0, 120)!r} is not an executable file")
    elif shutil.which(argv0, path=(env if env is not None else os.environ).get("PATH")) is None:
        raise ValueError(f"exec: no command {outside(argv0, 120)!r} on PATH")


def _label(argv: list[str], cwd: str | os.PathLike[str] | None) -> str:
    """``python3 bot.py``: the command's name and, when its first argument is a file (a
    script), that file's name. Never the other arguments: they may hold a key."""
    name = os.path.basename(argv[0])
    if len(argv) > 1 and not argv[1].startswith("-"):
        script = Path(argv[1]) if Path(argv[1]).is_absolute() else Path(cwd or ".") / argv[1]
        if script.is_file():
            name += f" {script.name}"
    return outside(name, 80)


class ExecStrategy:
    """A bot in a child process speaking JSON lines (module doc, the guide).

    Args:
        command: the command line (split with :func:`shlex.split`, no shell) or its argv.
        game: the game's slug, sent on every line.
        grace_s: seconds the bot has to exit once its stdin is closed, before SIGTERM.
        env: the bot's environment (default: ours without ``OPENAI_API_KEY``, our model
            key); ``PYTHONUNBUFFERED=1`` is added unless set, so a Python bot's ``print``
            reaches us at once.
        cwd: the bot's working directory.
        timeout_s: seconds one decision may wait for the bot when no move clock bounds it;
            past it the bot is taken for dead (:class:`~sunbot.agents.clock.BotError`).

    Raises:
        ValueError: an empty command, unbalanced quotes, or no such executable.

    The process starts once per run, in ``on_start`` or at the first decision, in a session
    of its own; :meth:`close` ends it and everything it started. One decision at a time
    (the Decider's worker thread guarantees it); :meth:`close` may come from any thread.
    """

    blocking = True

    def __init__(
        self,
        command: str | list[str],
        *,
        game: str,
        grace_s: float = 2.0,
        env: dict[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        try:
            argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        except ValueError as exc:
            raise ValueError(f"exec: cannot split the command: {exc}") from None
        if not argv or not argv[0]:
            raise ValueError("exec: give a command to run, e.g. exec:python3 bot.py")
        _executable(argv[0], cwd, env)
        self.argv = argv
        self.game = game
        self.grace_s = grace_s
        self.env = env
        self.cwd = cwd
        self.timeout_s = timeout_s
        self.label = _label(argv, cwd)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue(maxsize=8)
        self._stderr = StderrLog(self.label)
        self._stderr_thread: threading.Thread | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._write_lock = threading.Lock()
        self._closing = False
        self._failed: BotError | None = None
        self._decisions = self._owed = self._late = self._discarded = 0
        self._last: dict[str, Any] | None = None
        self._max_ms = 0.0

    def __repr__(self) -> str:
        return f"ExecStrategy({self.label})"

    @property
    def pid(self) -> int | None:
        """The bot's process id once started (``None`` before)."""
        return self._proc.pid if self._proc is not None else None

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        """Start the bot before the first decision (so its start-up is not on the clock).

        Raises:
            BotError: it cannot be started.
        """
        self._start()

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        """The bot's answer (no move clock; bounded by ``timeout_s``).

        Raises:
            BotError: the bot exited, answered garbage or an over-long line, or stayed silent.
        """
        return self.choose_by(observation, legal_actions, None)

    def choose_by(
        self, observation: Any, legal_actions: list[Any], deadline: float | None, /
    ) -> Any:
        """The bot's answer by ``deadline`` (a :func:`time.monotonic` instant, or ``None``).

        Raises:
            DecisionTimeout: the deadline passed first; the late answer will be dropped.
            BotError: as :meth:`choose`.
        """
        if self._failed is not None:
            raise BotError(str(self._failed), stderr_tail=self._failed.stderr_tail)
        self._start()
        self._decisions += 1
        n = self._decisions
        started = time.monotonic()
        ceiling = started + self.timeout_s
        request = {"id": n, "game": self.game, "observation": observation}
        request["legalActions"] = legal_actions
        # the time it really has: the clock, or its own timeout_s when that comes first
        told = None if deadline is None else min(deadline, ceiling)
        if (left := ms_left(told)) is not None:  # advisory: the clock is still ours
            request["deadlineMs"] = left
        line = json.dumps(request, separators=(",", ":"))
        self._write((line + "\n").encode(), n, ceiling)
        discarded = 0
        exited_at: float | None = None
        while True:
            until = ceiling if deadline is None else min(deadline, ceiling)
            try:
                item = self._lines.get(timeout=max(min(until - time.monotonic(), _POLL_S), 0.0))
            except queue.Empty:
                now = time.monotonic()
                if now < until:  # a bot that exited while a child it left holds our pipe
                    if self._proc is not None and self._proc.poll() is not None:
                        exited_at = exited_at if exited_at is not None else now
                        if now - exited_at >= _EXITED_GRACE_S:  # its last lines had time
                            raise self._fail(f"{self._exit(n)} at decision {n}") from None
                    continue
                if deadline is not None and deadline < ceiling:
                    self._owed += 1
                    self._late += 1
                    raise DecisionTimeout(f"exec bot {self.label}: late at decision {n}") from None
                raise self._fail(
                    f"no answer within {self.timeout_s:g} s at decision {n} "
                    "(does it flush its output after each line, and read its input line by line?)"
                ) from None
            if item is EOF:
                raise self._fail(f"{self._exit(n)} at decision {n}")
            if item is TOO_LONG:
                raise self._fail(f"answered a line over {MAX_LINE_BYTES} bytes at decision {n}")
            assert isinstance(item, bytes)
            if not item.strip():
                continue
            answer = self._match(self._parse(item, n), n)
            if answer is _SKIP:
                discarded += 1
                self._discarded += 1
                continue
            ms = (time.monotonic() - started) * 1000
            self._max_ms = max(self._max_ms, ms)
            self._last = {"ms": round(ms, 3), **({"discarded": discarded} if discarded else {})}
            return answer

    def _parse(self, raw: bytes, n: int) -> Any:
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            text = raw.decode("utf-8", "replace").strip()
            raise self._fail(
                f"answered a line that is not JSON at decision {n}: {outside(text, 80)!r}"
            ) from None

    def _match(self, answer: Any, n: int) -> Any:
        """The action in ``answer``, or ``_SKIP`` for a late answer to an abandoned decision."""
        if isinstance(answer, dict) and answer.keys() == {"id", "action"}:
            if type(answer["id"]) is int and answer["id"] == n:
                return answer["action"]
            if not self._owed:  # no decision was given up on: this answers none we asked
                raise self._fail(
                    f"answered decision {outside(json.dumps(answer['id']), 20)} at decision {n}"
                )
            self._owed -= 1
            return _SKIP
        if self._owed:
            self._owed -= 1
            return _SKIP
        return answer

    def _start(self) -> None:
        if self._proc is not None:
            return
        if self._closing:
            raise BotError(f"exec bot {self.label}: closed")
        remember_environment()
        env = dict(os.environ if self.env is None else self.env)
        if self.env is None:  # our model key is not the bot's to read (pass env= to give it)
            for name in ENV_SECRETS:
                env.pop(name, None)
        env.setdefault("PYTHONUNBUFFERED", "1")
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=env,
                bufsize=0,
                start_new_session=True,  # its own process group: killed whole, no orphans
            )
        except OSError as exc:
            raise self._fail(f"could not start: {exc.strerror or exc}") from None
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        os.set_blocking(proc.stdin.fileno(), False)
        self._proc = proc
        self._finalizer = weakref.finalize(self, reap, proc, self.grace_s)
        name = f"sunbot-exec-{proc.pid}"
        threading.Thread(
            target=read_lines, args=(proc.stdout, self._lines), name=name, daemon=True
        ).start()
        self._stderr_thread = threading.Thread(
            target=self._stderr.run, args=(proc.stderr,), name=f"{name}-stderr", daemon=True
        )
        self._stderr_thread.start()

    def _write(self, data: bytes, n: int, ceiling: float) -> None:
        """All of ``data`` to the bot's stdin by ``ceiling`` (not the move clock: half a line
        would break the protocol; a late line is dropped by the answer rules instead)."""
        assert self._proc is not None and self._proc.stdin is not None
        fd = self._proc.stdin.fileno()
        view = memoryview(data)
        with self._write_lock:
            while view:
                if self._closing:
                    raise BotError(f"exec bot {self.label}: closed at decision {n}")
                left = ceiling - time.monotonic()
                if left <= 0:
                    raise self._fail(
                        f"did not read its input for {self.timeout_s:g} s at decision {n}"
                    )
                try:
                    _, ready, _ = select.select([], [fd], [], min(left, 0.1))
                    if ready:
                        view = view[os.write(fd, view) :]
                except BlockingIOError:
                    continue
                except OSError:  # EPIPE: it exited; EBADF: closed under us
                    raise self._fail(f"{self._exit(n)} at decision {n}") from None

    def _exit(self, n: int) -> str:
        """How the bot ended (waiting up to a second for it), for an error message."""
        assert self._proc is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=1.0)
        if self._stderr_thread is not None:  # its last words, for the error's tail
            self._stderr_thread.join(timeout=0.5)
        return exit_text(self._proc.returncode)

    def _fail(self, text: str) -> BotError:
        self._failed = BotError(f"exec bot {self.label}: {text}", stderr_tail=self._stderr.tail())
        return self._failed

    def last_decision(self) -> dict[str, Any] | None:
        """``{"ms": ...}`` of the last answer (and ``discarded``: late lines dropped first)."""
        return self._last

    def totals(self) -> dict[str, Any]:
        """``{kind: "exec", command, decisions, late, discarded, maxMs, stderrLines}``."""
        return {
            "kind": "exec",
            "command": self.label,
            "decisions": self._decisions,
            "late": self._late,
            "discarded": self._discarded,
            "maxMs": round(self._max_ms, 3),
            "stderrLines": self._stderr.lines,
        }

    def close(self) -> None:
        """End the bot: close its stdin, wait ``grace_s``, then SIGTERM, then SIGKILL its
        process group. Safe to call twice, and while a decision waits on another thread."""
        self._closing = True
        if self._finalizer is not None:
            got = self._write_lock.acquire(timeout=0.5)  # a write in progress sees _closing
            try:
                self._finalizer()
            finally:
                if got:
                    self._write_lock.release()


__all__ = ["DEFAULT_TIMEOUT_S", "MAX_LINE_BYTES", "ExecStrategy", "exit_text"]
