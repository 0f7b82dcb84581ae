"""Harvest Watch view: the table seen by one seat (Harvest Watch §2.3, §4).

:func:`render` takes a whole match view (``{status, remainMs, data, ...}``) or just its
``data`` and draws: day, phase, round and clock; one row per seat with its food, whether it
is out, its speeches and ballot; the fine and its shares; our pending command; the last
public line; ranks once done. :func:`summary` gives the closing-summary fields;
:func:`seat_line` and :func:`winner_line` say in words how a match ended for one of our seats
and who ranked first.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sunbot._text.terminal import outside
from sunbot.observations.harvest_watch_outcome import (
    final_summary,
    seat_line,
    split,
    summary,
    winner_line,
)

_split = split
__all__ = ["final_summary", "render", "seat_line", "summary", "winner_line"]


def render(view: dict[str, Any], ours: Collection[int] = ()) -> RenderableType:
    """The table as a rich group (``view``: a match view or its ``data``; ``ours``: every
    seat we play, each marked ``(you)``; default: the view's own seat)."""
    outer, data = _split(view)
    s = data.get("summary", {})
    living = set(s.get("aliveSeats", []))
    mine = set(ours) or {s.get("you")}
    clock = ""
    if outer:
        clock = f"  {outer.get('status', '?')}  {outer.get('remainMs', 0) / 1000:.1f} s left"
    head = Text.assemble(
        ("Harvest Watch ", "bold"),
        f"day {s.get('day', '?')}  {s.get('phase', '?')}  round {data.get('round', '?')}{clock}",
    )
    table = Table(box=None, padding=(0, 1), header_style="bold")
    for col in ("seat", "food", "", "speech 1", "speech 2", "vote"):
        table.add_column(col, overflow="ellipsis", max_width=44 if col.startswith("sp") else None)
    sp1, sp2 = s.get("speeches1", {}), s.get("speeches2", {})
    votes = s.get("votes", {})
    ranks = (data.get("result") or {}).get("ranks")
    for seat, food in enumerate(s.get("foods", [])):
        state = "out" if seat not in living else ""
        if ranks:
            state = f"rank {ranks[seat]}"
        ballot = votes.get(str(seat))
        vote = ""
        if ballot is not None:
            vote = "-" if ballot.get("punish") is None else f"{ballot['punish']}→{ballot['giveTo']}"
        style = "bold cyan" if seat in mine else ("dim" if seat not in living else "")
        name = f"{seat}{' (you)' if seat in mine else ''}"
        table.add_row(
            Text(name, style=style),
            Text(f"{food:.1f}", style=style),
            Text(state, style="red" if state == "out" else "green"),
            Text(outside(sp1.get(str(seat), ""))),  # another player's words: text only,
            Text(outside(sp2.get(str(seat), ""))),  # clipped first (a 10 MB speech)
            Text(vote),
        )
    lines: list[RenderableType] = [head, table]
    pr = s.get("punishResult")
    if pr is not None and pr.get("punished") is not None:
        shares = ", ".join(f"{k}: +{v:.1f}" for k, v in pr["shares"].items())
        lines.append(Text(f"fine: seat {pr['punished']} -{pr['fine']:.1f} ({shares})"))
    several = len(mine) > 1  # caught, collided and pending are this view's seat's own
    whose, label = (f"seat {s.get('you')}'s", f" (seat {s.get('you')})") if several else ("our", "")
    for key in ("caught", "collided"):
        if s.get(key):
            lines.append(Text(f"{key}{label}: {s[key]}", style="yellow"))
    if "pending" in data:
        lines.append(Text(outside(f"{whose} pending command: {data['pending']}"), style="dim"))
    lines.append(Text(outside(s.get("lastPublic", "")), style="italic"))
    return Group(*lines)
