"""The ``foresight`` Harvest Watch strategy (the default): ``adaptive`` plus a per-seat
record of styles, reciprocal joint farms with any seat, and the endgame by simulation.

Protocol: the one strategy contract, ``choose(observation, legal_actions) -> command`` per
beat (:class:`sunbot.strategies.Strategy`; Harvest Watch notes in
:mod:`sunbot.strategies.harvest_watch`).

It plays :class:`~sunbot.strategies.harvest_watch_adaptive.Adaptive` (coalition speeches
and ballots, the rollout planner among house bots, its rules elsewhere) and changes three
things, everything read from the public record
(:class:`~sunbot.strategies.harvest_watch_styles.StyleBook`):

1. **Offers.** Both speeches also offer a joint farm in the house bots' words (``I
   cooperate with seat P.``, §2.7): to a seat whose joint farm with us was mutual, else to
   one that offered us one, else to the lowest other living seat that never robbed us. On
   the action beat, with no bloc partner of our own, it joint-farms with a seat that
   offered us one today (a mutual joint farm nets -0.5 a night, the only act better than
   -1.0, §7) unless that seat left an earlier one one-sided in the last two days or robbed
   us, or its joint farms left us robbed too often (``betray_rate()`` of
   :class:`~sunbot.strategies.harvest_watch_styles.SeatStyle` at :data:`BETRAY` or more),
   or it steals (its ``steal_rate()`` at :data:`STEALER` or more: a seat that offers and
   robs others robs its partner as readily), and unless the chance of a theft on us
   tonight (the seats' estimated steal rates) is above :data:`RISK`: a theft costs 2.0,
   four nights' gain.
2. **Endgame** (our store at most 3.0 and some living seat, us included, at its last
   night: store at most 1.0): every candidate act (guard, farm, a theft from each seat
   with food, the joint farm when offered) is scored by simulating tonight's likely joint
   actions with the rules (:mod:`sunbot.strategies.harvest_watch_foresight`): a seat on
   its last night steals with probability 1/2 at least (it can only gain by it), so
   farming there leaves a larger store for whoever steals, and guarding may be right.
3. Everything else: ``adaptive``.
"""

from __future__ import annotations

import random
import re
from typing import Any

from sunbot._text.terminal import printable
from sunbot.engines import harvest_watch as hw

from . import harvest_watch_foresight as sight
from . import harvest_watch_planner as plan
from .harvest_watch_adaptive import Adaptive
from .harvest_watch_coalition import Command, Data
from .harvest_watch_house_watch import tenths
from .harvest_watch_styles import StyleBook
from .harvest_watch_tidy import tidy

#: The house bots' offer (§2.7), read anywhere in a speech.
OFFER = re.compile(r"cooperate with seat (\d)\b", re.IGNORECASE)
#: A speech that says its seat farms, and words that say it guards instead.
FARMS = re.compile(
    r"\b(farm(s|ing|er|ed)?|harvest(s|ing)?|plant(s|ing)?|sow(s|ing)?|till(s|ing)?|crops?)\b",
    re.IGNORECASE,
)
GUARDS = re.compile(r"guard|watch|protect|defend|cooperate|coop", re.IGNORECASE)
#: A clause that states a condition, a threat or a negation claims nothing about tonight
#: ("if anyone robs me, I will guard", "I won't guard").
_HEDGE = re.compile(
    r"\b(if|when|whenever|once|after|unless|until|should|anyone|anybody|whoever|otherwise"
    r"|else|next|not|never|no|won'?t|don'?t|can'?t)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[.!?;:\n]+")


def says_farm(text: str) -> bool:
    """Whether speech ``text`` says its seat farms and nothing of guarding tonight.

    Read clause by clause (split at ``. ! ? ; :`` and line ends): a clause claims farming
    when it names farming (:data:`FARMS`), guarding when it has a guard word
    (:data:`GUARDS`), unless it is hedged (:data:`_HEDGE`: a condition, a threat or a
    negation). ``"Seat 2: I farm. If anyone robs me, I will guard."`` says farm;
    ``"I farm and keep watch."`` does not (one clause claims both); ``"I guard."`` does not.
    """
    farm = guard = False
    for clause in _CLAUSE.split(text[:400]):
        if _HEDGE.search(clause):
            continue
        farm = farm or bool(FARMS.search(clause))
        guard = guard or bool(GUARDS.search(clause))
    return farm and not guard


#: The largest chance of a theft on us tonight at which we still joint-farm.
RISK = 0.25
#: The largest estimated chance that a joint farm with a seat leaves us robbed at which we
#: still take (or make) one: a kept one nets -0.5, a betrayed one -3.0 (one-sided +2.0,
#: robbed of 2.0), guard -1.0 (§7), so it pays below 0.5 / 2.5 = 0.2.
BETRAY = 0.2
#: The largest estimated steal rate (thefts a night, :class:`SeatStyle`) of a seat we still
#: take (or make) a joint farm with: a seat that robs others may rob its partner next.
STEALER = 0.2
#: Days an offerer stays untrusted after leaving our joint farm one-sided.
FORGIVE = 2
#: House seats (other than us) from which the house planner decides: a lone seat in the
#: house bots' words may be a player using them, and is simulated like any other seat.
HOUSE_PAIR = 2
#: Thefts put on a seat by the record from which it counts as a thief (``wild``).
WILD = 0.5
#: Our store (tenths) at or below which the endgame simulation decides.
ENDGAME = 30


def _plain(text: str) -> bool:
    """Whether words others said are fit for us to say: nothing the terminal would not
    print as it is (:func:`sunbot._text.terminal.printable`: controls, format characters
    such as bidi overrides) and no markup (``<``, ``>``, ``&``). Words of another player are
    outside text; we never pass on what could act on a reader's screen."""
    return not any(c in "<>&" for c in text) and printable(text) == text


def _form(text: str, seat: int, food: float) -> str:
    """``text`` with the speaker's seat number and shown store as placeholders."""
    return text.replace(f"{food:.1f}", "{food}").replace(f"Seat {seat}", "Seat {seat}")


class Foresight(Adaptive):
    """``adaptive`` plus offers, a style record and the simulated endgame (module doc).

    ``book`` is the :class:`StyleBook` it keeps from every summary it is shown.
    """

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.book = StyleBook()
        self.sim_rng = random.Random(rng.random())
        self.spoken: dict[str, dict[int, str]] = {}  # the latest speeches, by beat
        self.house_start = False  # day 1's house-worded seats announced the §2.7 pairs

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """One command for the current beat; the record learns from every summary first."""
        data = tidy(data)  # a server not built like ours: see harvest_watch_tidy
        s = data["summary"]
        self.book.observe(s)
        self._read_offers(s)
        cmd = super().choose(data, legal_actions)
        if data["phase"] == "action":
            self.book.acted(s, cmd)
        return cmd

    def _read_offers(self, s: dict[str, Any]) -> None:
        for key in ("speeches1", "speeches2"):
            if s.get(key):
                self.spoken[key] = {
                    int(k): v for k, v in s[key].items() if k.isdigit() and isinstance(v, str)
                }
            for seat, text in (s.get(key) or {}).items():
                if not seat.isdigit() or not isinstance(text, str):
                    continue
                if m := OFFER.search(text):
                    self.book.offer(s["day"], int(seat), int(m.group(1)))
                elif (said := self.said.get(int(seat), {})).get("coop") is not None:
                    self.book.offer(s["day"], int(seat), int(said["coop"]))

    def prey(self, s: dict[str, Any]) -> list[int]:
        """``adaptive``'s prey but a seat that lost more than 2.0 last night (robbed, or a
        blocked thief: a robbed seat tends to guard next), plus seats that said today they
        farm (and nothing of guarding) and never blocked more of our thefts than we
        landed: a farmer's store is open (§3.5)."""
        bloc = set(self._bloc(s))
        out = {o for o in super().prey(s) if self.book.seat(o).hurt != s["day"] - 1}
        for o in s["aliveSeats"]:
            seen = self.model.seat(o)
            if (
                o != s["you"]
                and o not in bloc
                and self._says_farm(o)
                and seen.blocked <= seen.landed
            ):
                out.add(o)
        return sorted(out)

    def _silent(self, seat: int) -> bool:
        """Whether ``seat`` said only the pinned ``…`` in every speech we kept."""
        said = [b.get(seat) for b in self.spoken.values()]
        return bool(said) and all(x == hw.ELLIPSIS for x in said)

    def _says_farm(self, seat: int) -> bool:
        """Whether ``seat``'s latest speech1 says it farms and nothing of guarding."""
        return says_farm(self.spoken.get("speeches1", {}).get(seat, ""))

    def wild(self, s: dict[str, Any]) -> bool:
        """Whether a living seat outside the bloc and the house bots may steal: the record
        put half a theft or more on it, it robbed us, or it showed more nights that were
        not a plain -1.0 than our own landed thefts on it explain (``adaptive`` counted
        those too, so a seat we robbed looked like a thief)."""
        bloc = set(self._bloc(s))
        for o in s["aliveSeats"]:
            if o in bloc or o == s["you"] or self.said.get(o, {}).get("house"):
                continue
            st, seen = self.book.seat(o), self.model.seat(o)
            if st.steals >= WILD or st.robbed_us or seen.active > seen.landed:
                return True
        return False

    # -- offers ------------------------------------------------------------------------

    def _trusted(self, seat: int, day: int) -> bool:
        st = self.book.seat(seat)
        fresh = st.robbed_us == 0 and day - st.last_broke > FORGIVE
        return fresh and st.betray_rate() < BETRAY and st.steal_rate() < STEALER

    def _offer_to(self, s: dict[str, Any]) -> int | None:
        me, day = s["you"], s["day"]
        living: list[int] = [x for x in s["aliveSeats"] if x != me and self._trusted(x, day)]
        if not living:
            return None
        if (p := self._accepted(s)) is not None:
            return p
        kept = [x for x in living if self.book.seat(x).kept]
        if kept:
            return max(kept, key=lambda x: (self.book.seat(x).kept, -x))
        asked = [x for x in living if x in self.book.offered_to_me(day - 1)]
        return asked[0] if asked else self._first_offer(s, living)

    def _first_offer(self, s: dict[str, Any], trusted: list[int]) -> int:
        """Whom we offer a joint farm with no better reason: the lowest trusted seat."""
        return trusted[0]

    def _accepted(self, s: dict[str, Any]) -> int | None:
        """The seat we joint-farm with today: it offered us one today and is trusted; a
        seat whose joint farms with us were mutual first, then the lowest."""
        me, day = s["you"], s["day"]
        asked = [
            x
            for x in self.book.offered_to_me(day)
            if x in s["aliveSeats"] and x != me and self._trusted(x, day)
        ]
        if not asked:
            return None
        return max(asked, key=lambda x: (self.book.seat(x).kept, -x))

    def _speech(self, s: dict[str, Any]) -> str:
        same = self._common_words(s)
        if same is not None:
            return same
        text = super()._speech(s)
        p = self._offer_to(s)
        return text if p is None else f"{text} I cooperate with seat {p}."

    def _common_words(self, s: dict[str, Any]) -> str | None:
        """When every other living seat said the same words in this beat's speech
        yesterday (its own seat number and store aside) and they are not ours, those
        words with our seat and store: seats that spare the ones speaking like them
        should not single us out. ``None`` otherwise."""
        me, living, foods = s["you"], s["aliveSeats"], s["foods"]
        key = "speeches1" if s["phase"] == "speech1" else "speeches2"
        said = self.spoken.get(key, {})
        others = [x for x in living if x != me]
        if len(others) < 2 or any(x not in said for x in others):
            return None
        forms = {_form(said[x], x, foods[x]) for x in others}
        if len(forms) != 1:
            return None
        form = forms.pop()
        if "coalition" in form or not _plain(form):
            return None
        text = form.replace("{seat}", str(me)).replace("{food}", f"{foods[me]:.1f}")
        return text[: hw.SPEECH_MAX]

    def _risk(self, s: dict[str, Any]) -> float:
        """The chance of at least one theft on us tonight (each seat's steal rate, aimed
        evenly at the other seats)."""
        me, living = s["you"], s["aliveSeats"]
        safe = 1.0
        for o in living:
            if o != me:
                safe *= 1.0 - self.book.seat(o).steal_rate() / max(1, len(living) - 1)
        return 1.0 - safe

    # -- the action beat -----------------------------------------------------------------

    def _house_table(self, s: dict[str, Any]) -> plan.Table | None:
        """``adaptive``'s house table, when it holds :data:`HOUSE_PAIR` house seats or
        more, or the seats in the house bots' words announced exactly the §2.7 pairs on
        day 1 (then a lone house seat left is one of the house bots); else ``None``."""
        if s["day"] == 1 and not self.house_start:
            me = s["you"]
            house = [x for x in s["aliveSeats"] if x != me and self.said.get(x, {}).get("house")]
            self.house_start = bool(house) and self._announced_pairs(house)
        table = super()._house_table(s)
        if table is None:
            return None
        return table if self.house_start or len(table.house) >= HOUSE_PAIR else None

    def _act(self, s: dict[str, Any], legal: list[Command]) -> Command:
        if self._house_table(s) is not None:
            return super()._act(s, legal)
        me, living = s["you"], s["aliveSeats"]
        food = [tenths(f) for f in s["foods"]]
        bloc_partner = self._partner(s)
        if bloc_partner is not None and self.said.get(bloc_partner, {}).get("coop") == me:
            return super()._act(s, legal)
        partner = self._accepted(s)
        if food[me] <= ENDGAME and any(food[x] <= hw.COST_GUARD for x in living):
            cmd = plan.command(self._endgame(s, food, partner))
            if cmd in legal:
                return cmd
        if partner is not None and self._risk(s) <= RISK:
            coop = {"act": "farm_coop", "with": partner}
            if coop in legal:
                return coop
        act = super()._act(s, legal)
        if act.get("act") == "steal" and self._fines_the_richest(s):
            return {"act": "guard"}  # the loot would be fined away, and more
        return act

    def _fines_the_richest(self, s: dict[str, Any]) -> bool:
        """Whether the seats that fined the richest other seat at their latest ballots
        are a strict majority of the living (the fine of §3.3 then follows the richest)."""
        living = s["aliveSeats"]
        finers = [x for x in living if x != s["you"] and self.book.seat(x).rich_votes > 0]
        return 2 * len(finers) > len(living) - 1

    def _endgame(self, s: dict[str, Any], food: list[int], partner: int | None) -> plan.Act:
        me, living, day = s["you"], s["aliveSeats"], s["day"]
        today = self.book.offers.get(day, {})
        choices = {}
        for o in living:
            if o == me:
                continue
            p = today.get(o)
            mutual = p is not None and p in living and today.get(p) == o
            if partner == o:  # it offered us a joint farm today
                p, mutual = me, True
            plain = self.book.seat(o).steals < WILD
            farmer = plain and self._says_farm(o)
            silent = plain and self._silent(o)
            choices[o] = sight.seat_acts(
                self.book,
                o,
                food,
                living,
                p if mutual else None,
                last_steal=sight.LAST_STEAL_PLAIN if farmer or silent else sight.LAST_STEAL,
                farm=sight.FARMER_FARMS if farmer else 0.5,
            )
        cands: list[plan.Act] = [(plan.GUARD, -1), (plan.FARM, -1)]
        if partner is not None:
            cands.append((plan.COOP, partner))
        cands += [(plan.STEAL, o) for o in living if o != me and food[o] > 0]
        finers = frozenset(x for x in living if x != me and self.book.seat(x).rich_votes > 0)
        act, _ = sight.best_act(me, food, living, choices, cands, self.sim_rng, finers=finers)
        return act


__all__ = [
    "BETRAY",
    "ENDGAME",
    "FARMS",
    "FORGIVE",
    "GUARDS",
    "HOUSE_PAIR",
    "OFFER",
    "RISK",
    "STEALER",
    "WILD",
    "Foresight",
    "says_farm",
]
