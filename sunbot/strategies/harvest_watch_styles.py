"""Per-seat style estimates for a Harvest Watch seat, from the public record only.

Acts are secret (Harvest Watch §4 and the rule text's Secrets), so every estimate here comes
from what one seat is shown: the foods at each action beat's opening and after the night,
the speeches (joint-farm offers, in the house bots' words or the coalition format), and our
own ``caught`` and ``collided`` lists. Food is in integer tenths throughout.

**Thefts in a night.** Stealing and donating pay the base cost 3.0 and produce nothing;
guard and farm net -1.0 and a mutual joint farm -0.5, and thefts only move food (§3.5). So
when no seat went out (a seat that goes out shows 0.0, not its true store), the sum of
every living seat's change tells how many seats stole (or donated) that night:
``sum = -n + 0.5 * m - 2 * t`` with ``n`` seats, ``m`` mutual joint farmers and ``t``
thieves. Thieves we know (ourselves, our ``collided``, our ``caught``) are counted first;
the rest is shared among the *suspects*: seats whose change a thief could show (-3.0 for a
blocked theft up to -1.0 for a full one). A change strictly between those two, not a
joint farm's half, is a theft that got part of a store: that seat gets a whole count.

**Estimates** (:class:`SeatStyle`): ``steal_rate()`` (thefts per night seen, with a small
prior), joint-farm offers made to us and whether they were kept (our night showed the
mutual joint farm's half tenth), ``betray_rate()`` (joint farms that left us one-sided and
robbed, with a prior), and the seats that caught us stealing or were caught robbing us.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sunbot.engines import harvest_watch as hw

from .harvest_watch_house_watch import after_night, tenths

#: Thefts per night a seat is credited before any evidence (a small prior: most nights of
#: most styles are not thefts) and the nights that prior weighs.
PRIOR_STEALS, PRIOR_NIGHTS = 0.1, 1.0
#: The prior of :meth:`SeatStyle.betray_rate`: one betrayal in six joint farms before any
#: evidence (a stranger's offer is worth taking, one robbery on it is not).
PRIOR_BETRAY, PRIOR_JOINT = 1.0, 6.0
#: A night change at or below this (tenths) is a robbed seat's or a blocked thief's:
#: either way it paid for it, and a seat that was robbed tends to guard next.
HURT = -25
#: A mutual joint farm nets -0.5 (§7); the tolerance is zero: foods are exact tenths.
COOP_NET = hw.COOP - hw.COST_BASE


@dataclass
class SeatStyle:
    """What the public record says about one other seat (counts; ``steals`` may be
    fractional: a theft shared among several suspects)."""

    nights: int = 0
    steals: float = 0.0
    coops: int = 0  # nights that showed a mutual joint farm's -0.5
    offered: int = 0  # days it offered us a joint farm
    kept: int = 0  # our joint farms with it that came out mutual
    broke: int = 0  # our joint farms with it that came out one-sided
    betrayed: int = 0  # of those, the nights we were robbed too (it may be the thief)
    robbed_us: int = 0  # times it was in our ``caught``
    last_broke: int = -99  # the day of its latest broken joint farm with us
    hurt: int = -99  # the latest night it lost more than any act of its own nets (-2.0)
    rich_votes: int = 0  # its latest ballots that named the richest other seat, in a row

    def steal_rate(self) -> float:
        """Estimated thefts per night, in [0, 1]."""
        return min(1.0, (self.steals + PRIOR_STEALS) / (self.nights + PRIOR_NIGHTS))

    def betray_rate(self) -> float:
        """Estimated chance, in (0, 1), that a joint farm with this seat leaves us robbed:
        ``(betrayed + PRIOR_BETRAY) / (kept + betrayed + PRIOR_JOINT)``."""
        return (self.betrayed + PRIOR_BETRAY) / (self.kept + self.betrayed + PRIOR_JOINT)


@dataclass
class PendingNight:
    """An action beat we acted on, judged once its night shows: the day, the opening
    stores (tenths), the living seats and our act."""

    day: int
    food: list[int]
    living: list[int]
    act: dict[str, Any]


@dataclass
class StyleBook:
    """Per-seat :class:`SeatStyle` for seat ``me``: feed it every summary (:meth:`observe`)
    and every act we send (:meth:`acted`). ``offers[day]`` maps a speaker to the seat it
    offered a joint farm to that day; ``thefts`` counts the thefts seen at the table."""

    me: int = -1
    seats: dict[int, SeatStyle] = field(default_factory=dict)
    offers: dict[int, dict[int, int]] = field(default_factory=dict)
    thefts: float = 0.0
    seat_nights: int = 0
    pending: PendingNight | None = None
    caught: list[int] = field(default_factory=list)
    collided: list[int] = field(default_factory=list)
    vote_foods: tuple[int, list[int]] | None = None  # (day, stores at that day's vote)
    voted: int = 0  # the latest day whose ballots were read

    def seat(self, s: int) -> SeatStyle:
        """The estimate for seat ``s`` (made on first use)."""
        return self.seats.setdefault(s, SeatStyle())

    def offer(self, day: int, speaker: int, to: int) -> None:
        """Record that ``speaker`` offered ``to`` a joint farm on ``day``."""
        if to == self.me and self.offers.get(day, {}).get(speaker) != to:
            self.seat(speaker).offered += 1
        self.offers.setdefault(day, {})[speaker] = to

    def offered_to_me(self, day: int) -> list[int]:
        """Seats that offered us a joint farm on ``day``, ascending."""
        return sorted(s for s, to in self.offers.get(day, {}).items() if to == self.me)

    def table_rate(self) -> float:
        """Thefts per seat-night at the whole table (a small prior first)."""
        return (self.thefts + PRIOR_STEALS) / (self.seat_nights + PRIOR_NIGHTS)

    def acted(self, summary: dict[str, Any], act: dict[str, Any]) -> None:
        """Remember the action beat we just acted on; judged once its night shows."""
        foods = [tenths(f) for f in summary["foods"]]
        self.pending = PendingNight(summary["day"], foods, list(summary["aliveSeats"]), dict(act))

    def observe(self, summary: dict[str, Any]) -> None:
        """Learn from one summary (any beat): our ``caught``/``collided`` on the diary, and
        the night we acted on once this summary shows its outcome."""
        self.me = summary["you"]
        if summary["phase"] == "vote":
            self.vote_foods = (summary["day"], [tenths(f) for f in summary["foods"]])
        if summary["phase"] == "action" and isinstance(summary.get("votes"), dict):
            self._ballots(summary["day"], summary["votes"], list(summary["aliveSeats"]))
        if summary["phase"] in ("diary", "done"):
            self.caught = [x for x in summary.get("caught") or [] if isinstance(x, int)]
            self.collided = [x for x in summary.get("collided") or [] if isinstance(x, int)]
        if self.pending is None:
            return
        seen = after_night(summary, self.pending.day)
        if seen is not None and summary["phase"] in ("diary", "done"):
            self._night(self.pending, seen, list(summary["aliveSeats"]))
            self.pending = None
        elif summary["day"] > self.pending.day:
            self.pending = None  # the diary went by unseen: caught/collided are gone

    def _ballots(self, day: int, votes: dict[str, Any], living: list[int]) -> None:
        """Each voter's ballot against the stores at the vote (shown on its beat)."""
        if self.vote_foods is None or self.vote_foods[0] != day or self.voted == day:
            return
        self.voted = day
        food = self.vote_foods[1]
        for key, ballot in votes.items():
            if not key.isdigit() or not isinstance(ballot, dict):
                continue
            voter, target = int(key), ballot.get("punish")
            rest = [x for x in living if x != voter]
            if not rest or not isinstance(target, int):
                self.seat(voter).rich_votes = 0
                continue
            top = max(food[x] for x in rest)
            st = self.seat(voter)
            st.rich_votes = st.rich_votes + 1 if food[target] == top else 0

    def _night(self, n: PendingNight, seen: list[int], living: list[int]) -> None:
        me = self.me
        d = {s: seen[s] - n.food[s] for s in n.living}
        act = n.act.get("act")
        if act == "farm_coop":
            q = n.act.get("with")
            if isinstance(q, int):
                st = self.seat(q)
                if d[me] >= COOP_NET or d[me] % 10 == COOP_NET % 10:
                    st.kept += 1  # mutual (a joint farm's half tenth), robbed or not
                else:
                    st.broke, st.last_broke = st.broke + 1, n.day
                    if d[me] <= HURT:
                        st.betrayed += 1
        for s in self.caught:
            self.seat(s).robbed_us += 1
        known = {s for s in self.caught + self.collided if s != me}
        for s in known:
            self.seat(s).steals += 1
        others = [s for s in n.living if s != me]
        for s in others:
            self.seat(s).nights += 1
            if d[s] == COOP_NET:
                self.seat(s).coops += 1
            if d[s] <= HURT:
                self.seat(s).hurt = n.day
        self.seat_nights += len(others)
        ours = 1 if act in ("steal", "donate") else 0
        if len(living) != len(n.living):
            self.thefts += len(known)
            return  # a seat went out: its change is not its true one
        mutual = sum(1 for s in n.living if d[s] % 10 == 5)
        total = sum(d.values())
        t = max(0, round((-hw.COST_GUARD * len(n.living) + 5 * mutual - total) / 20))
        partial = [
            s
            for s in others
            if s not in known and -hw.COST_BASE < d[s] < -hw.COST_GUARD and d[s] % 10 != 5
        ]
        for s in partial:
            self.seat(s).steals += 1
        rest = t - ours - len(known) - len(partial)
        suspects = [
            s
            for s in others
            if s not in known and s not in partial and d[s] in (-hw.COST_GUARD, -hw.COST_BASE)
        ]
        if rest > 0 and suspects:
            for s in suspects:
                self.seat(s).steals += rest / len(suspects)
        self.thefts += len(known) + len(partial) + max(0, rest)


__all__ = [
    "HURT",
    "PRIOR_BETRAY",
    "PRIOR_JOINT",
    "PRIOR_NIGHTS",
    "PRIOR_STEALS",
    "PendingNight",
    "SeatStyle",
    "StyleBook",
]
