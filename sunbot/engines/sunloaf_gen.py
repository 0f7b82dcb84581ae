"""Sunloaf's per-day parameters, room generator and reference policy.

- The difficulty ramp and the day's multiplier, quota ratio and bonus: Sunloaf
  §2 (roster) and §4 "Per-day parameters"; the ramp is also the one table in
  ``docs/rules/sunloaf.md``.
- The room generator: §9 steps G1-G8, drawing from the mulberry32 cursor in ``state.rng``.
- The reference policy and ``dayPar``: §10, run on the fast form of
  :mod:`sunbot.engines.sunloaf_fast`.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.rng import rand_int

JOIN_DAY = (1, 1, 3, 5, 8)  # §2 roster: the day each cat id joins


class DayParams(NamedTuple):
    """One row of the §4 ramp for a day."""

    furniture: int
    shade_length: int
    clouds: int
    serves: int
    bowls: int
    dogs: int
    dog_speed: int
    lattice: bool
    band_dwell: int

    @property
    def turns_in_day(self) -> int:
        """``7 * bandDwell`` (§3)."""
        return 7 * self.band_dwell


def day_params(day: int) -> DayParams:
    """The local difficulty ramp of §4 for ``day`` (1-based)."""
    s = min(1 + (day - 1) // 3, 5)
    return DayParams(
        furniture=min(3 + (day - 1) // 3, 9),
        shade_length=min(1 + (day - 1) // 4, 4),
        clouds=min((day - 1) // 4, 3),
        serves=s,
        bowls=s + s // 2 if day >= 15 else s,
        dogs=0 if day < 6 else 1 if day < 20 else 2,
        dog_speed=2 if day >= 24 else 1,
        lattice=day >= 16,
        band_dwell=3 if day <= 11 else 2,
    )


def roster_size(day: int) -> int:
    """How many cats are on the roster on ``day`` (§2)."""
    return sum(1 for d in JOIN_DAY if d <= day)


def mult(day: int) -> int:
    """Percent multiplier of §4: ``min(100 + 35*(day-1), 1200)``."""
    return min(100 + 35 * (day - 1), 1200)


def ratio(day: int) -> int:
    """Quota ratio in ten-thousandths (§4)."""
    if day <= 2:
        return 1000 if day == 1 else 1500
    return min(1500 + 320 * (day - 2), 9500)


def quota(day_par: int, day: int) -> int:
    """``ceil(dayPar * ratio / 10000)`` in integers (§2, §4)."""
    return (day_par * ratio(day) + 9999) // 10000


def bonus(day: int) -> int:
    """Day bonus ``min(100*day, 3000)``, never multiplied (§4)."""
    return min(100 * day, 3000)


def dog_loop(r0: int, c0: int, r1: int, c1: int) -> list[int]:
    """The rectangle's perimeter walked clockwise from ``(r0, c0)`` (§9 G8)."""
    path = [(r0, c) for c in range(c0, c1 + 1)]
    path += [(r, c1) for r in range(r0 + 1, r1 + 1)]
    path += [(r1, c) for c in range(c1 - 1, c0 - 1, -1)]
    path += [(r, c0) for r in range(r1 - 1, r0, -1)]
    return [r * 7 + c for r, c in path]


def dog_rects(furniture: set[int]) -> list[tuple[int, int, int, int]]:
    """All G8 rectangles with no furniture on their perimeter, in lexicographic order."""
    out = []
    for r0 in range(7):
        for c0 in range(7):
            for r1 in range(r0 + 1, min(r0 + 3, 6) + 1):
                for c1 in range(c0 + 1, min(c0 + 3, 6) + 1):
                    if not furniture.intersection(dog_loop(r0, c0, r1, c1)):
                        out.append((r0, c0, r1, c1))
    return out


def generate_room(state: dict[str, Any]) -> None:
    """Steps G1-G8 of §9 on ``state`` (its ``day``, ``cats`` and ``rng`` already set).

    Writes ``layout``, ``bowls``, the joining cats and the new ``rng``; mutates ``state``.
    """
    day = state["day"]
    prm = day_params(day)
    turns = prm.turns_in_day
    cur = state["rng"]

    def pick(options: list[int]) -> int:
        nonlocal cur
        cur, k = rand_int(cur, len(options))
        return options[k]

    cats: list[dict[str, Any]] = state["cats"]
    window = pick([0, 1, 2, 3])  # G1: ["N","E","S","W"][randInt(4)]
    taken = {c["tile"] for c in cats}
    furniture: list[int] = []
    for _ in range(prm.furniture):  # G2
        furniture.append(pick([x for x in range(49) if x not in taken]))
        taken.add(furniture[-1])
    hearth = pick([x for x in range(49) if x not in taken])  # G3
    taken.add(hearth)
    for cid in range(len(cats), roster_size(day)):  # G4
        tile = pick([x for x in range(49) if x not in taken])
        taken.add(tile)
        cats.append(
            {"id": cid, "tile": tile, "settled": 0, "range": fast.RANGE[cid], "big": cid == 3}
        )
    clouds: list[int] = []
    for _ in range(prm.clouds):  # G5
        clouds.append(pick([t for t in range(1, turns - 1) if t not in clouds]))
    serve_turns: list[int] = []
    for _ in range(prm.serves):  # G6
        serve_turns.append(pick([t for t in range(3, turns) if t not in serve_turns]))
    bowls = []
    for j, t in enumerate(sorted(serve_turns)):
        for _ in range(2 if day >= 15 and j % 2 == 1 else 1):
            mat = pick([x for x in range(49) if x not in taken])
            taken.add(mat)
            bowls.append({"mat": mat, "serveTurn": t})
    parity = None
    if prm.lattice:  # G7
        cur, parity = rand_int(cur, 2)
    loops: list[list[int]] = []
    rects = dog_rects(set(furniture))
    for _ in range(prm.dogs):  # G8
        if not rects:
            break
        k = pick(list(range(len(rects))))
        loops.append(dog_loop(*rects.pop(k)))
    state["layout"] = {
        "window": "NESW"[window],
        "furniture": sorted(furniture),
        "hearth": hearth,
        "dogLoops": loops,
        "dogSpeed": prm.dog_speed,
        "shadeLength": prm.shade_length,
        "latticeParity": parity,
        "cloudTurns": sorted(clouds),
    }
    state["bowls"] = sorted(bowls, key=lambda b: (b["serveTurn"], b["mat"]))
    state["rng"] = cur


def day_par(state: dict[str, Any]) -> int:
    """``dayPar`` of §10 for a day-start state: the reference policy's raw cosy, chain 0."""
    ctx, fs = fast.to_fast(state)
    return fast.fast_day_par(ctx, fs)


class Generation(Protocol):
    """A server's local choices for a new day (§4 ramp, §9 room, §10 par).

    The rules engine asks this object, so another Gameboard server's choices plug into the
    same rules (:func:`sunbot.engines.sunloaf.init_with`); :data:`LOCAL` is ours. Only the
    ramp columns the rule text leaves open may differ: ``band_dwell``, ``dog_speed``,
    ``lattice``, the dog count and the double serves are the text's.
    """

    def day_params(self, day: int) -> DayParams:
        """The ramp row of ``day``."""
        ...

    def generate_room(self, state: dict[str, Any]) -> None:
        """Build ``layout``, ``bowls``, the joining cats (and the cursor) in place."""
        ...

    def day_par(self, state: dict[str, Any]) -> int:
        """``dayPar`` of a day-start state."""
        ...


class LocalGeneration:
    """Our own choices: :func:`day_params`, :func:`generate_room`, :func:`day_par`."""

    def day_params(self, day: int) -> DayParams:
        return day_params(day)

    def generate_room(self, state: dict[str, Any]) -> None:
        generate_room(state)

    def day_par(self, state: dict[str, Any]) -> int:
        return day_par(state)


LOCAL = LocalGeneration()
