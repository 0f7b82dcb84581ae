"""League styles that mostly keep their store: guards, last-night opportunists, vengeful
farmers, retaliators and voting blocs (Harvest Watch §7: guard costs what farming nets)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ._base import EPS, FARM, GUARD, Command, Style, richest, steal

#: What a last-night opportunist says in speech1 (how its kin know each other).
KIN_WORDS = "I keep watch."


@dataclass(eq=False)
class LastNight(Style):
    """Guards (or farms) and steals only on its own last night, or for a kill.

    ``base``: ``"guard"`` or ``"farm"``, the act of every other night. ``last_at``: a store
    at or below it is our last night (farm and guard survive only above 1.0, §7), and we
    steal from the richest other seat (``target="richest"``) or the poorest that still
    has food (``"poorest"``); ``tie``: among equal stores, a ``"random"`` one (our rng)
    or the ``"lowest"`` seat. ``kill_below``: we also steal from a seat whose store is at
    or below it (a theft would put it out unless it guards); 0 turns that off.
    ``spare_kin``: it says :data:`KIN_WORDS` in speech1 and, when it steals, passes over
    seats that said them today while another target is left (seats of one author that
    know each other: together they rob the one seat that is not theirs).
    """

    style = "last_night"
    base: str = "guard"
    last_at: float = 1.0
    kill_below: float = 1.0
    target: str = "richest"
    tie: str = "random"
    spare_kin: bool = True

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``base`` guard 3 times in 4, ``kill_below`` 0-2, ``target`` richest 3 in 4."""
        return {
            "base": "guard" if rng.random() < 0.75 else "farm",
            "kill_below": rng.choice([0.0, 1.0, 1.0, 2.0]),
            "target": "richest" if rng.random() < 0.75 else "poorest",
            "tie": rng.choice(["random", "lowest"]),
            "spare_kin": rng.random() < 0.5,
        }

    def speech1(self) -> str:
        return f"Seat {self.record.me}: {KIN_WORDS}"

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        others = [s for s in r.others() if r.foods[s] > 0]
        kin = {s for s, text in r.speeches.get(r.day, {}).items() if text.endswith(KIN_WORDS)}
        if self.spare_kin and [s for s in others if s not in kin]:
            others = [s for s in others if s not in kin]
        if others and self.last_night(self.last_at):
            sign = -1 if self.target == "poorest" else 1
            return steal(self._pick(others, max(sign * r.foods[s] for s in others) * sign))
        prey = [s for s in others if r.foods[s] <= self.kill_below + EPS]
        if prey:
            return steal(self._pick(prey, min(r.foods[s] for s in prey)))
        return FARM if self.base == "farm" else GUARD

    def _pick(self, seats: list[int], food: float) -> int:
        tied = [s for s in seats if abs(self.record.foods[s] - food) < EPS]
        return self.rng.choice(tied) if self.tie == "random" else tied[0]


@dataclass(eq=False)
class Watchful(Style):
    """A guard that farms while the table looks calm.

    Guards by default; farms when no seat lost more than ``calm_loss`` over the last night
    (no sign of theft) and its store is above ``farm_above``; on its last night it farms
    (a larger store for the tiebreak, §7) unless ``steal_last`` makes it steal.
    """

    style = "watchful"
    calm_loss: float = 1.5
    farm_above: float = 2.0
    steal_last: bool = False

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``calm_loss`` 1.2-2.5, ``farm_above`` 1.5-4, ``steal_last`` 1 in 3."""
        return {
            "calm_loss": round(rng.uniform(1.2, 2.5), 1),
            "farm_above": round(rng.uniform(1.5, 4.0), 1),
            "steal_last": rng.random() < 1 / 3,
        }

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        if self.last_night():
            others = [s for s in r.others() if r.foods[s] > 0]
            return steal(richest(others, r.foods)) if self.steal_last and others else FARM
        d = r.delta(r.day - 1)
        calm = d is not None and all(x > -self.calm_loss - EPS for x in d)
        return FARM if calm and r.foods[r.me] > self.farm_above + EPS else GUARD


@dataclass(eq=False)
class Vengeful(Style):
    """Farms; guards for ``patience`` nights after being robbed (its store fell more than a
    farm explains) or after catching a thief; votes to fine every living seat it caught.

    ``give``: where the fine's share goes (``"poorest"`` or ``"lowest"`` seat).
    """

    style = "vengeful"
    patience: int = 2
    give: str = "poorest"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``patience`` 1-4 nights, ``give`` poorest or lowest."""
        return {"patience": rng.randint(1, 4), "give": rng.choice(["poorest", "lowest"])}

    def _alarm(self) -> int:
        r = self.record
        days = set(r.robbed) | {d for d, c in r.caught_on.items() if c}
        return max(days, default=-99)

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        if self.last_night():
            return FARM
        return GUARD if r.day - self._alarm() <= self.patience else FARM

    def vote(self) -> Command:
        r = self.record
        thieves = sorted(s for s in r.caught if s in r.living and s != r.me)
        return self.fine(thieves[0], self.give) if thieves else {"punish": None}


@dataclass(eq=False)
class Retaliator(Style):
    """Guards; steals back from a seat it caught, on the ``grudge`` nights after the catch
    (a thief is not guarding while it steals), and votes to fine it.

    ``base``: the act of other nights (``"guard"`` or ``"farm"``).
    """

    style = "retaliator"
    grudge: int = 2
    base: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``grudge`` 1-3 nights, ``base`` guard 3 times in 4."""
        return {"grudge": rng.randint(1, 3), "base": "guard" if rng.random() < 0.75 else "farm"}

    def _enemy(self) -> int | None:
        r = self.record
        for day in range(r.day - 1, r.day - 1 - self.grudge, -1):
            living = [s for s in r.caught_on.get(day, []) if s in r.living and r.foods[s] > 0]
            if living:
                return richest(living, r.foods)
        return None

    def act(self, legal: list[Command]) -> Command:
        enemy = self._enemy()
        if enemy is not None:
            return steal(enemy)
        if self.last_night():
            return FARM
        return FARM if self.base == "farm" else GUARD

    def vote(self) -> Command:
        r = self.record
        thieves = sorted(s for s in r.caught if s in r.living and s != r.me)
        return self.fine(thieves[0]) if thieves else {"punish": None}


@dataclass(eq=False)
class Bloc(Style):
    """Votes every day to fine the richest other living seat (ties to the lowest), and
    says so in speech1; otherwise ``base`` (``"guard"`` or ``"farm"``), farming on its last
    night. ``give``: the share to the ``"poorest"`` or ``"lowest"`` other seat."""

    style = "bloc"
    base: str = "guard"
    give: str = "poorest"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``base`` guard or farm, ``give`` poorest or lowest."""
        return {"base": rng.choice(["guard", "farm"]), "give": rng.choice(["poorest", "lowest"])}

    def _target(self) -> int | None:
        r = self.record
        others = r.others()
        return richest(others, r.foods) if others else None

    def speech1(self) -> str:
        r = self.record
        target = self._target()
        return f"Seat {r.me}: fine seat {target}." if target is not None else super().speech1()

    def vote(self) -> Command:
        target = self._target()
        return self.fine(target, self.give) if target is not None else {"punish": None}

    def act(self, legal: list[Command]) -> Command:
        if self.last_night() or self.base == "farm":
            return FARM
        return GUARD
