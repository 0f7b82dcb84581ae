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

import signal
from enum import IntEnum

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


__all__ = ["Exit", "make_console"]
