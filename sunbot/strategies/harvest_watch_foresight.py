"""Tonight's likely joint actions, simulated with the rules, for a Harvest Watch seat.

Each other living seat gets a distribution over its acts tonight (:func:`seat_acts`, from
its :class:`~sunbot.strategies.harvest_watch_styles.SeatStyle`, its speeches and its
store); :func:`best_act` draws ``samples`` joint profiles from them (the same draws for
every candidate of ours: common random numbers), resolves each night exactly as §3.5 does
(:func:`sunbot.strategies.harvest_watch_planner.night`) and scores the result for us:

- the match ended: our win share by the rules (sole survivor 1; everyone out: the largest
  pre-cost store wins, a k-way tie 1/k);
- we are out and someone is not: 0;
- otherwise a projection: each living seat lasts ``store / loss`` more nights (loss 0.5 a
  night for a seat in a mutual joint farm tonight, else 1.0); we score 1/k when we are
  among the k seats that last longest (within a tenth of a night), else 0; a tiny
  :data:`TIE_BREAK` per tenth of our store (and one for being alive) breaks ties.

**Opponent acts.** A seat at its last night (store at most 1.0: farm and guard cannot
save it, §7; at most 0.5 with a joint-farm partner today, whose mutual +2.5 saves more)
steals with probability ``max(LAST_STEAL, its steal rate)``: stealing then is
never worse for it than guarding, so a player that thinks does it (``LAST_STEAL_PLAIN``
instead for a seat that says it farms or says nothing at all: a plain policy so far). Any
other night it steals at its estimated rate. A thief picks the richest other seat (the
house bots' rule, §2.7; evenly among equal stores) half the time, else any other seat with
food. A seat that does not steal joint-farms with a seat it offered to and that offered back today;
otherwise it farms or guards, half and half (the two look the same in the foods; a
seat that says it farms farms :data:`FARMER_FARMS` of the time).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sunbot.engines import harvest_watch as hw

from . import harvest_watch_planner as plan
from .harvest_watch_styles import StyleBook

#: Joint profiles drawn per decision (shared by every candidate).
SAMPLES = 64
#: Chance that a seat on its last night steals (at least; its own rate if higher).
LAST_STEAL = 0.5
#: The same for a seat that says it farms (and not that it guards), or says nothing
#: (only the pinned "…"): a plain policy so far, farming or guarding in the open.
LAST_STEAL_PLAIN = 0.2
#: How often a seat that says it farms farms when it does not steal (else it guards).
FARMER_FARMS = 0.9
#: Share of thefts aimed at the richest other seat; the rest spread evenly.
RICHEST_AIM = 0.5
#: Value per tenth of our store (and for being alive) after the night: breaks ties only.
TIE_BREAK = 1e-4
Choice = list[tuple[float, plan.Act]]


def seat_acts(
    book: StyleBook,
    seat: int,
    food: list[int],
    living: list[int],
    partner: int | None,
    last_steal: float = LAST_STEAL,
    farm: float = 0.5,
) -> Choice:
    """The distribution of ``seat``'s act tonight: ``(probability, act)`` pairs summing
    to 1. ``partner`` is a seat it agreed a joint farm with today (offers both ways);
    ``last_steal`` its steal chance at its last night (at least; its rate if higher);
    ``farm`` how often it farms when it neither steals nor joint-farms (else it guards)."""
    others = [s for s in living if s != seat and food[s] > 0]
    # a mutual joint farm saves a store above 0.5: a seat with a partner is not at its last
    last = food[seat] <= (hw.COST_BASE - hw.COOP if partner is not None else hw.COST_GUARD)
    rate = book.seat(seat).steal_rate()
    p_steal = max(last_steal, rate) if last else rate
    out: Choice = []
    if others and p_steal > 0:
        most = max(food[s] for s in others)
        top = [s for s in others if food[s] == most]
        for s in others:
            w = RICHEST_AIM * (s in top) / len(top) + (1 - RICHEST_AIM) / len(others)
            out.append((p_steal * w, (plan.STEAL, s)))
    else:
        p_steal = 0.0
    rest = 1.0 - p_steal
    if partner is not None:
        out.append((rest, (plan.COOP, partner)))
    else:
        out += [(rest * farm, (plan.FARM, -1)), (rest * (1 - farm), (plan.GUARD, -1))]
    return out


def _draw(choice: Choice, u: float) -> plan.Act:
    acc = 0.0
    for p, act in choice:
        acc += p
        if u < acc:
            return act
    return choice[-1][1]


def value(
    me: int, food: list[int], alive: list[bool], pre: dict[int, int], pairs: set[int]
) -> float:
    """Our win share after one simulated night (see the module docstring); ``pairs`` are
    the seats in a mutual joint farm tonight."""
    left = [s for s, on in enumerate(alive) if on]
    if not left:
        top = max(pre.values())
        return 1.0 / sum(v == top for v in pre.values()) if pre.get(me) == top else 0.0
    if not alive[me]:
        return 0.0
    if len(left) == 1:
        return 1.0
    lasts = {s: food[s] / (5 if s in pairs else 10) for s in left}
    best = max(lasts.values())
    alive_bonus = TIE_BREAK * (1 + food[me])  # living, and a larger store, break ties
    if lasts[me] < best - 0.1:
        return alive_bonus
    return 1.0 / sum(v >= best - 0.1 for v in lasts.values()) + alive_bonus


def fine_the_richest(food: list[int], alive: list[bool], finers: frozenset[int]) -> None:
    """Tomorrow's vote in place when the living ``finers`` each fine the richest other
    living seat (ties to the lowest): a strict majority of the living fines it
    min(2.0, store) (§3.3), shared to the poorest other living seat."""
    living = [s for s, on in enumerate(alive) if on]
    votes: dict[int, int] = {}
    for v in finers:
        if alive[v]:
            rest = [s for s in living if s != v]
            if rest:
                t = max(rest, key=lambda s: (food[s], -s))
                votes[t] = votes.get(t, 0) + 1
    for t, n in votes.items():
        if 2 * n > len(living):
            amount = min(hw.FINE_MAX, food[t])
            rest = [s for s in living if s != t]
            food[t] -= amount
            food[min(rest, key=lambda s: (food[s], s))] += amount
            return


def best_act(
    me: int,
    food: list[int],
    living: list[int],
    choices: dict[int, Choice],
    candidates: Sequence[plan.Act],
    rng: random.Random,
    samples: int = SAMPLES,
    finers: frozenset[int] = frozenset(),
) -> tuple[plan.Act, dict[plan.Act, float]]:
    """Our candidate with the best mean value over ``samples`` joint profiles drawn from
    ``choices`` (one per other living seat), and every candidate's mean. Ties go to the
    earlier candidate. ``finers``: seats that fine the richest seat every day; their
    next fine (:func:`fine_the_richest`) lands before a night that leaves the match open
    is scored."""
    alive0 = [s in living for s in range(len(food))]
    draws = [[rng.random() for _ in living] for _ in range(samples)]
    totals = dict.fromkeys(candidates, 0.0)
    for row in draws:
        theirs = {s: _draw(choices[s], u) for s, u in zip(living, row, strict=True) if s != me}
        for cand in candidates:
            acts = dict(theirs)
            acts[me] = cand
            f, alive = food[:], alive0[:]
            _, pre = plan.night(f, alive, acts)
            pairs = {
                s
                for s, (k, p) in acts.items()
                if k == plan.COOP and acts.get(p) == (plan.COOP, s) and alive[p]
            }
            if finers and sum(alive) > 1:
                fine_the_richest(f, alive, finers)
            totals[cand] += value(me, f, alive, pre, pairs)
    means = {c: t / samples for c, t in totals.items()}
    best = max(candidates, key=lambda c: (means[c], -candidates.index(c)))
    return best, means


__all__ = [
    "FARMER_FARMS",
    "LAST_STEAL",
    "LAST_STEAL_PLAIN",
    "RICHEST_AIM",
    "SAMPLES",
    "TIE_BREAK",
    "best_act",
    "fine_the_richest",
    "seat_acts",
    "value",
]
