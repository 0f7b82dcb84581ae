"""Sunloaf on the other server: another ramp, room generator and par, no cursor.

Local choices made another way (Sunloaf §4, §9, §10); what the rule
text fixes is kept: the roster opens with 2 cats and grows to 5 (here on days 2, 4 and
6), one dog from day 6 and a second from day 20, dogs twice as fast from day 24, the
lattice from day 16, double serves on every second serve from day 15, the band's dwell
(3 turns to day 11, then 2), ranges and the big cat. The rest differs: furniture
``min(2 + (day + 1) // 3, 8)``, shade ``min(1 + day // 5, 3)``, clouds ``min(day // 3, 4)``,
serves ``min(1 + day // 4, 4)`` from turn 4 on, dog loops walked counter-clockwise on
rectangles up to 4 by 4, and every room drawn from a hash of the seed and the day (no
cursor). ``dayPar`` is an honest score of a simpler reference policy: rest all day.
"""

from __future__ import annotations

from typing import Any

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.sunloaf_gen import DayParams
from sunbot.testing.otherserver.draw import generator

GAME = "sunloaf"
#: The day each cat id joins (the text: two cats at the start, five in the end).
JOIN_DAY = (1, 1, 2, 4, 6)


def _loop(r0: int, c0: int, r1: int, c1: int) -> list[int]:
    """The rectangle's perimeter walked counter-clockwise from ``(r0, c0)``."""
    path = [(r, c0) for r in range(r0, r1 + 1)]
    path += [(r1, c) for c in range(c0 + 1, c1 + 1)]
    path += [(r, c1) for r in range(r1 - 1, r0 - 1, -1)]
    path += [(r0, c) for c in range(c1 - 1, c0, -1)]
    return [r * 7 + c for r, c in path]


class OtherGeneration:
    """``sunloaf_gen.Generation`` with this server's choices."""

    def day_params(self, day: int) -> DayParams:
        serves = min(1 + day // 4, 4)
        return DayParams(
            furniture=min(2 + (day + 1) // 3, 8),
            shade_length=min(1 + day // 5, 3),
            clouds=min(day // 3, 4),
            serves=serves,
            bowls=serves + serves // 2 if day >= 15 else serves,
            dogs=0 if day < 6 else 1 if day < 20 else 2,
            dog_speed=2 if day >= 24 else 1,
            lattice=day >= 16,
            band_dwell=3 if day <= 11 else 2,
        )

    def generate_room(self, state: dict[str, Any]) -> None:
        day = state["day"]
        prm = self.day_params(day)
        turns = prm.turns_in_day
        rnd = generator(GAME, state["seed"], "room", day)
        cats: list[dict[str, Any]] = state["cats"]
        taken = {c["tile"] for c in cats}

        def free() -> int:
            tile = rnd.choice([x for x in range(49) if x not in taken])
            taken.add(tile)
            return tile

        window = rnd.choice("NESW")
        furniture = sorted(free() for _ in range(prm.furniture))
        hearth = free()
        for cid in range(len(cats), sum(1 for d in JOIN_DAY if d <= day)):
            tile = free()
            cats.append(
                {"id": cid, "tile": tile, "settled": 0, "range": fast.RANGE[cid], "big": cid == 3}
            )
        clouds = sorted(rnd.sample(range(1, turns - 1), prm.clouds))
        bowls = []
        for j, t in enumerate(sorted(rnd.sample(range(4, turns), prm.serves))):
            for _ in range(2 if day >= 15 and j % 2 == 1 else 1):
                bowls.append({"mat": free(), "serveTurn": t})
        loops: list[list[int]] = []
        rects = [
            (r0, c0, r1, c1)
            for r0 in range(7)
            for c0 in range(7)
            for r1 in range(r0 + 1, min(r0 + 4, 6) + 1)
            for c1 in range(c0 + 1, min(c0 + 4, 6) + 1)
            if not set(furniture).intersection(_loop(r0, c0, r1, c1))
        ]
        for _ in range(prm.dogs):
            if rects:
                loops.append(_loop(*rects.pop(rnd.randrange(len(rects)))))
        state["layout"] = {
            "window": window,
            "furniture": furniture,
            "hearth": hearth,
            "dogLoops": loops,
            "dogSpeed": prm.dog_speed,
            "shadeLength": prm.shade_length,
            "latticeParity": rnd.randrange(2) if prm.lattice else None,
            "cloudTurns": clouds,
        }
        state["bowls"] = sorted(bowls, key=lambda b: (b["serveTurn"], b["mat"]))

    def day_par(self, state: dict[str, Any]) -> int:
        """Raw cosy of resting through the whole day from the day-start state, chain 0."""
        probe = fast.copy_state(state)
        probe.update(chain=0, dayQuota=0)
        for _ in range(probe["turnsInDay"]):
            probe = sl.step_with(probe, {"type": "REST"}, self)
        return int(probe["dayCosyRaw"])


GENERATION = OtherGeneration()


def init(seed: int) -> dict[str, Any]:
    """The opening state (internal form; ``rng`` is ``None``: no cursor)."""
    return sl.init_with(seed, GENERATION, None)


def step(state: dict[str, Any], action: Any) -> dict[str, Any]:
    """The rules' next state with this server's next-day choices.

    Raises:
        IllegalAction: the rules refuse ``action``.
    """
    return sl.step_with(state, action, GENERATION)


def served(state: dict[str, Any]) -> dict[str, Any]:
    """What is served as ``state`` and ``observation``: everything but the cursor."""
    return {k: v for k, v in sl.observation(state).items() if k != "rng"}
