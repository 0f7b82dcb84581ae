"""The ``adaptive`` Harvest Watch strategy (the default): ``adaptive-v3`` (line play) that
trusts what a seat did, not what it said.

Protocol: the one strategy contract, ``choose(observation, legal_actions) -> command`` per
beat (:class:`sunbot.strategies.Strategy`; Harvest Watch notes in
:mod:`sunbot.strategies.harvest_watch`).

Speech is free (Harvest Watch §3.6) and acts are secret, so anyone can say the words of a
bloc member, a joint-farm partner or a farmer; what a seat did shows in the public record
(the foods after each night, the ballots, our own ``caught`` and ``collided``). This
strategy is :class:`~sunbot.strategies.harvest_watch_line_play.LinePlay` with its trust
read from deeds:

- **A joint farm that was not mutual is a defection.** After our ``farm_coop`` with a
  bloc partner, our night shows the mutual joint farm's half (-0.5, plus whole gifts and
  whole thefts, §3.5) only if the partner joint-farmed with us too. Any night without
  that half means it did not, whatever it said: -1.0 (it left us one-sided), -3.0 (one-
  sided and robbed: the rules explain the loss only by a theft while our store was open)
  or a gift's 0.0; the partner is a defector from then on (``adaptive-v3`` flagged only
  the exact -1.0, so a partner that robbed us during a joint farm was kept). A seat
  outside a bloc whose offer we took is a defector after a one-sided night worse than
  -1.0 (a theft); a plain one-sided night is a miss the record counts (``broke``).
- **A bloc is taken on its words only when its ballots can fine.** The coalition format
  pairs its members on their words; a bloc that is a strict majority of the living seats
  fines a defector from the next day on (§3.3), so there its words are backed by deeds.
  A smaller bloc cannot fine anyone, and its words are an offer like any other: its
  members are ordinary seats (:meth:`Deeds._bloc`), a member's ``coop=`` us is weighed
  by the line play as every joint-farm offer is (the trust test, the rollouts, robbing an
  open seat), and our speech names in that format the seat whose offer we would take
  (:meth:`Deeds._announced`), so an honest member pairs with us when we take it.
- **A claimed farmer is believed once its record matches.** A seat that says it farms is
  robbed as a farmer (its store open, §3.5) only after a night of its own showed what a
  farm shows while the record explained that night's thefts without it, and the record
  puts less than half a theft on it in all (:meth:`Deeds.farm_proven`): on the first
  night, or while every night of it could hide a theft, the claim is only words. Once a
  seat that said it farms was caught stealing (our ``caught`` or ``collided``), farm
  claims are cheap talk at that table and count for no seat.
- **Thefts are counted on nights a seat went out too** (:class:`DeedBook`). The
  record's count of a night's thieves comes from the sum of the night's changes (every
  seat that stole pays the base cost and grows nothing, §3.5); a seat that goes out shows
  0.0, not its true store, so ``adaptive-v3`` counted only the thieves it knew then. A
  seat that went out lost at least its whole opening store, which bounds the count from
  below; the thefts no known thief explains go first to the seats that went out (a
  blocked theft costs 3.0, what puts a low store out), one each, then are shared among
  the suspects as on any night: at a table where every seat steals, seats go out from
  the first night, and the thieves were taken for farmers.
- **An offer says nothing of a store when its seat broke its word to us** (a defector, a
  joint farm with us that left us one-sided and robbed, a theft on us caught by our
  guard): the line play
  does not count it as an open seat or model its offer (:meth:`Deeds._snubbed`). And no
  theft on an empty store (a seat fined to 0.0): it takes nothing and leaves ours open.
- **A word kept is answered by a word kept.** A seat speaking the coalition format that
  kept a joint farm with us, and never left us one-sided and robbed, is not robbed, nor
  taken for an open seat for its offer; in a smaller bloc we offer our pair by the
  format's pairing when no better reason names a seat (:meth:`Deeds._first_offer`), so
  two seats of ours pair and stay paired (``LinePlay`` robbed an offering seat it could,
  its own copy too).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from sunbot.engines import harvest_watch as hw

from .harvest_watch_coalition import Command, Data
from .harvest_watch_line_play import LinePlay
from .harvest_watch_reader import WILD, says_farm
from .harvest_watch_styles import PendingNight, StyleBook


@dataclass
class DeedBook(StyleBook):
    """:class:`~sunbot.strategies.harvest_watch_styles.StyleBook` that also counts the
    thieves of a night on which a seat went out (a lower bound, module doc), and keeps
    ``clear[seat]``: the nights whose thefts the record explained without that seat while
    it showed what a farm shows (-1.0, or -3.0 robbed)."""

    clear: dict[int, int] = field(default_factory=dict)

    def _night(self, n: PendingNight, seen: list[int], living: list[int]) -> None:
        before = {s: self.seat(s).steals for s in n.living}
        if len(living) == len(n.living):
            super()._night(n, seen, living)
        else:
            self._out_night(n, seen, living)
        known = set(self.caught + self.collided)
        for s in living:
            quiet = s != self.me and s not in known and self.seat(s).steals == before[s]
            if quiet and seen[s] - n.food[s] in (-hw.COST_GUARD, -hw.COST_BASE):
                self.clear[s] = self.clear.get(s, 0) + 1

    def _out_night(self, n: PendingNight, seen: list[int], living: list[int]) -> None:
        gone = [s for s in n.living if s not in living]
        kept = [s for s in n.living if s in living]
        # out seats' true change is at most minus their opening store; their own thefts
        # and joint farms are unknown, so the count is a lower bound
        total = sum(seen[s] - n.food[s] for s in kept) - sum(n.food[s] for s in gone)
        mutual = sum(1 for s in kept if (seen[s] - n.food[s]) % 10 == 5)
        least = -hw.COST_GUARD * len(n.living) + 5 * mutual - total
        super()._night(n, seen, living)  # what a night with an out seat always counts
        me = self.me
        known = {s for s in self.caught + self.collided if s != me}
        ours = 1 if n.act.get("act") in ("steal", "donate") else 0
        rest = math.ceil(least / 20) - ours - len(known)
        d = {s: seen[s] - n.food[s] for s in kept}
        suspects = [
            s
            for s in kept
            if s != me and s not in known and -hw.COST_BASE <= d[s] <= -hw.COST_GUARD
        ]
        # a seat that went out may have gone out stealing (a blocked theft costs 3.0): one
        # unexplained theft each first, the rest shared among the living suspects
        lost = [s for s in gone if s not in known][: max(0, rest)]
        for s in lost:
            self.seat(s).steals += 1
        self.thefts += len(lost)
        rest -= len(lost)
        if rest > 0 and suspects:
            for s in suspects:
                self.seat(s).steals += rest / len(suspects)
            self.thefts += rest


class Deeds(LinePlay):
    """``LinePlay`` with trust read from deeds (module doc)."""

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.deeds = DeedBook()
        self.book = self.deeds  # the record every inherited rule reads
        self.claims_broken = False  # a seat that said it farms was caught stealing

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """One command for the current beat; after a night, whether a seat that said it
        farms that day was caught stealing (our ``caught`` or ``collided``)."""
        cmd = super().choose(data, legal_actions)
        if data.get("phase") in ("diary", "done"):
            said = self.spoken.get("speeches1", {})
            thieves = self.book.caught + self.book.collided
            if any(says_farm(said.get(x, "")) for x in thieves):
                self.claims_broken = True
        return cmd

    def _bloc(self, s: dict[str, Any]) -> list[int]:
        """The coalition bloc when it is a strict majority of the living seats; else only
        ourselves (module doc)."""
        bloc = super()._bloc(s)
        return bloc if 2 * len(bloc) > len(s["aliveSeats"]) else [s["you"]]

    def _announced(self, s: dict[str, Any]) -> int | None:
        """The bloc partner; in a smaller bloc, the seat speaking the coalition format we
        offer a joint farm to (:meth:`_first_offer`), or ``None``."""
        if len(self._bloc(s)) > 1:
            return self._partner(s)
        p = self._offer_to(s)
        return p if p is not None and self.said.get(p, {}).get("coalition") else None

    def _first_offer(self, s: dict[str, Any], trusted: list[int]) -> int:
        """With no better reason (no offer to answer, no kept joint farm), our pair by the
        coalition format's pairing of the seats that speak it, when it is trusted: two
        seats of ours then offer each other, in the format and in the house bots' words."""
        words = super()._bloc(s)  # every seat speaking the format, paired as it pairs them
        i = words.index(s["you"])
        j = i + 1 if i % 2 == 0 else i - 1
        pair = words[j] if j < len(words) else None
        return pair if pair in trusted else super()._first_offer(s, trusted)

    def _judge_last_night(self, s: dict[str, Any]) -> None:
        """A joint farm whose night lacks the mutual half marks the partner a defector."""
        if self.last is None or self.last[0] != s["day"] - 1:
            return
        _, act, opening = self.last
        if act.get("act") != "farm_coop" or not isinstance(act.get("with"), int):
            return
        change = round(s["food"] * 10) - opening
        if change % 10 == 5:  # the half tenth: the mutual +2.5 (§3.5.1), robbed or not
            return
        # one-sided: a bloc partner defected; a seat whose offer we took defected if the
        # night was worse than a one-sided farm's (a theft on our open store), else it
        # only missed (it guarded, say): the record counts that (``broke``)
        if len(self._bloc(s)) > 1 or change < hw.FARM - hw.COST_BASE:
            self.defectors.add(int(act["with"]))

    def farm_proven(self, seat: int) -> bool:
        """Whether ``seat``'s record matches a farmer's: a night of it that the record
        explains without a theft of its own (``DeedBook.clear``), less than :data:`WILD`
        of a theft put on it in all, never caught robbing us."""
        st = self.book.seat(seat)
        return self.deeds.clear.get(seat, 0) >= 1 and st.steals < WILD and st.robbed_us == 0

    def _snubbed(self, seat: int, day: int) -> bool:
        """An offer not counted on: ``LinePlay``'s (we left it one-sided lately), or one
        from a seat that broke its word to us (a defector, a joint farm with us it left
        one-sided, a theft caught on us): such a seat's offer says nothing of its store."""
        st = self.book.seat(seat)
        broke = seat in self.defectors or st.betrayed > 0 or st.robbed_us > 0
        return broke or super()._snubbed(seat, day)

    def _open_offers(self, s: dict[str, Any], offerers: list[int]) -> set[int]:
        """``LinePlay``'s open offerers less the seats speaking the coalition format: their
        offer is the format's pairing, ours too, and two seats of ours that each took the
        other's offer for an open store would rob each other instead of pairing."""
        fresh = super()._open_offers(s, offerers)
        return {o for o in fresh if not self.said.get(o, {}).get("coalition")}

    def prey(self, s: dict[str, Any]) -> list[int]:
        """``Foresight``'s prey less the seats with an empty store (a theft from a store at
        0.0, after a fine say, takes nothing, §3.5.3, and leaves ours open) and less the
        seats speaking the coalition format whose joint farms with us were all kept: a word
        kept is answered by a word kept (two seats of ours would otherwise rob each other
        the night after their first joint farm)."""
        return [
            o
            for o in super().prey(s)
            if s["foods"][o] > 0 and not (self.said.get(o, {}).get("coalition") and self._kept(o))
        ]

    def _kept(self, seat: int) -> bool:
        """Whether a joint farm of ours with ``seat`` was mutual and none left us robbed
        (a miss, a one-sided night without a theft, is forgiven as ``Foresight`` forgives
        it)."""
        st = self.book.seat(seat)
        return st.kept > 0 and st.betrayed == 0 and seat not in self.defectors

    def _says_farm(self, seat: int) -> bool:
        """A farm claim counts only once the record matches it (:meth:`farm_proven`), and
        at no table where a seat that said it farms was caught stealing."""
        if self.claims_broken:
            return False
        return super()._says_farm(seat) and self.farm_proven(seat)


__all__ = ["DeedBook", "Deeds"]
