"""Deprecated name of :mod:`sunbot.cli_replay_page` (``sunbot play --html`` is the command
line's part), kept so that older imports keep working."""

import warnings

from sunbot import cli_replay_page as _moved
from sunbot.cli_replay_page import *  # noqa: F403

__all__ = list(_moved.__all__)

warnings.warn(
    "sunbot.html.after_run moved to sunbot.cli_replay_page", DeprecationWarning, stacklevel=2
)
