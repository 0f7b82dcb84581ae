"""The ``coalition`` strategy for Harvest Watch, and the speech format it reads and writes.

Protocol: the one strategy contract, ``choose(observation, legal_actions) -> command`` per
beat (:class:`sunbot.strategies.Strategy`; Harvest Watch notes in
:mod:`sunbot.strategies.harvest_watch`).

**Speech format.** Both speeches carry ``coalition. coop=P target=T ring=A>B>C`` (``-`` for
none): the tag marks a bloc member, ``coop`` the partner it will farm with, ``target`` the
seat it proposes to fine, ``ring`` the members in giveTo order. :func:`parse_speech` also
reads the §2.7 house templates, so house partners and house guards are known each day.

**Play** (Harvest Watch §3 "Game rules", §7 "Notes for bot designers"):

- *Bloc.* Members are the living seats whose speech carries the tag and who never defected.
  Members sorted ascending pair off (m0, m1), (m2, m3)...; a member farms ``farm_coop`` with
  its partner when the partner confirmed ``coop=me`` in a speech of the day.
- *Votes.* The bloc fines the target proposed by its lowest member (known thieves and
  defectors first, else the richest outsider) whenever its ballots, plus the house ballots
  predicted from yesterday's public votes, are a strict majority; each member sends its share
  to the next member of the ring, so fines stay in the bloc.
- *Defectors* (punished from the next vote on): a member that voted against a member, that
  was in our ``caught``, or whose coop proved one-sided (our food fell by exactly 1.0 after a
  coop with it, the §7 signature of a partner that did not coop back).
- *Alone among house bots* (every other living seat spoke the §2.7 templates today and
  announced exactly the §2.7 pairs): the house policy is public, so
  :mod:`sunbot.strategies.harvest_watch_planner` models the rest of the match exactly but for the
  bots' 0.1 steal draws and picks the act (and, when our ballot would complete a fine, the
  ballot) with the best win share over sampled rollouts. A lone seat loses at least 1.0 a
  day whatever it does while house pairs lose 0.5, so it wins only by draining them (two
  thefts kill a pair bot) and by the wipe-out tiebreak; the rollouts weigh which thefts,
  when, and when to guard. House bots' memories of whom they caught (their votes) are
  tracked by replaying each night against the foods we then see.
- *Alone otherwise* (no confirmed partner, some seat we cannot model): guard when we are
  the seat house thieves pick (richest, ties to the lowest seat); otherwise steal from the
  richest living non-member that did not announce a guard (theft costs a rival 2.0 and us
  no more than farming, §7); farm if none.
- *Endgame.* On a night we cannot survive (opening at most 1.0 alone, at most 0.5 in a
  mutual pair) we never guard: we maximise our pre-cost store for the wipe-out tiebreak
  (coop with a confirmed partner, else steal from the richest rival, else farm; the
  planner reaches the same from its rollouts).
- *Copies of itself.* Six ``coalition`` seats coop in three announced pairs and draw on
  night 10. That draw is where they stay: on the last night coop gives the largest P
  (3.0; a theft gives 2.5), an earlier theft costs the thief its survival or marks it a
  defector the bloc then fines, and one ballot cannot fine. Picking one winner among
  copies would be a lottery by seat (win share 1/6 either way).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from sunbot.engines import harvest_watch as hw

from . import harvest_watch_house_watch as hwatch
from . import harvest_watch_planner as plan
from .harvest_watch_tidy import tidy

Command = dict[str, Any]
Data = dict[str, Any]

#: The tag that marks a coalition speech, and the fields read from it.
TAG = "coalition"
_FIELD = re.compile(r"\b(coop|target|ring)=([0-9>,-]+)")
_HOUSE_COOP = re.compile(r"^Seat (\d+): I cooperate with seat (\d+)\.$")
_HOUSE_GUARD = re.compile(r"^Seat (\d+): I guard\.$")


def non_action(data: Data) -> Command:
    """The pinned example for speech, vote and diary beats (``schema.example``)."""
    example = (data.get("schema") or {}).get("example")
    return dict(example) if isinstance(example, dict) else hw.default_command(data["phase"])


def parse_speech(text: str) -> dict[str, Any]:
    """What a speech announces: ``coalition`` (bool), and when present ``coop``,
    ``target`` (seat or ``None`` for ``-``), ``ring`` (list), ``house`` and ``guard``.

    Reads the coalition format and the §2.7 house templates (``Seat s: I cooperate with
    seat p.``, ``Seat s: I guard.``). Unknown text gives ``{"coalition": False}``.
    """
    out: dict[str, Any] = {"coalition": f"{TAG}." in text}
    if m := _HOUSE_COOP.match(text):
        out.update(house=True, coop=int(m.group(2)))
    elif _HOUSE_GUARD.match(text):
        out.update(house=True, guard=True)
    for key, value in _FIELD.findall(text):
        if key == "ring":
            out["ring"] = [int(x) for x in re.split(r"[>,]", value) if x.isdigit()]
        else:
            out[key] = int(value) if value.isdigit() else None
    return out


def richest(seats: list[int], foods: list[float]) -> int:
    """The seat a house thief robs among ``seats``: most food, ties to the lowest (§2.7)."""
    return max(seats, key=lambda s: (foods[s], -s))


class Coalition:
    """Bloc voting, reciprocal coops, thefts from outsiders, endgame by the wipe-out rule.

    Memory (all from public fields and our own ``caught``/``collided``): ``members`` (seats
    seen with the tag), ``defectors``, ``thieves`` (seats in our ``caught``), today's parsed
    speeches, and our last action with the store it started from.
    """

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.members: set[int] = set()
        self.defectors: set[int] = set()
        self.thieves: Counter[int] = Counter()
        self.said: dict[int, dict[str, Any]] = {}
        self.house_votes: dict[int, int] = {}
        self.last: tuple[int, Command, int] | None = None  # (day, act, opening tenths)
        self.day = 0
        self.watch = hwatch.HouseWatch()
        self.planner = plan.Planner(rng)

    # -- reading the table -------------------------------------------------------------

    def _learn(self, s: dict[str, Any]) -> None:
        me, day = s["you"], s["day"]
        if day != self.day:
            self.day, self.said = day, {}
            self._judge_last_night(s)
        for key in ("speeches1", "speeches2"):
            for seat, text in (s.get(key) or {}).items():
                got = parse_speech(text)
                merged = self.said.setdefault(int(seat), {})
                merged.update({k: v for k, v in got.items() if k != "coalition"})
                merged["coalition"] = merged.get("coalition", False) or got["coalition"]
        for seat, said in self.said.items():
            if said.get("coalition") and seat != me:
                self.members.add(seat)
        for seat, ballot in (s.get("votes") or {}).items():
            voter, target = int(seat), ballot.get("punish")
            if target is None:
                continue
            if self.said.get(voter, {}).get("house"):
                self.house_votes[voter] = target
            if voter in self.members and (target in self.members or target == me):
                self.defectors.add(voter)
        for thief in s.get("caught") or []:
            self.thieves[thief] += 1
            if thief in self.members:
                self.defectors.add(thief)

    def _judge_last_night(self, s: dict[str, Any]) -> None:
        """A coop with a partner that did not coop back shows as exactly -1.0 (§7)."""
        if self.last is None or self.last[0] != s["day"] - 1:
            return
        _, act, opening = self.last
        if act.get("act") == "farm_coop" and opening - round(s["food"] * 10) == 10:
            self.defectors.add(int(act["with"]))

    def _bloc(self, s: dict[str, Any]) -> list[int]:
        """Living trusted members, ourselves included, ascending."""
        living = set(s["aliveSeats"])
        return sorted({s["you"], *(self.members - self.defectors)} & living)

    def _partner(self, s: dict[str, Any]) -> int | None:
        bloc = self._bloc(s)
        i = bloc.index(s["you"])
        j = i + 1 if i % 2 == 0 else i - 1
        return bloc[j] if j < len(bloc) else None

    def _outsiders(self, s: dict[str, Any]) -> list[int]:
        bloc = set(self._bloc(s))
        return [x for x in s["aliveSeats"] if x not in bloc]

    def _target(self, s: dict[str, Any]) -> int | None:
        """Our proposal: a living thief or defector outside the bloc, else the richest
        outsider; ``None`` when everyone living is in the bloc."""
        outs = self._outsiders(s)
        if not outs:
            return None
        bad = [x for x in outs if x in self.defectors or self.thieves[x]]
        return richest(bad or outs, s["foods"])

    def _bloc_target(self, s: dict[str, Any]) -> int | None:
        """The target proposed by the lowest bloc member that proposed one today."""
        for m in self._bloc(s):
            if m == s["you"]:
                return self._target(s)
            t = self.said.get(m, {}).get("target")
            if t is not None and t in self._outsiders(s):
                return int(t)
        return None

    def _house_table(self, s: dict[str, Any]) -> plan.Table | None:
        """The planner's model when every other living seat is a house bot by today's
        speeches and they announced exactly the §2.7 pairs; else ``None``."""
        me, living = s["you"], s["aliveSeats"]
        house = [x for x in living if x != me and self.said.get(x, {}).get("house")]
        if len(house) != len(living) - 1 or not house or not self._announced_pairs(house):
            return None
        return self._table(s, house)

    def _announced_pairs(self, house: list[int]) -> bool:
        """Whether the house seats ``house`` (ascending) announced today exactly the §2.7
        pairs among themselves (the odd one a guard)."""
        for i, h in enumerate(house):
            said = self.said[h]
            partner = house[i ^ 1] if (i ^ 1) < len(house) else None
            if said.get("coop") != partner or (partner is None and not said.get("guard")):
                return False
        return True

    def _table(
        self, s: dict[str, Any], house: list[int], quiet: tuple[int, ...] = ()
    ) -> plan.Table:
        """The planner's :class:`~sunbot.strategies.harvest_watch_planner.Table` of ``s``."""
        foods = [hwatch.tenths(f) for f in s["foods"]]
        alive = [x in s["aliveSeats"] for x in range(len(foods))]
        return plan.Table(s["you"], foods, alive, house, self.watch.frozen(len(foods)), quiet)

    # -- beats -------------------------------------------------------------------------

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """One command for the current beat (see the module docstring); ``legal_actions``
        is the beat's list (:func:`sunbot.observations.harvest_watch.legal_actions`); the
        summary is read :func:`~sunbot.strategies.harvest_watch_tidy.tidy`-ed."""
        data = tidy(data)
        s = data["summary"]
        self._learn(s)
        self.watch.observe(s)
        phase = data["phase"]
        if phase in ("speech1", "speech2"):
            return {"speech": self._speech(s)}
        if phase == "vote":
            return self._vote(s)
        if phase == "action":
            act = self._act(s, legal_actions)
            self.last = (s["day"], act, round(s["food"] * 10))
            return act
        return {"diary": f"Day {s['day']}: {s['food']:.1f} left."}

    def _announced(self, s: dict[str, Any]) -> int | None:
        """The partner our speech names (``coop=``): the bloc partner."""
        return self._partner(s)

    def _speech(self, s: dict[str, Any]) -> str:
        p, t = self._announced(s), self._target(s)
        ring = ">".join(map(str, self._bloc(s)))
        dash = "-"
        return (
            f"Seat {s['you']}: {TAG}. coop={dash if p is None else p} "
            f"target={dash if t is None else t} ring={ring}"
        )

    def _vote(self, s: dict[str, Any]) -> Command:
        me, living = s["you"], s["aliveSeats"]
        table = self._house_table(s)
        if table is not None:
            ballot = self.planner.vote(table)
            return (
                {"punish": None} if ballot is None else {"punish": ballot[0], "giveTo": ballot[1]}
            )
        target = self._bloc_target(s)
        house = Counter(t for v, t in self.house_votes.items() if v in living and t in living)
        if target is None and house:
            target = max(house, key=lambda t: (house[t], -t))
        if target is None or target == me:
            return {"punish": None}
        bloc = self._bloc(s)
        support = len(bloc) + house[target] - (1 if target in bloc else 0)
        if 2 * support <= len(living):
            return {"punish": None}
        ring = [m for m in bloc if m not in (me, target)]
        later = [m for m in ring if m > me]
        to = (later or ring)[0] if ring else None
        if to is None:
            others = [x for x in living if x not in (me, target)]
            if not others:
                return {"punish": None}
            to = min(others, key=lambda x: (s["foods"][x], x))
        return {"punish": target, "giveTo": to}

    def _act(self, s: dict[str, Any], legal: list[Command]) -> Command:
        table = self._house_table(s)
        if table is not None:
            act = self.planner.act(table)
            cmd = plan.command(act)
            if cmd in legal:
                night = hwatch.Night(
                    s["day"], table.food, table.alive, table.house, table.me, act, table.quiet
                )
                self.watch.record(night)
                return cmd
        me, foods = s["you"], s["foods"]
        x = round(s["food"] * 10)
        partner = self._partner(s)
        if partner is not None and self.said.get(partner, {}).get("coop") == me:
            coop = {"act": "farm_coop", "with": partner}
            if coop in legal:
                return coop
        others = [o for o in s["aliveSeats"] if o != me]
        bloc = set(self._bloc(s))
        guards = {o for o in others if self.said.get(o, {}).get("guard")}
        prey = [o for o in others if o not in bloc and o not in guards]
        final = x <= hw.COST_GUARD
        if not final and others and richest(s["aliveSeats"], foods) == me and prey:
            return {"act": "guard"}
        if prey:
            return {"act": "steal", "target": richest(prey, foods)}
        return {"act": "farm"} if final or not others else {"act": "guard"}
