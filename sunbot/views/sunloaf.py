"""Sunloaf view: the day's header (turn, cosy against quota, mult, score, chain) and the 7x7
room at the next turn to resolve: the band and its shade, furniture, the hearth, cats with
their settled streak, dogs, and mats with their countdowns (Sunloaf §3, §5).

Each tile is four characters wide:

- background: yellow where the tile is lit (§5), dim yellow where the band covers it but
  shade, the lattice or a cloud keeps it dark, red for the hearth;
- ``####`` furniture, ``0:5 `` cat 0 with settled 5 (``3B`` marks the big cat),
  ``dog `` a dog, ``m2  `` a mat serving in 2 turns (``m   `` later today, ``·`` served),
  ``~~`` the hearth.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from sunbot.engines import sunloaf as sl
from sunbot.engines.sunloaf_read import readable
from sunbot.observations.sunloaf import summary as summary  # the closing-summary fields

_ARROW = {"N": "↓ light from the north", "S": "↑ light from the south"}
_ARROW.update({"W": "→ light from the west", "E": "← light from the east"})


def _band(state: dict[str, Any], tile: int, turn: int) -> bool:
    """``tile``'s line is inside the band at ``turn`` (§5), whatever shades it."""
    r, c = divmod(tile, 7)
    line = c if state["layout"]["window"] in ("N", "S") else r
    start = turn // state["bandDwell"]
    return bool(start <= line < start + state["bandWidth"])


def _cell(state: dict[str, Any], tile: int, turn: int) -> Text:
    """One tile's four characters and style."""
    lay = state["layout"]
    cats = {c["tile"]: c for c in state["cats"]}
    mats = {b["mat"]: b["serveTurn"] for b in state["bowls"]}
    if sl.lit(state, tile, turn):
        bg = "on yellow"
    elif tile == lay["hearth"]:
        bg = "on dark_red"
    elif _band(state, tile, turn) and tile not in lay["furniture"]:
        bg = "on grey30"
    else:
        bg = ""
    if tile in lay["furniture"]:
        return Text("####", style=f"grey50 {bg}".strip())
    if tile in cats:
        cat = cats[tile]
        label = f"{cat['id']}{'B' if cat['big'] else ':'}{min(cat['settled'], 99)}"
        near_dog = any(abs(d // 7 - tile // 7) + abs(d % 7 - tile % 7) <= 1 for d in state["dogs"])
        style = "bold red" if near_dog else "bold black" if bg == "on yellow" else "bold cyan"
        return Text(f"{label:<4}", style=f"{style} {bg}".strip())
    if tile in state["dogs"]:
        return Text("dog ", style=f"bold magenta {bg}".strip())
    if tile in mats:
        left = mats[tile] - state["turn"]
        label = "·   " if left < 0 else f"m{left}  " if left <= 3 else "m   "
        return Text(label, style=f"green {bg}".strip())
    if tile == lay["hearth"]:
        return Text(" ~~ ", style=f"bold yellow {bg}".strip())
    return Text(" .  ", style=f"grey42 {bg}".strip())


def render(state: dict[str, Any], ended: str | None = None) -> RenderableType:
    """The whole position as a rich group: header, cosy line, the room, bowls and legend.
    ``ended``: our own words for how the run ended (``capped at day 40``), shown instead of
    the game's ``result``.
    Keys a server may leave out (the band's width, the dogs, which cat is big ...) are
    filled by :func:`~sunbot.engines.sunloaf_read.readable`."""
    state = readable(state)
    turns = state["turnsInDay"]
    turn = min(state["turn"], turns - 1)
    lay = state["layout"]
    met = state["dayCosyRaw"] >= state["dayQuota"]
    told = ended or state.get("result")
    phase = state["phase"] + (f" ({told})" if told else "")
    head = Text.assemble(
        ("Sunloaf ", "bold"),
        f"day {state['day']}  turn {state['turn']}/{turns}  ",
        ("score ", "dim"),
        (f"{state['score']}", "bold"),
        f"  mult {state['mult']}%  chain {state['chain']}  phase {phase}",
    )
    cosy = Text.assemble(
        "day's cosy ",
        (f"{state['dayCosyRaw']}", "bold green" if met else "bold yellow"),
        f" / quota {state['dayQuota']} (par {state['dayPar']})",
        ("  quota met" if met else "", "green"),
    )
    cloudy = turn in lay["cloudTurns"]
    sky = Text.assemble(
        f"{_ARROW[lay['window']]}, shade {lay['shadeLength']}",
        f", lattice {lay['latticeParity']}" if lay["latticeParity"] is not None else "",
        (", cloudy now" if cloudy else "", "bold blue"),
        f", clouds at {lay['cloudTurns']}" if lay["cloudTurns"] else "",
    )
    rows = []
    for r in range(7):
        line = Text()
        for c in range(7):
            line.append_text(_cell(state, r * 7 + c, turn))
        rows.append(line)
    bowls = Text("bowls: ")
    for b in state["bowls"]:
        left = b["serveTurn"] - state["turn"]
        when = "served" if left < 0 else f"in {left}"
        bowls.append(f"mat {b['mat']} @ turn {b['serveTurn']} ({when})  ", style="green")
    legend = Text(
        "yellow lit · grey band in shade · red hearth · #### furniture · 0:5 cat:settled "
        "(B big) · m2 mat serving in 2 · mult: the day's score multiplier in % · chain:"
        " bowls served in a row (0-8)",
        style="dim",
    )
    return Group(head, cosy, sky, *rows, bowls, legend)
