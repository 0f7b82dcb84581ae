"""Deprecated name of :mod:`sunbot.cli_replay_page` (``sunbot play --html`` is the command
line's part), kept so that older imports keep working."""

import warnings

from sunbot import cli_replay_page as _moved
from sunbot.cli_console import Exit
from sunbot.cli_replay_page import *  # noqa: F403

#: The exit code of a run that went well but whose ``--html`` page could not be written.
EXIT_PAGE_FAILED = Exit.ERROR

__all__ = [*_moved.__all__, "EXIT_PAGE_FAILED"]

warnings.warn(
    "sunbot.html.after_run moved to sunbot.cli_replay_page", DeprecationWarning, stacklevel=2
)
