"""The bounds of every environment's observation space, as the tables of ``docs/rl.md``.

The numbers come from the spaces themselves (``codec.observation_space()``); this module
only names the entries and says where each bound comes from. Print the tables with::

    python -m sunbot.envs.tables

``tests/envs/test_bounds.py`` checks that ``docs/rl.md`` carries them as printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from sunbot.envs.harvest_watch_codec import HarvestWatchCodec
from sunbot.envs.keelhold import TERMS, KeelholdCodec
from sunbot.envs.naptuft import NaptuftCodec
from sunbot.envs.policy import codec_for
from sunbot.envs.sunloaf import SunloafCodec
from sunbot.games import GAMES

#: One documented entry of a key: ``(name, index into the key's array, where the bound
#: comes from)``; the entry's range is the least low and the largest high under the index.
Field = tuple[str, Any, str]
_s = np.s_
_FLAG = "0/1"

_KEELHOLD_TERMS: dict[str, str] = {
    "tolerance": "6 + 2(v - 1) at voyage 198 (the next of 197)",
    "capacity": "the encoding's room (ours: 6)",
    "manifestSize": "a lot fits a hatch (ours: 3)",
    "cargoTypes": "ours: up to 6, room for 7",
    "weightMin": "the heaviest crate",
    "weightMax": "weightMax 6 from voyage 10, heavyLot +1",
    "quota": "3 + v at voyage 198",
    "wind": "±min(v, 8)",
    "queueSize": "the encoding's room (ours: 3, shortCrew 2)",
    "jamEvery": "every 9 turns (v4-9); 0 off",
    "jamLength": "ours: 4",
    "maxJams": "JAMS: never the keel (ours: 1, stickyHatches 2)",
    "rushEvery": "every 12th draw; 0 off",
    "rushWindow": "ours: 8",
    "ballastEvery": "every 10th draw; 0 off",
    "squallEvery": "6 under squall; 0 off",
}

KEELHOLD: dict[str, list[Field]] = {
    "hold": [
        ("weight", _s[..., 0], "ramp: weights up to 6, heavyLot +1; 0 empty"),
        ("kind", _s[..., 1], "0 empty, 1 ballast, 2 + cargo (0- or 1-based, up to 6)"),
        ("dueIn", _s[..., 2], "-1 not a placed rush crate; at most the rush window"),
    ],
    "queue": [
        ("weight", _s[:, 0], "as in the hold"),
        ("kind", _s[:, 1], "as in the hold"),
        ("rushWindow", _s[:, 2], "0 not a rush crate; ours: 8"),
    ],
    "hatches": [
        ("arm", _s[:, 0], "THE HULL: -3..3; longBoom ±4"),
        ("turns still jammed", _s[:, 1], "jamLength 4"),
        ("open", _s[:, 2], _FLAG),
    ],
    "bays": [("safeBays", _s[0], _FLAG), ("listingBays", _s[1], _FLAG)],
    "status": [
        ("phase", _s[0], "loading, port, over"),
        ("voyage", _s[1], "the 20,000-placement guard, quota 3 + v (0: not sent)"),
        ("turns into the voyage", _s[2], "7 hatches + quota lots of 6 crates; -1 unknown"),
        ("trim", _s[3], "wind 8 + one side's arms (1 + 2 + 4) full of weight-7 crates"),
        ("listing", _s[4], _FLAG),
        ("chain", _s[5], "Scoring: C up to 8, counted 0..7"),
        ("lotsShipped", _s[6], "the quota of voyage 197"),
        ("castOffSafe", _s[7], "-1 null"),
    ],
    "terms": [
        *((name, _s[:, i], _KEELHOLD_TERMS[name]) for i, name in enumerate(TERMS)),
        ("conditions (8 flags)", _s[:, 16:24], _FLAG),
        ("openBays (7 flags)", _s[:, 24:31], _FLAG),
    ],
}

SUNLOAF: dict[str, list[Field]] = {
    "room": [
        ("furniture", _s[0], _FLAG),
        ("hearth", _s[1], _FLAG),
        ("cat id + 1", _s[2], "5 cats (§2)"),
        ("settled", _s[3], "at most the turn: the 32-turn room (ours: 21)"),
        ("bowl countdown", _s[4], "serveTurn - turn + 1 within a day"),
        ("dogs", _s[5], "two dogs from day 20"),
        ("dog loops", _s[6], _FLAG),
        ("warmth", _s[7], "tier caps 6 lit, 3 hearth, 0 cold"),
    ],
    "cats": [
        ("present", _s[:, 0], _FLAG),
        ("tile", _s[:, 1], "49 tiles"),
        ("settled", _s[:, 2], "as in the room"),
        ("range", _s[:, 3], "§2: ranges 3, 2, 4, 3, 2"),
        ("big", _s[:, 4], _FLAG),
    ],
    "bowls": [
        ("present", _s[:, 0], _FLAG),
        ("mat", _s[:, 1], "49 tiles"),
        ("serveTurn - turn", _s[:, 2], "within the 32-turn room"),
    ],
    "status": [
        ("phase", _s[0], "day, sunset, over"),
        ("day", _s[1], "clipped: from day 33 a day's terms stop growing"),
        ("turn", _s[2], "the 32-turn room (ours: 21)"),
        ("turnsInDay", _s[3], "the 32-turn room"),
        ("bandDwell", _s[4], "ramp: 3 to day 11, then 2"),
        ("bandWidth", _s[5], "7 lines (ours: 2)"),
        ("mult", _s[6], "min(100 + 35(d - 1), 1200) percent"),
        ("chain", _s[7], "capped at 8"),
        ("dayCosyRaw", _s[8], "a day's raw ceiling (day 10: 5 cats, 21 turns, 4 bowls)"),
        ("dayPar", _s[9], "at most the raw ceiling"),
        ("dayQuota", _s[10], "below dayPar (ratio < 1)"),
        ("window", _s[11], "N, S, W, E"),
        ("dogSpeed", _s[12], "2 from day 24"),
        ("shadeLength", _s[13], "ramp: up to 4"),
        ("latticeParity", _s[14], "-1 null"),
        ("cats", _s[15], "the roster"),
    ],
    "clouds": [("cloudy turns (32 flags)", _s[:], _FLAG)],
}

_CARE = "care code 0 (none) or 1..4"
NAPTUFT: dict[str, list[Field]] = {
    "needs": [("food, joy, cleanliness, energy", _s[:], "0..100 (the rules)")],
    "clock": [
        ("day", _s[0], "clipped: from day 7 every day has the same terms"),
        ("moment", _s[1], "12 moments"),
        ("window", _s[2], "3 windows"),
        ("phase", _s[3], "care, dayBreak, over"),
    ],
    "wish": [
        ("cares (4 slots)", _s[:4], _CARE),
        ("progress", _s[4], "below the wish's length (at most 4)"),
        ("shown", _s[5], _FLAG),
    ],
    "status": [
        ("wishStreak", _s[0], "clipped: the multiplier min(streak + 1, 3) stops at 2"),
        ("lastCare", _s[1], _CARE),
    ],
    "forecast": [
        ("wish cares (4 slots)", _s[:, :4], _CARE),
        ("pressure (4 needs)", _s[:, 4:], "min(4, (day + 1) // 2)"),
    ],
}

HARVEST_WATCH: dict[str, list[Field]] = {
    "obs": [
        ("[0:6] this seat, [6:12] living seats", _s[0:12], _FLAG),
        ("[12:18] foods", _s[12:18], "the bank (30.0 + 3.0 × 4 outs) + 6 farms of 2.5"),
        ("[18] day", _s[18], "each day costs two living seats 0.5 or more"),
        ("[19:21] vote, action beat", _s[19:21], _FLAG),
        ("[21:27] ballots naming each seat", _s[21:27], "six voters"),
        ("[27:33] the seat fined", _s[27:33], _FLAG),
        ("[33] the fine", _s[33], "§3.3.2: at most 2.0"),
        ("[34:46] caught, collided", _s[34:46], _FLAG),
    ],
}

#: Codec class -> its documented entries (the games come from the games table's
#: ``codec_ref``).
FIELDS: dict[type, dict[str, list[Field]]] = {
    KeelholdCodec: KEELHOLD,
    SunloafCodec: SUNLOAF,
    NaptuftCodec: NAPTUFT,
    HarvestWatchCodec: HARVEST_WATCH,
}


def games() -> list[str]:
    """The games with an environment encoding, in the games table's order."""
    return [g.slug for g in GAMES.values() if g.codec_ref is not None]


def _bounds(space: gym.spaces.Space[Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    if isinstance(space, gym.spaces.Box):
        return space.low, space.high
    if isinstance(space, gym.spaces.MultiBinary):
        shape = tuple(np.atleast_1d(space.n))
        return np.zeros(shape, np.int8), np.ones(shape, np.int8)
    raise TypeError(f"no bounds for a {type(space).__name__}")


def _number(x: Any) -> str:
    value = x.item()
    return f"{value:g}" if isinstance(value, float) else str(value)


def rows(
    space: gym.spaces.Space[Any], fields: Mapping[str, Sequence[Field]]
) -> list[tuple[str, str, str, str, str]]:
    """``(key, entry, low, high, source)`` for each documented entry of ``space`` (a
    ``Dict``, or one ``Box`` under any key).

    Raises:
        ValueError: ``fields`` leaves a key of a ``Dict`` space out, or names one it lacks.
    """
    subspaces = dict(space.spaces) if isinstance(space, gym.spaces.Dict) else None
    if subspaces is not None and set(subspaces) != set(fields):
        raise ValueError(f"documented keys {sorted(fields)} != the space's {sorted(subspaces)}")
    out = []
    for key, entries in fields.items():
        low, high = _bounds(space if subspaces is None else subspaces[key])
        for name, index, source in entries:
            lo, hi = np.min(low[index]), np.max(high[index])
            out.append((key, name, _number(lo), _number(hi), source))
    return out


def table(game: str) -> str:
    """The markdown table of ``game``'s observation bounds (``docs/rl.md``).

    Raises:
        KeyError: no environment encoding for ``game`` (or none documented here).
    """
    codec = codec_for(game)
    lines = ["| key | entry | low | high | bound from |", "|---|---|---|---|---|"]
    for key, name, lo, hi, source in rows(codec.observation_space(), FIELDS[type(codec)]):
        lines.append(f"| `{key}` | {name} | {lo} | {hi} | {source} |")
    return "\n".join(lines)


def main() -> None:
    """Print every game's table, each under its game's slug."""
    for game in games():
        print(f"<!-- bounds: {game} -->\n{table(game)}\n")


if __name__ == "__main__":
    main()
