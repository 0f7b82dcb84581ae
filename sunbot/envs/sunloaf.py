"""Sunloaf as a Gymnasium environment: ``gymnasium.make("sunbot/Sunloaf-v0")``.

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
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from sunbot.engines.sunloaf import warm
from sunbot.envs.backends import Action, Observation
from sunbot.envs.core import EncodedObs, SunbotEnv

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
BIG = 2**30


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

    def observation_space(self) -> gym.spaces.Dict:
        """The ``Dict`` space of the module docstring."""
        i32 = np.int32
        return gym.spaces.Dict(
            {
                "room": gym.spaces.Box(0, BIG, (8, 7, 7), i32),
                "cats": gym.spaces.Box(0, BIG, (CATS, 5), i32),
                "bowls": gym.spaces.Box(-BIG, BIG, (MAX_BOWLS, 3), i32),
                "status": gym.spaces.Box(-1, BIG, (16,), i32),
                "clouds": gym.spaces.MultiBinary(MAX_TURNS),
            }
        )

    def encode(self, observation: Observation) -> EncodedObs:
        """The arrays of the module docstring from a wire observation (``rng`` ignored).

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
        return {
            "room": _room(o),
            "cats": cats,
            "bowls": bowls,
            "status": np.array(status, dtype=np.int32),
            "clouds": clouds,
        }

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
    """``sunbot/Sunloaf-v0``. Options: ``max_days`` (truncate at sunset once that many days
    are done), ``server``, ``mirror``."""

    def __init__(
        self, *, max_days: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("sunloaf", SunloafCodec(), cap=max_days, server=server, mirror=mirror)
