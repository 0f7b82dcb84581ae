"""A view as plain text: what a reader without a terminal (an assistant over MCP, a log) gets
of the same rich renderables the terminal draws.
"""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

#: Columns a plain-text view is laid out in: wide enough for every game's table.
TEXT_WIDTH = 100

__all__ = ["TEXT_WIDTH", "plain_text"]


def plain_text(renderable: RenderableType, width: int = TEXT_WIDTH) -> str:
    """``renderable`` laid out ``width`` columns wide, as text without colours, styles or
    control sequences (lines end in ``\\n``; trailing spaces removed)."""
    console = Console(
        record=True,
        file=io.StringIO(),
        width=width,
        color_system=None,
        force_terminal=False,
        force_jupyter=False,
        soft_wrap=False,
        markup=False,
        emoji=False,
        highlight=False,
    )
    console.print(renderable)
    text = console.export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
