"""Pieces every game's CLI output shares: the closing summary table and the live view."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from sunbot.safe_text import safe

#: Unicode categories a terminal must never receive from a server or another player:
#: controls (ESC, NUL, CR, LF...), format characters (bidi overrides), surrogates, private
#: use, line and paragraph separators.
_UNPRINTABLE = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))


def printable(value: Any) -> str:
    """``value`` as one line of text safe to print: every control or format character
    (terminal escapes, NUL, line breaks, bidi overrides) becomes ``\ufffd``. Use it on any
    text a server or another player chose (speeches, ``lastPublic``, causes)."""
    return "".join("\ufffd" if unicodedata.category(c) in _UNPRINTABLE else c for c in str(value))


def summary_table(title: str, rows: dict[str, Any]) -> Table:
    """A two-column table of ``rows``; divergences above 0 and an errored end show in red.
    Each value is one line of at most :data:`~sunbot.safe_text.MAX_TEXT` characters, secrets
    redacted (a server's free text may be a megabyte or echo a token)."""
    table = Table(title=Text(title), show_header=False)  # plain text: names may hold '['
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows.items():
        bad = (key == "divergences" and value not in (0, "0")) or (
            key == "ended by" and "(" in str(value)
        )
        text = "-" if value is None else safe(printable(value))
        table.add_row(Text(printable(key)), Text(text, style="red" if bad else ""))
    return table


@contextmanager
def live_view(console: Console, renderable: RenderableType, quiet: bool) -> Iterator[Live | None]:
    """A rich ``Live`` redrawing ``renderable`` 8 times a second (``None`` when ``quiet``),
    stopped however the block ends."""
    if quiet:
        yield None
        return
    live = Live(renderable, console=console, refresh_per_second=8, transient=False)
    live.start()
    try:
        yield live
    finally:
        live.stop()
        if not console.is_terminal:
            console.line()  # off a terminal the last frame ends without a line break
