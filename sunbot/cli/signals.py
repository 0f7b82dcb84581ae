"""The signals that stop ``sunbot play`` and ``sunbot bench`` cleanly, and their exit codes.

SIGINT (Ctrl-C) and SIGTERM (``timeout``, ``docker stop``, a CI cancellation) are handled
alike: the command stops, writes what it has (a transcript's result line, a benchmark's
finished jobs) and exits with ``128 + signal number``: 130 for SIGINT, 143 for SIGTERM, as a
shell reports a process killed by that signal. The handlers are installed explicitly, so a
command started in the background by a non-interactive shell (which starts it with SIGINT
ignored) still stops on ``kill -INT`` (see docs/decisions.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

from sunbot.cli.console import Exit

#: The signals a command treats as "stop, keep what is done".
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


def exit_code(signum: int | None) -> int:
    """The exit code of a command stopped by signal ``signum``: ``128 + signum`` (130 for
    SIGINT, 143 for SIGTERM: :class:`~sunbot.cli.console.Exit`); 130 when the signal is not
    known (``None``)."""
    return Exit.INTERRUPTED if signum is None else 128 + signum


class StopSignals:
    """While active, SIGINT and SIGTERM call ``handler(signum, frame)`` (even where the
    process was started with them ignored); the previous handlers come back on exit.
    :attr:`signum` is the last stop signal received (``None`` before any). In a thread other
    than the main one (where Python cannot set handlers) it does nothing."""

    def __init__(self, handler: Callable[[int, FrameType | None], Any]) -> None:
        self.handler = handler
        self.signum: int | None = None
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.signum = signum
        self.handler(signum, frame)

    def __enter__(self) -> StopSignals:
        try:
            for sig in STOP_SIGNALS:
                self._previous[sig] = signal.signal(sig, self._handle)
        except ValueError:  # not the main thread
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        self._previous.clear()


def raise_interrupt(signum: int, frame: FrameType | None) -> None:
    """A :class:`StopSignals` handler that stops at once: raises ``KeyboardInterrupt``."""
    raise KeyboardInterrupt


#: Seconds a command's stop (the ``KeyboardInterrupt`` a stop signal raises) may take to
#: end it before the process is ended at once: a model or bot that catches the interrupt
#: (``except BaseException: pass``) must not keep the process alive.
HARD_STOP_S = 3.0


class HardStop:
    """The bound on a stop. :meth:`arm` (once a stop raised ``KeyboardInterrupt``; later calls
    do nothing) starts a daemon timer; unless the command's block ends first (leaving the
    context, or :meth:`cancel`), after ``seconds`` it calls ``before()`` (best effort: make
    files whole), prints ``message()`` on standard error and ends the process with
    ``os._exit(code())``: no ``finally`` block, no ``atexit`` handler runs.

    ``code`` is called at the time of the exit (the signal may be known only then:
    :func:`exit_code`)."""

    def __init__(
        self,
        code: Callable[[], int],
        message: Callable[[], str],
        before: Callable[[], object] | None = None,
        seconds: float = HARD_STOP_S,
    ) -> None:
        self.code = code
        self.message = message
        self.before = before
        self.seconds = seconds
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def arm(self) -> None:
        """Start the timer (idempotent: the first stop's bound holds)."""
        with self._lock:
            if self._timer is None:
                self._timer = threading.Timer(self.seconds, self._fire)
                self._timer.daemon = True
                self._timer.name = "sunbot-hard-stop"
                self._timer.start()

    def cancel(self) -> None:
        """Stop the timer (the command's block ended: the stop worked)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()

    def _fire(self) -> None:
        code = self.code()
        if self.before is not None:
            with contextlib.suppress(Exception):
                self.before()
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            sys.stderr.write(self.message() + "\n")
            sys.stderr.flush()
        os._exit(code)  # off the bot's thread: the escape guard lets it through

    def __enter__(self) -> HardStop:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.cancel()
