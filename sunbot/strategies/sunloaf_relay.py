"""The relay planner: today's planner's searches, run ahead of time in small slices.

Everything within a Sunloaf day is known in advance (Sunloaf §5-§7), so the position of
every coming decision is known as soon as the line in hand is: the search a decision would
make can be made decisions earlier, in slices. :class:`PlannerRelay` does exactly that with
``planner-v1``'s own decision search (:class:`Search`: a probe of width 16, then a beam as
wide as ``FILL`` of its node limit allows, the wide one abandoned if it overruns), each
decision spending at most its own small node budget:

- from where a search's result is known, the next search targets the decision ``lead``
  decisions further along the line (so its slices finish by then), as long as it is before
  ``LATE`` percent of the day (later re-searches rarely find more, ``docs/strategies.md``);
- then tomorrow: the room follows from where today's line ends (§8 NEXT_DAY, §9), so the
  next day is generated with the rules engine and its first searches (turn 0, then its next
  decisions) run in today's spare slices;
- a decision whose search finished takes that search's line (if it ranks higher: quota met,
  score, chain kept); any other decision just follows the line in hand, which always meets
  the quota (it starts as the §10 reference line).

A position other than the predicted one (another server's room, a divergence) drops what was
prepared and starts over from the reference line there, with a search that fits the one
decision. Everything is counted in search nodes, so a seeded run is the same on any machine.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.sunloaf_fast import PHASE, SCORE, TURN, DayCtx, FastState
from sunbot.engines.sunloaf_read import readable

from . import Action, Observation
from .sunloaf_beam import FastBeam, FastTables
from .sunloaf_planner import Budget, Line, reference_line, replay

#: Nodes of a day's turn-0 search: ``planner-v1``'s decision search (200 ms x 1,200 nodes/ms).
FIRST_NODES = 240_000
#: Nodes of every later decision search (two thirds of ``planner-v1``'s: more of them).
SEARCH_NODES = 160_000
#: The relay's own budget per decision, in ms of nodes (x ``NODES_PER_MS``).
RELAY_BUDGET_MS = 50.0
NODES_PER_MS = 1200
#: No search targets a decision from this percent of a day's turns on.
LATE = 40
#: ``planner-v1``'s probe width, widest beam and share of the nodes left the wide beam aims at.
MIN_WIDTH, MAX_WIDTH, FILL = 16, 8192, 0.9
#: Nodes charged for building a day's lone-cat tables, per cat range and turn.
TABLE_NODES_PER_TURN = 49 * 12
TIME_CAP_FACTOR = 20.0
NEXT_DAY: Action = {"type": "NEXT_DAY"}


class Search:
    """``planner-v1``'s decision search from ``start``, runnable in slices.

    A probe of ``MIN_WIDTH``, then widths extrapolated from the nodes used so far to
    ``FILL`` of the nodes left (a search that overruns ``limit`` is abandoned), the best
    line kept (``line`` if none ranks higher). Sliced or not, it generates the same nodes
    and finds the same line.

    Args:
        ctx, tables, start: the day, its :class:`FastTables` and the position searched.
        line: the line in hand from ``start`` (its ``actions`` one per turn left).
        limit: the search's node limit.

    Attributes:
        line: the best line so far; used: nodes generated; done: the search has finished.
    """

    def __init__(
        self, ctx: DayCtx, tables: FastTables, start: FastState, line: Line, limit: int
    ) -> None:
        self.ctx, self.tables, self.start, self.line, self.limit = ctx, tables, start, line, limit
        self.used = 0
        self.done = False
        self._width = MIN_WIDTH
        self._beam = FastBeam(ctx, tables, start, MIN_WIDTH)

    def advance(self, budget: Budget) -> bool:
        """Search on until ``budget`` (a decision's) runs out or the search finishes (then
        ``True``); the nodes are added to ``budget.used``."""
        while not self.done:
            left = None if budget.nodes is None else budget.nodes - budget.used
            if (left is not None and left <= 0) or budget.hit_deadline:
                return False
            cap = self.limit if left is None else min(self.limit, self.used + left)
            local = Budget(cap, budget.deadline)
            local.used = self.used
            found = self._beam.run(local)
            budget.used += local.used - self.used
            budget.hit_deadline |= local.hit_deadline
            self.used = local.used
            if found is None:
                self.done = self.used > self.limit  # abandoned, as the planner does
                return self.done
            line = replay(self.ctx, self.start, found)
            if line.rank() > self.line.rank():
                self.line = line
            last = self._width
            if last >= MAX_WIDTH:
                self.done = True
                break
            width = min(MAX_WIDTH, int(FILL * (self.limit - self.used) / (self.used / last)))
            if width <= last:
                self.done = True
                break
            self._width = width
            self._beam = FastBeam(self.ctx, self.tables, self.start, width)
        return True


@dataclass
class _Day:
    """A day's plan: ``line`` from ``anchor`` (the next decision's position); ``searched``:
    the last turn a search was started for (-1: none); ``source``: the sunset it was
    predicted from (``None``: the day being played); ``key``: the day's fields
    (``fast._day_key``: days are compared by them, not by object, since the engine's
    ``DayCtx`` cache may be emptied between two decisions)."""

    key: tuple[object, ...]
    ctx: DayCtx
    tables: FastTables
    anchor: FastState
    line: Line
    searched: int
    source: tuple[DayCtx, FastState] | None = None


@dataclass
class _Job:
    day: _Day
    turn: int
    search: Search


def _no_score(fs: FastState) -> FastState:
    return fs[:SCORE] + fs[SCORE + 1 :]


def step_len(ctx: DayCtx, fs: FastState, actions: tuple[int, ...], doze: bool = True) -> int:
    """Actions the planner's next decision plays from ``fs``: ``k`` when ``doze`` and the
    line rests for the ``k`` turns a DOZE would resolve (k > 1), else 1."""
    if doze and actions[0] == fast.REST:
        _, k = fast.fast_doze(ctx, fs)
        if k > 1 and all(a == fast.REST for a in actions[:k]):
            return k
    return 1


def decision_points(
    ctx: DayCtx, fs: FastState, actions: tuple[int, ...], doze: bool = True
) -> list[tuple[int, FastState]]:
    """``(offset in actions, position)`` of each decision along ``actions`` from ``fs``
    (with DOZE if ``doze``, see :func:`step_len`)."""
    out, i = [], 0
    while i < len(actions):
        out.append((i, fs))
        used = step_len(ctx, fs, actions[i:], doze)
        for a in actions[i : i + used]:
            fs = fast.fast_step(ctx, fs, a)
        i += used
    return out


def _wire(code: int) -> Action:
    if code == fast.REST:
        return {"type": "REST"}
    if code == fast.DOZE:
        return {"type": "DOZE"}
    return {"type": "MOVE", "cat": code // 49, "tile": code % 49}


class PlannerRelay:
    """Sunloaf planner playing ``planner-v1``'s searches in slices ahead of time.

    Args:
        rng: unused (deterministic), kept for the strategy protocol.
        budget_ms: nodes per decision, in ms (x ``NODES_PER_MS``; ``None``: no limit).
        search_nodes: node limit of one decision search.
        first_nodes: node limit of a day's turn-0 search (``None``: ``search_nodes``).
        late: the percent of a day's turns from which no search targets today.
        time_cap_ms: wall-clock safety cap per decision (default 20x ``budget_ms``); a
            search it pauses resumes at the next decision with the same result.
        doze: send DOZE when the line rests for the turns a DOZE resolves (fewer
            decisions, and so fewer slices of search a day).

    Attributes:
        budget_nodes: nodes per decision; last_nodes: nodes the last decision generated;
        capped: decisions the safety cap stopped; taken: searches whose line a decision
        took; resets: positions other than the predicted one.
    """

    game = "sunloaf"

    def __init__(
        self,
        rng: random.Random,
        budget_ms: float | None = RELAY_BUDGET_MS,
        search_nodes: int = SEARCH_NODES,
        late: int = LATE,
        time_cap_ms: float | None = -1.0,
        doze: bool = True,
        first_nodes: int | None = FIRST_NODES,
    ) -> None:
        if budget_ms is not None and budget_ms <= 0:
            raise ValueError("budget_ms must be positive (or None for no limit)")
        self.rng = rng
        self.budget_ms = budget_ms
        self.budget_nodes = None if budget_ms is None else round(budget_ms * NODES_PER_MS)
        if time_cap_ms is not None and time_cap_ms < 0:
            time_cap_ms = None if budget_ms is None else TIME_CAP_FACTOR * budget_ms
        self.time_cap_ms = time_cap_ms
        self.search_nodes = search_nodes
        self.first_nodes = search_nodes if first_nodes is None else first_nodes
        self.late = late
        self.doze = doze
        nodes = self.budget_nodes
        self.lead = 0 if nodes is None else max(0, math.ceil(search_nodes / nodes) - 1)
        self._today: _Day | None = None
        self._next: _Day | None = None
        self._job: _Job | None = None
        self._tables: FastTables | None = None
        self.last_nodes = self.capped = self.taken = self.resets = self.dropped = 0

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """The next action of the line in hand (NEXT_DAY at sunset).

        Raises:
            ValueError: the run is over.
        """
        if observation["phase"] == "over" or not legal_actions:
            raise ValueError("the run is over: no action is legal")
        cap = self.time_cap_ms
        budget = Budget(
            self.budget_nodes, None if cap is None else time.perf_counter() + cap / 1000
        )
        if observation["phase"] == "sunset":
            self._spend(budget)
            return self._account(budget, NEXT_DAY)
        observation = readable(observation)
        ctx, fs = fast.to_fast(observation)
        today = self._sync(ctx, fs, budget)
        ctx = today.ctx  # the same day's fields (maybe another object of the engine's cache)
        job = self._job
        if job is not None and job.day is today and job.turn <= fs[TURN]:
            if job.turn == fs[TURN] and job.search.advance(budget):
                self._apply(job)
                self.taken += 1
            else:
                self.dropped += 1
            self._job = None
        line = today.line
        used = step_len(ctx, fs, line.actions, self.doze)
        code = fast.DOZE if used > 1 else line.actions[0]
        action = _wire(code)
        if action not in legal_actions:  # cannot happen with a consistent state; stay safe
            self._today = self._next = self._job = None
            return self._account(budget, sl.reference_action(observation))
        for a in line.actions[:used]:
            fs = fast.fast_step(ctx, fs, a)
        today.anchor, today.line = fs, Line(line.actions[used:], line.final, line.quota_met)
        self._spend(budget)
        return self._account(budget, action)

    def _account(self, budget: Budget, action: Action) -> Action:
        self.last_nodes = budget.used
        self.capped += budget.hit_deadline
        return action

    def _tables_for(self, ctx: DayCtx, key: tuple[object, ...], budget: Budget) -> FastTables:
        if self._tables is None or fast._day_key(self._tables.ctx.base) != key:
            self._tables = FastTables(ctx)
            budget.used += TABLE_NODES_PER_TURN * ctx.turns * len(set(ctx.ranges))
        return self._tables

    def _sync(self, ctx: DayCtx, fs: FastState, budget: Budget) -> _Day:
        """Today's plan anchored at ``fs``: the one in hand, tomorrow's prepared one, or a
        new one (the reference line improved by a search that fits this decision)."""
        today, nxt = self._today, self._next
        key = fast._day_key(ctx.base)
        if today is not None and today.key == key and today.anchor == fs:
            return today
        if nxt is not None and nxt.key == key and _no_score(nxt.anchor) == _no_score(fs):
            nxt.anchor, nxt.source = fs, None
            nxt.line = replay(nxt.ctx, fs, nxt.line.actions)
            self._today, self._next, self._tables = nxt, None, nxt.tables
            return nxt
        if today is not None:
            self.resets += 1
        self._next = self._job = None
        tables = self._tables_for(ctx, key, budget)
        ctx = tables.ctx
        search = Search(ctx, tables, fs, reference_line(ctx, fs), max(1, self._left(budget)))
        search.advance(budget)
        self._today = _Day(key, ctx, tables, fs, search.line, fs[TURN])
        return self._today

    @staticmethod
    def _left(budget: Budget) -> int:
        return SEARCH_NODES if budget.nodes is None else budget.nodes - budget.used

    def _apply(self, job: _Job) -> None:
        """Splice a finished search's line into its day's plan at its turn."""
        day = job.day
        for off, st in decision_points(day.ctx, day.anchor, day.line.actions, self.doze):
            if st[TURN] == job.turn and st == job.search.start:
                actions = day.line.actions[:off] + job.search.line.actions
                new = replay(day.ctx, day.anchor, actions)
                if new.rank() >= day.line.rank():
                    day.line = new
                nxt = self._next
                if day is self._today and nxt is not None:
                    nxt_ok = nxt.source == (day.ctx, _no_score(day.line.final))
                    if not nxt_ok:
                        self._next = None
                return

    def _spend(self, budget: Budget) -> None:
        """The rest of ``budget`` on the coming searches, one after another."""
        while budget.nodes is None or budget.used < budget.nodes:
            if budget.hit_deadline:
                return
            if self._job is None:
                self._job = self._new_job(budget)
                if self._job is None:
                    return
            if not self._job.search.advance(budget):
                return
            self._apply(self._job)
            self.taken += 1
            self._job = None

    def _new_job(self, budget: Budget) -> _Job | None:
        """The next search: today's decision ``lead`` decisions ahead (before ``late`` percent
        of the day), else tomorrow's next decision; ``None`` when there is none."""
        today = self._today
        if today is None:
            return None
        job = self._target(today, self.lead)
        if job is not None:
            return job
        if self._next is None:
            self._next = self._predict(today, budget)
            if self._next is None:
                return None
        return self._target(self._next, 0)

    def _target(self, day: _Day, lead: int) -> _Job | None:
        cut = day.ctx.turns * self.late // 100
        if not day.line.actions:
            return None
        for idx, (off, st) in enumerate(
            decision_points(day.ctx, day.anchor, day.line.actions, self.doze)
        ):
            if st[TURN] >= cut:
                return None
            if idx < lead or st[TURN] <= day.searched:
                continue
            day.searched = st[TURN]
            tail = Line(day.line.actions[off:], day.line.final, day.line.quota_met)
            limit = self.first_nodes if st[TURN] == 0 else self.search_nodes
            return _Job(day, st[TURN], Search(day.ctx, day.tables, st, tail, limit))
        return None

    def _predict(self, today: _Day, budget: Budget) -> _Day | None:
        """Tomorrow as our engine generates it from today's planned sunset (``None``: no
        sunset, or a state the engine refuses)."""
        final = today.line.final
        if final[PHASE] != fast.SUNSET:
            return None
        try:
            nxt = sl.step(fast.from_fast(today.ctx, final), NEXT_DAY)
            ctx2, fs2 = fast.to_fast(nxt)
        except (ValueError, KeyError, TypeError, IndexError):
            return None
        tables = FastTables(ctx2)
        budget.used += TABLE_NODES_PER_TURN * ctx2.turns * len(set(ctx2.ranges))
        line = reference_line(ctx2, fs2)
        key = fast._day_key(ctx2.base)
        return _Day(key, ctx2, tables, fs2, line, -1, (today.ctx, _no_score(final)))


__all__ = ["PlannerRelay", "Search", "decision_points", "step_len"]
