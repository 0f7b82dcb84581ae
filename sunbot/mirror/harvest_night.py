"""Harvest Watch nights seen by one seat: is there a legal joint action of all living seats
that explains every seat's food? (issue 11, point 4).

A seat never sees the other seats' acts (the rule text's Secrets section), only every
seat's food before and after the night, its own act, and its own ``caught`` (the thieves
stopped by its guard) and ``collided`` (the other thieves on its target). The rules of the
night (Design section: production, donations, steals worked out from the stores after
donations, split in tenths with spare tenths to the lower seat numbers, the night cost, 1.0
after a guard and 3.0 otherwise, out at 0) are deterministic, so a food change is legal
exactly when *some* assignment of legal acts to the living seats yields it.

:func:`explain_night` searches those assignments exactly, in two levels, and stops at the
first that fits:

1. *kinds*: every seat gets one of farm (a farm, or a coop the partner did not return: the
   same +2.0), mutual coop (+2.5), guard, steal or donate, kept only if its own food can
   follow from that kind with the numbers of donors and thieves the other seats' kinds
   allow, and only if the night's total fits (transfers move food, production and the
   night cost change it);
2. *targets*: the thieves' targets, then the donors' recipients, then the coop pairs, each
   level pruned by every seat's food again; at the leaf the engine itself
   (:func:`sunbot.engines.harvest_watch.resolve_acts`) plays the joint action and every food
   plus our seat's ``caught``/``collided`` must match.

The search is bounded (``budget`` nodes); a night it cannot settle in budget counts as
undecided, never as a divergence, since a false divergence is as bad as a missed one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sunbot.engines import harvest_watch as hw

Command = dict[str, Any]

#: Kinds of act: (produced, moved out as a donation, night cost) in tenths.
KINDS: dict[str, tuple[int, int, int]] = {
    "farm": (hw.FARM, 0, hw.COST_BASE),
    "coop": (hw.COOP, 0, hw.COST_BASE),
    "guard": (0, 0, hw.COST_GUARD),
    "steal": (0, 0, hw.COST_BASE),
    "donate": (0, hw.DONATION, hw.COST_BASE),
}

#: Default node budget of one night's search (kinds and targets together).
BUDGET = 60_000


@dataclass(frozen=True)
class Night:
    """What one seat knows of a night, all food in tenths.

    ``opening``: every seat's store as the action beat opened (after the fine);
    ``final``: every seat's store after the night (``None`` = not constrained);
    ``living``: the seats living at the action beat; ``me``: our seat if it was living,
    else ``None``; ``act``: the act our seat applied; ``caught``/``collided``: our lists
    after the night (``None`` = not checked).
    """

    opening: tuple[int, ...]
    final: tuple[int | None, ...]
    living: tuple[int, ...]
    me: int | None = None
    act: Command | None = None
    caught: tuple[int, ...] | None = None
    collided: tuple[int, ...] | None = None


@dataclass
class Verdict:
    """The search's answer: ``acts`` (seat -> applied act) of one joint action that explains
    the night, or ``None``; ``exhausted`` when the budget ran out first (undecided)."""

    acts: dict[int, Command] | None
    exhausted: bool = False
    nodes: int = 0

    @property
    def unexplained(self) -> bool:
        """True only when the whole search ran and nothing explains the night."""
        return self.acts is None and not self.exhausted


class _OutOfBudget(Exception):
    pass


@lru_cache(maxsize=1 << 16)
def fits(
    opening: int, final: int | None, kind: str, d: tuple[int, int], k: tuple[int, int]
) -> bool:
    """Whether a seat opening at ``opening`` tenths can end at ``final`` playing ``kind``
    with ``d[0]..d[1]`` donations in and ``k[0]..k[1]`` thieves on it (its loot, when it
    steals, anything from 0 to 2.0: a target's store may be split)."""
    if final is None:
        return True
    if kind == "donate" and opening < hw.DONATION:
        return False
    prod, out, cost = KINDS[kind]
    top_loot = hw.STEAL if kind == "steal" else 0
    for dn in range(d[0], d[1] + 1):
        store = opening + prod - out + hw.DONATION * dn
        for kn in (0,) if kind == "guard" else range(k[0], k[1] + 1):
            stolen = 0 if kn == 0 or store <= 0 else min(store, hw.STEAL * kn)
            base = store - stolen - cost
            if final > 0 and 0 <= final - base <= top_loot:
                return True
            if final == 0 and base <= 0:
                return True
    return False


def _pinned_kinds(act: Command) -> tuple[str, ...]:
    """The kinds our own act may turn out to be (a coop is mutual only if returned)."""
    name = act.get("act")
    if name == "farm_coop":
        return ("farm", "coop")
    return {"farm": ("farm",), "guard": ("guard",), "steal": ("steal",)}.get(str(name), ("donate",))


class _Search:
    def __init__(self, night: Night, budget: int) -> None:
        self.n = night
        self.budget = budget
        self.nodes = 0
        self.living = list(night.living)
        act = night.act or {}
        self.my_target = act.get("target") if act.get("act") == "steal" else None
        self.my_to = act.get("to") if act.get("act") == "donate" else None
        self.my_partner = act.get("with") if act.get("act") == "farm_coop" else None
        self.caught = set(night.caught or ())
        self.collided = set(night.collided or ())

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget

    # -- level 1: kinds -----------------------------------------------------------------

    def kind_options(self, s: int) -> list[str]:
        n = self.n
        if s == n.me and n.act is not None:
            kinds: tuple[str, ...] = _pinned_kinds(n.act)
        elif s in self.caught or s in self.collided:
            kinds = ("steal",)
        else:
            kinds = tuple(KINDS)
        donors = sum(1 for o in self.living if o != s and n.opening[o] >= hw.DONATION)
        others = len(self.living) - 1
        return [
            kind for kind in kinds if fits(n.opening[s], n.final[s], kind, (0, donors), (0, others))
        ]

    def kinds(self) -> Iterator[dict[int, str]]:
        options = {s: self.kind_options(s) for s in self.living}
        order = sorted(self.living, key=lambda s: len(options[s]))
        chosen: dict[int, str] = {}

        def go(i: int) -> Iterator[dict[int, str]]:
            self.tick()
            if i == len(order):
                if self.kinds_fit(chosen):
                    yield dict(chosen)
                return
            s = order[i]
            for kind in options[s]:
                chosen[s] = kind
                yield from go(i + 1)
            chosen.pop(s, None)

        yield from go(0)

    def kinds_fit(self, kinds: dict[int, str]) -> bool:
        n = self.n
        coops = [s for s, k in kinds.items() if k == "coop"]
        if len(coops) % 2:
            return False
        partner = kinds.get(self.my_partner) if isinstance(self.my_partner, int) else None
        if n.me is not None and kinds.get(n.me) == "coop" and partner != "coop":
            return False
        donors = sum(k == "donate" for k in kinds.values())
        thieves = sum(k == "steal" for k in kinds.values())
        low = high = 0
        total = 0
        for s, kind in kinds.items():
            prod, _, cost = KINDS[kind]
            total += n.opening[s] + prod
            f = n.final[s]
            if f is None:
                low, high = low, high + 10**9
            elif f > 0:
                low, high = low + f + cost, high + f + cost
            else:
                high += cost
            d = (0, donors - (kind == "donate"))
            k = (0, thieves - (kind == "steal"))
            if not fits(n.opening[s], f, kind, d, k):
                return False
        return low <= total <= high

    # -- level 2: targets -----------------------------------------------------------------

    def targets_for_thief(self, s: int) -> list[int]:
        if s == self.n.me:
            return [self.my_target] if self.my_target in self.living else []
        me = self.n.me
        if s in self.caught:
            return [me] if me is not None else []
        if s in self.collided:
            return [self.my_target] if self.my_target is not None else []
        out = [t for t in self.living if t != s]
        guarded = (self.n.act or {}).get("act") == "guard"
        if guarded and self.n.caught is not None and me in out:
            out.remove(me)  # a thief on a guard shows in its caught list
        if self.n.collided is not None and self.my_target in out:
            out.remove(self.my_target)  # and one on our target in our collided list
        return out

    def targets_for_donor(self, s: int) -> list[int]:
        if s == self.n.me:
            return [self.my_to] if self.my_to in self.living else []
        return [t for t in self.living if t != s]

    def counts_fit(
        self, kinds: dict[int, str], incoming: dict[int, int], key: str, other: tuple[int, int]
    ) -> bool:
        """Every seat's food still fits with its exact count ``incoming`` of ``key``
        (thieves or donors) and the range ``other`` of the other count."""
        for s, kind in kinds.items():
            exact = incoming.get(s, 0)
            if key == "k":
                d = (0, other[1] - (kind == "donate"))
                ok = fits(self.n.opening[s], self.n.final[s], kind, d, (exact, exact))
            else:
                ok = fits(self.n.opening[s], self.n.final[s], kind, (exact, exact), other)
            if not ok:
                return False
        return True

    def joint(self, kinds: dict[int, str]) -> dict[int, Command] | None:
        thieves = [s for s, k in kinds.items() if k == "steal"]
        donors = [s for s, k in kinds.items() if k == "donate"]
        coops = sorted(s for s, k in kinds.items() if k == "coop")
        aim: dict[int, int] = {}

        def steals(i: int) -> dict[int, Command] | None:
            self.tick()
            if i == len(thieves):
                hits = _count(aim)
                if not self.counts_fit(kinds, hits, "k", (0, len(donors))):
                    return None
                return gifts(0, {}, hits)
            s = thieves[i]
            for t in self.targets_for_thief(s):
                aim[s] = t
                found = steals(i + 1)
                if found is not None:
                    return found
            aim.pop(s, None)
            return None

        def gifts(i: int, to: dict[int, int], hits: dict[int, int]) -> dict[int, Command] | None:
            self.tick()
            if i == len(donors):
                for s, kind in kinds.items():
                    d = sum(1 for r in to.values() if r == s)
                    h = hits.get(s, 0)
                    if not fits(self.n.opening[s], self.n.final[s], kind, (d, d), (h, h)):
                        return None
                for pairs in _matchings(coops, self.n.me, self.my_partner):
                    self.tick()
                    acts = self.acts_of(kinds, aim, to, pairs)
                    if self.explains(acts):
                        return acts
                return None
            s = donors[i]
            for r in self.targets_for_donor(s):
                found = gifts(i + 1, {**to, s: r}, hits)
                if found is not None:
                    return found
            return None

        return steals(0)

    def acts_of(
        self,
        kinds: dict[int, str],
        aim: dict[int, int],
        to: dict[int, int],
        pairs: dict[int, int],
    ) -> dict[int, Command]:
        acts: dict[int, Command] = {}
        for s, kind in kinds.items():
            if s == self.n.me and self.n.act is not None:
                acts[s] = dict(self.n.act)
            elif kind == "coop":
                acts[s] = {"act": "farm_coop", "with": pairs[s]}
            elif kind == "steal":
                acts[s] = {"act": "steal", "target": aim[s]}
            elif kind == "donate":
                acts[s] = {"act": "donate", "to": to[s]}
            else:
                acts[s] = {"act": kind}
        return acts

    def explains(self, acts: dict[int, Command]) -> bool:
        """Play ``acts`` with the engine; every constrained food and our lists must match."""
        n = self.n
        seats = len(n.opening)
        state: dict[str, Any] = {
            "food": list(n.opening),
            "alive": [s in acts for s in range(seats)],
            "seats": seats,
            "preCost": [None] * seats,
            "outNight": [None] * seats,
            "day": 0,
        }
        hw.resolve_acts(state, acts)
        for s in self.living:
            if n.final[s] is not None and state["food"][s] != n.final[s]:
                return False
        if n.me is None:
            return True
        for key, got in (("caught", n.caught), ("collided", n.collided)):
            if got is not None and set(state[key][n.me]) != set(got):
                return False  # a set: the rule text states no order
        return True

    def run(self) -> dict[int, Command] | None:
        for kinds in self.kinds():
            found = self.joint(kinds)
            if found is not None:
                return found
        return None


def _count(aim: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for t in aim.values():
        out[t] = out.get(t, 0) + 1
    return out


def _matchings(seats: list[int], me: int | None, partner: Any) -> Iterator[dict[int, int]]:
    """Every pairing of ``seats`` into mutual coops (our seat, if among them, with the
    partner it named)."""
    if not seats:
        yield {}
        return
    first = me if me in seats else seats[0]
    rest = [s for s in seats if s != first]
    choices = [partner] if first == me and partner in rest else rest
    if first == me and partner not in rest:
        return
    for p in choices:
        for more in _matchings([s for s in rest if s != p], None, None):
            yield {first: p, p: first, **more}


def explain_night(night: Night, budget: int = BUDGET) -> Verdict:
    """Search a legal joint action of the living seats that turns ``night.opening`` into
    ``night.final`` (see the module text). Never raises for a well-formed ``Night``;
    ``Verdict.exhausted`` when ``budget`` nodes did not settle it."""
    search = _Search(night, budget)
    try:
        acts = search.run()
    except _OutOfBudget:
        return Verdict(None, exhausted=True, nodes=search.nodes)
    return Verdict(acts, nodes=search.nodes)


def suspects(night: Night, budget: int = BUDGET) -> list[int]:
    """The other living seats whose food alone, left free, lets a joint action explain an
    unexplained ``night`` (the seats to name in the divergence); ``[]`` when no single
    seat does or a search runs out of budget."""
    out = []
    for s in night.living:
        if s == night.me:
            continue
        free = tuple(None if i == s else f for i, f in enumerate(night.final))
        verdict = explain_night(Night(**{**night.__dict__, "final": free}), budget)
        if verdict.acts is not None:
            out.append(s)
    return out
