"""The Sunloaf day planner's search: a beam search over one day in the engine's fast form.

Everything within a Sunloaf day is known in advance (Sunloaf §5 band,
shade and clouds, §7 bowl serves and dog steps), so a day is a deterministic planning
problem: pick one action per turn to maximise the day's score, never ending below
``dayQuota``. This module holds the pieces :class:`sunbot.strategies.sunloaf.Planner` uses:

- :class:`~sunbot.strategies.sunloaf_values.DayTables` (re-exported here): the lone-cat
  values whose sum over the cats is the search's estimate of what a position can still earn.
- :func:`beam_search`: layer by layer over the turns left, every MOVE and REST of every
  kept position, positions merged in a transposition table keyed by ``(chain, tiles,
  settled capped at 6)`` (positions equal under that key have the same future: a tier never
  exceeds 6), the best ``width`` kept by ``cosy so far + estimate``. Turn resolution is
  incremental: a MOVE child is the REST child minus what the moved cat earned and added to
  its settled neighbours' piles; a child whose priority is not above the ``width`` best
  kept so far in its turn is dropped before its key is built (a cat none of whose moves can
  be is skipped whole). Its effort is counted in nodes (:class:`Budget`). It can keep a
  line in hand in every layer (``follow``), and as :class:`BeamSearch` pause when a budget
  runs out and resume under the next one with the same result.
- :func:`replay`, :func:`reference_line`: exact lines through
  :func:`sunbot.engines.sunloaf_fast.fast_step`, so a plan's final ``dayCosyRaw`` and score
  are the engine's own numbers, not the search's.

Raw cosy, score, tiers and piles follow §7; turns are 0-based indices of the day.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from heapq import heapreplace

from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.sunloaf_fast import CATS, CHAIN, COSY, NBR, PHASE, SCORE, TURN, DayCtx

from .sunloaf_values import RAW, TOP, DayTables

FastState = fast.FastState


class SearchStopped(Exception):
    """The search ran out of its :class:`Budget` (nodes, or the wall-clock safety cap)."""


class Budget:
    """What one decision may spend on searching, shared by every width it tries.

    Args:
        nodes: the most search nodes to generate (``None``: no limit). A node is one
            candidate child: every REST and every MOVE a cat's range reaches from an
            expanded position counts one, blocked or not. Counting nodes instead of time
            makes the search, and so a seeded run, the same on every machine and load.
        deadline: a :func:`time.perf_counter` instant, a safety cap only (``None``: none).

    Attributes:
        used: nodes generated so far.
        hit_deadline: the wall-clock cap stopped a search (the run may then not replay).
    """

    __slots__ = ("deadline", "hit_deadline", "nodes", "used")

    def __init__(self, nodes: int | None = None, deadline: float | None = None) -> None:
        self.nodes = nodes
        self.deadline = deadline
        self.used = 0
        self.hit_deadline = False


@dataclass(frozen=True)
class Line:
    """One whole rest-of-day line of play and where it ends.

    Attributes:
        actions: fast action codes (MOVE ``cat*49+tile`` or :data:`fast.REST`), one per turn
            left today.
        final: the exact fast state after the last turn (phase sunset or over).
        quota_met: ``final`` dayCosyRaw >= dayQuota.
    """

    actions: tuple[int, ...]
    final: FastState
    quota_met: bool

    def rank(self) -> tuple[bool, int, int]:
        """Order of preference: quota met first, then the score, then the chain kept."""
        return (self.quota_met, self.final[SCORE], self.final[CHAIN])


# A search node: (priority, score, cosy, key, parent index, action). ``key`` is
# ``(chain, tile_0..tile_{n-1}, settled_0..settled_{n-1})`` with settled capped at 6.
_Node = tuple[int, int, int, tuple[int, ...], int, int]


def beam_search(
    ctx: DayCtx,
    tables: DayTables,
    start: FastState,
    width: int,
    budget: Budget | None = None,
    follow: Line | None = None,
) -> list[int]:
    """The best rest-of-day action list a beam of ``width`` finds from ``start``.

    Args:
        ctx, start: the day and a running-day position of it (turn < turnsInDay).
        tables: ``ctx``'s :class:`DayTables`.
        width: positions kept per turn (>= 1).
        budget: nodes generated are added to ``budget.used``; going past ``budget.nodes``
            (checked after every expanded position) or ``budget.deadline`` (checked every 16)
            raises :class:`SearchStopped`.
        follow: a line in hand from ``start`` (its ``actions``, one per turn left): each of
            its positions is kept in its layer even when the ``width`` best leave it out, so
            the beam searches around it and never ends below it (``None``: a plain beam).

    Returns:
        Fast action codes, one per turn left; the line with the quota met and the highest
        score among the beam's final positions (re-check it with :func:`replay`).
    """
    found = BeamSearch(ctx, tables, start, width, follow).run(budget)
    if found is None:
        raise SearchStopped
    return found


class BeamSearch:
    """:func:`beam_search` as an object that can pause when its budget runs out and resume
    under a later budget (another decision's): the same layers, nodes and result as one
    uninterrupted run, so a seeded run stays the same however the work is split.

    Args: as :func:`beam_search`.

    Attributes:
        used: nodes this search has generated so far.
        result: the action codes once the search has finished (``None`` before).
    """

    def __init__(
        self,
        ctx: DayCtx,
        tables: DayTables,
        start: FastState,
        width: int,
        follow: Line | None = None,
    ) -> None:
        n = ctx.n
        settled0 = tuple(s if s < TOP else TOP for s in start[CATS + n : CATS + 2 * n])
        key0 = (start[CHAIN], *start[CATS : CATS + n], *settled0)
        self.ctx, self.tables, self.start, self.width = ctx, tables, start, width
        self._layers: list[list[_Node]] = []
        self._layer: list[_Node] = [(0, start[SCORE], start[COSY], key0, -1, 0)]
        self._best: dict[tuple[int, ...], _Node] = {}
        self._floor: list[int] = []
        self._t = start[TURN]
        self._next = -1  # next parent to expand in the current layer (-1: layer not begun)
        self._kept, self._here = _followed(ctx, start, follow), 0
        self.used = 0
        self.result: list[int] | None = None

    def run(self, budget: Budget | None = None) -> list[int] | None:
        """Go on searching: the action codes when the search finishes, ``None`` when
        ``budget`` runs out first (nodes past ``budget.nodes`` after an expanded position,
        or ``budget.deadline``; then ``run`` may be called again with a new budget)."""
        if self.result is not None:
            return self.result
        ctx, tables, width = self.ctx, self.tables, self.width
        limit = deadline = None
        if budget is not None:
            limit, deadline = budget.nodes, budget.deadline
        used = 0 if budget is None else budget.used
        own = used
        turns, t0 = ctx.turns, self.start[TURN]
        layer, best, floor = self._layer, self._best, self._floor
        while self._t < turns:
            t = self._t
            if self._next < 0:
                self._layers.append(layer)
                best, floor = {}, [-1] * width
                self._best, self._floor, self._next = best, floor, 0
            for parent in range(self._next, len(layer)):
                used += _expand(ctx, tables, t, layer[parent], parent, best, floor)
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
            if self._kept:
                self._here = _keep(layer, best, self._kept[t - t0], self._here)
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


def _followed(ctx: DayCtx, start: FastState, follow: Line | None) -> list[_Node]:
    """The search nodes of ``follow``'s positions after each turn (score without the day
    bonus, as the search counts it); ``[]`` when there is no line to follow."""
    if follow is None or len(follow.actions) != ctx.turns - start[TURN]:
        return []
    n, fs, out = ctx.n, start, []
    for a in follow.actions:
        fs = fast.fast_step(ctx, fs, a)
        settled = tuple(s if s < TOP else TOP for s in fs[CATS + n : CATS + 2 * n])
        score = fs[SCORE] - (ctx.bonus if fs[PHASE] == fast.SUNSET else 0)
        out.append((-1, score, fs[COSY], (fs[CHAIN], *fs[CATS : CATS + n], *settled), -1, a))
    return out


def _keep(layer: list[_Node], best: dict[tuple[int, ...], _Node], node: _Node, parent: int) -> int:
    """Make sure ``layer`` holds the followed line's position ``node`` (or one with its key
    and a score at least as high: the same future, §7); its parent is index ``parent`` of
    the layer before. Returns its index in ``layer``."""
    key = node[3]
    for i, nd in enumerate(layer):
        if nd[3] == key and nd[1] >= node[1]:
            return i
    found = best.get(key)
    if found is None or found[1] < node[1]:
        found = (node[0], node[1], node[2], key, parent, node[5])
    layer.append(found)
    return len(layer) - 1


def children(ctx: DayCtx, tables: DayTables, fs: FastState) -> dict[int, _Node]:
    """Every MOVE/REST child of running-day position ``fs`` as the search sees it, by action
    code: ``(priority, score, cosy, key, 0, action)`` (for tests of the incremental step)."""
    n = ctx.n
    settled = tuple(s if s < TOP else TOP for s in fs[CATS + n : CATS + 2 * n])
    node: _Node = (0, fs[SCORE], fs[COSY], (fs[CHAIN], *fs[CATS : CATS + n], *settled), -1, 0)
    best: dict[tuple[int, ...], _Node] = {}
    _expand(ctx, tables, fs[TURN], node, 0, best, [-1] * 128)
    return {nd[5]: nd for nd in best.values()}


def _expand(
    ctx: DayCtx,
    tables: DayTables,
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
    sr = [0 if dogs >> tiles[i] & 1 else (old[i] + 1 if old[i] < TOP else TOP) for i in range(n)]
    light = heavy = occ = 0
    for i in range(n):
        bit = 1 << tiles[i]
        occ |= bit
        if sr[i]:
            light |= bit
            if weights[i] == 2:
                heavy |= bit
    raws = [0] * n
    awards = [0] * n
    tiers = [0] * n
    piles = [0] * n
    for i in range(n):
        s = sr[i]
        if not s:
            continue
        x = tiles[i]
        cap = caps[x]
        if not cap:
            continue
        nb = NBR[x]
        p = (nb & light).bit_count() + (nb & heavy).bit_count()
        tier = s if s < cap else cap
        raw = RAW[tier][p if p < 6 else 6]
        tiers[i], piles[i], raws[i] = tier, p, raw
        awards[i] = (raw * mult + 50) // 100
    rest_raw, rest_award = sum(raws), sum(awards)
    est = [values[i][nxt + tiles[i] * 7 + sr[i]] for i in range(n)]
    rest_est = sum(est)
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
    if pr > floor[0]:
        k = (ch, *tiles, *sr)
        sc = score + rest_award + b_award
        prev = best.get(k)
        if prev is None or prev[1] < sc:
            best[k] = (pr, sc, co, k, parent, fast.REST)
            heapreplace(floor, pr)
    # MOVE children: the REST child minus what the moved cat earned and lent its neighbours
    paths, ranges, rows, tops = ctx.paths, ctx.ranges, tables.moved, tables.moved_top
    made = 1
    top_bowls = 240 * len(serves)  # what bowls can pay a move at most (chain 8 each)
    for i in range(n):
        x = tiles[i]
        reach = paths[x][ranges[i]]
        made += len(reach)
        # no move of cat i can beat the floor: skip it (its neighbours' losses only lower it)
        if cosy + rest_raw - raws[i] + rest_est - est[i] + tops[i][t + 1] + top_bowls <= floor[0]:
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
        row = rows[i][t + 1]
        code0 = i * 49
        head = (chain, *tiles[:i])
        tail = (*tiles[i + 1 :], *sr[:i], 0, *sr[i + 1 :])
        if not serves:
            for y, path in reach:
                if path & occ:
                    continue
                pr = m_prio + row[y]
                if pr <= floor[0]:
                    continue
                k = (*head, y, *tail)
                prev = best.get(k)
                if prev is None or prev[1] < m_score:
                    best[k] = (pr, m_score, m_cosy, k, parent, code0 + y)
                    heapreplace(floor, pr)
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
            if pr <= floor[0]:
                continue
            k = (ch, *head[1:], y, *tail)
            sc = m_score + b_award
            prev = best.get(k)
            if prev is None or prev[1] < sc:
                best[k] = (pr, sc, m_cosy + b_raw, k, parent, code0 + y)
                heapreplace(floor, pr)
    return made


def replay(ctx: DayCtx, start: FastState, actions: list[int] | tuple[int, ...]) -> Line:
    """Play ``actions`` from ``start`` through the engine's fast form: the exact :class:`Line`."""
    fs = start
    for a in actions:
        fs = fast.fast_step(ctx, fs, a)
    return Line(tuple(actions), fs, fs[PHASE] == fast.SUNSET or fs[COSY] >= ctx.quota)


def reference_line(ctx: DayCtx, start: FastState) -> Line:
    """The §10 reference policy played from ``start`` to the end of the day."""
    fs, actions = start, []
    while fs[TURN] < ctx.turns and fs[PHASE] == fast.DAY:
        a = fast.fast_reference(ctx, fs)
        actions.append(a)
        fs = fast.fast_step(ctx, fs, a)
    return Line(tuple(actions), fs, fs[COSY] >= ctx.quota)


__all__ = [
    "RAW",
    "TOP",
    "BeamSearch",
    "Budget",
    "DayTables",
    "Line",
    "SearchStopped",
    "beam_search",
    "children",
    "reference_line",
    "replay",
]
