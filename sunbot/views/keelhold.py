"""Keelhold view: voyage and score, the trim bar against the tolerance, the hold hatch by
hatch (jams and safe bays marked), and the queue."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sunbot.observations.keelhold import summary as summary  # the closing-summary fields
from sunbot.views.common import printable

CARGO_STYLES = ("cyan", "magenta", "yellow", "green", "blue", "red", "bright_white")

#: One line under the view saying what its short labels mean (docs/rules/keelhold.md).
LEGEND = (
    "M: multiplier (voyage + 3) · lots: shipped / quota · chain: lots on consecutive turns ·"
    " A3: cargo A weight 3 · ▪ ballast · ! rush (due) · ✓ safe · ⛔ jammed"
)


def crate_text(c: dict[str, Any]) -> Text:
    """``A3`` (cargo letter and weight), ``▪4`` for ballast, ``!`` on a rush crate."""
    if c["cargo"] is None:
        return Text(f"▪{c['weight']}", style="dim")
    label = f"{chr(65 + c['cargo'])}{c['weight']}"
    if c.get("rushWindow") is not None:
        label += f"!{c['due']}" if c.get("due") is not None else "!"
    return Text(label, style=CARGO_STYLES[c["cargo"] % len(CARGO_STYLES)])


def trim_bar(trim: int, tolerance: int, width: int = 41) -> Text:
    """A bar from -2T to +2T with the tolerance band shaded and the trim marked."""
    span = max(2 * tolerance, abs(trim), 1)
    half = width // 2
    pos = half + round(trim / span * half)
    band = round(tolerance / span * half)
    bar = Text()
    for i in range(width):
        inside = abs(i - half) <= band
        ch = "█" if i == pos else ("│" if i == half else "─")
        style = (
            ("bold red" if abs(trim) > tolerance else "bold green")
            if i == pos
            else ("green" if inside else "red")
        )
        bar.append(ch, style=style)
    return bar


def render(state: dict[str, Any], ended: str | None = None) -> RenderableType:
    """The whole position as a rich group, ending with :data:`LEGEND`. ``ended``: our own
    words for how the run ended (``capped at voyage 30``), shown instead of the game's
    ``cause`` (a capped run's END_RUN says ``ended``, which misleads)."""
    cause = ended or state.get("cause")
    p = state["params"]
    head = Text.assemble(
        ("Keelhold ", "bold"),
        f"voyage {state['voyage']} (M {state['voyage'] + 3})  ",
        ("score ", "dim"),
        (f"{state['score']}", "bold"),
        f"  turn {state['turn']}  lots {state['lotsShipped']}/{p['quota']}  chain {state['chain']}",
        printable(f"  phase {state['phase']}") + (printable(f" ({cause})") if cause else ""),
    )
    listing = abs(state["trim"]) > p["tolerance"]
    trim_line = Text.assemble(
        f"trim {state['trim']:+d} / ±{p['tolerance']}  wind {p['wind']:+d}  ",
        trim_bar(state["trim"], p["tolerance"]),
        ("  LISTING" if listing else "  level", "bold red" if listing else "green"),
    )
    hold = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    safe, open_bays = set(state["safeBays"]), set(p["openBays"])
    for b in range(7):
        mark = "✓" if b in safe else ("⛔" if state["turn"] < state["jammedUntil"][b] else "")
        arm = state["arms"][b]
        name = f"H{b + 1}{'k' if b == 3 else ''}"
        hold.add_column(
            f"{name} {arm:+d}{mark}" if b in open_bays else f"{name} shut",
            justify="center",
            min_width=6,
        )
    depth = max([len(h) for h in state["hold"]] + [1])
    for row in range(depth - 1, -1, -1):
        hold.add_row(
            *[crate_text(h[row]) if row < len(h) else Text("·", style="dim") for h in state["hold"]]
        )
    queue = Text("queue: ")
    for i, c in enumerate(state["queue"]):
        queue.append_text(crate_text(c))
        queue.append(" ← in hand  " if i == 0 else " ")
    extra = []
    if state["phase"] == "port":
        extra.append(
            Text(
                f"at port: castOffSafe={state['castOffSafe']}  next voyage: "
                f"tolerance {state['next']['tolerance']}, quota {state['next']['quota']}, "
                f"wind {state['next']['wind']:+d} {state['next']['conditions']}"
            )
        )
    return Group(head, trim_line, hold, queue, *extra, Text(LEGEND, style="dim"))
