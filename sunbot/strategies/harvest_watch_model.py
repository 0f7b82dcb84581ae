"""What one Harvest Watch seat can tell about every other seat from the published summaries.

Acts are secret (Harvest Watch §4; the rule text's Secrets), so a seat's act shows only through
the public foods, its speeches and ballots, and our own ``collided``. This module keeps, per
other seat, the evidence that matters for choosing our act:

- **nights** we saw from the action beat's opening (any fine already applied) to the stores
  after the night, as the change ``d`` in tenths. A seat that guarded ends the night at
  exactly 1.0 below its opening, plus 1.0 per donation it received (§3.5): ``d`` is a whole
  number of food at least -1.0. Any other ``d`` proves the seat did *not* guard that night
  (a mutual coop shows -0.5, a blocked theft -3.0, a donation -4.0, a robbed farm -3.0...).
  A ``quiet`` seat is one whose every seen night was exactly -1.0: a guard and a farmer look
  the same until someone robs them.
- **our thefts** on the seat: ``blocked`` (its store moved like a guard's) or ``landed``
  (its store proves it did not guard).
What seats announce and how they vote is read by
:class:`~sunbot.strategies.harvest_watch_coalition.Coalition` (speeches, bloc defectors,
house ballots).

All of it is read from summaries; nothing about the server's internals or its RNG.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sunbot.engines import harvest_watch as hw

from .harvest_watch_house_watch import after_night, tenths


@dataclass
class SeatModel:
    """The evidence about one other seat (counts of nights, food in tenths)."""

    nights: int = 0  # nights seen from opening to the stores after it
    quiet: int = 0  # of those, nights at exactly -1.0 (guard or farm alike)
    active: int = 0  # nights that prove it did not guard
    blocked: int = 0  # our thefts on it that it blocked
    landed: int = 0  # our thefts on it that took food

    def guards(self) -> bool:
        """True when robbing it looks like a blocked theft: it blocked us more often than we
        robbed it, or every night we saw it could have been a guard and we never robbed it
        successfully (a seat we know nothing about counts as guarding)."""
        if self.blocked > self.landed:
            return True
        return self.landed == 0 and self.active == 0

    def threat(self) -> bool:
        """True once it showed a night that was not a plain -1.0 (it may steal)."""
        return self.active > 0


def guard_like(d: int) -> bool:
    """Could a seat whose store moved by ``d`` tenths over the night have guarded?"""
    return d >= -hw.COST_GUARD and d % hw.DONATION == 0


@dataclass
class Opening:
    """An action beat as we acted on it: day, the opening stores, living seats, our act."""

    day: int
    food: list[int]
    living: list[int]
    act: dict[str, Any]


@dataclass
class TableModel:
    """Per-seat :class:`SeatModel` for the seat ``me``; feed it every summary we are shown
    (:meth:`observe`) and every act we send (:meth:`acted`)."""

    me: int = -1
    seats: dict[int, SeatModel] = field(default_factory=dict)
    pending: Opening | None = None

    def seat(self, s: int) -> SeatModel:
        """The model of seat ``s`` (made on first use)."""
        return self.seats.setdefault(s, SeatModel())

    def acted(self, summary: dict[str, Any], act: dict[str, Any]) -> None:
        """Remember the action beat we just acted on, judged once its night shows."""
        foods = [tenths(f) for f in summary["foods"]]
        self.pending = Opening(summary["day"], foods, list(summary["aliveSeats"]), dict(act))

    def observe(self, summary: dict[str, Any]) -> None:
        """Learn from one summary: the night we acted on, when this summary shows its
        outcome."""
        self.me = summary["you"]
        if self.pending is not None:
            seen = after_night(summary, self.pending.day)
            if seen is not None:
                self._night(self.pending, seen)
                self.pending = None
            elif summary["day"] > self.pending.day + 1 or summary["phase"] == "done":
                self.pending = None  # its outcome went by unseen

    def _night(self, n: Opening, seen: list[int]) -> None:
        me = self.me
        for s in n.living:
            if s == me:
                continue
            d = seen[s] - n.food[s]
            m = self.seat(s)
            m.nights += 1
            if d == -hw.COST_GUARD:
                m.quiet += 1
            elif not guard_like(d):
                m.active += 1
        if n.act.get("act") != "steal":
            return
        target = n.act.get("target")
        if not isinstance(target, int) or target not in n.living or n.food[target] <= 0:
            return
        # a theft that took food leaves the target at -3.0 or worse unless donations made up
        # for it; a blocked one leaves a guard's whole-food change
        if not guard_like(seen[target] - n.food[target]):
            self.seat(target).landed += 1
        else:
            self.seat(target).blocked += 1


__all__ = ["Opening", "SeatModel", "TableModel", "guard_like"]
