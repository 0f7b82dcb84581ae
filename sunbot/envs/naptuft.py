"""Naptuft as a Gymnasium environment: ``gymnasium.make("sunbot/Naptuft-v1")``.

Actions (``Discrete(6)``): ``0..3`` care feed, play, brush, nap; ``4`` next-day; ``5``
end-run.

Observation (``Dict`` of ``int32`` arrays), from Naptuft's published observation only; the
seed, the deck cursor and the future deck beyond the shown windows stay hidden (they are
inside our server's encrypted token, and not in the observation at all):

- ``needs`` ``(4,)``: food, joy, cleanliness, energy, each 0..100.
- ``clock`` ``(4,)``: ``[day, moment, window, phase (0 care, 1 dayBreak, 2 over)]``.
- ``wish`` ``(6,)``: the live wish's four care slots (care code, 0 = none; codes ``1 +``
  the action index above), then ``progress``, then 1 while a wish is shown.
- ``status`` ``(2,)``: ``[wishStreak, lastCare code (0 before the first care)]``.
- ``forecast`` ``(4, 8)``: today's windows 0, 1, 2 and ``nextWindow``; per row the wish's
  four care codes and the pressure on food, joy, cleanliness, energy.

Bounds (v1; ``docs/rl.md`` has the table): needs 0..100, moment 0..11, window 0..2, care
codes 0..4, wishes of at most 4 cares (progress 0..3), pressure 0..4 (the rules and our
deck, ``docs/rules/naptuft.md``). Two counters have no end by the rules and are clipped:
``day`` at 7 (:data:`DAY_MAX`: from day 7 on every day has the same terms: pressure up to 4,
wishes of 2 to 4 cares, no care twice in a row) and ``wishStreak`` at 2
(:data:`STREAK_MAX`: from 2 on the streak multiplier ``min(streak + 1, 3)`` stays 3). A
pressure beyond 4 (another server's deck) is clipped to 4.
"""

from __future__ import annotations

import struct
from typing import Any

import gymnasium as gym
import numpy as np

from sunbot.engines.naptuft import CARES, NEEDS, REPEAT_FROM_DAY, STREAK_CAP
from sunbot.envs.backends import Action, Observation
from sunbot.envs.core import EncodedObs, SunbotEnv, int_box

#: Action index -> action object.
ACTIONS: tuple[Action, ...] = (
    *({"type": "care", "care": c} for c in CARES),
    {"type": "next-day"},
    {"type": "end-run"},
)
_INDEX = {"next-day": 4, "end-run": 5}
_CARE_CODE = {c: i + 1 for i, c in enumerate(CARES)}
PHASES = {"care": 0, "dayBreak": 1, "over": 2}
WISH_SLOTS = 4
#: ``day`` is clipped here: from the day the repeat rule starts every day has the same terms.
DAY_MAX = REPEAT_FROM_DAY
#: ``wishStreak`` is clipped here: the multiplier ``min(streak + 1, STREAK_CAP)`` stops.
STREAK_MAX = STREAK_CAP - 1
#: The deck's largest pressure (``min(4, (day + 1) // 2)``, docs/rules/naptuft.md).
PRESSURE_MAX = 4
_CODE_MAX = len(CARES)
#: Key -> ``(low, high)`` of each ``Box`` key (module docstring).
BOUNDS: dict[str, tuple[list[Any], list[Any]]] = {
    "needs": ([0] * 4, [100] * 4),
    "clock": ([0] * 4, [DAY_MAX, 11, 2, 2]),
    "wish": ([0] * (WISH_SLOTS + 2), [_CODE_MAX] * WISH_SLOTS + [WISH_SLOTS - 1, 1]),
    "status": ([0, 0], [STREAK_MAX, _CODE_MAX]),
    "forecast": (
        [[0] * (WISH_SLOTS + 4)] * 4,
        [[_CODE_MAX] * WISH_SLOTS + [PRESSURE_MAX] * 4] * 4,
    ),
}
_LOW = {k: np.array(low, np.int32) for k, (low, _) in BOUNDS.items()}
_HIGH = {k: np.array(high, np.int32) for k, (_, high) in BOUNDS.items()}
#: Each key's shape, and where its values sit in the flat buffer ``encode`` fills.
_SHAPES = {k: v.shape for k, v in _LOW.items()}
_CUTS: dict[str, slice] = {}
for _key, _low in _LOW.items():
    _at = sum(c.stop - c.start for c in _CUTS.values())
    _CUTS[_key] = slice(_at, _at + _low.size)
_FLAT_LOW = np.concatenate([v.ravel() for v in _LOW.values()])
_FLAT_HIGH = np.concatenate([v.ravel() for v in _HIGH.values()])
_PACK = struct.Struct(f"={_FLAT_LOW.size}i")


def _cares(names: list[str] | None) -> list[int]:
    """Care codes of a wish, padded to :data:`WISH_SLOTS`.

    Raises:
        ValueError: a wish of more than four cares, or an unknown care.
    """
    names = names or []
    if len(names) > WISH_SLOTS:
        raise ValueError(f"a wish of {len(names)} cares; this encoding holds 4")
    try:
        codes = [_CARE_CODE[n] for n in names]
    except KeyError as exc:
        raise ValueError(f"unknown care {exc.args[0]!r} in a wish") from None
    return codes + [0] * (WISH_SLOTS - len(codes))


def _descriptor(d: dict[str, Any]) -> list[int]:
    pressure = d.get("pressure") or {}
    return _cares(d.get("wish")) + [int(pressure.get(n, 0)) for n in NEEDS]


class NaptuftCodec:
    """Fixed-shape encoding of Naptuft observations (module docstring) and its 6 actions."""

    n_actions = len(ACTIONS)

    #: Clip every value into its bound (v1: ``day``, ``wishStreak``, a foreign pressure);
    #: the v0 encoding (:mod:`sunbot.envs.legacy`) does not.
    clip = True

    def observation_space(self) -> gym.spaces.Dict:
        """The ``Dict`` space of the module docstring, with the bounds of :data:`BOUNDS`."""
        return gym.spaces.Dict({k: int_box(_LOW[k], _HIGH[k]) for k in BOUNDS})

    def encode(self, observation: Observation) -> EncodedObs:
        """The arrays of the module docstring from a wire observation, clipped into the
        bounds.

        Raises:
            ValueError: a need outside 0..100, a wish of more than four cares, fewer or more
                than three forecast windows.
        """
        o = observation
        needs = [int(o["needs"][n]) for n in NEEDS]
        if not all(0 <= v <= 100 for v in needs):
            raise ValueError(f"needs outside 0..100: {needs}")
        wish = o.get("wish")
        wish_row = (
            [*_cares(wish["actions"]), int(wish.get("progress", 0)), 1]
            if wish
            else [0] * (WISH_SLOTS + 2)
        )
        forecast = o["forecast"]
        if len(forecast) != 3:
            raise ValueError(f"forecast has {len(forecast)} windows; the rules show 3")
        rows = [_descriptor(d) for d in forecast] + [_descriptor(o["nextWindow"])]
        last = o.get("lastCare")
        flat = [
            *needs,
            *(o["day"], o["moment"], o["window"], PHASES[o["phase"]]),
            *wish_row,
            *(o["wishStreak"], _CARE_CODE.get(str(last), 0)),
            *(v for row in rows for v in row),
        ]
        try:  # one buffer, one clip, views into it (as the Keelhold encoding does)
            arr = np.frombuffer(bytearray(_PACK.pack(*flat)), dtype=np.int32)
        except struct.error as exc:  # a value beyond int32, or not an integer
            raise ValueError(f"a Naptuft field does not fit 32 bits: {exc}") from None
        if self.clip:
            np.minimum(arr, _FLAT_HIGH, out=arr)
            np.maximum(arr, _FLAT_LOW, out=arr)
        return {key: arr[cut].reshape(_SHAPES[key]) for key, cut in _CUTS.items()}

    def action(self, index: int) -> Action:
        """Action object of ``index`` (a fresh dict)."""
        return dict(ACTIONS[index])

    def index(self, action: Action) -> int | None:
        """The action's index, ``None`` for anything else."""
        kind = action.get("type")
        if kind == "care":
            care = action.get("care")
            code = _CARE_CODE.get(care) if isinstance(care, str) else None
            return None if code is None else code - 1
        return _INDEX.get(str(kind))


class NaptuftEnv(SunbotEnv):
    """``sunbot/Naptuft-v1``. Options: ``max_days`` (truncate at dayBreak once that many days
    are done; a Naptuft run has no end of its own), ``server``, ``mirror``."""

    def __init__(
        self, *, max_days: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("naptuft", NaptuftCodec(), cap=max_days, server=server, mirror=mirror)
