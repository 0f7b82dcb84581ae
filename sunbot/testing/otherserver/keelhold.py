"""Keelhold on the other server: another ramp, hashed draws, no cursor, the ``{state}`` form.

Local choices made another way (Keelhold's "Generation"; the text fixes
only what :func:`other_params` keeps): capacity 7, four crates ahead (shortCrew: three),
tolerance ``5 + 3 * voyage``, quota ``2 + voyage`` (both rise every voyage, as the text
says), cargo types 3/4/5, weights 1-3 then 2-4 then 2-5, wind up to ``min(voyage - 1, 6)``,
jams from voyage 3 every 8 turns for 3 turns, ballast from voyage 3 every 9th crate, rush from
voyage 4 every 11th crate with a window of 9, squalls every 5 turns. Cargo is drawn
independently per crate (no bag). Voyage 1 has the outer hatches shut, later voyages none;
conditions come from voyage 21, never the previous voyage's, with the effects the text
names (longBoom arms, one fewer crate ahead, +1 weight, a narrower tolerance, tighter
rush/ballast cadences, more and double jams).
"""

from __future__ import annotations

from typing import Any

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import CONDITIONS, CONDITIONS_FROM
from sunbot.testing.otherserver.draw import below

GAME = "keelhold"


def other_params(voyage: int, conditions: list[str], wind: int) -> dict[str, Any]:
    """This server's ``params`` for ``voyage`` (same shape as ours, other numbers)."""
    cond = set(conditions)
    w_min, w_max = (1, 3) if voyage == 1 else (2, 4) if voyage < 7 else (2, 5)
    if "heavyLot" in cond:
        w_min, w_max = w_min + 1, w_max + 1
    jam_every = None if voyage < 3 else (4 if "stickyHatches" in cond else 8)
    return {
        "tolerance": 5 + 3 * voyage - (2 if "tightWater" in cond else 0),
        "capacity": 7,
        "manifestSize": 3,
        "cargoTypes": 3 if voyage < 4 else 4 if voyage < 8 else 5,
        "weightMin": w_min,
        "weightMax": w_max,
        "quota": 2 + voyage,
        "wind": wind,
        "openBays": [1, 2, 3, 4, 5] if voyage == 1 else list(range(7)),
        "queueSize": 3 if "shortCrew" in cond else 4,
        "jamEvery": jam_every,
        "jamLength": 3,
        "maxJams": 2 if "stickyHatches" in cond else 1,
        "rushEvery": None if voyage < 4 else (5 if "rushSeason" in cond else 11),
        "rushWindow": 9,
        "ballastEvery": None if voyage < 3 else (4 if "ballastRun" in cond else 9),
        "squallEvery": 5 if "squall" in cond else None,
        "conditions": [c for c in CONDITIONS if c in cond],
    }


class HashDraws:
    """``keelhold_gen.Draws`` from :mod:`.draw` hashes of the seed and a counter."""

    def crate(
        self, state: dict[str, Any], params: dict[str, Any], ballast: bool
    ) -> tuple[int | None, int]:
        seed, cid = state["seed"], state["nextCrateId"]
        cargo = None if ballast else below(GAME, seed, params["cargoTypes"], "cargo", cid)
        span = params["weightMax"] - params["weightMin"] + 1
        return cargo, int(params["weightMin"] + below(GAME, seed, span, "weight", cid))

    def jam(self, state: dict[str, Any], candidates: list[int]) -> int | None:
        return candidates[below(GAME, state["seed"], len(candidates), "jam", state["turn"])]

    def voyage(
        self, state: dict[str, Any], voyage: int, prev_conditions: list[str]
    ) -> dict[str, Any]:
        seed = state["seed"]
        chosen: list[str] = []
        if voyage >= CONDITIONS_FROM:
            for i in range(1 + below(GAME, seed, 2, "conditions", voyage)):
                pool = [c for c in CONDITIONS if c not in prev_conditions and c not in chosen]
                chosen.append(pool[below(GAME, seed, len(pool), "condition", voyage, i)])
        limit = min(voyage - 1, 6)
        wind = below(GAME, seed, 2 * limit + 1, "wind", voyage) - limit
        return other_params(voyage, chosen, wind)


DRAWS = HashDraws()


def init(seed: int) -> dict[str, Any]:
    """The opening state (internal form: ``rng`` is ``None``, this server keeps no cursor)."""
    return kh.init_with_draws(seed, DRAWS, other_params(1, [], 0), None)


def step(state: dict[str, Any], action: Any) -> dict[str, Any]:
    """The rules' next state with this server's draws.

    Raises:
        IllegalAction: the rules refuse ``action``.
    """
    return kh.step_with_draws(state, action, DRAWS)


def served(state: dict[str, Any]) -> dict[str, Any]:
    """What is served as ``state`` and ``observation``: everything but the (empty) cursor."""
    return {k: v for k, v in kh.observation(state).items() if k != "rng"}


#: The internal state's fields, in order.
KEYS: tuple[str, ...] = tuple(init(0))


def internal(plain: dict[str, Any]) -> dict[str, Any]:
    """The internal form of a served state sent back in ``{state, action}``: only the
    fields of the wire schema, and no cursor.

    Raises:
        ValueError: a field of the wire schema is missing.
    """
    missing = [k for k in KEYS if k != "rng" and k not in plain]
    if missing:
        raise ValueError(f"the state lacks {', '.join(missing)}")
    return {k: None if k == "rng" else plain[k] for k in KEYS}
