"""Deprecated name of :mod:`sunbot._text.terminal`, kept so that older imports keep working.

It still holds the two rich helpers :func:`line` and :func:`unknown_line`.
"""

import warnings

from rich.text import Text

from sunbot._text import terminal as _moved
from sunbot._text.terminal import *  # noqa: F403
from sunbot._text.terminal import outside

warnings.warn(
    "sunbot.terminal_text moved to sunbot._text.terminal", DeprecationWarning, stacklevel=2
)


def line(*parts: str | tuple[str, str]) -> Text:
    """One rich ``Text`` of ``parts``, printed without markup or highlighting.

    A ``str`` part is taken as it is: pass outside text through :func:`outside` first. A
    ``(text, style)`` part is our own styled words, e.g. ``("error:", "bold red")``.
    """
    return Text.assemble(*parts)


#: Unknown field names listed in one ``unknown fields seen`` line; the rest are counted.
MAX_LISTED = 30


def unknown_line(fields: list[str] | set[str]) -> Text:
    """``unknown fields seen (ignored): a, b`` for the summary of ``play`` and ``replay``:
    each name through :func:`outside`, at most :data:`MAX_LISTED` names (sorted), then
    ``… and N more`` (a server chose the names, and how many)."""
    names = sorted(fields)
    shown = ", ".join(outside(n) for n in names[:MAX_LISTED])
    more = f" … and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
    return line("unknown fields seen (ignored): ", shown, more)


__all__ = [*_moved.__all__, "MAX_LISTED", "line", "unknown_line"]
