"""League styles that exploit trust: in words, in a record, in gifts or in a jury.

Written from the rule text as outside players would. Speech is free text and acts are
secret (Harvest Watch §3.6 and the rule text's Secrets), so words cost nothing: a seat may
say it farms and steal, speak another bloc's format and rob its partner, or keep a clean
record for a few nights and then steal. Ballots are public and a fine needs only a strict
majority (§3.3), so a seat may pay for votes with donations, and seats that fine whoever
is accused hand a loud speaker the fine.

- :class:`FalseFarmer` says in plain words that it farms, and steals.
- :class:`Turncoat` speaks the ``coalition`` strategies' public format (the tag, ``coop=``,
  ``target=``, ``ring=``), pairs as they pair, keeps the joint farm for a while, then robs.
- :class:`VoteBuyer` names a seat to fine every day and pays seats that vote with it.
- :class:`Juror` fines the seat most accused in today's speeches, whoever accused it.
- :class:`Cycler` keeps a plain record (a farm, a guard, or a kept joint-farm offer) and
  steals every ``period``-th night.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from ._base import EPS, FARM, GUARD, Command, Style, coop, offer_text, poorest, richest, steal
from .plain_spoken import FARM_WORDS, THREATS

#: Whom a thief robs: a random other seat with food, the richest, or the poorest with food.
AIMS = ("random", "richest", "poorest")
#: The ``coalition`` strategies' tag and fields, as their public speeches show them.
TAG = "coalition."
_FIELD = re.compile(r"\bcoop=(\d)\b")
#: Words that accuse a seat, as a juror reads them (``target=N`` is the coalition format's
#: proposal to fine N).
ACCUSE = re.compile(
    r"(?:fine|punish|accuse)\s+seat\s+(\d)\b|\btarget=(\d)\b"
    r"|\bseat\s+(\d)\s+(?:stole|steals|robbed|robs|is\s+a\s+thief)\b",
    re.IGNORECASE,
)


def _aim(rng: random.Random, seats: list[int], foods: list[float], aim: str) -> int:
    if aim == "richest":
        return richest(seats, foods)
    if aim == "poorest":
        return poorest(seats, foods)
    return rng.choice(seats)


@dataclass(eq=False)
class FalseFarmer(Style):
    """Says in speech1 that it farms (one of the plain-spoken phrasings, by ``phrasing``,
    with a conditional threat when ``threat``) and steals every night with probability
    ``rate`` from a seat with food picked by ``aim`` (:data:`AIMS`); ``base`` (``"farm"``
    or ``"guard"``) otherwise. Defaults: an always-steal seat that claims to farm."""

    style = "false_farmer"
    rate: float = 1.0
    aim: str = "random"
    base: str = "farm"
    phrasing: int = 0
    threat: bool = False

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``rate`` 0.5-1, an aim, ``base`` farm or guard, a phrasing, a threat 1 in 3."""
        return {
            "rate": round(rng.uniform(0.5, 1.0), 2),
            "aim": rng.choice(AIMS),
            "base": rng.choice(["farm", "guard"]),
            "phrasing": rng.randrange(12),
            "threat": rng.random() < 1 / 3,
        }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.aim not in AIMS:
            raise ValueError(f"false_farmer: aim in {AIMS}")

    def speech1(self) -> str:
        k = self.phrasing
        text = FARM_WORDS[k % len(FARM_WORDS)].format(s=self.record.me)
        return f"{text} {THREATS[k % len(THREATS)]}" if self.threat else text

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        prey = [s for s in r.others() if r.foods[s] > 0]
        if prey and self.rng.random() < self.rate:
            return steal(_aim(self.rng, prey, r.foods, self.aim))
        return FARM if self.base == "farm" else GUARD


@dataclass(eq=False)
class Turncoat(Style):
    """Speaks the coalition format in both speeches (``Seat s: coalition. coop=P
    target=T ring=A>B>C``): the bloc is every living seat that ever spoke the tag, itself
    included, ascending, paired off (b0, b1), (b2, b3)...; ``coop`` is its pair, ``target``
    the richest seat outside the bloc, ``ring`` the bloc. It votes with the bloc (the
    target the lowest member proposed that is outside the bloc, the share to the next
    member) when the bloc is a majority. It joint-farms with its pair once the pair
    confirmed ``coop=`` it; after ``loyal_nights`` such nights, each night with
    probability ``betray_rate`` it steals instead, from its pair (``victim="partner"``) or
    the richest other member (``"richest"``). Without a confirmed pair it guards, and farms
    on its last night."""

    style = "turncoat"
    loyal_nights: int = 1
    betray_rate: float = 1.0
    victim: str = "partner"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``loyal_nights`` 0-3, ``betray_rate`` 0.5-1, the victim evenly."""
        return {
            "loyal_nights": rng.randint(0, 3),
            "betray_rate": round(rng.uniform(0.5, 1.0), 2),
            "victim": rng.choice(["partner", "richest"]),
        }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.victim not in ("partner", "richest"):
            raise ValueError("turncoat: victim is 'partner' or 'richest'")
        self.members: set[int] = set()
        self.joint = 0  # nights it farmed jointly with a confirmed pair

    def _bloc(self) -> list[int]:
        r = self.record
        for said in (r.speeches, r.speeches2):
            for day_said in said.values():
                self.members |= {s for s, text in day_said.items() if TAG in text}
        return sorted(({r.me} | self.members) & set(r.living))

    def _pair(self) -> int | None:
        bloc = self._bloc()
        i = bloc.index(self.record.me)
        j = i + 1 if i % 2 == 0 else i - 1
        return bloc[j] if j < len(bloc) else None

    def _target(self) -> int | None:
        r = self.record
        outs = [s for s in r.others() if s not in self._bloc()]
        return richest(outs, r.foods) if outs else None

    def speech1(self) -> str:
        p, t = self._pair(), self._target()
        ring = ">".join(map(str, self._bloc()))
        return (
            f"Seat {self.record.me}: coalition. coop={'-' if p is None else p} "
            f"target={'-' if t is None else t} ring={ring}"
        )

    speech2 = speech1

    def vote(self) -> Command:
        r = self.record
        bloc = self._bloc()
        if 2 * len(bloc) <= len(r.living):
            return {"punish": None}
        target = self._target()
        for m in bloc:  # the lowest member's proposal of an outsider, as the bloc votes
            if m == r.me:
                break
            found = re.search(r"\btarget=(\d)\b", r.speeches.get(r.day, {}).get(m, ""))
            if found and int(found.group(1)) not in bloc:
                target = int(found.group(1))
                break
        ring = [m for m in bloc if m not in (r.me, target)]
        if target is None or target not in r.living or not ring:
            return {"punish": None}
        later = [m for m in ring if m > r.me]
        return {"punish": target, "giveTo": (later or ring)[0]}

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        p = self._pair()
        said = r.speeches2.get(r.day, {}).get(p, "") if p is not None else ""
        m = _FIELD.search(said) if TAG in said else None
        if p is None or m is None or int(m.group(1)) != r.me:
            return FARM if self.last_night() else GUARD
        if self.joint >= self.loyal_nights and self.rng.random() < self.betray_rate:
            members = [s for s in self._bloc() if s != r.me and r.foods[s] > 0]
            if self.victim == "richest" and members:
                return steal(richest(members, r.foods))
            return steal(p)
        self.joint += 1
        return coop(p)


@dataclass(eq=False)
class VoteBuyer(Style):
    """Names a seat to fine every day (the richest other living seat) in speech1 and
    promises food for votes; votes to fine it, the share to a seat that voted with it the
    day before (else the poorest); pays with a donation (1.0) to a seat that voted for
    its target yesterday (``pay="after"``) or, to win a vote, to the poorest seat that did
    not (``"before"``), while its store is above ``keep``; ``base`` otherwise (farms on
    its last night)."""

    style = "vote_buyer"
    pay: str = "after"
    keep: float = 3.0
    base: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``pay`` after or before, ``keep`` 2-4, ``base`` guard or farm."""
        return {
            "pay": rng.choice(["after", "before"]),
            "keep": round(rng.uniform(2.0, 4.0), 1),
            "base": rng.choice(["guard", "farm"]),
        }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.pay not in ("after", "before"):
            raise ValueError("vote_buyer: pay is 'after' or 'before'")
        self.named: dict[int, int] = {}  # day -> the seat it named to fine that day

    def _target(self) -> int | None:
        r = self.record
        return richest(r.others(), r.foods) if r.others() else None

    def _voters(self) -> list[int]:
        """Seats whose ballot yesterday fined the seat we named then, ascending."""
        r = self.record
        named = self.named.get(r.day - 1)
        ballots = r.votes.get(r.day - 1, {})
        return sorted(
            s
            for s, b in ballots.items()
            if s != r.me and s in r.living and isinstance(b, dict) and b.get("punish") == named
        )

    def speech1(self) -> str:
        t = self._target()
        if t is None:
            return super().speech1()
        self.named[self.record.day] = t
        return f"Seat {self.record.me}: fine seat {t}. I give 1 food to each seat that does."

    def vote(self) -> Command:
        r = self.record
        t = self.named.get(r.day, self._target())
        if t is None:
            return {"punish": None}
        paid = [s for s in self._voters() if s != t]
        if paid:
            return {"punish": t, "giveTo": paid[0]}
        return self.fine(t)

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        if self.last_night():
            return FARM
        if r.foods[r.me] > self.keep + EPS:
            voters = self._voters()
            if self.pay == "after":
                to = voters
            else:
                t = self.named.get(r.day)
                to = [s for s in r.others() if s not in voters and s != t]
            if to:
                return {"act": "donate", "to": poorest(to, r.foods)}
        return FARM if self.base == "farm" else GUARD


@dataclass(eq=False)
class Juror(Style):
    """Fines, at every vote, the living seat accused by the most other seats in today's
    speeches (:data:`ACCUSE`: "fine seat N", "seat N stole", the coalition format's
    ``target=N``), when at least ``min_accusers`` accused it; ties to the lowest seat; the
    share to the poorest. It accuses, in speech1, the seats it caught (``accuse_caught``).
    ``base`` (``"guard"`` or ``"farm"``) every night, a farm on its last night."""

    style = "juror"
    min_accusers: int = 1
    accuse_caught: bool = True
    base: str = "guard"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``min_accusers`` 1-2, ``accuse_caught`` 3 in 4, ``base`` guard or farm."""
        return {
            "min_accusers": rng.randint(1, 2),
            "accuse_caught": rng.random() < 0.75,
            "base": rng.choice(["guard", "farm"]),
        }

    def speech1(self) -> str:
        r = self.record
        caught = sorted(s for s in r.caught if s in r.living and s != r.me)
        if self.accuse_caught and caught:
            return f"Seat {r.me}: seat {caught[0]} stole from me. Fine seat {caught[0]}."
        return f"Seat {r.me}: name a thief and I fine it."

    def accused(self) -> dict[int, int]:
        """Living seats accused today, with the number of other seats accusing each."""
        r = self.record
        by: dict[int, set[int]] = {}
        for said in (r.speeches.get(r.day, {}), r.speeches2.get(r.day, {})):
            for speaker, text in said.items():
                for m in ACCUSE.finditer(text):
                    seat = int(next(g for g in m.groups() if g is not None))
                    if seat != speaker and seat in r.living and seat != r.me:
                        by.setdefault(seat, set()).add(speaker)
        return {s: len(v) for s, v in by.items()}

    def vote(self) -> Command:
        counts = {s: n for s, n in self.accused().items() if n >= self.min_accusers}
        if not counts:
            return {"punish": None}
        return self.fine(max(counts, key=lambda s: (counts[s], -s)))

    def act(self, legal: list[Command]) -> Command:
        return FARM if self.last_night() or self.base == "farm" else GUARD


@dataclass(eq=False)
class Cycler(Style):
    """Keeps a plain record and steals on a cycle: on the nights ``day % period ==
    phase % period`` it steals (from the seat it offered to with ``aim="partner"``, else
    by :data:`AIMS`); every other night its ``base``: ``"farm"`` (and says ``I farm.``),
    ``"guard"`` (``I guard.``) or ``"coop"`` (offers the poorest other seat a joint farm in
    the house bots' words every day and keeps it). It says the same every day, the nights
    it steals included."""

    style = "cycler"
    period: int = 3
    phase: int = 0
    base: str = "coop"
    aim: str = "partner"

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """``period`` 2-5, a phase, a base evenly, the partner as aim with a coop base."""
        period = rng.randint(2, 5)
        base = rng.choice(["farm", "guard", "coop"])
        aims = ["partner", "richest"] if base == "coop" else list(AIMS)
        return {
            "period": period,
            "phase": rng.randrange(period),
            "base": base,
            "aim": rng.choice(aims),
        }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.period < 1 or self.base not in ("farm", "guard", "coop"):
            raise ValueError("cycler: period >= 1, base farm, guard or coop")
        if self.aim not in (*AIMS, "partner") or (self.aim == "partner" and self.base != "coop"):
            raise ValueError("cycler: aim one of AIMS, or 'partner' with base 'coop'")

    def _partner(self) -> int | None:
        r = self.record
        others = [s for s in r.others() if r.foods[s] > 0] or r.others()
        return poorest(others, r.foods) if others else None

    def speech1(self) -> str:
        me = self.record.me
        if self.base == "coop":
            p = self._partner()
            return offer_text(me, p) if p is not None else f"Seat {me}: I guard."
        return f"Seat {me}: I farm." if self.base == "farm" else f"Seat {me}: I guard."

    speech2 = speech1

    def act(self, legal: list[Command]) -> Command:
        r = self.record
        prey = [s for s in r.others() if r.foods[s] > 0]
        p = self._partner()
        if prey and r.day % self.period == self.phase % self.period:
            if self.aim == "partner" and p in prey:
                return steal(p)
            aim = "richest" if self.aim == "partner" else self.aim
            return steal(_aim(self.rng, prey, r.foods, aim))
        if self.base == "coop" and p is not None:
            return coop(p)
        return FARM if self.base == "farm" or self.last_night() else GUARD


__all__ = ["ACCUSE", "AIMS", "TAG", "Cycler", "FalseFarmer", "Juror", "Turncoat", "VoteBuyer"]
