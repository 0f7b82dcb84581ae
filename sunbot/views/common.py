"""Pieces every game's CLI output shares: the closing summary table, the live view, and lines
of our own words around outside text (:func:`line`, :func:`unknown_line`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from sunbot._text.terminal import outside, printable

__all__ = ["MAX_LISTED", "line", "live_view", "printable", "summary_table", "unknown_line"]


def summary_table(title: str, rows: dict[str, Any]) -> Table:
    """A two-column table of ``rows``; divergences above 0 and an errored end show in red.
    Each value is one line of at most :data:`~sunbot._text.safe.MAX_TEXT` characters, secrets
    redacted (a server's free text may be a megabyte or echo a token)."""
    table = Table(title=Text(outside(title)), show_header=False)  # plain text: names may hold '['
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows.items():
        bad = (key == "divergences" and value not in (0, "0")) or (
            key == "ended by" and "(" in str(value)
        )
        text = "-" if value is None else outside(value)
        table.add_row(Text(outside(key)), Text(text, style="red" if bad else ""))
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
