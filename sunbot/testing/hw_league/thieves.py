"""League styles that live off other seats' stores: greedy, richest-first, weakest-first
and sneak thieves, and liars who offer a joint farm and rob the seat they offered it to
(Harvest Watch §3.5.3: a guarded target loses nothing, a thief pays the full cost)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ._base import EPS, FARM, GUARD, Command, Style, offer_text, richest, steal


def _base(name: str) -> Command:
    return FARM if name == "farm" else GUARD


@dataclass(eq=False)
class Greedy(Style):
    """Steals every night (with probability ``rate``) from a seat holding at least
    ``min_take`` (a full 2.0 take, §3.5.3), picked at random; ``base`` otherwise."""

    style = "greedy"
    rate: float = 1.0
    min_take: float = 2.0
    base: str = "farm"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``rate`` 0.6-1, ``min_take`` 1-2, ``base`` farm or guard."""
        return {
            "rate": round(rng.uniform(0.6, 1.0), 2),
            "min_take": rng.choice([1.0, 2.0]),
            "base": rng.choice(["farm", "guard"]),
        }

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        prey = [s for s in r.others() if r.foods[s] >= self.min_take - EPS]
        if prey and self.rng.random() < self.rate:
            return steal(self.rng.choice(prey))
        return _base(self.base)


@dataclass(eq=False)
class RichThief(Style):
    """Robs the richest other seat (ties to the lowest) with probability ``rate``, but not
    the same seat after it was blocked ``give_up`` times (it guards); ``base`` otherwise."""

    style = "rich_thief"
    rate: float = 0.5
    give_up: int = 2
    base: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``rate`` 0.3-0.9, ``give_up`` 1-3, ``base`` guard or farm."""
        return {
            "rate": round(rng.uniform(0.3, 0.9), 2),
            "give_up": rng.randint(1, 3),
            "base": rng.choice(["guard", "farm"]),
        }

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        prey = [s for s in r.others() if r.blocked.get(s, 0) < self.give_up and r.foods[s] > 0]
        if prey and self.rng.random() < self.rate:
            return steal(richest(prey, r.foods))
        return _base(self.base)


@dataclass(eq=False)
class WeakThief(Style):
    """Robs the poorest other seat that can still lose ``min_take``, to put it out, once
    it holds at most ``below``; ``base`` otherwise, and steals from the richest on its own
    last night."""

    style = "weak_thief"
    below: float = 3.0
    min_take: float = 0.5
    base: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``below`` 2-4, ``min_take`` 0.5-1.5, ``base`` guard or farm."""
        return {
            "below": round(rng.uniform(2.0, 4.0), 1),
            "min_take": rng.choice([0.5, 1.0, 1.5]),
            "base": rng.choice(["guard", "farm"]),
        }

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        others = [s for s in r.others() if r.foods[s] > 0]
        if others and self.last_night():
            return steal(richest(others, r.foods))
        prey = [s for s in others if self.min_take - EPS <= r.foods[s] <= self.below + EPS]
        if prey:
            return steal(min(prey, key=lambda s: (r.foods[s], s)))
        return _base(self.base)


@dataclass(eq=False)
class Sneak(Style):
    """Steals only from a seat that looks unguarded: one that offered a joint farm today
    (its speech), or whose last night was a mutual farm's -0.5; never again from a seat
    that blocked it ``give_up`` times. Richest such seat first; ``base`` otherwise."""

    style = "sneak"
    give_up: int = 1
    base: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``give_up`` 1-2, ``base`` guard or farm."""
        return {"give_up": rng.randint(1, 2), "base": rng.choice(["guard", "farm"])}

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        open_ = set(r.offers.get(r.day, {}))
        d = r.delta(r.day - 1)
        if d is not None:
            open_ |= {s for s in range(6) if abs(d[s] + 0.5) < EPS}
        prey = [
            s
            for s in r.others()
            if s in open_ and r.foods[s] > 0 and r.blocked.get(s, 0) < self.give_up
        ]
        if prey:
            return steal(richest(prey, r.foods))
        return FARM if self.last_night() else _base(self.base)


@dataclass(eq=False)
class Liar(Style):
    """Offers a joint farm in the house bots' words to the richest other seat, then robs
    it with probability ``lie_rate`` (a seat farming for a partner is not guarding) and
    keeps the offer otherwise; after ``lies`` broken promises to the same seat it offers to
    the next richest."""

    style = "liar"
    lie_rate: float = 1.0
    lies: int = 2

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``lie_rate`` 0.5-1, ``lies`` 1-3."""
        return {"lie_rate": round(rng.uniform(0.5, 1.0), 2), "lies": rng.randint(1, 3)}

    def __post_init__(self) -> None:
        super().__post_init__()
        self.broken: dict[int, int] = {}

    def _mark(self) -> int | None:
        r = self.record
        others = [s for s in r.others() if self.broken.get(s, 0) < self.lies and r.foods[s] > 0]
        others = others or [s for s in r.others() if r.foods[s] > 0]
        return richest(others, r.foods) if others else None

    def speech1(self) -> str:
        mark = self._mark()
        return offer_text(self.record.me, mark) if mark is not None else super().speech1()

    def act(self, legal: list[Command]) -> Command:
        mark = self._mark()
        if mark is None:
            return GUARD
        if self.rng.random() < self.lie_rate:
            self.broken[mark] = self.broken.get(mark, 0) + 1
            return steal(mark)
        return {"act": "farm_coop", "with": mark}
