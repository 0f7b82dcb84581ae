"""What a Sunloaf replay page draws of a position (Sunloaf §3, §5).

The room is drawn as the last turn resolved left it: ``lightTurn`` is that turn (``turn - 1``,
0 before the day's first turn), ``lit`` the tiles lit then and ``band`` the tiles the band
covered but shade, the lattice or a cloud kept dark (§5). Each cat is ``[id, tile, settled,
big, tier]`` where ``tier = min(settled, warm(tile, lightTurn))``: the purr tier it earned on
that turn if it stayed put (0 for a cat that moved, was woken or lay cold). Also: ``day``,
``turn``, ``turns`` (turnsInDay), ``phase``, ``result``, ``score``, ``mult``, ``chain``,
``cosy`` (dayCosyRaw), ``quota`` (dayQuota), ``par`` (dayPar), ``bowls`` (``[mat,
serveTurn]``), ``dogs``, and the day's layout: ``window``, ``furniture``, ``hearth``,
``shade``, ``lattice`` and ``clouds``.
"""

from __future__ import annotations

from typing import Any

from sunbot.engines.sunloaf import lit, warm
from sunbot.engines.sunloaf_read import readable

TILES = 49


def _in_band(state: dict[str, Any], tile: int, turn: int) -> bool:
    r, c = divmod(tile, 7)
    line = c if state["layout"]["window"] in ("N", "S") else r
    start = turn // state["bandDwell"]
    return bool(start <= line < start + state["bandWidth"])


def frame(state: dict[str, Any]) -> dict[str, Any]:
    """The drawn fields of a Sunloaf ``state`` (see the module docstring).

    Keys a server may leave out (the band's width, the dogs, which cat is big, the dogs'
    speed) are filled by :func:`~sunbot.engines.sunloaf_read.readable` first.

    Raises:
        KeyError, TypeError: ``state`` lacks a field the rules publish.
    """
    state = readable(state)
    lay = state["layout"]
    turn = state["turn"]
    shown = max(0, min(turn, state["turnsInDay"]) - 1)
    lit_now = [x for x in range(TILES) if lit(state, x, shown)]
    band = [
        x
        for x in range(TILES)
        if x not in lit_now and x not in lay["furniture"] and _in_band(state, x, shown)
    ]
    cats = [
        [c["id"], c["tile"], c["settled"], bool(c["big"]),
         min(c["settled"], warm(state, c["tile"], shown)) if turn > 0 else 0]
        for c in state["cats"]
    ]  # fmt: skip
    return {
        "day": state["day"],
        "turn": turn,
        "turns": state["turnsInDay"],
        "phase": state["phase"],
        "result": state.get("result"),
        "score": state["score"],
        "mult": state["mult"],
        "chain": state["chain"],
        "cosy": state["dayCosyRaw"],
        "quota": state["dayQuota"],
        "par": state["dayPar"],
        "lightTurn": shown,
        "lit": lit_now,
        "band": band,
        "cats": cats,
        "bowls": [[b["mat"], b["serveTurn"]] for b in state["bowls"]],
        "dogs": state["dogs"],
        "window": lay["window"],
        "furniture": lay["furniture"],
        "hearth": lay["hearth"],
        "shade": lay["shadeLength"],
        "lattice": lay["latticeParity"],
        "clouds": lay["cloudTurns"],
    }


def progress(state: dict[str, Any]) -> str:
    """``day 3 · turn 7/21 · day`` (the result added once over)."""
    end = f" ({state['result']})" if state.get("result") else ""
    turn = f"turn {state['turn']}/{state['turnsInDay']}"
    return f"day {state['day']} · {turn} · {state['phase']}{end}"
