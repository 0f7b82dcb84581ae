"""The ``adaptive`` Harvest Watch strategy (the default): reads the table, then plays to it.

Protocol: the one strategy contract, ``choose(observation, legal_actions) -> command`` per
beat (:class:`sunbot.strategies.Strategy`; Harvest Watch notes in
:mod:`sunbot.strategies.harvest_watch`).

It is :class:`~sunbot.strategies.harvest_watch_coalition.Coalition` (same speeches, bloc,
ballots, coops with a partner that confirmed) with a model of every other seat
(:mod:`sunbot.strategies.harvest_watch_model`). The rollout planner
(:mod:`sunbot.strategies.harvest_watch_planner`) decides when every other living seat is a
house bot or *quiet* (seen for a night at least, only plain -1.0 nights, never robbed by
us; played in the rollouts as
a farmer that blocks thefts, the worst of a guard and a farmer for us) and one at least is a
house bot. At any other table these rules decide (Harvest Watch §3.5, §7):

1. a confirmed coop partner: ``farm_coop`` with it (the only act better than -1.0 a day);
2. prey: living seats outside the bloc that did not announce a guard and that the model
   does not take for a guard. A seat that blocked one of our thefts more often than we
   robbed it is never robbed again, and a seat that only ever showed plain -1.0 nights
   (a guard and a farmer look alike) is not robbed either: one blocked theft costs 2.0,
   which against seats that guard every night loses the match;
3. on a night we cannot survive (opening at most 1.0): the largest pre-cost store, so steal
   from the richest prey, else farm (never guard: it adds nothing);
4. otherwise, when house bots are seated and we are the richest seat (the house thieves'
   pick): guard;
5. otherwise steal from the richest prey (a rival loses 2.0, we lose what farming loses),
   unless some seat outside the bloc and the house bots is unpredictable (it showed a
   night that was not a plain -1.0): then only a house coop bot is robbed (its pair's
   -0.5 nights outlast a lone seat's -1.0 unless it is drained), else we guard;
6. otherwise guard: it costs the same -1.0 a night as farming and no thief can take from
   it; farming's larger pre-cost store only counts on the last night (step 3), which is how
   five guards are beaten alone: guard four nights, farm the fifth (P 3.0 against 1.0).
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.engines import harvest_watch as hw

from . import harvest_watch_planner as plan
from .harvest_watch_coalition import Coalition, Command, Data, richest
from .harvest_watch_model import TableModel
from .harvest_watch_tidy import tidy


class Adaptive(Coalition):
    """Coalition play plus a per-seat opponent model (see the module docstring).

    ``model`` is the :class:`TableModel` it keeps from every summary it is shown.
    """

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.model = TableModel()

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """One command for the current beat; the model learns from every summary first."""
        data = tidy(data)  # a server not built like ours: see harvest_watch_tidy
        s = data["summary"]
        self.model.observe(s)
        cmd = super().choose(data, legal_actions)
        if data["phase"] == "action":
            self.model.acted(s, cmd)
        return cmd

    def prey(self, s: dict[str, Any]) -> list[int]:
        """Living seats we would rob: outside the bloc, no announced guard, and not taken
        for a guard by the model (a house bot that announced a coop counts as open until it
        blocks us), ascending."""
        bloc = set(self._bloc(s))
        out = []
        for o in s["aliveSeats"]:
            said, seen = self.said.get(o, {}), self.model.seat(o)
            if o == s["you"] or o in bloc or said.get("guard"):
                continue
            coop_bot = said.get("house") and said.get("coop") is not None
            if seen.blocked > seen.landed or (not coop_bot and seen.guards()):
                continue
            out.append(o)
        return out

    def _act(self, s: dict[str, Any], legal: list[Command]) -> Command:
        if self._house_table(s) is not None:
            return super()._act(s, legal)
        me, foods = s["you"], s["foods"]
        partner = self._partner(s)
        if partner is not None and self.said.get(partner, {}).get("coop") == me:
            coop = {"act": "farm_coop", "with": partner}
            if coop in legal:
                return coop
        prey = self.prey(s)
        target = richest(prey, foods) if prey else None
        steal = None if target is None else {"act": "steal", "target": target}
        if round(s["food"] * 10) <= hw.COST_GUARD or len(s["aliveSeats"]) < 2:
            return steal if steal in legal else {"act": "farm"}
        if self.wild(s):
            bots = [o for o in prey if self.said.get(o, {}).get("house")]
            target = richest(bots, foods) if bots else None
            steal = None if target is None else {"act": "steal", "target": target}
        if steal in legal:
            assert steal is not None
            house_thief = any(self.said.get(o, {}).get("house") for o in s["aliveSeats"])
            if not (house_thief and richest(s["aliveSeats"], foods) == me):
                return steal
        return {"act": "guard"}

    def _house_table(self, s: dict[str, Any]) -> plan.Table | None:
        """Coalition's model of a table of house bots, extended to tables where each other
        living seat is a house bot (today's §2.7 speech, the §2.7 pairs) or quiet (no
        tag, at least one night seen and every one a plain -1.0, never robbed by us; an
        unseen seat may be a random one), with at least one house bot;
        quiet seats are played as :data:`~sunbot.strategies.harvest_watch_planner.QUIET`."""
        me, living = s["you"], s["aliveSeats"]
        house = [x for x in living if x != me and self.said.get(x, {}).get("house")]
        quiet = tuple(
            x
            for x in living
            if x != me
            and x not in house
            and not self.said.get(x, {}).get("coalition")
            and self.model.seat(x).quiet > 0
            and self.model.seat(x).active == 0
            and self.model.seat(x).landed == 0
        )
        if not house or len(house) + len(quiet) != len(living) - 1:
            return None
        return self._table(s, house, quiet) if self._announced_pairs(house) else None

    def wild(self, s: dict[str, Any]) -> bool:
        """Whether a living seat that is neither a house bot nor in the bloc showed a night
        that was not a plain -1.0: a seat whose thefts we cannot predict."""
        bloc = set(self._bloc(s))
        return any(
            self.model.seat(o).threat()
            for o in s["aliveSeats"]
            if o not in bloc and not self.said.get(o, {}).get("house")
        )


__all__ = ["Adaptive"]
