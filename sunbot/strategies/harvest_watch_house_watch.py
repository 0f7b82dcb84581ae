"""What a Harvest Watch seat learns about the house bots around it, for the planner.

Split from :mod:`sunbot.strategies.harvest_watch_planner` (the model and the rollouts):
the nights our seat acted on, replayed against the stores it then sees to tell who a
guarding house bot caught (its memory drives its ballots, Harvest Watch
§2.7 "House bots"), corrected by the public ballots. Everything comes from the seat's own view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sunbot.engines.harvest_watch_house import STEAL_CHANCE

from .harvest_watch_planner import (
    COOP,
    FARM,
    GUARD,
    QUIET,
    STEAL,
    Act,
    house_acts,
    night,
)


def tenths(x: float) -> int:
    """A shown food value back in integer tenths."""
    return round(x * 10)


def to_act(cmd: dict[str, Any]) -> Act | None:
    """The model act of an engine action command (``None`` for a donation)."""
    kind = cmd.get("act")
    seat = cmd.get("with", cmd.get("target", -1))
    table = {"farm": FARM, "farm_coop": COOP, "guard": GUARD, "steal": STEAL}
    if kind not in table or not isinstance(seat, int):
        return None
    return (table[str(kind)], seat)


@dataclass
class Night:
    """An action beat as we acted on it: the opening stores (after any fine), the living
    seats, the living house seats and our act."""

    day: int
    food: list[int]
    alive: list[bool]
    house: list[int]
    me: int
    act: Act
    quiet: tuple[int, ...] = ()


def after_night(summary: dict[str, Any], day: int) -> list[int] | None:
    """The stores right after night ``day`` as ``summary`` shows them, or ``None`` when it
    does not show them (a later day, or the match is over). On the next day's action beat
    the vote's fine is undone with ``punishResult``."""
    phase, now = summary["phase"], summary["day"]
    foods = [tenths(f) for f in summary["foods"]]
    if (phase, now) == ("diary", day) or (
        phase in ("speech1", "speech2", "vote") and now == day + 1
    ):
        return foods
    if (phase, now) == ("action", day + 1):
        result = summary.get("punishResult")
        if isinstance(result, dict) and result.get("punished") is not None:
            foods[result["punished"]] += tenths(result["fine"])
            for m, got in result["shares"].items():
                foods[int(m)] -= tenths(got)
        return foods
    return None


@dataclass
class HouseWatch:
    """Each house bot's memory of the seats it caught (§2.7), as far as we can tell.

    A night we acted on is replayed under every combination of the house bots' steal
    draws; the likeliest one that gives exactly the stores and outs we then see says who
    stole from whom, so who was caught by a guarding house bot. Public ballots then
    correct the memory: a house ballot names the lowest living seat its bot caught, and an
    abstention (with a giveTo available) says it caught no living seat. (Ballots of seats
    that are not house bots land in ``mem`` too; the model reads house seats' only.)
    """

    mem: dict[int, set[int]] = field(default_factory=dict)
    pending: Night | None = None

    def record(self, night_: Night) -> None:
        """The action beat we just acted on, replayed once its outcome shows."""
        self.pending = night_

    def observe(self, summary: dict[str, Any]) -> None:
        """Learn from one summary: last night's outcome, and today's public ballots."""
        living: list[int] = summary["aliveSeats"]
        if self.pending is not None:
            seen = after_night(summary, self.pending.day)
            if seen is not None:
                self._explain(self.pending, seen, living)
                self.pending = None
            elif summary["day"] > self.pending.day + 1 or summary["phase"] == "done":
                self.pending = None  # that night's outcome went by unseen
        votes = summary.get("votes")
        if summary["phase"] == "action" and isinstance(votes, dict):
            self._correct(votes, living)  # today's ballots, cast with the memory as it is

    def _explain(self, n: Night, seen: list[int], living: list[int]) -> None:
        explained = explain_night(n, seen, living)
        if explained is None:
            return
        for target, thieves in explained.items():
            if target in n.house:
                self.mem.setdefault(target, set()).update(thieves)

    def _correct(self, votes: dict[str, dict[str, Any]], living: list[int]) -> None:
        for seat, ballot in votes.items():
            h = int(seat)
            if h not in self.mem and ballot.get("punish") is None:
                continue
            known = self.mem.setdefault(h, set())
            target = ballot.get("punish")
            if isinstance(target, int):
                known.add(target)
                known.difference_update(s for s in living if s < target)
            elif len(living) >= 3:
                known.difference_update(living)

    def frozen(self, seats: int = 6) -> list[frozenset[int]]:
        """The memory per seat, as :class:`Table` takes it."""
        return [frozenset(self.mem.get(s, ())) for s in range(seats)]


def explain_night(n: Night, seen: list[int], living: list[int]) -> dict[int, list[int]] | None:
    """``caught`` per guarding seat under the likeliest house steal draws that turn
    night ``n`` into the stores ``seen`` with ``living`` left; ``None`` if none does."""
    best: tuple[float, dict[int, list[int]]] | None = None
    k = len(n.house)
    before = [s for s, on in enumerate(n.alive) if on]
    for bits in range(1 << k):
        mask = sum(1 << h for i, h in enumerate(n.house) if bits >> i & 1)
        chance = STEAL_CHANCE ** bin(bits).count("1") * (1 - STEAL_CHANCE) ** (
            k - bin(bits).count("1")
        )
        if best is not None and chance <= best[0]:
            continue
        food, alive = n.food[:], n.alive[:]
        acts = house_acts(food, before, n.house, mask)
        acts.update({q: (QUIET, -1) for q in n.quiet if q in before})
        acts[n.me] = n.act
        if any(s not in acts for s in before):
            return None  # a living seat we cannot model
        caught, _ = night(food, alive, acts)
        if food == seen and [s for s in before if alive[s]] == living:
            best = (chance, caught)
    return None if best is None else best[1]
