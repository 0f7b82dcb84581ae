"""A league style that says in its own words what it plays tonight, and means it.

Written from the rule text as an outside player would: speech is free text (Harvest Watch
§3.6), so a seat may simply say what it does. This one farms (a farm nets what a guard nets,
-1.0 a night, §7), turns to guarding for ``patience`` nights after it is robbed or catches a
thief, fines the thieves it caught, and farms on its own last night (the larger pre-cost
store for the wipe-out rule). Each speech1 states tonight's act, in one of several
phrasings, sometimes with a conditional threat ("if anyone robs me, I will guard and fine
them") that is *not* a guard for tonight. A tuning style: it tests that a strategy reads
a plain claim, and a threat, for what they are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ._base import GUARD
from .keepers import Vengeful

#: speech1 phrasings by tonight's act; ``{s}`` is the seat.
FARM_WORDS = (
    "Seat {s}: I farm.",
    "Farming today.",
    "Seat {s} farms tonight, as always.",
    "I am farming; nothing else.",
)
GUARD_WORDS = (
    "Seat {s}: I guard tonight.",
    "Guarding today.",
    "I am on guard after that theft.",
)
#: The conditional threat some members add after a farm claim.
THREATS = (
    "If anyone robs me, I will guard and fine them.",
    "Whoever steals from me gets fined and finds me on guard.",
    "Rob me once and I protect my store from then on.",
)


@dataclass(eq=False)
class PlainSpoken(Vengeful):
    """A :class:`~sunbot.testing.hw_league.keepers.Vengeful` farmer (``patience`` nights of
    guarding after a theft, 0: never; fines every living seat it caught, the share to the
    poorest) that says in speech1 what it plays tonight.

    ``phrasing``: index into the word lists (taken modulo their length); ``threat``: add
    a conditional threat to farm claims (one of :data:`THREATS`, by ``phrasing``).
    """

    style = "plain_spoken"
    phrasing: int = 0
    threat: bool = False

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``patience`` 0-4 nights, a phrasing, a threat half the time."""
        return {
            "patience": rng.randint(0, 4),
            "phrasing": rng.randrange(12),
            "threat": rng.random() < 0.5,
        }

    def speech1(self) -> str:
        s, k = self.record.me, self.phrasing
        if self.act([]) == GUARD:
            return GUARD_WORDS[k % len(GUARD_WORDS)].format(s=s)
        text = FARM_WORDS[k % len(FARM_WORDS)].format(s=s)
        return f"{text} {THREATS[k % len(THREATS)]}" if self.threat else text
