"""Generic view: any game's position as a compact table, for games sunbot has no view of.

One head line (score, step, legal actions, over), the action that led here, then the
observation's top-level fields with short values (nested values as clipped compact JSON).
Everything in it is outside text: each key and value goes through
:func:`~sunbot._text.terminal.outside` into a plain ``Text`` (no markup, no highlighting).
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sunbot._text.terminal import outside

__all__ = ["MAX_FIELDS", "MAX_VALUE", "render", "short"]

#: Top-level fields shown; the rest are counted.
MAX_FIELDS = 16
#: Characters of one shown value.
MAX_VALUE = 60


def short(value: Any, limit: int = MAX_VALUE) -> str:
    """``value`` as one short line: a string as it is, anything else as compact JSON, cut
    to ``limit`` characters with ``…`` (controls and secrets made safe)."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
        except (ValueError, RecursionError):
            text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return outside(text, limit + 1)


def render(
    observation: Any,
    *,
    score: Any = None,
    step: int | None = None,
    action: Any = None,
    legal: int | None = None,
    over: bool | None = None,
    max_fields: int = MAX_FIELDS,
) -> RenderableType:
    """A compact rich view of ``observation`` (any JSON; an object's fields one per row).

    Args:
        score: the answer's score (any JSON; shown as it is, clipped).
        step: the action's index (0: the opening); ``None`` leaves it out.
        action: the action that led to this position (shown as compact JSON).
        legal: how many legal actions the answer lists.
        over: the answer's ``gameOver``.
        max_fields: rows shown at most; the rest are counted in a last row.
    """
    head = Text.assemble(("score ", "dim"), (short(score, 20), "bold"))
    if step is not None:
        head.append_text(Text.assemble(("  step ", "dim"), str(step)))
    if legal is not None:
        head.append_text(Text.assemble(("  legal actions ", "dim"), str(legal)))
    if over:
        head.append_text(Text("  game over", style="bold red"))
    parts: list[RenderableType] = [head]
    if action is not None:
        parts.append(Text.assemble(("action ", "dim"), short(action, 100)))
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    fields = observation if isinstance(observation, dict) else {"observation": observation}
    for i, (key, value) in enumerate(fields.items()):
        if i == max_fields:
            table.add_row(Text("…"), Text(f"{len(fields) - max_fields} more fields", style="dim"))
            break
        table.add_row(Text(short(key, 30)), Text(short(value)))
    parts.append(table)
    return Group(*parts)
