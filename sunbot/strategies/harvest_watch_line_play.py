"""The ``adaptive-v3`` Harvest Watch strategy (the default before ``adaptive``, which
builds on it): ``adaptive-v2`` (``foresight``) that chooses between a joint farm, a guard
and an early theft by playing whole lines.

Protocol: the one strategy contract, ``choose(observation, legal_actions) -> command`` per
beat (:class:`sunbot.strategies.Strategy`; Harvest Watch notes in
:mod:`sunbot.strategies.harvest_watch`).

It is :class:`~sunbot.strategies.harvest_watch_reader.Foresight` (speeches with offers,
ballots, the style record, the house planner among house bots) with one change on the
action beat: when some other living seat outside our bloc offered a joint farm today (in
the house bots' words or the coalition format), and we have no confirmed bloc partner,
and the seats in the house bots' words did not announce the house bots' §2.7 pairs
(today, or on day 1: then they are house bots, played as ``Foresight`` plays them),
the act comes from :func:`~sunbot.strategies.harvest_watch_lines.best_line`, which plays
each candidate line to the end of the match against the other seats' inferred styles:

- **candidates**: guard tonight, or rob an *open* seat, each followed
  by the ``guard`` or the ``rob`` line; a joint farm with the seat we accept
  (``Foresight``'s trust test) followed by the ``coop`` or the ``guard`` line; in the
  endgame (our store at most 3.0 and some seat at its last night) also farming and a
  theft from every other seat with food;
- **open seats**: seats that offered a joint farm today (a seat that farms under an offer
  does not guard, §3.5) and ``Foresight``'s prey, less seats that blocked our thefts more
  often than we robbed them, and less offerers we left one-sided in the last
  :data:`SNUB` days (a reciprocating seat guards against us then);
- **the other seats** (:class:`~sunbot.strategies.harvest_watch_lines.Model`): their
  estimated steal rates; today's offers (dropped for a seat we left one-sided within
  :data:`SNUB` days); a seat that offered us robs us instead with its ``betray_rate()``.

Why: the seats that offer joint farms and farm under them leave their stores open, so
an early theft takes 2.0 from a rival at a guard's -1.0 (what ``coalition`` does to
them), while a joint farm with a seat that betrays costs 3.0; which pays depends on the
rest of the match, not on one night. Every other beat: ``Foresight``.
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.engines import harvest_watch as hw

from . import harvest_watch_foresight as sight
from . import harvest_watch_lines as lines
from . import harvest_watch_planner as plan
from .harvest_watch_coalition import Command, Data
from .harvest_watch_house_watch import tenths
from .harvest_watch_reader import ENDGAME, WILD, Foresight

#: Days after we left a seat's offer one-sided during which it is not taken for open and
#: its offer to us is not counted on (a reciprocating seat distrusts us that long).
SNUB = 2
#: Rollouts per line at most, and the nights a rollout plays before the projection
#: scores it (see :func:`~sunbot.strategies.harvest_watch_lines.best_line`).
SAMPLES, HORIZON = lines.SAMPLES, lines.HORIZON
#: The open seats robbed as candidates tonight: the richest ones (five: every other seat).
PREY_TRIED = 5


class LinePlay(Foresight):
    """``Foresight`` with lines scored by rollouts where offers are made (module doc).

    ``snubbed[seat]`` is the latest day that seat offered us a joint farm and we did not
    take it."""

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.snubbed: dict[int, int] = {}

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """One command for the current beat; remembers the offers we left one-sided."""
        cmd = super().choose(data, legal_actions)
        if data["phase"] == "action":
            day = data["summary"]["day"]
            for o in self.book.offered_to_me(day):
                if cmd != {"act": "farm_coop", "with": o}:
                    self.snubbed[o] = day
        return cmd

    def _snubbed(self, seat: int, day: int) -> bool:
        return day - self.snubbed.get(seat, -99) <= SNUB

    def _act(self, s: dict[str, Any], legal: list[Command]) -> Command:
        if self._house_table(s) is not None:
            return super()._act(s, legal)
        me, living, day = s["you"], s["aliveSeats"], s["day"]
        bloc_partner = self._partner(s)
        if bloc_partner is not None and self.said.get(bloc_partner, {}).get("coop") == me:
            return super()._act(s, legal)
        house = [x for x in living if x != me and self.said.get(x, {}).get("house")]
        if self.house_start or (house and self._announced_pairs(house)):
            return super()._act(s, legal)  # house bots' §2.7 pairs: not offers to weigh
        today = self.book.offers.get(day, {})
        bloc = set(self._bloc(s))
        offerers = [o for o in living if o != me and o in today and o not in bloc]
        if not offerers:
            return super()._act(s, legal)
        food = [tenths(f) for f in s["foods"]]
        act = self._best_line(s, food, offerers)
        cmd = plan.command(act)
        return cmd if cmd in legal else super()._act(s, legal)

    def _models(self, s: dict[str, Any]) -> dict[int, lines.Model]:
        me, living, day = s["you"], s["aliveSeats"], s["day"]
        today = self.book.offers.get(day, {})
        out = {}
        for o in living:
            if o == me:
                continue
            st = self.book.seat(o)
            plain = st.steals < WILD
            farmer = plain and self._says_farm(o)
            silent = plain and self._silent(o)
            offer = today.get(o, -1)
            if offer not in living or offer == o or self._snubbed(o, day):
                offer = -1
            out[o] = lines.Model(
                rate=st.steal_rate(),
                offer=offer,
                farm=sight.FARMER_FARMS if farmer else 0.5,
                last=sight.LAST_STEAL_PLAIN if farmer or silent else sight.LAST_STEAL,
                betray=st.betray_rate(),
            )
        return out

    def _open_offers(self, s: dict[str, Any], offerers: list[int]) -> set[int]:
        """The offerers taken for open seats tonight (a seat that farms under its offer
        does not guard): those we did not leave one-sided lately."""
        return {o for o in offerers if not self._snubbed(o, s["day"])}

    def _best_line(self, s: dict[str, Any], food: list[int], offerers: list[int]) -> plan.Act:
        me, living = s["you"], s["aliveSeats"]
        fresh = self._open_offers(s, offerers)
        open_ = [
            o
            for o in sorted(fresh | set(self.prey(s)))
            if food[o] > 0 and self.model.seat(o).blocked <= self.model.seat(o).landed
        ]
        rich = sorted(open_, key=lambda o: (-food[o], o))[:PREY_TRIED]
        guard: plan.Act = (plan.GUARD, -1)
        cands: list[lines.Line] = [(guard, lines.GUARD), (guard, lines.ROB)]
        for o in rich:
            cands += [((plan.STEAL, o), lines.GUARD), ((plan.STEAL, o), lines.ROB)]
        if food[me] <= ENDGAME and any(food[x] <= hw.COST_GUARD for x in living):
            cands.append(((plan.FARM, -1), lines.GUARD))
            cands += [
                ((plan.STEAL, o), lines.GUARD)
                for o in living
                if o != me and o not in rich and food[o] > 0
            ]
        partner = self._accepted(s)
        if partner is not None:
            coop: plan.Act = (plan.COOP, partner)
            cands += [(coop, lines.COOP), (coop, lines.GUARD)]
        finers = frozenset(x for x in living if x != me and self.book.seat(x).rich_votes > 0)
        (act, _), _ = lines.best_line(
            me,
            food,
            living,
            self._models(s),
            cands,
            open_,
            self.sim_rng,
            samples=SAMPLES,
            horizon=HORIZON,
            finers=finers,
        )
        return act


__all__ = ["HORIZON", "PREY_TRIED", "SAMPLES", "SNUB", "LinePlay"]
