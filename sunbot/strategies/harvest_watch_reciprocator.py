"""Harvest Watch reference strategy ``reciprocator``: tit for tat on joint-farm offers and
on thefts.

It is both a reference strategy and one of the league's styles
(:mod:`sunbot.testing.hw_league` seats it from here), the simple player a strategy is
measured against at every league table.

- **Offers.** It farms jointly with a seat that offered it a joint farm today (a speech
  with "cooperate with seat <us>", the house bots' words, Harvest Watch §2.7), keeping a
  partner whose last joint farm with us was mutual first; it says so in speech2 in the same
  words. With no offer to us it guards (a one-sided joint farm nets what farming does but
  leaves the store open). In speech1 it offers to the seat it last farmed with mutually,
  else to the first seat that offered to us the day before.
- **Broken offers.** A joint farm that came out one-sided (our night was worse than the
  mutual -0.5) makes that seat untrusted for ``forgiveness`` days.
- **Thefts.** A seat caught robbing us is robbed back on the next night (a thief is not
  guarding while it steals) and fined at the vote while it lives.
- **Last night** (store at most 1.0, §7): it farms (jointly when offered) for the larger
  store before the cost.

Everything comes from the seat's own summary: foods, speeches, and its ``caught`` list.
"""

from __future__ import annotations

import random
import re
from typing import Any

Command = dict[str, Any]
_OFFER = re.compile(r"cooperate with seat (\d)\b", re.IGNORECASE)
_EPS = 0.05


class Reciprocator:
    """Tit for tat on joint-farm offers and on thefts (the module doc).

    Args:
        rng: its randomness (it uses none: every choice is a rule).
        forgiveness: days a seat stays untrusted after a one-sided joint farm.
        retaliate: whether a caught thief is robbed back the next night.
    """

    game = "harvest-watch"
    style = "reciprocator"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``forgiveness`` 1-4 days, ``retaliate`` 3 times in 4."""
        return {"forgiveness": rng.randint(1, 4), "retaliate": rng.random() < 0.75}

    @classmethod
    def sample(cls, rng: random.Random) -> Reciprocator:
        """A member with random parameters, playing with ``rng``."""
        return cls(rng, **cls.sample_params(rng))

    def params(self) -> dict[str, Any]:
        """The constructor parameters of this member (``rng`` aside)."""
        return {"forgiveness": self.forgiveness, "retaliate": self.retaliate}

    def __init__(self, rng: random.Random, forgiveness: int = 2, retaliate: bool = True) -> None:
        self.rng = rng
        self.forgiveness = forgiveness
        self.retaliate = retaliate
        self.opening: dict[int, float] = {}
        self.acts: dict[int, Command] = {}
        self.offers: dict[int, dict[int, int]] = {}
        self.kept: dict[int, int] = {}  # seat -> last day its joint farm with us was mutual
        self.broke: dict[int, int] = {}  # seat -> last day it left our joint farm one-sided
        self.caught: dict[int, int] = {}  # seat -> last day we caught it robbing us
        self.seen: set[int] = set()

    def choose(self, data: dict[str, Any], legal_actions: list[Command]) -> Command:
        """One command for this beat (the rules of the module doc); the action and the
        ballot are always elements of ``legal_actions``."""
        s = data.get("summary") or {}
        me, day, phase = int(s.get("you", 0)), int(s.get("day", 1)), s.get("phase")
        self._read(s, me, day)
        living = [x for x in s.get("aliveSeats") or [] if isinstance(x, int) and x != me]
        if phase == "speech1":
            p = self._offer_to(me, day, living)
            text = f"I cooperate with seat {p}." if p is not None else "I guard."
            return {"speech": f"Seat {me}: {text}"}
        if phase == "speech2":
            q = self._partner(me, day, living)
            text = f"I cooperate with seat {q}." if q is not None else "I guard."
            return {"speech": f"Seat {me}: {text}"}
        if phase == "vote":
            return self._vote(me, day, living, s.get("foods") or [], legal_actions)
        if phase == "action":
            act = self._act(s, me, day, living)
            if act not in legal_actions:
                act = {"act": "guard"}
            self.acts[day] = act
            return act
        return {"diary": f"Day {day} noted."}

    def _read(self, s: dict[str, Any], me: int, day: int) -> None:
        for key in ("speeches1", "speeches2"):
            for speaker, text in (s.get(key) or {}).items():
                if speaker.isdigit() and isinstance(text, str) and (m := _OFFER.search(text)):
                    self.offers.setdefault(day, {})[int(speaker)] = int(m.group(1))
        foods = s.get("foods") or []
        if s.get("phase") == "action" and len(foods) > me:
            self.opening[day] = float(foods[me])
        if s.get("phase") in ("diary", "done") and day not in self.seen and len(foods) > me:
            self.seen.add(day)
            for t in s.get("caught") or []:
                self.caught[int(t)] = day
            act, before = self.acts.get(day), self.opening.get(day)
            if act and act.get("act") == "farm_coop" and before is not None:
                q = int(act["with"])
                if float(foods[me]) > before - 0.5 - _EPS:
                    self.kept[q] = day
                else:
                    self.broke[q] = day

    def _trusted(self, seat: int, day: int) -> bool:
        return day - self.broke.get(seat, -99) > self.forgiveness

    def _offer_to(self, me: int, day: int, living: list[int]) -> int | None:
        kept = [x for x in living if x in self.kept and self._trusted(x, day)]
        if kept:
            return max(kept, key=lambda x: (self.kept[x], -x))
        asked = [x for x, p in self.offers.get(day - 1, {}).items() if p == me and x in living]
        asked = [x for x in asked if self._trusted(x, day)]
        return min(asked) if asked else None

    def _partner(self, me: int, day: int, living: list[int]) -> int | None:
        asked = [x for x, p in self.offers.get(day, {}).items() if p == me and x in living]
        asked = [x for x in asked if self._trusted(x, day)]
        if not asked:
            return None
        return max(asked, key=lambda x: (self.kept.get(x, -1), -x))

    def _enemy(self, day: int, living: list[int]) -> int | None:
        recent = [t for t, d in self.caught.items() if d == day - 1 and t in living]
        return min(recent) if recent else None

    def _act(self, s: dict[str, Any], me: int, day: int, living: list[int]) -> Command:
        foods = s.get("foods") or [0.0] * 6
        enemy = self._enemy(day, living)
        if self.retaliate and enemy is not None and float(foods[enemy]) > 0:
            return {"act": "steal", "target": enemy}
        partner = self._partner(me, day, living)
        if partner is not None:
            return {"act": "farm_coop", "with": partner}
        if float(s.get("food", foods[me])) <= 1.0 + _EPS:
            return {"act": "farm"}
        return {"act": "guard"}

    def _vote(
        self, me: int, day: int, living: list[int], foods: list[Any], legal: list[Command]
    ) -> Command:
        thieves = sorted(t for t in self.caught if t in living)
        rest = [x for x in living if thieves and x != thieves[0]]
        if not thieves or not rest:
            return {"punish": None}
        ballot = {"punish": thieves[0], "giveTo": min(rest)}
        return ballot if ballot in legal else {"punish": None}


__all__ = ["Reciprocator"]
