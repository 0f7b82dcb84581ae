"""Best-first search for a deterministic simulator whose positions can be estimated: the
search ``search`` uses on a forward model with an ``estimate`` that draws nothing.

Weighted A* as the model's estimate weights it: the open position whose value (the
objective's value of the estimated final score: :meth:`Simulator.value` with ``leaf``) is
highest is expanded first; a position reached again no earlier than before is left out
(a transposition, by the simulator's key). An end of the game reached is the plan, followed
decision by decision without searching again while the positions are the predicted ones,
as soon as no open position is valued above it; an end valued below an open position (a
lost game, where a search against a house bot meets its losses first) waits among the open
positions and becomes the plan only if it comes out on top. Where no end was planned within
the decision's budget, the move leads toward the best position found. On long puzzles (the
fifteen puzzle) this finds a solution that UCT's per-decision trees miss;
:mod:`sunbot.search.mcts` stays the search of stochastic simulators and of those without an
estimate.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import dataclass
from typing import Any

from sunbot.search.mcts import OutOfBudget, Simulator, Stats

#: How often (expansions) the clock is read.
_CLOCK_EVERY = 16


@dataclass
class _Open:
    state: Any
    key: str | None
    depth: int
    first: Any  # the root's action this line began with
    line: tuple[Any, ...]
    over: bool = False  # an end of the game, waiting for no open position to beat it


class BestFirst:
    """Best-first search over ``sim`` (module doc); ``rng`` is unused (ties are broken by
    the order positions were found, so a run replays exactly)."""

    def __init__(self, sim: Simulator, rng: Any = None) -> None:
        self.sim = sim
        self.plan: list[tuple[Any, str | None]] = []
        self.frontier: list[tuple[float, int, _Open]] = []
        self.seen: dict[str | None, int] = {}
        self.order = itertools.count()

    def reroot(self, action: Any, state_key: str | None) -> None:
        """Follow the plan when ``action`` was its next step and led where it said; else
        keep the open positions of the lines that began with it (the search goes on from
        where it was, one step in)."""
        if self.plan and self.plan[0][0] == action and self.plan[0][1] == state_key:
            self.plan.pop(0)
            return
        self.plan = []
        kept: list[tuple[float, int, _Open]] = []
        seen: dict[str | None, int] = {state_key: 0}
        for value, n, node in self.frontier:
            line = node.line
            if len(line) < 2 or line[0][0] != action or line[0][1] != state_key:
                continue
            rest = line[1:]
            kept.append(
                (value, n, _Open(node.state, node.key, node.depth - 1, rest[0][0], rest, node.over))
            )
            for depth, (_, key) in enumerate(rest, start=1):
                seen[key] = min(depth, seen.get(key, depth))
        heapq.heapify(kept)
        self.frontier, self.seen = kept, seen

    def run(self, iterations: int, deadline: float | None = None) -> tuple[Any, Stats]:
        """Expand up to ``iterations`` positions (or until ``deadline``); the planned
        action when a plan to an end is in hand, else the first action toward the best
        position found."""
        stats = Stats()
        if self.plan:
            stats.stopped = "plan"
            return self.plan[0][0], stats
        sim = self.sim
        root = sim.root()
        if sim.over(root):
            return None, stats
        order = self.order
        frontier, seen = self.frontier, self.seen
        if not frontier or sim.key(root) not in seen:  # nothing kept from the last decision
            seen.clear()
            seen[sim.key(root)] = 0
            frontier.clear()
            heapq.heappush(frontier, (0.0, next(order), _Open(root, sim.key(root), 0, None, ())))
        best: tuple[float, int, _Open] | None = min(
            (e for e in frontier if e[2].first is not None), default=None
        )
        stats.stopped = "exhausted"
        try:
            while frontier:
                if stats.iterations >= iterations:
                    stats.stopped = "iterations"
                    break
                if (
                    deadline is not None
                    and stats.iterations % _CLOCK_EVERY == 0
                    and time.monotonic() >= deadline
                ):
                    stats.stopped = "deadline"
                    break
                _, _, node = heapq.heappop(frontier)
                if node.over:  # an end that no open position is valued above
                    stats.best = sim.value(node.state, leaf=False)
                    self.plan = list(node.line)
                    stats.stopped = "solved"
                    return self.plan[0][0], stats
                stats.iterations += 1
                actions = sim.legal(node.state)
                for action, after in zip(actions, sim.expand(node.state, actions), strict=True):
                    if after is None:
                        continue
                    key = sim.key(after)
                    depth = node.depth + 1
                    if key is not None and seen.get(key, math.inf) <= depth:
                        stats.pruned += 1
                        continue
                    seen[key] = depth
                    stats.nodes += 1
                    first = action if node.first is None else node.first
                    line = (*node.line, (action, key))
                    child = _Open(after, key, depth, first, line)
                    if sim.over(after):
                        value = sim.value(after, leaf=False)
                        if not frontier or value >= -frontier[0][0]:
                            stats.best = max(stats.best, value)
                            self.plan = list(line)
                            stats.stopped = "solved"
                            return self.plan[0][0], stats
                        child.over = True  # something open looks better: it waits
                    else:
                        value = sim.value(after, leaf=True)
                    entry = (-value, next(order), child)
                    if best is None or entry < best:
                        best = entry
                    heapq.heappush(frontier, entry)
        except OutOfBudget:
            stats.stopped = "budget"
        if best is None:
            return None, stats
        stats.best = -best[0]
        return best[2].first, stats


__all__ = ["BestFirst"]
