"""A league style that offers joint farms in the house bots' words and then robs.

Written from the rule text as an outside player would: a mutual joint farm nets -0.5 a
night against farm's or guard's -1.0 (Harvest Watch §7), so an offer draws partners; a
partner that keeps it plays ``farm_coop`` and leaves its store unguarded (§3.5), so a
theft from it takes 2.0 for a thief's -1.0 net. This style is a *tuning* style: the
league's liars are otherwise all held out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ._base import Command, coop, poorest, richest, steal
from .social import DailyOffer

#: Whom a betrayal robs: the seat it offered to, or the richest other living seat.
TARGETS = ("partner", "richest")
#: Whom it offers to: the poorest other seat (as the joint-offer cooperators), or the richest.
PARTNERS = ("poorest", "richest")


@dataclass(eq=False)
class TwoFaced(DailyOffer):
    """Offers a joint farm every day, in the house bots' words in both speeches, to the
    ``partner`` seat (``"poorest"`` or ``"richest"`` other living seat, ties to the lowest).
    For its first ``betray_after_nights`` nights it keeps the offer (``farm_coop`` with that
    seat); after that, each night with probability ``betray_rate`` it steals instead from
    ``target`` (``"partner"``: the seat it offered to; ``"richest"``: the richest other
    living seat), else it keeps the offer. It never votes."""

    style = "two_faced"
    betray_rate: float = 0.7
    betray_after_nights: int = 1
    target: str = "partner"
    partner: str = "poorest"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``betray_rate`` 0.3-1, ``betray_after_nights`` 0-3, ``target`` and ``partner``
        drawn evenly from :data:`TARGETS` and :data:`PARTNERS`."""
        return {
            "betray_rate": round(rng.uniform(0.3, 1.0), 2),
            "betray_after_nights": rng.randint(0, 3),
            "target": rng.choice(TARGETS),
            "partner": rng.choice(PARTNERS),
        }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.target not in TARGETS or self.partner not in PARTNERS:
            raise ValueError(f"two_faced: target in {TARGETS}, partner in {PARTNERS}")

    def _choose_partner(self, others: list[int], foods: list[float]) -> int:
        pick = poorest if self.partner == "poorest" else richest
        return pick(others, foods)

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        p = self._partner()
        if p is None:
            return {"act": "guard"}
        if r.day > self.betray_after_nights and self.rng.random() < self.betray_rate:
            victim = p if self.target == "partner" else richest(r.others(), r.foods)
            return steal(victim)
        return coop(p)
