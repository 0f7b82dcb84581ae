"""Keelhold generation: the voyage ramp and the random draws (local choices).

Everything here is a *local choice* of Keelhold's rules ("Generation"): the
numbers live in one table, ``docs/rules/keelhold.md``, and in :func:`params_for`. The
rules engine (:mod:`sunbot.engines.keelhold`) never draws randomness itself: it asks a
:class:`Draws` object, so the same rules code serves normal play (:class:`RngDraws`, the
mulberry32 cursor stored in ``state["rng"]``) and the mirror, which replays the draws a
server reported instead (``sunbot.mirror.keelhold``).

``state["rng"]`` is ``[cursor, *bag]``: the mulberry32 cursor followed by the cargo types
still in this voyage's crate bag, next draw first (spec: "the crate bag's contents, if kept,
live inside rng").
"""

from __future__ import annotations

from typing import Any, Protocol

from sunbot.engines.rng import rand_int

#: Voyage conditions, in their canonical order (spec "Generation").
CONDITIONS: tuple[str, ...] = (
    "squall",
    "longBoom",
    "shortCrew",
    "heavyLot",
    "tightWater",
    "rushSeason",
    "ballastRun",
    "stickyHatches",
)

#: First voyage that carries conditions.
CONDITIONS_FROM = 21


def _band(voyage: int, bands: tuple[tuple[int, Any], ...]) -> Any:
    """The value of the last band whose first voyage is ``<= voyage``."""
    value = bands[0][1]
    for first, v in bands:
        if voyage >= first:
            value = v
    return value


def params_for(voyage: int, conditions: list[str], wind: int) -> dict[str, Any]:
    """The deterministic terms of ``voyage`` under ``conditions`` and ``wind``.

    Returns the ``params`` object of the Keelhold wire schema (spec "State"), cadences
    ``None`` when off. The table is ``docs/rules/keelhold.md`` ("Generation ramp").
    """
    cond = set(conditions)
    cargo_types = _band(voyage, ((1, 3), (2, 4), (5, 5), (10, 6)))
    w_min, w_max = _band(voyage, ((1, (1, 3)), (2, (1, 4)), (5, (1, 5)), (10, (2, 6))))
    if "heavyLot" in cond:
        w_min, w_max = w_min + 1, w_max + 1
    # THE PORT CALL: casting off raises the tolerance and the quota, so both rise at every
    # voyage; tightWater (never on two voyages in a row) narrows by 1, which keeps the rise.
    tolerance = 6 + 2 * (voyage - 1) - (1 if "tightWater" in cond else 0)
    jam_every = _band(voyage, ((1, None), (4, 9), (10, 7)))
    max_jams = 1
    if "stickyHatches" in cond:
        jam_every, max_jams = 5, 2
    ballast_every = None if voyage < 2 else (5 if "ballastRun" in cond else 10)
    rush_every = None if voyage < 3 else (6 if "rushSeason" in cond else 12)
    return {
        "tolerance": tolerance,
        "capacity": 6,
        "manifestSize": 3,
        "cargoTypes": cargo_types,
        "weightMin": w_min,
        "weightMax": w_max,
        "quota": 3 + voyage,
        "wind": wind,
        "openBays": [1, 2, 3, 4, 5] if voyage == 1 else [0, 1, 2, 3, 4, 5, 6],
        "queueSize": 2 if "shortCrew" in cond else 3,
        "jamEvery": jam_every,
        "jamLength": 4,
        "maxJams": max_jams,
        "rushEvery": rush_every,
        "rushWindow": 8,
        "ballastEvery": ballast_every,
        "squallEvery": 6 if "squall" in cond else None,
        "conditions": [c for c in CONDITIONS if c in cond],
    }


def wind_limit(voyage: int) -> int:
    """Largest ``abs(wind)`` a voyage may draw: 0 on voyage 1, then ``min(voyage, 8)``."""
    return 0 if voyage == 1 else min(voyage, 8)


def draw_voyage(cursor: int, voyage: int, prev_conditions: list[str]) -> tuple[int, dict[str, Any]]:
    """Draw the terms of ``voyage``: conditions (from voyage 21), then the wind.

    Conditions: ``1 + randInt(2)`` of them, each picked uniformly from the conditions that
    neither the previous voyage nor an earlier pick has, listed in canonical order. Wind:
    ``randInt(2w + 1) - w`` with ``w = wind_limit(voyage)``; no draw when ``w == 0``.
    Returns ``(cursor, params)``.
    """
    chosen: list[str] = []
    if voyage >= CONDITIONS_FROM:
        cursor, extra = rand_int(cursor, 2)
        for _ in range(1 + extra):
            pool = [c for c in CONDITIONS if c not in prev_conditions and c not in chosen]
            cursor, k = rand_int(cursor, len(pool))
            chosen.append(pool[k])
    w = wind_limit(voyage)
    wind = 0
    if w:
        cursor, k = rand_int(cursor, 2 * w + 1)
        wind = k - w
    return cursor, params_for(voyage, chosen, wind)


class Draws(Protocol):
    """Where the engine's random outcomes come from (rules never draw directly).

    Each method may update the working state's ``rng``; none may touch any other field.
    """

    def crate(
        self, state: dict[str, Any], params: dict[str, Any], ballast: bool
    ) -> tuple[int | None, int]:
        """``(cargo, weight)`` of the next crate: cargo ``None`` exactly when ``ballast``,
        else ``0..cargoTypes-1``; weight ``weightMin..weightMax``."""
        ...

    def jam(self, state: dict[str, Any], candidates: list[int]) -> int | None:
        """The hatch that jams now, one of ``candidates`` (non-empty, ascending)."""
        ...

    def voyage(
        self, state: dict[str, Any], voyage: int, prev_conditions: list[str]
    ) -> dict[str, Any]:
        """The terms (``params``) of ``voyage``, whose predecessor had ``prev_conditions``."""
        ...


class RngDraws:
    """Draws from the mulberry32 cursor in ``state["rng"] = [cursor, *bag]``.

    Cargo comes from a bag of ``manifestSize`` crates of each type, shuffled
    (Fisher-Yates, ``j = randInt(i + 1)`` for ``i`` from the end) when empty; the weight is
    one uniform draw after the cargo.
    """

    def crate(
        self, state: dict[str, Any], params: dict[str, Any], ballast: bool
    ) -> tuple[int | None, int]:
        rng: list[int] = state["rng"]
        cargo: int | None = None
        if not ballast:
            if len(rng) == 1:
                cursor = rng[0]
                bag = [
                    t for t in range(params["cargoTypes"]) for _ in range(params["manifestSize"])
                ]
                for i in range(len(bag) - 1, 0, -1):
                    cursor, j = rand_int(cursor, i + 1)
                    bag[i], bag[j] = bag[j], bag[i]
                rng[:] = [cursor, *bag]
            cargo = rng.pop(1)
        rng[0], k = rand_int(rng[0], params["weightMax"] - params["weightMin"] + 1)
        return cargo, int(params["weightMin"] + k)

    def jam(self, state: dict[str, Any], candidates: list[int]) -> int | None:
        rng: list[int] = state["rng"]
        rng[0], k = rand_int(rng[0], len(candidates))
        return candidates[k]

    def voyage(
        self, state: dict[str, Any], voyage: int, prev_conditions: list[str]
    ) -> dict[str, Any]:
        rng: list[int] = state["rng"]
        rng[0], params = draw_voyage(rng[0], voyage, prev_conditions)
        return params


RNG_DRAWS = RngDraws()
