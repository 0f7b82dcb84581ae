"""``-v/--verbose`` and ``--log-level`` for every ``sunbot`` command, in one place.

Logs go to standard error through rich (never into an output file on stdout). Default
level: ``warning``. ``-v``: ``info`` (and a failed strategy's traceback in the terminal),
``-vv``: ``debug``; ``--log-level`` names the level outright and wins over ``-v``.
"""

from __future__ import annotations

import logging
import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.highlighter import NullHighlighter
from rich.logging import RichHandler
from rich.markup import escape
from rich.text import Text

from sunbot._text.redaction import RedactTokens
from sunbot._text.terminal import printable_lines
from sunbot.cli.console import make_console


class LogLevel(StrEnum):
    """Log levels (uvicorn's names; ``trace`` is ``debug`` for sunbot's own loggers)."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


Verbose = Annotated[
    int,
    typer.Option(
        "--verbose",
        "-v",
        count=True,
        help="More output on stderr: -v info and strategy tracebacks, -vv debug.",
    ),
]
LogLevelOption = Annotated[
    LogLevel | None,
    typer.Option("--log-level", help="Log level on stderr (default warning; wins over -v)."),
]

_HANDLER_NAME = "sunbot-cli"
#: ``sunbot -v COMMAND`` / ``sunbot --log-level L COMMAND``: the root's options, which a
#: command's own ``-v``/``--log-level`` add to / override.
_root: tuple[int, LogLevel | str | None] = (0, None)


def set_root_logging(verbose: int, log_level: LogLevel | str | None) -> None:
    """Remember the ``sunbot`` command's own ``-v`` count and ``--log-level`` (the root
    callback calls it on every invocation, so nothing leaks from one to the next)."""
    global _root
    _root = (verbose, log_level)


def level_of(verbose: int, log_level: LogLevel | str | None) -> int:
    """The ``logging`` level for ``-v`` counted ``verbose`` times and ``--log-level``."""
    if log_level is not None:
        name = str(log_level).upper()
        return logging.DEBUG if name == "TRACE" else logging.getLevelNamesMapping()[name]
    return {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)


#: Width of a console whose output is piped (rich would cut tables at 80 columns).
PIPED_WIDTH = 1000


class PrintableRecords(logging.Filter):
    """Logging filter for the terminal: a record's message (already formatted and redacted
    by ``RedactTokens``) made :func:`~sunbot._text.terminal.printable_lines`: line breaks
    kept, every other control character shown as ``\ufffd``, at most
    :data:`~sunbot._text.terminal.MAX_BLOCK` characters. It never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record``'s message in place; always ``True``."""
        record.msg, record.args = printable_lines(record.getMessage()), None
        return True


def setup_logging(
    verbose: int = 0, log_level: LogLevel | str | None = None, *consoles: Console
) -> int:
    """Send the ``sunbot`` loggers to standard error at the chosen level; returns it.

    ``consoles``: the command's consoles; one that writes to a pipe or a file (and no
    ``COLUMNS`` says otherwise) gets :data:`PIPED_WIDTH` columns, so piped tables are whole.
    Calling it again (another command in the same process, a test) replaces the handler.
    """
    for console in consoles:
        piped = not console.is_terminal and not os.environ.get("COLUMNS")
        console._width = PIPED_WIDTH if piped else None  # None: rich asks the terminal
    level = level_of(verbose + _root[0], log_level if log_level is not None else _root[1])
    root = logging.getLogger("sunbot")
    for handler in list(root.handlers):
        if handler.get_name() == _HANDLER_NAME:
            root.removeHandler(handler)
    # no highlighter: a record may quote a server's long text, and rich's highlighter takes
    # time growing with the square of its length (docs/decisions.md, "Outside text ...")
    handler = RichHandler(
        console=make_console(stderr=True, markup=False),
        show_path=False,
        markup=False,
        highlighter=NullHighlighter(),
    )
    handler.set_name(_HANDLER_NAME)
    # on the handler, not the logger: a logger's filter skips its children's records
    # (sunbot.client, sunbot.runner), and every record shown must lose our secrets
    handler.addFilter(RedactTokens())
    handler.addFilter(PrintableRecords())
    root.addHandler(handler)
    root.setLevel(level)
    return level


def verbose() -> bool:
    """True when ``info`` messages are shown (``-v`` or a lower ``--log-level``)."""
    return logging.getLogger("sunbot").isEnabledFor(logging.INFO)


#: Errors whose traceback adds nothing to their one line: the server was never reached.
CONNECTION_ERRORS = ("ConnectError:", "ConnectTimeout:")


def show_traceback(text: str | None, transcript: Path | None, error: str | None = None) -> None:
    """A failed run's traceback on stderr at ``-v``; otherwise where to find it, unless
    ``error`` (the run's one-line error) is a connection error (:data:`CONNECTION_ERRORS`),
    where the line already says it all."""
    if not text:
        return
    if not verbose() and (error or "").startswith(CONNECTION_ERRORS):
        return
    if verbose():
        make_console(stderr=True).print(Text(printable_lines(text.rstrip())), soft_wrap=True)
        return
    where = f" and in {transcript}'s result line" if transcript else ""
    make_console(stderr=True).print(f"the traceback: rerun with -v{escape(where)}", soft_wrap=True)
