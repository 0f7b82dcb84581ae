"""Deprecated name of :mod:`sunbot._text.terminal` (outside text made printable) and, for its
two rich helpers :func:`line` and :func:`unknown_line`, of :mod:`sunbot.views.common`; kept
so that older imports keep working."""

import warnings

from sunbot._text import terminal as _moved
from sunbot._text.terminal import *  # noqa: F403
from sunbot.views.common import MAX_LISTED, line, unknown_line

__all__ = [*_moved.__all__, "MAX_LISTED", "line", "unknown_line"]

warnings.warn(
    "sunbot.terminal_text moved to sunbot._text.terminal", DeprecationWarning, stacklevel=2
)
