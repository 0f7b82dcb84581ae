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

from sunbot.views.common import printable


def _split(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(outer, data)`` for a whole view or a bare ``data`` object."""
    if "data" in view and isinstance(view["data"], dict):
        return view, view["data"]
    return {}, view


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
            Text(printable(sp1.get(str(seat), ""))),  # another player's words: text only
            Text(printable(sp2.get(str(seat), ""))),
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
        lines.append(Text(printable(f"{whose} pending command: {data['pending']}"), style="dim"))
    lines.append(Text(printable(s.get("lastPublic", "")), style="italic"))
    return Group(*lines)


def final_summary(view: dict[str, Any] | None) -> dict[str, Any]:
    """``data.summary`` of a whole view or its ``data`` (``{}`` when there is none or it is
    not an object, as from a foreign server)."""
    if not isinstance(view, dict):
        return {}
    s = _split(view)[1].get("summary")
    return s if isinstance(s, dict) else {}


def summary(view: dict[str, Any]) -> dict[str, Any]:
    """Closing-summary fields: day, our seat and food, who is living, ranks and winners."""
    _, data = _split(view)
    s = data.get("summary", {})
    out: dict[str, Any] = {
        "day": s.get("day"),
        "seat": s.get("you"),
        "food": s.get("food"),
        "living": s.get("aliveSeats"),
    }
    ranks = (data.get("result") or {}).get("ranks")
    if ranks:
        out["ranks"] = ranks
        out["rank-1 seats"] = [i for i, r in enumerate(ranks) if r == 1]
    out["last public"] = s.get("lastPublic")
    return out


def _seats_text(seats: list[int]) -> str:
    """``5``, ``1 and 4``, ``0, 2 and 3``."""
    names = [str(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def seat_line(
    rank: int | None, seats: int, food: float | None, alive: bool | None, out_night: int | None
) -> str:
    """One of our seats at the end of a match: ``rank 2 of 6 · food 0.0 · out on night 5``.

    Args:
        rank: its rank (1 is best; ``None`` when the match did not finish).
        seats: seats at the table (the length of ``ranks``).
        food: its store in food units (0.0 once out, spec §4 ``foods``), ``None`` if unseen.
        alive: whether it was still in; ``None`` if unseen.
        out_night: the night it went out, ``None`` when still in or not seen.
    """
    parts = ["no rank (unfinished)" if rank is None else f"rank {rank} of {seats}"]
    if food is not None:
        parts.append(f"food {food:.1f}")
    if alive is True:
        parts.append("still in")
    elif alive is False:
        parts.append("out" if out_night is None else f"out on night {out_night}")
    return " · ".join(parts)


def winner_line(ranks: list[int] | None, living: list[int] | None, day: Any) -> str | None:
    """Who ranked first and why, in the rules' terms (``None`` before the end).

    The rule text's Design and Finish sections (spec ``harvest-watch.md`` §3 step 7 and
    ranks §9): one seat left living wins; when every seat still in goes out on the same
    night, the largest store just before that night's cost ranks first and equal largest
    stores draw; a seat that lasted longer ranks ahead of one out earlier. So a winner may
    show 0.0 food and no living seats: it went out last, on the final night ``day``.
    """
    if not ranks:
        return None
    firsts = [s for s, r in enumerate(ranks) if r == 1]
    still_in = list(living or [])
    if len(still_in) == 1 and firsts == still_in:
        return f"seat {firsts[0]} wins: the last seat still in after night {day}"
    if not still_in and len(firsts) == 1:
        return (
            f"seat {firsts[0]} ranks first: every seat still in went out on night {day}, "
            "and it had the most food before that night's cost"
        )
    if not still_in and firsts:
        return (
            f"seats {_seats_text(firsts)} draw for first: they went out together on night "
            f"{day} with equal largest stores before that night's cost"
        )
    return f"rank 1: seats {_seats_text(firsts)}" if firsts else "no seat at rank 1"
