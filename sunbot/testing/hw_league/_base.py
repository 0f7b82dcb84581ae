"""The base of every league style: the public record a seat keeps, and the beat dispatch.

A style sees only what its seat sees (the view's ``data``): foods, living seats, speeches,
ballots, the fine, and its own ``caught`` / ``collided`` after the night. From those it
keeps a :class:`Record`: the foods at each action beat's opening and after each night, the
act it chose itself, the offers read from the speeches, every seat it caught, and the
nights it was robbed (its own food fell more than its own act explains).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

Command = dict[str, Any]
Data = dict[str, Any]

#: The house bots' offer (Harvest Watch §2.7, "House bots"); read anywhere in a speech.
OFFER = re.compile(r"cooperate with seat (\d)\b", re.IGNORECASE)
EPS = 0.05  # half a tenth: food is shown with one decimal


def offer_text(seat: int, partner: int) -> str:
    """The house bots' words for an offer: ``"Seat s: I cooperate with seat p."``."""
    return f"Seat {seat}: I cooperate with seat {partner}."


def guard_text(seat: int) -> str:
    """The house bots' words for no partner: ``"Seat s: I guard."``."""
    return f"Seat {seat}: I guard."


def richest(seats: list[int], foods: list[float]) -> int:
    """The seat of ``seats`` with the most food, ties to the lowest seat."""
    return max(seats, key=lambda s: (foods[s], -s))


def poorest(seats: list[int], foods: list[float]) -> int:
    """The seat of ``seats`` with the least food, ties to the lowest seat."""
    return min(seats, key=lambda s: (foods[s], s))


@dataclass
class Record:
    """What one seat knows of the match so far (foods in food units, days from 1).

    ``opening[d]``: the foods when day ``d``'s action beat opened (after the fine);
    ``after[d]``: the foods after night ``d``; ``acts[d]``: our own act on day ``d``;
    ``offers[d]``: ``{speaker: partner}`` read from day ``d``'s speeches; ``speeches[d]``
    and ``speeches2[d]``: day ``d``'s speech1 and speech2 texts by seat; ``caught``: how
    often each seat was caught robbing us; ``robbed``: days our store fell more than our
    act explains; ``blocked[t]``: nights our theft on ``t`` got nothing (``t`` guarded).
    """

    me: int = -1
    day: int = 0
    foods: list[float] = field(default_factory=lambda: [5.0] * 6)
    living: list[int] = field(default_factory=lambda: list(range(6)))
    opening: dict[int, list[float]] = field(default_factory=dict)
    after: dict[int, list[float]] = field(default_factory=dict)
    acts: dict[int, Command] = field(default_factory=dict)
    offers: dict[int, dict[int, int]] = field(default_factory=dict)
    speeches: dict[int, dict[int, str]] = field(default_factory=dict)
    speeches2: dict[int, dict[int, str]] = field(default_factory=dict)
    votes: dict[int, dict[int, Any]] = field(default_factory=dict)
    caught: dict[int, int] = field(default_factory=dict)
    caught_on: dict[int, list[int]] = field(default_factory=dict)
    robbed: list[int] = field(default_factory=list)
    blocked: dict[int, int] = field(default_factory=dict)

    def update(self, summary: dict[str, Any]) -> None:
        """Read one beat's summary (any beat, in any order; repeated beats are harmless)."""
        self.me = int(summary.get("you", self.me))
        self.day = int(summary.get("day", self.day))
        foods = summary.get("foods")
        if isinstance(foods, list) and len(foods) == 6:
            self.foods = [float(x) for x in foods]
        living = summary.get("aliveSeats")
        if isinstance(living, list):
            self.living = [s for s in living if isinstance(s, int)]
        phase, day = summary.get("phase"), self.day
        for key in ("speeches1", "speeches2"):
            for speaker, text in (summary.get(key) or {}).items():
                if not (isinstance(text, str) and speaker.isdigit()):
                    continue
                said = self.speeches if key == "speeches1" else self.speeches2
                said.setdefault(day, {})[int(speaker)] = text
                if m := OFFER.search(text):
                    self.offers.setdefault(day, {})[int(speaker)] = int(m.group(1))
        if isinstance(summary.get("votes"), dict):
            self.votes[day] = {int(k): v for k, v in summary["votes"].items() if k.isdigit()}
        if phase == "action":
            self.opening[day] = list(self.foods)
        if phase in ("diary", "done") and day not in self.after:
            self.after[day] = list(self.foods)
            self._night(day, summary)

    def _night(self, day: int, summary: dict[str, Any]) -> None:
        caught = [s for s in summary.get("caught") or [] if isinstance(s, int)]
        self.caught_on[day] = caught
        for s in caught:
            self.caught[s] = self.caught.get(s, 0) + 1
        act, before = self.acts.get(day), self.opening.get(day)
        if act is None or before is None or self.me < 0:
            return
        mine, now = before[self.me], self.foods[self.me]
        if act.get("act") == "steal" and now < mine - 3 + EPS:
            target = int(act["target"])  # our theft took nothing: the target guarded
            self.blocked[target] = self.blocked.get(target, 0) + 1
        if act.get("act") in ("farm", "farm_coop") and 0 < now < mine - 1 - EPS:
            self.robbed.append(day)

    def delta(self, day: int) -> list[float] | None:
        """Each seat's food change over night ``day`` (after minus opening), or ``None``."""
        a, b = self.opening.get(day), self.after.get(day)
        if a is None or b is None:
            return None
        return [y - x for x, y in zip(a, b, strict=True)]

    def others(self) -> list[int]:
        """The other living seats, ascending."""
        return [s for s in self.living if s != self.me]

    def offered_to_me(self, day: int) -> list[int]:
        """Seats whose speech on ``day`` offered us a joint farm, ascending."""
        return sorted(s for s, p in self.offers.get(day, {}).items() if p == self.me)

    def coop_kept(self, day: int) -> bool | None:
        """Whether our joint farm on ``day`` was mutual (our night was -0.5, not -1.0 or
        worse); ``None`` when we did not offer one or the night is unknown."""
        act, d = self.acts.get(day), self.delta(day)
        if act is None or act.get("act") != "farm_coop" or d is None:
            return None
        return d[self.me] > -0.5 - EPS


@dataclass(eq=False)
class Style:
    """A league opponent: a Harvest Watch strategy (the :class:`sunbot.strategies.Strategy`
    contract) built from ``rng`` and keyword parameters.

    Subclasses override :meth:`act` (an element of the action beat's legal list) and, when
    they talk or vote, :meth:`speech1`, :meth:`speech2` and :meth:`vote`. Every answer is
    checked against the legal list before it leaves: an answer that does not fit is
    replaced by guard (the rules' default), so a style never sends an illegal command.
    """

    rng: random.Random = field(default_factory=random.Random, repr=False, compare=False)
    game: ClassVar[str] = "harvest-watch"
    style: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self.record = Record()

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """Random parameters for one member of a population (the defaults here)."""
        return {}

    @classmethod
    def sample(cls, rng: random.Random) -> Style:
        """A member with random parameters (:meth:`sample_params`), playing with ``rng``."""
        return cls(rng, **cls.sample_params(rng))

    def params(self) -> dict[str, Any]:
        """The constructor parameters of this member (``rng`` aside)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "rng"}

    # -- the contract -------------------------------------------------------------------
    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """One command for this beat: an element of ``legal_actions`` on the action and
        vote beats, a house-style text on the speech and diary beats."""
        summary = data.get("summary") or {}
        self.record.update(summary)
        phase = summary.get("phase", data.get("phase"))
        r = self.record
        if phase == "speech1":
            return {"speech": self.speech1()[:200]}
        if phase == "speech2":
            return {"speech": self.speech2()[:200]}
        if phase == "vote":
            ballot = self.vote()
            return ballot if ballot in legal_actions else {"punish": None}
        if phase == "action":
            act = self.act(legal_actions)
            if act not in legal_actions:
                act = {"act": "guard"} if {"act": "guard"} in legal_actions else legal_actions[0]
            r.acts[r.day] = act
            return dict(act)
        return {"diary": f"Day {r.day} noted."}

    # -- overridden by the styles -------------------------------------------------------
    def speech1(self) -> str:
        """The first speech (default: the house bots' "I guard.")."""
        return guard_text(self.record.me)

    def speech2(self) -> str:
        """The second speech (default: the house bots' "Seat s holds X.X.")."""
        r = self.record
        return f"Seat {r.me} holds {r.foods[r.me]:.1f}."

    def vote(self) -> Command:
        """The ballot (default: abstain)."""
        return {"punish": None}

    def act(self, legal: list[Command]) -> Command:
        """The action (default: guard)."""
        return {"act": "guard"}

    # -- helpers for the styles ---------------------------------------------------------
    def fine(self, target: int, give: str = "poorest") -> Command:
        """A ballot fining ``target``, the share to the poorest (or ``lowest``) living seat
        that is neither the target nor us; abstain when there is none."""
        r = self.record
        rest = [s for s in r.living if s not in (target, r.me)]
        if target not in r.living or not rest:
            return {"punish": None}
        to = poorest(rest, r.foods) if give == "poorest" else rest[0]
        return {"punish": target, "giveTo": to}

    def last_night(self, at: float = 1.0) -> bool:
        """Whether we cannot survive tonight by farming or guarding (store <= ``at``)."""
        r = self.record
        return r.foods[r.me] <= at + EPS


def steal(target: int) -> Command:
    """``{"act": "steal", "target": target}``."""
    return {"act": "steal", "target": target}


def coop(partner: int) -> Command:
    """``{"act": "farm_coop", "with": partner}``."""
    return {"act": "farm_coop", "with": partner}


FARM: Command = {"act": "farm"}
GUARD: Command = {"act": "guard"}
