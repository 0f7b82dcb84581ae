"""Plumbing of a bot's child process: its stderr logged in bounds, its stdout read as lines
on a thread, its process group ended, its end described. Used by :mod:`sunbot.agents.exec`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import subprocess
import time
from collections import deque
from typing import IO

from sunbot._text.terminal import outside

log = logging.getLogger("sunbot.agents.exec")

#: Longest answer line, in bytes (newline excluded); a longer one is the bot's error.
MAX_LINE_BYTES = 1 << 20
#: Characters of one stderr line that are logged.
STDERR_LINE_CHARS = 300
#: Stderr lines logged per second (a burst of twice that is allowed).
STDERR_LINES_PER_S = 20
#: Stderr lines kept for the error's ``stderr_tail``.
STDERR_TAIL = 10
#: Queued in place of a line: the bot's stdout ended / a line was over MAX_LINE_BYTES.
EOF = object()
TOO_LONG = object()


class StderrLog:
    """Reads a bot's stderr on its own thread (:meth:`run`) and logs it: each line cut to
    :data:`STDERR_LINE_CHARS`, secrets scrubbed, controls made harmless, at most
    :data:`STDERR_LINES_PER_S` lines a second (the rest counted in :attr:`dropped`).
    :attr:`lines` counts every line; :meth:`tail` gives the last :data:`STDERR_TAIL`."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.lines = 0
        self.dropped = 0
        self._tail: deque[str] = deque(maxlen=STDERR_TAIL)
        self._tokens = float(2 * STDERR_LINES_PER_S)
        self._stamp = time.monotonic()

    def tail(self) -> tuple[str, ...]:
        """The last lines read (each as logged), oldest first."""
        return tuple(self._tail)

    def run(self, stream: IO[bytes]) -> None:
        """Read ``stream`` to its end (the thread's target)."""
        partial = False  # inside a line longer than one read: its rest is not logged
        try:
            while chunk := stream.readline(4096):
                if not partial:
                    self._line(chunk.decode("utf-8", "replace").rstrip("\r\n"))
                partial = not chunk.endswith(b"\n")
        except (OSError, ValueError):  # the pipe closed under us at close()
            pass
        if self.dropped:
            log.info("exec bot %s: %d stderr lines not logged", self.label, self.dropped)

    def _line(self, raw: str) -> None:
        text = outside(raw, STDERR_LINE_CHARS)
        self.lines += 1
        self._tail.append(text)
        now = time.monotonic()
        cap = 2.0 * STDERR_LINES_PER_S
        self._tokens = min(cap, self._tokens + (now - self._stamp) * STDERR_LINES_PER_S)
        self._stamp = now
        if self._tokens < 1:
            self.dropped += 1
            return
        self._tokens -= 1
        if self.dropped:
            log.info("exec bot %s: %d stderr lines not logged", self.label, self.dropped)
            self.dropped = 0
        log.info("exec bot %s: %s", self.label, text)


def read_lines(stream: IO[bytes], lines: queue.Queue[object]) -> None:
    """The reader thread: each line of the bot's stdout into ``lines``, then ``EOF`` (or
    ``TOO_LONG`` for a line over :data:`MAX_LINE_BYTES`, after which it stops reading)."""
    try:
        while line := stream.readline(MAX_LINE_BYTES + 1):
            if len(line) > MAX_LINE_BYTES and not (
                len(line) == MAX_LINE_BYTES + 1 and line.endswith(b"\n")
            ):
                lines.put(TOO_LONG)
                return
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(EOF)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the process group; ``False`` when no process is left in it."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a member changed user: nothing we may do
        return False
    return True


def _pipe_holders(proc: subprocess.Popen[bytes]) -> list[int]:
    """Processes other than us that hold the bot's stdout pipe (Linux ``/proc``; ``[]``
    elsewhere): what the bot started and detached from its group with ``setsid``."""
    try:
        assert proc.stdout is not None
        target = f"pipe:[{os.fstat(proc.stdout.fileno()).st_ino}]"
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except (OSError, ValueError, AssertionError):
        return []
    holders = []
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == target for fd in fds):
                holders.append(pid)
        except OSError:  # gone, or not ours to look at
            continue
    return holders


def reap(proc: subprocess.Popen[bytes], grace_s: float) -> None:
    """Close the bot's stdin, give it ``grace_s`` to exit, then SIGTERM and SIGKILL its
    process group (what it started too) and any process still holding its stdout (what
    it started in a session of its own): no orphans. Runs once (close, GC or exit)."""
    try:
        _reap_group(proc, grace_s)
    finally:
        for pid in _pipe_holders(proc):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _reap_group(proc: subprocess.Popen[bytes], grace_s: float) -> None:
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        _signal_group(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5.0)
    if _signal_group(proc.pid, signal.SIGTERM):  # members the bot left behind
        for _ in range(20):
            time.sleep(0.05)
            if not _signal_group(proc.pid, 0):
                return
        _signal_group(proc.pid, signal.SIGKILL)


def exit_text(returncode: int | None) -> str:
    """``exited with code 3``, ``was killed by signal 9 (SIGKILL)`` or, while it runs,
    ``closed its output``."""
    if returncode is None:
        return "closed its output"
    if returncode < 0:
        try:
            name = f" ({signal.Signals(-returncode).name})"
        except ValueError:
            name = ""
        return f"was killed by signal {-returncode}{name}"
    return f"exited with code {returncode}"


__all__ = ["MAX_LINE_BYTES", "StderrLog", "exit_text", "read_lines", "reap"]
