"""A faster copy of the planner's beam search (:mod:`sunbot.strategies.sunloaf_planner`):
the same layers, the same nodes in the same order, the same result, in less time.

:class:`FastBeam` is :class:`~sunbot.strategies.sunloaf_planner.BeamSearch` without a
followed line; :class:`FastTables` adds to :class:`DayTables` the best lone-cat value a cat
can move to from each tile (``reach_top``). The one change in the expansion is where a MOVE
is skipped: a cat is skipped when no move in its range can beat the layer's floor, bounded
by the best tile that range reaches from where the cat is instead of the best tile of the
room; every child it skips would have been dropped by the floor test anyway, so what enters
the beam, and in which order, is unchanged (``tests/strategies/test_sunloaf_relay.py``
compares both on many positions). ``planner-v1`` keeps the original, for a fair comparison.

The search runs in C when the extension :mod:`sunbot.strategies._sunloaf_beam`
(``sunbot/strategies/_sunloaf_beam.c``, built by ``pip install``) imports: the whole search of a
decision (layers, expansion, floor heap, transposition table, ``nlargest``, the node count,
pause and resume) node for node, ties broken as here, so the same action lists and node
counts (``tests/strategies/test_sunloaf_native.py``), about 40x faster a decision
(CPU) than ``planner-v1``'s search; the
day's tables (the lone-cat values and ``reach_top``) are computed in C too, once a day.
Without it (no compiler at install time, or ``SUNBOT_NO_NATIVE=1``) the Python search
below runs: the same lines, slower.
"""

from __future__ import annotations

import heapq
import os
import time
from heapq import heapreplace
from types import ModuleType
from typing import TYPE_CHECKING

from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.sunloaf_fast import CATS, CHAIN, COSY, NBR, SCORE, TURN, DayCtx, FastState

from .sunloaf_planner import Budget, _Node
from .sunloaf_values import RAW, TOP, DayTables

if TYPE_CHECKING:
    from ._sunloaf_beam import Day, Search

#: Set to any non-empty value other than ``0`` to search in pure Python even when the C
#: extension imports (read once, at import).
NO_NATIVE_ENV = "SUNBOT_NO_NATIVE"


def _load_native() -> ModuleType | None:
    if os.environ.get(NO_NATIVE_ENV, "").strip() not in ("", "0"):
        return None
    try:
        from . import _sunloaf_beam
    except ImportError:  # built without a compiler: the pure-Python search, same lines
        return None
    return _sunloaf_beam


#: The C search (:mod:`sunbot.strategies._sunloaf_beam`), ``None`` when it is not built or
#: turned off (``SUNBOT_NO_NATIVE``); :class:`FastBeam` then searches in Python. Tests may
#: set it to ``None``.
native: ModuleType | None = _load_native()


class FastTables(DayTables):
    """:class:`DayTables` plus ``reach_top[i][t][x]``: the largest ``moved[i][t][y]`` over the
    tiles ``y`` cat ``i``'s range reaches from ``x`` (furniture cut, other cats ignored; 0
    when it reaches none). With the C extension (:data:`native`) the lone-cat values and
    ``reach_top`` are computed in C (the same numbers as :class:`DayTables`)."""

    def __init__(self, ctx: DayCtx) -> None:
        self._native: Day | None = None
        self._warm: bytes | None = None
        self._flat_top: tuple[list[int], ...] | None = None
        paths = ctx.paths
        if native is None:
            super().__init__(ctx)
            by_range: dict[int, tuple[tuple[int, ...], ...]] = {}
            tops = []
            for i, r in enumerate(ctx.ranges):
                if r not in by_range:
                    by_range[r] = tuple(
                        tuple(max((row[y] for y, _ in paths[x][r]), default=0) for x in range(49))
                        for row in self.moved[i]
                    )
                tops.append(by_range[r])
            self.reach_top = tuple(tops)
            return
        warm = bytes(cap for caps in ctx.warm for cap in caps)
        found = {
            r: native.day_values(ctx.turns, warm, ctx.reach, ctx.serves, [p[r] for p in paths])
            for r in sorted(set(ctx.ranges))
        }
        super().__init__(ctx, {r: v for r, (v, _) in found.items()})
        spans = range(ctx.turns + 1)
        reach = {
            r: tuple(tuple(f[t * 49 : (t + 1) * 49]) for t in spans) for r, (_, f) in found.items()
        }
        self.reach_top = tuple(reach[r] for r in ctx.ranges)
        self._warm = warm
        self._flat_top = tuple(found[r][1] for r in ctx.ranges)

    def native_day(self) -> Day:
        """This day's tables flattened for the C search (built on the first call, then
        kept): a :class:`sunbot.strategies._sunloaf_beam.Day`.

        Raises:
            RuntimeError: the C extension is not available (:data:`native` is ``None``).
        """
        if self._native is None:
            if native is None:
                raise RuntimeError("the C search (sunbot.strategies._sunloaf_beam) is not built")
            ctx = self.ctx
            warm = self._warm or bytes(cap for caps in ctx.warm for cap in caps)
            tops = self._flat_top or tuple(
                [v for row in rows for v in row] for rows in self.reach_top
            )
            self._native = native.Day(
                ctx.n,
                ctx.turns,
                ctx.mult,
                ctx.quota,
                ctx.weights,
                ctx.ranges,
                self.value,
                tops,
                warm,
                ctx.reach,
                ctx.serves,
                ctx.paths,
            )
        return self._native


class FastBeam:
    """:class:`~sunbot.strategies.sunloaf_planner.BeamSearch` (no followed line) with the
    expansion of this module: the same nodes, pauses and result.

    The search runs in C (:mod:`sunbot.strategies._sunloaf_beam`, the same nodes in the
    same order, ties broken the same) when the extension is built, else in Python.

    Args:
        ctx, start: the day and a running-day position of it (turn < turnsInDay).
        tables: ``ctx``'s :class:`FastTables`.
        width: positions kept per turn (>= 1).
        use_native: search in C (``None``: when :data:`native` is available; ``True``
            raises :class:`RuntimeError` when it is not; ``False``: in Python).

    Attributes:
        used: nodes this search has generated so far.
        result: the action codes once the search has finished (``None`` before).
    """

    def __init__(
        self,
        ctx: DayCtx,
        tables: FastTables,
        start: FastState,
        width: int,
        use_native: bool | None = None,
    ) -> None:
        if use_native is None:
            use_native = native is not None
        self._c: Search | None = None
        if use_native:
            if native is None:
                raise RuntimeError("the C search (sunbot.strategies._sunloaf_beam) is not built")
            self._c = native.Search(tables.native_day(), start, width)
        n = ctx.n
        settled0 = tuple(s if s < TOP else TOP for s in start[CATS + n : CATS + 2 * n])
        key0 = (start[CHAIN], *start[CATS : CATS + n], *settled0)
        self.ctx, self.tables, self.start, self.width = ctx, tables, start, width
        self._layers: list[list[_Node]] = []
        self._layer: list[_Node] = [(0, start[SCORE], start[COSY], key0, -1, 0)]
        self._best: dict[tuple[int, ...], _Node] = {}
        self._floor: list[int] = []
        self._t = start[TURN]
        self._next = -1
        self.used = 0
        self.result: list[int] | None = None

    def run(self, budget: Budget | None = None) -> list[int] | None:
        """Go on searching: the action codes when the search finishes, ``None`` when
        ``budget`` runs out first (as ``BeamSearch.run``)."""
        if self.result is not None:
            return self.result
        ctx, tables, width = self.ctx, self.tables, self.width
        limit = deadline = None
        if budget is not None:
            limit, deadline = budget.nodes, budget.deadline
        used = 0 if budget is None else budget.used
        own = used
        if self._c is not None:
            found, used, hit = self._c.run(used, limit, deadline)
            self.used += used - own
            if budget is not None:
                budget.used = used
                if hit:
                    budget.hit_deadline = True
            if found is not None:
                self.result = found
            return found
        turns = ctx.turns
        layer, best, floor = self._layer, self._best, self._floor
        expand = _expand
        while self._t < turns:
            t = self._t
            if self._next < 0:
                self._layers.append(layer)
                best, floor = {}, [-1] * width
                self._best, self._floor, self._next = best, floor, 0
            for parent in range(self._next, len(layer)):
                used += expand(ctx, tables, t, layer[parent], parent, best, floor)
                stop = limit is not None and used > limit
                late = not stop and deadline is not None and not parent & 15
                if late and time.perf_counter() > deadline:  # type: ignore[operator]
                    stop = True
                    assert budget is not None
                    budget.hit_deadline = True
                if stop:
                    assert budget is not None
                    self._next = parent + 1
                    self.used += used - own
                    budget.used = used
                    return None
            layer = heapq.nlargest(width, best.values())
            self._layer, self._t, self._next = layer, t + 1, -1
        self.used += used - own
        if budget is not None:
            budget.used = used
        quota = ctx.quota
        end = max(layer, key=lambda nd: (nd[2] >= quota, nd[1], nd[3][0]))
        actions: list[int] = []
        node = end
        layers = self._layers
        for depth in range(len(layers) - 1, -1, -1):
            actions.append(node[5])
            node = layers[depth][node[4]]
        actions.reverse()
        self.result = actions
        self._layers, self._best = [], {}
        return actions


def _expand(
    ctx: DayCtx,
    tables: FastTables,
    t: int,
    node: _Node,
    parent: int,
    best: dict[tuple[int, ...], _Node],
    floor: list[int],
) -> int:
    """Resolve turn ``t`` (§7) for every MOVE and REST of ``node``; keep each child in
    ``best`` unless a position with the same key scored at least as much, or its priority is
    not above ``floor[0]``. ``floor`` is a min-heap of the priorities of the layer's best
    kept children so far, one slot per beam position (start: ``[-1] * width``): a child
    below all of them cannot enter the beam, so it is dropped before its key is built.
    Returns the nodes generated (see :class:`Budget`)."""
    n, values = ctx.n, tables.value
    weights, mult = ctx.weights, ctx.mult
    caps, dogs, serves = ctx.warm[t], ctx.reach[t], ctx.serves[t]
    nxt = (t + 1) * 343
    key, score, cosy = node[3], node[1], node[2]
    chain = key[0]
    tiles = key[1 : 1 + n]
    old = key[1 + n :]
    # the REST child: streaks, dog resets, piles and earnings of every cat
    sr = []
    light = heavy = occ = 0
    for i in range(n):
        x = tiles[i]
        bit = 1 << x
        occ |= bit
        if dogs & bit:
            sr.append(0)
            continue
        s = old[i]
        sr.append(s + 1 if s < TOP else TOP)
        light |= bit
        if weights[i] == 2:
            heavy |= bit
    raws = [0] * n
    awards = [0] * n
    tiers = [0] * n
    piles = [0] * n
    est = [0] * n
    rest_raw = rest_award = rest_est = 0
    for i in range(n):
        s = sr[i]
        x = tiles[i]
        e = values[i][nxt + x * 7 + s]
        est[i] = e
        rest_est += e
        if not s:
            continue
        cap = caps[x]
        if not cap:
            continue
        nb = NBR[x]
        p = (nb & light).bit_count() + (nb & heavy).bit_count()
        tier = s if s < cap else cap
        raw = RAW[tier][p if p < 6 else 6]
        tiers[i], piles[i], raws[i] = tier, p, raw
        a = (raw * mult + 50) // 100
        awards[i] = a
        rest_raw += raw
        rest_award += a
    ch, b_raw, b_award = chain, 0, 0
    for mat in serves:
        if mat in tiles:
            ch = ch + 1 if ch < 8 else 8
            b_raw += 30 * ch
            b_award += (30 * ch * mult + 50) // 100
        else:
            ch = 0
    co = cosy + rest_raw + b_raw
    pr = co + rest_est
    f0 = floor[0]
    if pr > f0:
        k = (ch, *tiles, *sr)
        sc = score + rest_award + b_award
        prev = best.get(k)
        if prev is None or prev[1] < sc:
            best[k] = (pr, sc, co, k, parent, fast.REST)
            heapreplace(floor, pr)
            f0 = floor[0]
    # MOVE children: the REST child minus what the moved cat earned and lent its neighbours
    paths, ranges, rows, tops = ctx.paths, ctx.ranges, tables.moved, tables.reach_top
    made = 1
    tt = t + 1
    top_bowls = 240 * len(serves)  # what bowls can pay a move at most (chain 8 each)
    base = cosy + rest_raw + rest_est + top_bowls
    for i in range(n):
        x = tiles[i]
        reach = paths[x][ranges[i]]
        made += len(reach)
        # no move of cat i can beat the floor: skip it (its neighbours' losses only lower it)
        if base - raws[i] - est[i] + tops[i][tt][x] <= f0:
            continue
        lose_raw, lose_award = raws[i], awards[i]
        if sr[i]:
            w, nb = weights[i], NBR[x]
            for j in range(n):
                if raws[j] and nb >> tiles[j] & 1:
                    p = piles[j] - w
                    raw = RAW[tiers[j]][p if p < 6 else 6]
                    lose_raw += raws[j] - raw
                    lose_award += awards[j] - (raw * mult + 50) // 100
        m_score = score + rest_award - lose_award
        m_cosy = cosy + rest_raw - lose_raw
        m_prio = m_cosy + rest_est - est[i]
        row = rows[i][tt]
        code0 = i * 49
        head = (chain, *tiles[:i])
        tail = (*tiles[i + 1 :], *sr[:i], 0, *sr[i + 1 :])
        if not serves:
            for y, path in reach:
                if path & occ:
                    continue
                pr = m_prio + row[y]
                if pr <= f0:
                    continue
                k = (*head, y, *tail)
                prev = best.get(k)
                if prev is None or prev[1] < m_score:
                    best[k] = (pr, m_score, m_cosy, k, parent, code0 + y)
                    heapreplace(floor, pr)
                    f0 = floor[0]
            continue
        others = occ & ~(1 << x)
        for y, path in reach:
            if path & occ:
                continue
            cats = others | 1 << y
            ch, b_raw, b_award = chain, 0, 0
            for mat in serves:
                if cats >> mat & 1:
                    ch = ch + 1 if ch < 8 else 8
                    b_raw += 30 * ch
                    b_award += (30 * ch * mult + 50) // 100
                else:
                    ch = 0
            pr = m_prio + b_raw + row[y]
            if pr <= f0:
                continue
            k = (ch, *head[1:], y, *tail)
            sc = m_score + b_award
            prev = best.get(k)
            if prev is None or prev[1] < sc:
                best[k] = (pr, sc, m_cosy + b_raw, k, parent, code0 + y)
                heapreplace(floor, pr)
                f0 = floor[0]
    return made


__all__ = ["NO_NATIVE_ENV", "FastBeam", "FastTables", "native"]
