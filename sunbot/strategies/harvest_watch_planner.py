"""Rollout planner for a Harvest Watch seat that is alone among house bots.

The house-bot policy is public (Harvest Watch §2.7 "House bots") and house bots say
so in their speeches, so a seat that sees only house bots around it can model the rest of
the match exactly except for the bots' 0.1 steal draws. This module holds that model and a
planner on top of it; :class:`sunbot.strategies.harvest_watch_coalition.Coalition` calls it.

**Model** (:class:`Table`, food in integer tenths as in the engine, §3): living seats and
their stores, the living house seats (their pairs follow from them: ascending, (a0, a1),
(a2, a3)..., the odd one guards), and each house bot's memory of the seats it caught (it
fines the lowest living one; §2.7). Everything comes from the seat's own view: public
foods, speeches and votes, and the nights it reconstructs
(:mod:`sunbot.strategies.harvest_watch_house_watch`).

**Rollouts.** :func:`rollout` plays the match forward from an action beat with one act of
ours for tonight and :func:`base_act` / :func:`base_vote` after that, house bots by their
policy with sampled steal draws, until the match ends or we are out. Its value is our
win share: 1 for a sole win, 1/k for a k-way draw on rank 1 (§3.9), 0 otherwise. All
candidates share the same draws (common random numbers), so their differences are not
noise from different luck.

**Planner** (:class:`Planner`): every candidate act (farm, guard, steal from each other
living seat; a coop with a house bot is one-sided, i.e. a farm, and a donation costs us
4.0, so neither is tried) gets ``first`` rollouts; the best ``keep`` get ``more`` on top;
the highest mean wins (ties: the earlier candidate). On a vote beat, when the predicted
house ballots plus ours can fine a seat, every such ballot and abstaining are compared
by rollouts from the vote's outcome.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_house import STEAL_CHANCE

#: Act kinds in the model (the engine's ``act`` names, as small ints for speed).
FARM, COOP, GUARD, STEAL = 0, 1, 2, 3
#: A seat that only ever showed plain -1.0 nights (a guard or a farmer, §7): the model
#: gives it a farm's +2.0 and cost 3.0 (its pre-cost store as large as a farmer's) and a
#: guard's block (a theft on it as fruitless as on a guard); the worst of both for us.
QUIET = 4
Act = tuple[int, int]  # (kind, seat it names, or -1)
Ballot = tuple[int, int] | None  # (punish, giveTo) or abstain
NAMES = {FARM: "farm", COOP: "farm_coop", GUARD: "guard", STEAL: "steal"}
#: Nights of pre-drawn house steal draws per rollout; later nights draw no steals.
HORIZON = 16


@dataclass
class Table:
    """The match as seat ``me`` sees it as a vote or action beat opens, in tenths.

    ``house`` lists the living house seats (ascending); ``mem[s]`` is house seat ``s``'s
    memory of the seats it caught (empty for other seats); ``quiet`` the other seats, each
    played as :data:`QUIET`.
    """

    me: int
    food: list[int]
    alive: list[bool]
    house: list[int]
    mem: list[frozenset[int]] = field(default_factory=lambda: [frozenset()] * 6)
    quiet: tuple[int, ...] = ()

    def living(self) -> list[int]:
        """Living seats, ascending."""
        return [s for s, on in enumerate(self.alive) if on]


def command(act: Act) -> dict[str, object]:
    """The engine command for a model act."""
    kind, seat = act
    if kind == COOP:
        return {"act": "farm_coop", "with": seat}
    if kind == STEAL:
        return {"act": "steal", "target": seat}
    return {"act": NAMES[kind]}


def richest_other(food: list[int], living: list[int], seat: int) -> int:
    """The seat a house thief at ``seat`` robs: most food, ties to the lowest (§2.7)."""
    best, pick = -1, -1
    for s in living:
        if s != seat and food[s] > best:
            best, pick = food[s], s
    return pick


def house_ballot(mem: frozenset[int], seat: int, living: list[int]) -> Ballot:
    """A house bot's ballot: the lowest living seat it caught, giveTo the lowest living
    seat that is neither that one nor itself; else abstain (§2.7)."""
    if not mem:
        return None
    for target in living:
        if target in mem:
            for to in living:
                if to != target and to != seat:
                    return (target, to)
            return None
    return None


def house_acts(food: list[int], living: list[int], house: list[int], steals: int) -> dict[int, Act]:
    """The acts of the living house seats ``house`` (ascending): pairs (a0, a1), (a2, a3)...
    coop, the odd one guards, and a seat whose bit is set in ``steals`` (it drew below 0.1)
    robs the richest other living seat instead (§2.7)."""
    out: dict[int, Act] = {}
    n = len(house)
    for i, h in enumerate(house):
        if steals >> h & 1:
            out[h] = (STEAL, richest_other(food, living, h))
        elif (i ^ 1) < n:
            out[h] = (COOP, house[i ^ 1])
        else:
            out[h] = (GUARD, -1)
    return out


def fine(food: list[int], living: list[int], ballots: dict[int, Ballot]) -> None:
    """The vote of §3.3 in place: a strict majority fines min(2.0, store), split in tenths
    by the giveTo counts, spare tenths to the lowest recipients."""
    tally: dict[int, int] = {}
    for b in ballots.values():
        if b is not None:
            tally[b[0]] = tally.get(b[0], 0) + 1
    n = len(living)
    target = next((t for t, c in tally.items() if 2 * c > n), None)
    if target is None:
        return
    amount = min(hw.FINE_MAX, food[target])
    counts: dict[int, int] = {}
    for b in ballots.values():
        if b is not None and b[0] == target:
            counts[b[1]] = counts.get(b[1], 0) + 1
    total = sum(counts.values())
    shares = {m: amount * c // total for m, c in counts.items()}
    for m in sorted(counts)[: amount - sum(shares.values())]:
        shares[m] += 1
    food[target] -= amount
    for m, got in shares.items():
        food[m] += got


def night(
    food: list[int], alive: list[bool], acts: dict[int, Act]
) -> tuple[dict[int, list[int]], dict[int, int]]:
    """§3.5 in place for ``acts`` (one per living seat; no donations): production,
    steals from the stores after production, night cost, outs. Returns ``caught`` per
    guarding target and the pre-cost store P of every seat that acted."""
    for s, (kind, p) in acts.items():
        if kind in (FARM, QUIET):
            food[s] += hw.FARM
        elif kind == COOP:
            other = acts.get(p)
            food[s] += hw.COOP if other == (COOP, s) else hw.FARM
    start = food[:]
    groups: dict[int, list[int]] = {}
    for s in sorted(acts):
        kind, t = acts[s]
        if kind == STEAL and t != s and t in acts:
            groups.setdefault(t, []).append(s)
    caught: dict[int, list[int]] = {}
    for t, thieves in groups.items():
        k = len(thieves)
        if acts[t][0] == GUARD or acts[t][0] == QUIET:
            caught[t] = thieves
        elif start[t] >= hw.STEAL * k:
            food[t] -= hw.STEAL * k
            for x in thieves:
                food[x] += hw.STEAL
        elif start[t] > 0:
            each, spare = divmod(start[t], k)
            food[t] -= start[t]
            for i, x in enumerate(thieves):
                food[x] += each + (1 if i < spare else 0)
    pre: dict[int, int] = {}
    for s, (kind, _) in acts.items():
        pre[s] = food[s]
        food[s] -= hw.COST_GUARD if kind == GUARD else hw.COST_BASE
        if food[s] <= 0:
            food[s], alive[s] = 0, False
    return caught, pre


# -- our own play inside rollouts ----------------------------------------------------------


def base_act(
    food: list[int], living: list[int], house: list[int], me: int, quiet: tuple[int, ...] = ()
) -> Act:
    """Our act in rollouts: steal from the richest seat that is not the house guard nor
    ``quiet``;
    guard instead when we are the richest (the house thieves' pick) and can live through
    the night; on a night we cannot survive (store at most 1.0), never guard."""
    guard = house[-1] if len(house) % 2 else -1
    best, prey = -1, -1
    top, top_seat = -1, -1
    for s in living:
        if food[s] > top:
            top, top_seat = food[s], s
        if s != me and s != guard and s not in quiet and food[s] > best:
            best, prey = food[s], s
    final = food[me] <= hw.COST_GUARD
    if prey < 0:
        return (FARM, -1) if final else (GUARD, -1)
    if not final and top_seat == me:
        return (GUARD, -1)
    return (STEAL, prey)


def fine_options(t: Table) -> tuple[dict[int, Ballot], list[Ballot]]:
    """The predicted house ballots, and our ballots that make a fine pass that would not
    pass without us (never against ourselves)."""
    living = t.living()
    house = {h: house_ballot(t.mem[h], h, living) for h in t.house}
    count: dict[int, int] = {}
    for b in house.values():
        if b is not None:
            count[b[0]] = count.get(b[0], 0) + 1
    n = len(living)
    options: list[Ballot] = []
    for target, c in sorted(count.items()):
        if target != t.me and 2 * (c + 1) > n >= 2 * c:
            options += [(target, m) for m in living if m not in (t.me, target)]
    return house, options


def base_vote(t: Table) -> Ballot:
    """Our ballot in rollouts: join a fine our ballot completes, giving our share to the
    poorest seat; else abstain."""
    _, options = fine_options(t)
    if not options:
        return None
    return min(options, key=lambda b: (t.food[b[1]], b[1]) if b else (0, 0))


def rollout(t: Table, first: Act, draws: list[int]) -> float:
    """Our win share when we play ``first`` tonight and :func:`base_act` afterwards.

    ``t`` is the table as the action beat opens (any fine already applied); ``draws[n]``
    is the steal mask of night ``n`` (bit per seat). ``t`` is not changed.
    """
    return rollouts(t, first, [draws])[0]


def rollouts(t: Table, first: Act, rows: list[list[int]]) -> list[float]:
    """:func:`rollout` of every row of ``rows``, each night of rows that share their draws
    so far played once: a night depends on the position and on that night's draw only,
    and most draws are alike (no house seat steals on ~59% of nights), so the rows form a
    tree and its shared nights are not replayed. Same values, same order."""
    out = [0.0] * len(rows)
    _branch(t, t.food, t.alive, list(t.house), list(t.mem), any(t.mem[h] for h in t.house),
            first, 0, list(range(len(rows))), rows, out)  # fmt: skip
    return out


def _branch(
    t: Table,
    food0: list[int],
    alive0: list[bool],
    house: list[int],
    mem0: list[frozenset[int]],
    watch0: bool,
    act: Act,
    n: int,
    idx: list[int],
    rows: list[list[int]],
    out: list[float],
) -> None:
    """Night ``n`` of :func:`rollout` from one position, for the rows ``idx`` that reach it
    (grouped by their draw of that night); each row's value is written to ``out``."""
    me = t.me
    groups: dict[int, list[int]] = {}
    for i in idx:
        groups.setdefault(rows[i][n] if n < HORIZON else 0, []).append(i)
    living = [s for s in range(len(alive0)) if alive0[s]]
    for mask, members in groups.items():
        food, alive, mem, watch = food0[:], alive0[:], list(mem0), watch0
        acts = house_acts(food, living, house, mask)
        for q in t.quiet:
            if alive[q]:
                acts[q] = (QUIET, -1)
        acts[me] = act
        caught, pre = night(food, alive, acts)
        for target, thieves in caught.items():
            if target in house:
                mem[target] = mem[target] | frozenset(thieves)
                watch = True
        left = [s for s in living if alive[s]]
        value: float | None = None
        if len(left) <= 1:
            if left:
                value = 1.0 if left[0] == me else 0.0
            else:
                top = max(pre.values())
                value = 0.0 if pre[me] != top else 1.0 / sum(1 for v in pre.values() if v == top)
        elif not alive[me]:
            value = 0.0
        if value is not None:
            for i in members:
                out[i] = value
            continue
        now_house = [h for h in house if alive[h]]
        if watch:
            now = Table(me, food, alive, now_house, mem, t.quiet)
            ballots, _ = fine_options(now)
            ballots[me] = base_vote(now)
            fine(food, left, ballots)
        nxt = base_act(food, left, now_house, me, t.quiet)
        _branch(t, food, alive, now_house, mem, watch, nxt, n + 1, members, rows, out)


# -- the planner ---------------------------------------------------------------------------


@dataclass
class Planner:
    """Chooses acts and ballots by rollouts (see the module docstring).

    ``first`` rollouts per candidate, then ``more`` for each of the best ``keep``.
    """

    rng: random.Random
    first: int = 48
    keep: int = 3
    more: int = 144
    scores: dict[Act, float] = field(default_factory=dict)

    def _draws(self, n: int) -> list[list[int]]:
        rnd = self.rng.random
        rows = []
        for _ in range(n):
            row = []
            for _ in range(HORIZON):
                mask = 0
                for s in range(6):
                    if rnd() < STEAL_CHANCE:
                        mask |= 1 << s
                row.append(mask)
            rows.append(row)
        return rows

    def candidates(self, t: Table) -> list[Act]:
        """Farm, guard, and a steal from every other living seat but the quiet ones."""
        others = [s for s in t.living() if s != t.me and s not in t.quiet]
        return [(FARM, -1), (GUARD, -1)] + [(STEAL, s) for s in others]

    def act(self, t: Table) -> Act:
        """The candidate act with the best mean rollout value."""
        cands = self.candidates(t)
        rows = self._draws(self.first + self.more)
        head, tail = rows[: self.first], rows[self.first :]
        total = {a: sum(rollouts(t, a, head)) for a in cands}
        count = dict.fromkeys(cands, self.first)
        best = sorted(cands, key=lambda a: -total[a])[: self.keep]
        for a in best:
            total[a] += sum(rollouts(t, a, tail))
            count[a] += self.more
        self.scores = {a: total[a] / count[a] for a in cands}
        return max(best, key=lambda a: (self.scores[a], -cands.index(a)))

    def vote(self, t: Table) -> Ballot:
        """Abstain unless our ballot completes a fine whose rollouts score better."""
        house, options = fine_options(t)
        if not options:
            return None
        rows = self._draws(self.first + self.more)
        best: Ballot = None
        best_value = -1.0
        for option in [None, *options]:
            after = replace(t, food=t.food[:])
            ballots = dict(house)
            ballots[t.me] = option
            fine(after.food, t.living(), ballots)
            living = t.living()
            act = base_act(after.food, living, t.house, t.me, t.quiet)
            value = sum(rollouts(after, act, rows)) / len(rows)
            if value > best_value + 1e-9:
                best, best_value = option, value
        return best
