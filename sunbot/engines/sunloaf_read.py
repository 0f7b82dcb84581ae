"""Reading a Sunloaf position served by any Gameboard server.

The rule text promises what a position holds, not our key for
each quantity. A faithful server may leave out keys that our spec adds (``layout.dogSpeed``,
§3 "Wire state schema") or that the text never names (the band's width, which cat is
big, the dogs' tiles, the result while the day runs): the field table of
``docs/rules/sunloaf.md`` lists them. The engine needs every key, so the strategies, the view
and the mirror read a served position through :func:`readable`.
"""

from __future__ import annotations

from typing import Any

from sunbot.engines import sunloaf_gen as gen

#: The band's width when a server does not say (§3 pins 2; the text gives no number).
BAND_WIDTH = 2
#: Which cat is big when a server does not say (§2 pins cat 3; the text does not say).
BIG_CAT = 3


def fill_layout(layout: Any, day: Any) -> Any:
    """``layout`` (a copy) with ``dogSpeed`` (the day's: one step a turn, two from day 24, as
    the text's DOGS paragraph says) and ``latticeParity`` (null: no lattice) where left out.

    Anything that is not a layout object, or a day that is not a whole number >= 1, gives
    ``layout`` back unchanged (the caller reports it).
    """
    if not isinstance(layout, dict) or type(day) is not int or day < 1:
        return layout
    return {
        **layout,
        "dogSpeed": layout.get("dogSpeed", gen.day_params(day).dog_speed),
        "latticeParity": layout.get("latticeParity"),
    }


def readable(position: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``position`` (a served state or observation) with the keys a server may
    leave out filled in; every key it sent is kept as sent.

    Filled: ``bandWidth`` (:data:`BAND_WIDTH`); ``bandDwell``, ``turnsInDay`` and ``mult``
    from the day (the text fixes them); ``result`` null; ``layout`` by :func:`fill_layout`;
    ``cats[i].big`` (:data:`BIG_CAT`); ``dogs`` where the last resolved turn left them on
    their loops (§12: ``loop[(max(turn - 1, 0) * dogSpeed) % len(loop)]``).

    Nothing is validated: a position without a key the text promises (``day``, ``turn``,
    ``cats``, ``layout`` ...) is returned without it, and the engine then raises on it.
    """
    s = dict(position)
    s.setdefault("bandWidth", BAND_WIDTH)
    s.setdefault("result", None)
    day = s.get("day")
    if type(day) is int and day >= 1:
        prm = gen.day_params(day)
        s.setdefault("bandDwell", prm.band_dwell)
        s.setdefault("turnsInDay", prm.turns_in_day)
        s.setdefault("mult", gen.mult(day))
    s["layout"] = lay = fill_layout(s.get("layout"), day)
    if isinstance(s.get("cats"), list):
        s["cats"] = [
            {"big": c.get("id") == BIG_CAT, **c} if isinstance(c, dict) else c for c in s["cats"]
        ]
    turn = s.get("turn", 0)
    if "dogs" not in s and isinstance(lay, dict) and type(turn) is int:
        loops, speed = lay.get("dogLoops") or [], lay.get("dogSpeed") or 1
        at = max(turn - 1, 0) * speed
        s["dogs"] = [lp[at % len(lp)] for lp in loops if isinstance(lp, list) and lp]
    if "layout" not in position:
        del s["layout"]
    return s
