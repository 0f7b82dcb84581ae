"""The Sunloaf planner's look-ahead: the next day's first search, run in the spare nodes of
the late decisions of the day before.

A day's score is decided by its first search (from turn 0, the whole day ahead); the later
re-searches of a day rarely find more (``docs/strategies.md``, Sunloaf). So instead of one
wide, slow decision at each day's start, the planner predicts the next day's room while the
current day is still running and spreads that wide search over several decisions:

- the next room follows from where today ends (Sunloaf §8 NEXT_DAY, §9: the cats' tiles at
  sunset steer the generator), and the line in hand already says where that is;
- :class:`Ahead` generates that room with the rules engine, then runs a probe and a wide
  :class:`~sunbot.strategies.sunloaf_planner.BeamSearch` on it, pausing whenever a
  decision's node budget runs out and resuming at the next decision;
- at the next day's turn 0 :meth:`Ahead.take` hands over the line found, but only when the
  room and the position are exactly the predicted ones (a server that generates rooms its
  own way, or a line that changed, just means no head start: the planner searches as usual).

Everything is counted in search nodes, so a seeded run is the same on every machine.
"""

from __future__ import annotations

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.sunloaf_fast import PHASE, SCORE, DayCtx, FastState

from .sunloaf_planner import BeamSearch, Budget, Line, reference_line, replay
from .sunloaf_values import DayTables

#: Nodes charged for building a day's lone-cat tables, per cat range and turn (their cost
#: in the search's own currency, so the look-ahead's share of a decision stays bounded).
TABLE_NODES_PER_TURN = 49 * 12
NEXT_DAY = {"type": "NEXT_DAY"}


def _no_score(fs: FastState) -> FastState:
    return fs[:SCORE] + fs[SCORE + 1 :]


class Ahead:
    """The next day's search, prepared from a predicted sunset and run in slices.

    Args:
        nodes: the wide search is sized to about this many nodes (``fill`` of them,
            extrapolated from a probe of ``min_width``).
        min_width, max_width, fill: the probe's width, the widest beam, the share aimed at.

    Attributes:
        ready: the wide search has finished.
        taken: days whose turn 0 took a prepared line (:meth:`take`).
        taken_wide: of those, days whose wide search had finished.
    """

    def __init__(self, nodes: int, min_width: int, max_width: int, fill: float) -> None:
        self.nodes, self.min_width, self.max_width, self.fill = nodes, min_width, max_width, fill
        self._from: tuple[DayCtx, FastState] | None = None
        self._ctx: DayCtx | None = None
        self._start: FastState = ()
        self._tables: DayTables | None = None
        self._search: BeamSearch | None = None
        self._wide = False
        self._line: Line | None = None
        self.taken = self.taken_wide = 0

    @property
    def ready(self) -> bool:
        return self._wide and self._search is not None and self._search.result is not None

    def clear(self) -> None:
        """Forget the prepared day."""
        self._from = self._ctx = self._tables = self._search = self._line = None
        self._wide = False

    def prepare(self, ctx: DayCtx, final: FastState, budget: Budget) -> None:
        """Aim at the day after ``final`` (today's predicted or actual sunset). A new aim
        starts over (the room's tables are charged to ``budget``); the same aim keeps the
        work done. A ``final`` below quota (no next day) or a state the engine refuses
        clears it."""
        if final[PHASE] != fast.SUNSET:
            self.clear()
            return
        aim = (ctx, _no_score(final))
        if (
            self._from is not None
            and self._from[1] == aim[1]
            and (
                self._from[0] is ctx or fast._day_key(self._from[0].base) == fast._day_key(ctx.base)
            )
        ):  # the same aim, compared by the day's fields (the engine's day cache may be emptied)
            return
        self.clear()
        try:
            nxt = sl.step(fast.from_fast(ctx, final), NEXT_DAY)
            ctx2, fs2 = fast.to_fast(nxt)
        except (ValueError, KeyError, TypeError, IndexError):
            return
        self._from, self._ctx, self._start = aim, ctx2, fs2
        self._tables = DayTables(ctx2)
        # charged whole, even past the budget: one build of a few ms at most per decision
        budget.used += TABLE_NODES_PER_TURN * ctx2.turns * len(set(ctx2.ranges))
        self._line = reference_line(ctx2, fs2)
        self._search = BeamSearch(ctx2, self._tables, fs2, self.min_width, self._line)

    def advance(self, budget: Budget) -> None:
        """Search on until ``budget`` runs out or the wide search is done."""
        while self._search is not None and not self.ready:
            if budget.nodes is not None and budget.used >= budget.nodes:
                return
            if budget.deadline is not None and budget.hit_deadline:
                return
            found = self._search.run(budget)
            if found is None:
                return
            assert self._ctx is not None and self._line is not None and self._tables is not None
            line = replay(self._ctx, self._start, found)
            if line.rank() > self._line.rank():
                self._line = line
            if self._wide:
                return
            per_width = max(1.0, self._search.used / self.min_width)
            width = int(self.fill * self.nodes / per_width)
            width = min(self.max_width, max(self.min_width, width))
            self._search = BeamSearch(self._ctx, self._tables, self._start, width, self._line)
            self._wide = True

    def take(self, ctx: DayCtx, fs: FastState, budget: Budget) -> Line | None:
        """At a day's turn 0: the prepared line (its search finished within ``budget`` if it
        had not yet), replayed exactly from ``fs``; ``None`` when ``ctx``/``fs`` is not the
        predicted day. The prepared day is forgotten either way."""
        line = None
        same = self._ctx is not None and (
            self._ctx is ctx or fast._day_key(self._ctx.base) == fast._day_key(ctx.base)
        )
        if same and _no_score(self._start) == _no_score(fs):
            self.advance(budget)
            if self._line is not None:
                line = replay(ctx, fs, self._line.actions)
                self.taken += 1
                self.taken_wide += self.ready
        self.clear()
        return line


__all__ = ["Ahead"]
