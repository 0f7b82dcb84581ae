"""Harvest Watch's fixed-shape encoding for reinforcement learning (one seat's view).

Actions (``Discrete(56)``), one index space for every beat:

- ``0``: the beat's default: the example speech or diary, abstain (``{"punish": null}``) on
  the vote beat, guard on the action beat (the rules' own default there).
- ``1`` farm; ``2 + j`` farm_coop with seat ``j``; ``8 + j`` steal from ``j``; ``14 + j``
  donate to ``j``.
- ``20 + 6 * i + j``: the ballot ``{"punish": i, "giveTo": j}``.

Observation (``Box(0, HIGH, (46,), float32)``, bounds below), from the seat's view ``data``
(its ``summary``, the public position when the beat opened, and its own private lists):
``[0:6]`` this seat (one-hot), ``[6:12]`` living seats, ``[12:18]`` each seat's food
(units, one decimal as shown), ``[18]`` day, ``[19:21]`` the beat (vote, action; both 0
on the talk and diary beats and once done), ``[21:27]`` ballots naming each seat today,
``[27:33]`` the seat fined today (one-hot), ``[33]`` that fine, ``[34:40]`` seats this seat
has caught stealing from it so far this match, ``[40:46]`` seats it has collided with
while stealing so far. The last two are remembered across beats by the codec (one codec per
seat and match): the rules show them only on the beat after the night they happen.

Bounds (v1; ``docs/rl.md`` has the table): the flags 0..1, ballots 0..6, the fine 0..2.0
(§3.3.2), foods 0..:data:`FOOD_MAX` and the day 1..:data:`DAY_MAX`, derived from §3.5: every
living seat ends a day at least 0.5 poorer (a mutual farm_coop makes 2.5, a night costs
3.0 after any act, 1.0 after guard; fines, donations and steals only move food), a seat
that goes out takes at most 3.0 of debt with it, and a match runs while two seats live.
So the six seats' 30.0 plus 3.0 for each of the four seats that can go out before the end
pays for at most 42 days of two seats (the day is at most 43), and no store can exceed
that 42.0 plus one day's farming by all six (57.0).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from sunbot.engines import harvest_watch as hw

SEATS = 6
N_ACTIONS = 20 + SEATS * SEATS
OBS_SIZE = 46
FARM, COOP, STEAL, DONATE, BALLOT = 1, 2, 8, 14, 20
ACTING_BEATS = ("vote", "action")
ELLIPSIS = "\u2026"
#: Food (tenths) that can stay with the living: the opening stores plus the debt of the four
#: seats that can go out before the match ends (§3.1, §3.5.5).
_BANK = hw.START_FOOD * SEATS + hw.COST_BASE * (SEATS - 2)
#: The last day a match can reach: each day costs two living seats at least 0.5 each.
DAY_MAX = 1 + _BANK // (2 * (hw.COST_BASE - hw.COOP))
#: The most food one store can hold (units): the bank plus a day's farming by six seats.
FOOD_MAX = (_BANK + SEATS * hw.COOP) / 10
#: Element-wise highest values of the observation (the lowest are all 0).
HIGH = np.array(
    [1.0] * 12 + [FOOD_MAX] * SEATS + [DAY_MAX, 1.0, 1.0] + [float(SEATS)] * SEATS
    + [1.0] * SEATS + [hw.FINE_MAX / 10] + [1.0] * 12,
    dtype=np.float32,
)  # fmt: skip


def index_of(command: dict[str, Any]) -> int | None:
    """The index of a command (module docstring); ``None`` for anything else."""
    if "speech" in command or "diary" in command:
        return 0
    if "punish" in command:
        i, j = command["punish"], command.get("giveTo")
        if i is None:
            return 0
        if type(i) is int and type(j) is int and 0 <= i < SEATS and 0 <= j < SEATS:
            return BALLOT + SEATS * i + j
        return None
    act = command.get("act")
    if act == "guard":
        return 0
    if act == "farm":
        return FARM
    base = {"farm_coop": COOP, "steal": STEAL, "donate": DONATE}.get(str(act))
    key = {"farm_coop": "with", "steal": "target", "donate": "to"}.get(str(act), "")
    seat = command.get(key)
    if base is None or type(seat) is not int or not 0 <= seat < SEATS:
        return None
    return base + seat


def command_of(index: int, phase: str) -> dict[str, Any]:
    """The command index ``index`` stands for on beat ``phase``.

    Raises:
        ValueError: the index means nothing on this beat (a ballot on the action beat, an
            act on the vote beat, anything but 0 on a talk or diary beat).
    """
    if index == 0:
        if phase == "vote":
            return {"punish": None}
        if phase == "action":
            return {"act": "guard"}
        return {"diary": ELLIPSIS} if phase == "diary" else {"speech": ELLIPSIS}
    if phase == "vote" and BALLOT <= index < N_ACTIONS:
        i, j = divmod(index - BALLOT, SEATS)
        return {"punish": i, "giveTo": j}
    if phase == "action" and 0 < index < BALLOT:
        if index == FARM:
            return {"act": "farm"}
        kind, seat = divmod(index - COOP, SEATS)
        name, key = (("farm_coop", "with"), ("steal", "target"), ("donate", "to"))[kind]
        return {"act": name, key: seat}
    raise ValueError(f"index {index} means nothing on the {phase} beat")


class HarvestWatchCodec:
    """One seat's encoder (module docstring). Keep one per seat and match: it remembers the
    seat's ``caught`` and ``collided`` lists across beats."""

    n_actions = N_ACTIONS

    def __init__(self) -> None:
        self.caught: set[int] = set()
        self.collided: set[int] = set()

    def observation_space(self) -> gym.spaces.Box:
        """``Box(0, HIGH, (46,), float32)`` (:data:`HIGH`: the module docstring's bounds)."""
        return gym.spaces.Box(np.zeros(OBS_SIZE, np.float32), HIGH.copy(), (OBS_SIZE,), np.float32)

    def encode(self, data: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The 46 numbers of the module docstring from a view's ``data``.

        Raises:
            ValueError: ``summary.you`` is not a seat 0..5.
        """
        s = data.get("summary") or {}
        v = np.zeros(OBS_SIZE, dtype=np.float32)
        you = s.get("you")
        if type(you) is not int or not 0 <= you < SEATS:
            raise ValueError(f"summary.you must be a seat 0..5, got {you!r}")
        v[you] = 1
        for seat in s.get("aliveSeats") or ():
            v[6 + seat] = 1
        foods = s.get("foods") or ()
        v[12 : 12 + len(foods)] = [max(0.0, float(f)) for f in foods[:SEATS]]
        v[18] = s.get("day", 0)
        phase = data.get("phase")
        if phase in ACTING_BEATS:
            v[19 + ACTING_BEATS.index(phase)] = 1
        for ballot in (s.get("votes") or {}).values():
            target = ballot.get("punish") if isinstance(ballot, dict) else None
            if type(target) is int and 0 <= target < SEATS:
                v[21 + target] += 1
        fined = s.get("punishResult") or {}
        if type(fined.get("punished")) is int:
            v[27 + fined["punished"]] = 1
            v[33] = float(fined.get("fine") or 0)
        self.caught.update(x for x in s.get("caught") or () if 0 <= x < SEATS)
        self.collided.update(x for x in s.get("collided") or () if 0 <= x < SEATS)
        for x in self.caught:
            v[34 + x] = 1
        for x in self.collided:
            v[40 + x] = 1
        np.minimum(v, HIGH, out=v)  # another server's longer match or larger store
        return v

    def action(self, index: int) -> dict[str, Any]:
        """The action beat's reading of ``index`` (ballots: the vote beat's); see
        :func:`command_of` for a beat-aware decoding."""
        return command_of(index, "vote" if index >= BALLOT else "action")

    def index(self, action: dict[str, Any]) -> int | None:
        """:func:`index_of`."""
        return index_of(action)
