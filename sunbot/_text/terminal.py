"""Outside text (a server's answers, a transcript's fields) made safe for the terminal.

Text a server or a transcript chose must neither control the user's terminal nor stall it:

- **Controls.** :func:`printable` turns every control or format character (``ESC``, ``BEL``,
  NUL, line breaks, bidi overrides) into ``\ufffd``, so a ``ESC]0;…BEL`` title change or a
  ``ESC[2J`` screen clear is shown, never obeyed.
- **Length.** :func:`outside` also scrubs secrets and clips to
  :data:`~sunbot._text.safe.MAX_TEXT` characters (``docs/decisions.md``, "Server text in our
  messages"). Printed through a rich ``Text`` (:func:`sunbot.views.common.line`), such text
  is never read as markup nor run through rich's highlighter.
- **Trees.** :func:`tidy` applies :func:`outside` to every string of a JSON tree (keys and
  values), for the game views that draw a recorded position.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sunbot._text.safe import MAX_TEXT, safe

#: Unicode categories a terminal must never receive from a server or another player:
#: controls (ESC, NUL, CR, LF...), format characters (bidi overrides), surrogates, private
#: use, line and paragraph separators.
_UNPRINTABLE = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))
#: Nesting below which :func:`tidy` stops (a transcript line is at most this deep in practice).
_MAX_DEPTH = 64


def printable(value: Any) -> str:
    """``str(value)`` as one line of text safe to print: every control or format character
    (terminal escapes, NUL, line breaks, bidi overrides) becomes ``\ufffd``. Use it on any
    text a server or another player chose (speeches, ``lastPublic``, causes). Not clipped:
    see :func:`outside`."""
    return "".join("\ufffd" if unicodedata.category(c) in _UNPRINTABLE else c for c in str(value))


def outside(value: Any, limit: int = MAX_TEXT) -> str:
    """``value`` as outside text may reach the terminal: secrets scrubbed, clipped to
    ``limit`` characters (then ``… (N more characters)``), controls made ``\ufffd``."""
    return printable(safe(value, limit))


def tidy(value: Any, limit: int = MAX_TEXT, depth: int = 0) -> Any:
    """A copy of the JSON tree ``value`` with every string (dict keys too) passed through
    :func:`outside`; numbers, booleans and ``None`` as they are. Deeper than 64 levels the
    rest becomes one clipped string (a transcript may nest without bound)."""
    if isinstance(value, str):
        return outside(value, limit)
    if depth >= _MAX_DEPTH and isinstance(value, dict | list):
        return outside(value, limit)
    if isinstance(value, dict):
        return {outside(k, limit): tidy(v, limit, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [tidy(v, limit, depth + 1) for v in value]
    return value


#: Characters of one multi-line outside text kept (a served rule text, a traceback).
MAX_BLOCK = 20_000


def printable_lines(value: Any, limit: int = MAX_BLOCK) -> str:
    """``value`` as lines of printable text: line breaks kept, every other control or format
    character shown as ``\ufffd`` (:func:`printable` per line), secrets scrubbed and the whole
    clipped to ``limit`` characters. For outside text whose lines matter (a served rule
    text, a traceback that quotes a server's words)."""
    return "\n".join(printable(part) for part in safe(value, limit).split("\n"))


__all__ = [
    "MAX_BLOCK",
    "outside",
    "printable",
    "printable_lines",
    "tidy",
]
