"""Sunloaf as a Gymnasium environment: ``gymnasium.make("sunbot/Sunloaf-v1")``.

Actions (``Discrete(249)``): ``49 * cat + tile`` MOVE cat ``cat`` (0..4) to ``tile``
(0..48); ``245`` REST, ``246`` DOZE, ``247`` NEXT_DAY, ``248`` END_RUN.

Observation (``Dict`` of ``int32`` arrays) from the published fields (never ``rng`` or
``seed``); tiles are ``row * 7 + col``:

- ``room`` ``(8, 7, 7)`` planes: furniture; hearth; cat id + 1 (0 = no cat); that cat's
  ``settled``; bowl countdown ``serveTurn - turn + 1`` on a mat still to serve today (0 =
  none); dogs on the tile; tiles on a dog loop; warmth now (the rules' tier cap at this
  turn: 6 lit, 3 hearth, 0 cold, computed from the published layout; 0 off the day phase).
- ``cats`` ``(5, 5)``: per cat id ``[present, tile, settled, range, big]``.
- ``bowls`` ``(8, 3)``: today's schedule ``[present, mat, serveTurn - turn]``.
- ``status`` ``(16,)``: ``[phase (0 day, 1 sunset, 2 over), day, turn, turnsInDay,
  bandDwell, bandWidth, mult, chain, dayCosyRaw, dayPar, dayQuota, window (0 N, 1 S, 2 W,
  3 E), dogSpeed, shadeLength, latticeParity (-1 null), number of cats]``.
- ``clouds`` ``(32,)`` 0/1: the day's cloudy turn indices.

Room for 8 bowls and 32 turns a day (our server: 7 and 21); a server beyond that is
refused with a ``ValueError`` naming the field.

Bounds (v1; ``docs/rl.md`` has the table): turn counts within the 32-turn room; cat ids,
ranges (at most 4) and the roster of 5 (Sunloaf §2); at most 2 dogs, a multiplier of at
most 1200, a chain of at most 8 (the rule text); warmth tiers 0..6; the ramp's largest
``bandDwell``, ``dogSpeed`` and ``shadeLength`` (``docs/rules/sunloaf.md``); ``dayCosyRaw``,
``dayPar`` and ``dayQuota`` at most the raw ceiling of a day (:data:`RAW_DAY_MAX`, every cat
at its most each turn and every bowl at chain 8, as ``sunbot.engines.sunloaf_history``
bounds a plain state's). ``day`` has no end by the rules: it is clipped at 33
(:data:`DAY_MAX`: from day 33 on a day's terms stop growing, so nothing the rules use is
lost). A value beyond a bound (another server's terms) is clipped to it.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from sunbot.engines import sunloaf_gen as gen
from sunbot.engines.sunloaf import RANGE, warm
from sunbot.engines.sunloaf_history import STEADY_DAY, bounds
from sunbot.envs.backends import Action, Observation
from sunbot.envs.core import EncodedObs, Int32s, SunbotEnv, int_box

TILES = 49
CATS = 5
MAX_BOWLS = 8
MAX_TURNS = 32
REST, DOZE, NEXT_DAY, END_RUN = 245, 246, 247, 248
_SIMPLE: dict[str, int] = {"REST": REST, "DOZE": DOZE, "NEXT_DAY": NEXT_DAY, "END_RUN": END_RUN}
#: Action index -> action object.
ACTIONS: tuple[Action, ...] = (
    *({"type": "MOVE", "cat": c, "tile": t} for c in range(CATS) for t in range(TILES)),
    *({"type": kind} for kind in _SIMPLE),
)
PHASES = {"day": 0, "sunset": 1, "over": 2}
WINDOWS = {"N": 0, "S": 1, "W": 2, "E": 3}
#: ``day`` is clipped here: from this day on a day's terms stop growing.
DAY_MAX = STEADY_DAY


def _raw_day_max() -> int:
    """The most raw cosy a whole day of the ramp can earn (23,210 on day 10):
    ``sunloaf_history``'s ceiling with every turn played and every mat entry served."""
    most = 0
    for day in range(1, STEADY_DAY + 1):
        prm = gen.day_params(day)
        position = {
            "day": day, "turn": prm.turns_in_day, "bowls": [{"serveTurn": 0}] * prm.bowls,
            "phase": "day", "result": None, "chain": 0, "dayCosyRaw": 0,
        }  # fmt: skip
        most = max(most, bounds(position)["dayCosyRaw"][1])
    return most


#: Most raw cosy of one day (``dayCosyRaw``; ``dayPar`` and ``dayQuota`` are below it).
RAW_DAY_MAX = _raw_day_max()
_DAYS = range(1, STEADY_DAY + 1)
_DWELL = max(gen.day_params(d).band_dwell for d in _DAYS)
_DOG_SPEED = max(gen.day_params(d).dog_speed for d in _DAYS)
_SHADE = max(gen.day_params(d).shade_length for d in _DAYS)
_DOGS = max(gen.day_params(d).dogs for d in _DAYS)
#: Per plane of ``room``: furniture, hearth, cat id + 1, settled, bowl countdown, dogs, dog
#: loops, warmth.
_ROOM_HIGH = (1, 1, CATS, MAX_TURNS, MAX_TURNS, _DOGS, 1, 6)
_STATUS_LOW = (0,) * 14 + (-1, 0)
_STATUS_HIGH = (
    2, DAY_MAX, MAX_TURNS, MAX_TURNS, _DWELL, 7, gen.mult(STEADY_DAY), 8, RAW_DAY_MAX,
    RAW_DAY_MAX, RAW_DAY_MAX, 3, _DOG_SPEED, _SHADE, 1, CATS,
)  # fmt: skip


def _bounds() -> dict[str, tuple[Int32s, Int32s]]:
    """Key -> ``(low, high)`` arrays of the ``Box`` keys (module docstring)."""

    def full(shape: tuple[int, ...], low: Any, high: Any) -> tuple[Int32s, Int32s]:
        lo = np.broadcast_to(np.asarray(low, np.int32), shape)
        return lo.copy(), np.broadcast_to(np.asarray(high, np.int32), shape).copy()

    return {
        "room": full((8, 7, 7), 0, np.array(_ROOM_HIGH).reshape(8, 1, 1)),
        "cats": full((CATS, 5), 0, (1, TILES - 1, MAX_TURNS, max(RANGE), 1)),
        "bowls": full((MAX_BOWLS, 3), (0, 0, -MAX_TURNS), (1, TILES - 1, MAX_TURNS)),
        "status": full((16,), _STATUS_LOW, _STATUS_HIGH),
    }


BOUNDS = _bounds()


def _room(o: Observation) -> np.ndarray[Any, np.dtype[np.int32]]:
    room = np.zeros((8, TILES), dtype=np.int32)
    layout = o["layout"]
    room[0, layout["furniture"]] = 1
    if layout.get("hearth") is not None:
        room[1, layout["hearth"]] = 1
    for cat in o["cats"]:
        room[2, cat["tile"]] = cat["id"] + 1
        room[3, cat["tile"]] = cat["settled"]
    turn = o["turn"]
    for bowl in o["bowls"]:
        if bowl["serveTurn"] >= turn:
            room[4, bowl["mat"]] = bowl["serveTurn"] - turn + 1
    for dog in o.get("dogs") or ():
        room[5, dog] += 1
    for loop in layout.get("dogLoops") or ():
        room[6, loop] = 1
    if o["phase"] == "day" and turn < o["turnsInDay"]:
        room[7] = [warm(o, tile, turn) for tile in range(TILES)]
    return room.reshape(8, 7, 7)


class SunloafCodec:
    """Fixed-shape encoding of Sunloaf observations (module docstring) and its 249 actions."""

    n_actions = len(ACTIONS)

    #: Clip every value into its bound (v1: ``day``, another server's terms); the v0
    #: encoding (:mod:`sunbot.envs.legacy`) does not.
    clip = True

    def observation_space(self) -> gym.spaces.Dict:
        """The ``Dict`` space of the module docstring, with the bounds of :data:`BOUNDS`."""
        spaces: dict[str, gym.spaces.Space[Any]] = {
            key: int_box(low, high) for key, (low, high) in BOUNDS.items()
        }
        spaces["clouds"] = gym.spaces.MultiBinary(MAX_TURNS)
        return gym.spaces.Dict(spaces)

    def encode(self, observation: Observation) -> EncodedObs:
        """The arrays of the module docstring from a wire observation (``rng`` ignored),
        clipped into the bounds.

        Raises:
            ValueError: more than 5 cats or 8 bowls, or a cloud turn past 31.
        """
        o = observation
        if len(o["cats"]) > CATS or len(o["bowls"]) > MAX_BOWLS:
            raise ValueError(
                f"{len(o['cats'])} cats and {len(o['bowls'])} bowls; this encoding holds "
                f"{CATS} and {MAX_BOWLS}"
            )
        cats = np.zeros((CATS, 5), dtype=np.int32)
        for cat in o["cats"]:
            cats[cat["id"]] = (1, cat["tile"], cat["settled"], cat["range"], int(cat["big"]))
        turn = o["turn"]
        bowls = np.zeros((MAX_BOWLS, 3), dtype=np.int32)
        for j, bowl in enumerate(o["bowls"]):
            bowls[j] = (1, bowl["mat"], bowl["serveTurn"] - turn)
        layout = o["layout"]
        clouds = np.zeros(MAX_TURNS, dtype=np.int8)
        for t in layout.get("cloudTurns") or ():
            if not 0 <= t < MAX_TURNS:
                raise ValueError(f"cloud turn {t}; this encoding holds turns 0..{MAX_TURNS - 1}")
            clouds[t] = 1
        parity = layout.get("latticeParity")
        status = [
            PHASES[o["phase"]], o["day"], turn, o["turnsInDay"], o["bandDwell"],
            o["bandWidth"], o["mult"], o["chain"], o["dayCosyRaw"], o["dayPar"],
            o["dayQuota"], WINDOWS[layout["window"]], layout.get("dogSpeed", 1),
            layout["shadeLength"], -1 if parity is None else parity, len(o["cats"]),
        ]  # fmt: skip
        out: EncodedObs = {
            "room": _room(o),
            "cats": cats,
            "bowls": bowls,
            "status": np.array(status, dtype=np.int32),
        }
        if self.clip:
            for key, arr in out.items():
                np.clip(arr, BOUNDS[key][0], BOUNDS[key][1], out=arr)
        out["clouds"] = clouds
        return out

    def action(self, index: int) -> Action:
        """Action object of ``index`` (a fresh dict)."""
        return dict(ACTIONS[index])

    def index(self, action: Action) -> int | None:
        """``49 * cat + tile`` for MOVE, 245..248 for the others, ``None`` otherwise."""
        kind = action.get("type")
        if kind == "MOVE":
            cat, tile = action.get("cat"), action.get("tile")
            if type(cat) is int and type(tile) is int and 0 <= cat < CATS and 0 <= tile < TILES:
                return TILES * cat + tile
            return None
        return _SIMPLE.get(str(kind))


class SunloafEnv(SunbotEnv):
    """``sunbot/Sunloaf-v1``. Options: ``max_days`` (truncate at sunset once that many days
    are done), ``server``, ``mirror``."""

    def __init__(
        self, *, max_days: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("sunloaf", SunloafCodec(), cap=max_days, server=server, mirror=mirror)
