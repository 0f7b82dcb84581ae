"""The command line's consoles and its exit codes: one factory, one enum, for every command.

Every command prints through a console from :func:`make_console`. Our own words may use rich
markup (``[bold red]error:[/]``); outside text (a server's, a transcript's, a bot's) never
reaches markup: it is printed as a ``Text`` (:func:`sunbot.views.common.line`) after
:func:`sunbot._text.terminal.outside`, or ``escape()``-d, and a console that prints nothing
but outside text (the log handler's) is made with ``markup=False``.

The exit codes of ``sunbot play``, ``replay``, ``export``, ``bench`` and ``probe`` are
:class:`Exit` (their meanings: the README's exit-code lines, ``docs/transcripts.md`` for
``replay`` and ``docs/decisions.md``, "Replay exit code with several findings").
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from enum import IntEnum
from typing import TextIO

from rich.console import Console


class Exit(IntEnum):
    """A command's exit code.

    ``OK``: done (a run ended by the rules or its cap, a replay checked). ``ERROR``: a run
    or job stopped on an error, a file could not be written, a server could not be played.
    ``USAGE``: bad usage (an option, a path, a label), told before anything runs.
    ``DIVERGED``: under ``--strict``, an answer diverged from the rules (``play``, and
    ``replay``: a re-play mismatch, a foreign line, an inconsistent result line too).
    ``CUT``: ``replay --strict`` of a transcript cut at its end or without a result line.
    ``CORRUPT``: a transcript with a corrupt line in the middle (``replay``, ``export``);
    it wins over ``DIVERGED``, which wins over ``CUT``. ``SPEND_CAP``: a daily spend cap
    (:mod:`sunbot.spend`) stopped the command before it finished (``play``: the run is
    resumable; ``bench``, ``tournament``: ``--resume`` runs the rest once the cap allows).
    ``INTERRUPTED`` and ``TERMINATED``:
    stopped by SIGINT (Ctrl-C) or SIGTERM, ``128 +`` the signal as a shell reports it
    (:func:`sunbot.cli.signals.exit_code`).
    """

    OK = 0
    ERROR = 1
    USAGE = 2
    DIVERGED = 3
    CUT = 4
    CORRUPT = 5
    SPEND_CAP = 6
    INTERRUPTED = 128 + signal.SIGINT
    TERMINATED = 128 + signal.SIGTERM


def make_console(*, stderr: bool = False, markup: bool = True) -> Console:
    """A console on stdout, or on stderr (``stderr=True``: errors, warnings, logs).

    ``markup=False`` for a console that prints only outside text (the log handler's), so
    not even a plain string given to it is read as markup. Its width follows the terminal;
    :func:`sunbot.cli.log.setup_logging` widens one that writes to a pipe.
    """
    return Console(stderr=stderr, markup=markup)


#: The real stdouts of the :func:`stdout_to_stderr` blocks now open, innermost last.
_results: list[TextIO] = []


def result_stdout() -> TextIO:
    """Where a command writes its result (``--json``, ``--format json``): stdout, which
    inside :func:`stdout_to_stderr` is the real one, not the redirected one."""
    return _results[-1] if _results else sys.stdout


@contextlib.contextmanager
def stdout_to_stderr(active: bool = True) -> Iterator[None]:
    """While ``active``, what anything else writes to stdout goes to stderr: ``print``
    and ``sys.stdout`` (a model, a strategy or a bot of the user's), and, where stdout is
    the process's file descriptor 1, a write to it or a program started meanwhile. So
    under ``--json`` stdout holds exactly the JSON, which the command writes to
    :func:`result_stdout`."""
    if not active:
        yield
        return
    real: TextIO = sys.stdout
    saved: int | None = None
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if real.fileno() == 1:
            real.flush()
            saved = os.dup(1)
            os.dup2(2, 1)
    out = real if saved is None else open(saved, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    _results.append(out)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        _results.pop()
        if saved is not None:
            with contextlib.suppress(OSError, ValueError):
                out.flush()
                real.flush()  # what a module that kept the old sys.stdout wrote: to stderr
            os.dup2(saved, 1)
            os.close(saved)


__all__ = ["Exit", "make_console", "result_stdout", "stdout_to_stderr"]
