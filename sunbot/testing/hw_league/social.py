"""League styles that deal with the other seats: joint-offer cooperators, loyal partners,
and mimics (the reciprocator is a reference strategy, in
``sunbot.strategies.harvest_watch_reciprocator``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ._base import EPS, FARM, GUARD, Command, Style, coop, offer_text, poorest, richest, steal


@dataclass(eq=False)
class DailyOffer(Style):
    """A style that offers a joint farm every day, in the house bots' words in both
    speeches, to one other living seat, chosen once a day by :meth:`_choose_partner` (the
    poorest, ties to the lowest) and chosen again if that seat is out."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.promise: dict[int, int] = {}

    def _choose_partner(self, others: list[int], foods: list[float]) -> int:
        return poorest(others, foods)

    def _partner(self) -> int | None:
        r = self.record
        if r.day not in self.promise or self.promise[r.day] not in r.living:
            others = r.others()
            if not others:
                return None
            self.promise[r.day] = self._choose_partner(others, r.foods)
        return self.promise[r.day]

    def speech1(self) -> str:
        p = self._partner()
        return offer_text(self.record.me, p) if p is not None else super().speech1()

    speech2 = speech1


@dataclass(eq=False)
class JointOffer(DailyOffer):
    """Offers a joint farm to the poorest other living seat (ties to the lowest) every day,
    in the house bots' words in both speeches, and keeps it with probability ``honesty``
    (guarding otherwise). ``fine_thieves``: vote to fine a seat it caught (it never guards
    unless it breaks an offer, so it rarely catches anyone)."""

    style = "joint_offer"
    honesty: float = 1.0
    fine_thieves: bool = False

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``honesty`` 0.8-1 (1 half the time), ``fine_thieves`` 1 in 2."""
        honesty = 1.0 if rng.random() < 0.5 else round(rng.uniform(0.8, 1.0), 2)
        return {"honesty": honesty, "fine_thieves": rng.random() < 0.5}

    def vote(self) -> Command:
        r = self.record
        thieves = sorted(s for s in r.caught if s in r.living and s != r.me)
        return self.fine(thieves[0]) if thieves and self.fine_thieves else {"punish": None}

    def act(self, legal: list[Command]) -> Command:
        p = self._partner()
        if p is None or self.rng.random() >= self.honesty:
            return GUARD
        return coop(p)


@dataclass(eq=False)
class Loyal(Style):
    """Keeps one partner: offers a joint farm to its neighbour (seat ``you ^ 1``) and
    farms jointly with it while the joint farms stay mutual; after ``strikes`` one-sided
    nights it moves to a seat that offered to it (else the closest store), guarding on a
    night nobody is left to pair with."""

    style = "loyal"
    strikes: int = 1

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``strikes`` 1-3."""
        return {"strikes": rng.randint(1, 3)}

    def __post_init__(self) -> None:
        super().__post_init__()
        self.partner: int | None = None
        self.misses: dict[int, int] = {}

    def _pick(self) -> int | None:
        r = self.record
        kept = r.coop_kept(r.day - 1)
        if kept is False and self.partner is not None:
            self.misses[self.partner] = self.misses.get(self.partner, 0) + 1
        ok = [s for s in r.others() if self.misses.get(s, 0) < self.strikes]
        if self.partner in ok:
            return self.partner
        asked = [s for s in r.offered_to_me(r.day - 1) if s in ok]
        if r.me ^ 1 in ok and self.partner is None:
            self.partner = r.me ^ 1
        elif asked:
            self.partner = asked[0]
        elif ok:
            self.partner = min(ok, key=lambda s: (abs(r.foods[s] - r.foods[r.me]), s))
        else:
            self.partner = None
        return self.partner

    def speech1(self) -> str:
        p = self._pick()
        return offer_text(self.record.me, p) if p is not None else super().speech1()

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        p = self.partner if self.partner in r.others() else None
        return coop(p) if p is not None else GUARD


@dataclass(eq=False)
class Mimic(Style):
    """Copies the most successful seat of the last night (the best food change, ties to
    the lowest): a mutual farm's -0.5 becomes a joint-farm offer to that seat; a gain, or
    a -1.0 on a night some seat was robbed (lost 2.5 or more), becomes a theft from the
    richest; any other -1.0 becomes ``plain`` (``"guard"`` or ``"farm"``, as the two
    cannot be told apart from the foods)."""

    style = "mimic"
    plain: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``plain`` guard or farm."""
        return {"plain": rng.choice(["guard", "farm"])}

    def _copy(self) -> Command:
        r = self.record
        d = r.delta(r.day - 1)
        others = [s for s in r.others() if r.foods[s] > 0]
        if d is None or not others:
            return GUARD
        best = max(others, key=lambda s: (d[s], -s))
        if abs(d[best] + 0.5) < EPS:
            return coop(best)
        robbery = any(x <= -2.5 + EPS for x in d)
        if d[best] > -0.5 + EPS or (robbery and abs(d[best] + 1.0) < EPS):
            return steal(richest(others, r.foods))
        return FARM if self.plain == "farm" else GUARD

    def speech1(self) -> str:
        plan = self._copy()
        if plan["act"] == "farm_coop":
            return offer_text(self.record.me, int(plan["with"]))
        return super().speech1()

    def act(self, legal: list[Command]) -> Command:
        return self._copy()
