"""Whole-match lines of play for a Harvest Watch seat, scored by rollouts against the
other seats' inferred styles.

:mod:`~sunbot.strategies.harvest_watch_foresight` scores one night; the choice between a
joint farm, a guard and an early theft is a choice of *line*: a theft tonight costs a rival
2.0 (the thief nets -1.0, as a guard) and leaves our store unguarded, a kept joint farm
nets -0.5 a night for as long as the partner keeps it, a guard nets -1.0 and makes every
thief on us pay 3.0 for nothing (§3.5, §7). Which pays depends on the nights after
tonight, so each candidate is a first act and a way of going on (:data:`LINES`), played to
the end of the match (at most :data:`HORIZON` nights) against the other seats:

- **our lines**: ``guard`` (guard every night; on our last night, store at most 1.0, rob
  the richest *open* seat, else farm), ``rob`` (``coalition``'s line when alone: rob the
  richest open seat unless we are the richest living seat, ties to the lowest seat, the
  thieves' pick: then guard), ``coop`` (joint-farm with the partner every night while it
  lives, robbing the richest open seat on our last night);
- **open seats** (given by the caller): seats that offered a joint farm today (a seat that
  farms under an offer does not guard) or that the record shows not guarding;
- **the other seats** (:class:`Model`, one per seat, from the record): a seat that offers
  us a joint farm robs us instead with its ``betray`` chance; otherwise each night it
  steals with its estimated rate (at least ``last`` on its last night), aimed at the
  richest other seat :data:`RICHEST_AIM` of the time, else at the seat it offers to (or
  evenly); otherwise it joint-farms with the seat it offers to (mutual when that seat
  offers back, or is us on a ``coop`` line), else farms or guards. Offers are kept for
  the whole rollout, but a seat whose offer to us we leave one-sided stops offering.

A line's value is our win share at its end (§3.9: sole survivor 1; everyone out: the
largest pre-cost store, ties shared), or at the horizon
:func:`~sunbot.strategies.harvest_watch_foresight.value`'s projection. Every line sees
the same draws (common random numbers).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sunbot.engines import harvest_watch as hw

from . import harvest_watch_foresight as sight
from . import harvest_watch_planner as plan

#: Rollouts per line (shared draws).
SAMPLES = 48
#: Rollouts every line gets first, and how many of the best lines then get the rest.
FIRST, KEEP = 16, 4
#: Nights a rollout plays at most before the projection scores it.
HORIZON = 12
#: Share of a thief's thefts aimed at the richest other seat; the rest at its partner.
RICHEST_AIM = 0.5
#: Ways of going on after tonight's act.
GUARD, ROB, COOP = "guard", "rob", "coop"
LINES = (GUARD, ROB, COOP)
Line = tuple[plan.Act, str]


@dataclass(frozen=True)
class Model:
    """One other seat in the rollouts: ``rate`` thefts a night (``last`` at least on a
    night its store is at most 1.0, or 0.5 with an offer), ``offer`` the seat it offers a
    joint farm to (or ``-1``), ``farm`` its chance of farming rather than guarding
    otherwise, ``betray`` its chance of robbing us instead of the joint farm it offered us.
    Rates are probabilities in [0, 1]."""

    rate: float
    offer: int = -1
    farm: float = 0.5
    last: float = sight.LAST_STEAL
    betray: float = 0.0


def _richest(food: list[int], alive: list[bool], among: Sequence[int], skip: int) -> int:
    best, seat = 0, -1
    for s in among:
        if s != skip and alive[s] and food[s] > best:
            best, seat = food[s], s
    return seat


def _ours(
    line: str, me: int, food: list[int], alive: list[bool], open_: Sequence[int], partner: int
) -> plan.Act:
    """Our act on a night after the first, by ``line``."""
    prey = _richest(food, alive, open_, me)
    if line == COOP and partner >= 0 and alive[partner]:
        if food[me] > hw.COST_BASE - hw.COOP or prey < 0:
            return (plan.COOP, partner)
        return (plan.STEAL, prey)  # our last night even in a mutual joint farm
    if food[me] <= hw.COST_GUARD:
        return (plan.STEAL, prey) if prey >= 0 else (plan.FARM, -1)
    # the rob line guards when we are the thieves' pick: the richest, ties to the lowest
    if line == ROB and prey >= 0 and _richest(food, alive, range(len(food)), -1) != me:
        return (plan.STEAL, prey)
    return (plan.GUARD, -1)


def _theirs(
    s: int, m: Model, offer: int, food: list[int], alive: list[bool], u: float, me: int
) -> plan.Act:
    """Seat ``s``'s act tonight from one uniform draw ``u`` (``offer``: the seat it
    offers a joint farm to tonight, or -1)."""
    offer = offer if offer >= 0 and alive[offer] else -1
    if offer == me and m.betray > 0:
        if u < m.betray and food[me] > 0:
            return (plan.STEAL, me)
        u = (u - m.betray) / (1 - m.betray)
    rate = m.rate
    if food[s] <= (hw.COST_BASE - hw.COOP if offer >= 0 else hw.COST_GUARD):
        rate = max(rate, m.last)
    if u < rate:
        v = u / rate
        if v < RICHEST_AIM or offer < 0:
            t = _richest(food, alive, range(len(food)), s)
            if v >= RICHEST_AIM:  # no partner: evenly among the others with food
                rest = [x for x in range(len(food)) if x != s and alive[x] and food[x] > 0]
                t = rest[int((v - RICHEST_AIM) / (1 - RICHEST_AIM) * len(rest))] if rest else -1
            if t >= 0:
                return (plan.STEAL, t)
        elif food[offer] > 0:
            return (plan.STEAL, offer)
    if offer >= 0:
        return (plan.COOP, offer)
    w = (u - rate) / (1 - rate) if rate < 1 else 0.0
    return (plan.FARM, -1) if w < m.farm else (plan.GUARD, -1)


def _night(food: list[int], alive: list[bool], acts: dict[int, plan.Act]) -> dict[int, int]:
    """The rules' night (:func:`~sunbot.strategies.harvest_watch_planner.night`, §3.5, in
    place) as a rollout needs it: the pre-cost stores only."""
    return plan.night(food, alive, acts)[1]


def play(
    me: int,
    food0: list[int],
    living: Sequence[int],
    models: dict[int, Model],
    line: Line,
    open_: Sequence[int],
    draws: list[list[float]],
    finers: frozenset[int] = frozenset(),
) -> float:
    """One rollout of ``line`` (tonight's act, then the line) with ``draws[night][seat]``
    uniforms; our win share at its end (module doc)."""
    first, how = line
    partner = first[1] if first[0] == plan.COOP else -1
    food = food0[:]
    alive = [s in living for s in range(len(food))]
    pre: dict[int, int] = {}
    acts: dict[int, plan.Act] = {}
    offers = {s: m.offer for s, m in models.items()}
    for night, row in enumerate(draws):
        if night and finers and sum(alive) > 1:
            sight.fine_the_richest(food, alive, finers)
        ours = first if night == 0 else _ours(how, me, food, alive, open_, partner)
        acts = {me: ours}
        for s, m in models.items():
            if alive[s]:
                acts[s] = _theirs(s, m, offers[s], food, alive, row[s], me)
        for s, off in offers.items():  # a seat we leave one-sided, or rob, stops offering
            if off == me and ours != (plan.COOP, s):
                offers[s] = -1
        pre = _night(food, alive, acts)
        if not alive[me] or sum(alive) <= 1:
            break
    pairs = {
        s
        for s, (k, p) in acts.items()
        if k == plan.COOP and acts.get(p) == (plan.COOP, s) and alive[s] and alive[p]
    }
    return sight.value(me, food, alive, pre, pairs)


def best_line(
    me: int,
    food: list[int],
    living: Sequence[int],
    models: dict[int, Model],
    lines: Sequence[Line],
    open_: Sequence[int],
    rng: random.Random,
    samples: int = SAMPLES,
    horizon: int = HORIZON,
    finers: frozenset[int] = frozenset(),
    first: int = FIRST,
    keep: int = KEEP,
) -> tuple[Line, dict[Line, float]]:
    """The line with the best mean win share, and every line's mean; ties go to the
    earlier line. Every line gets ``first`` rollouts; the ``keep`` best of them get the
    rest of ``samples`` on top (all on the same draws: common random numbers), and the
    best mean over all its rollouts wins among those. A line dropped after ``first`` keeps
    its ``first``-rollout mean."""
    n = len(food)
    draws = [[[rng.random() for _ in range(n)] for _ in range(horizon)] for _ in range(samples)]
    head = min(first, samples)
    totals = dict.fromkeys(lines, 0.0)
    for d in draws[:head]:
        for line in lines:
            totals[line] += play(me, food, living, models, line, open_, d, finers)
    means = {line: t / head for line, t in totals.items()}
    order = sorted(lines, key=lambda x: (-means[x], lines.index(x)))
    kept = order[: max(1, keep)]
    if samples > head:
        for d in draws[head:]:
            for line in kept:
                totals[line] += play(me, food, living, models, line, open_, d, finers)
        for line in kept:
            means[line] = totals[line] / samples
    best = max(kept, key=lambda x: (means[x], -lines.index(x)))
    return best, means


__all__ = [
    "COOP",
    "FIRST",
    "GUARD",
    "HORIZON",
    "KEEP",
    "LINES",
    "RICHEST_AIM",
    "ROB",
    "SAMPLES",
    "Line",
    "Model",
    "best_line",
    "play",
]
