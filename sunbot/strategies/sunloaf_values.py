"""The Sunloaf planner's estimate of what a position can still earn in a day.

:class:`DayTables`: per day, the value ``V[t][tile][settled]`` of one lone cat of each range
left to play turns ``t..T-1`` alone (stay still and earn Sunloaf §7 step 5 at pile 0, or
move; dogs reset it, §7 step 4), by backward induction. Summed over the cats it is the beam
search's estimate (:mod:`sunbot.strategies.sunloaf_planner`); it ignores piles, bowls beyond
one at chain 1, and that only one cat moves a turn.
"""

from __future__ import annotations

from sunbot.engines import sunloaf_fast as fast
from sunbot.engines.sunloaf_fast import DayCtx

#: §7 step 5 raw cosy by [tier][pile] (pile already capped at 6).
RAW = tuple(tuple((10 * fast.PURR[tier] * (4 + p)) // 4 for p in range(7)) for tier in range(7))
#: Settled values above 6 behave exactly like 6 for the rest of a day (tier caps at 6).
TOP = 6
#: Raw cosy a lone cat's value counts for standing on a mat as it serves (one bowl at
#: chain 1; the search itself pays bowls exactly).
BOWL = 30


class DayTables:
    """Per-day lone-cat values (see the module docstring), one table per cat range.

    ``value[i]`` is a flat list indexed ``(t * 49 + tile) * 7 + min(settled, 6)`` for cat ``i``
    (``t`` in ``0..T``; row ``T`` is all zero): raw cosy a lone cat of cat ``i``'s range,
    standing on ``tile`` with that streak as turn ``t`` starts, can still earn today.
    """

    def __init__(self, ctx: DayCtx, by_range: dict[int, list[int]] | None = None) -> None:
        """``by_range``: the values already computed for each cat range (a faster
        implementation's), else they are computed here."""
        self.ctx = ctx
        if by_range is None:
            by_range = {r: _lone_cat_values(ctx, r) for r in sorted(set(ctx.ranges))}
        self.value = tuple(by_range[r] for r in ctx.ranges)
        #: ``moved[i][t][tile]``: ``value[i]`` at settled 0 (a cat that just moved there).
        self.moved = tuple(
            tuple(tuple(v[t * 343 : (t + 1) * 343 : 7]) for t in range(ctx.turns + 1))
            for v in self.value
        )
        #: ``moved_top[i][t]``: the largest ``moved[i][t][tile]`` over the tiles.
        self.moved_top = tuple(tuple(max(row) for row in rows) for rows in self.moved)


def _lone_cat_values(ctx: DayCtx, reach_range: int) -> list[int]:
    """Backward induction over ``(turn, tile, settled)`` for one cat alone in the room."""
    turns, warm, reach, paths = ctx.turns, ctx.warm, ctx.reach, ctx.paths
    value = [0] * ((turns + 1) * 49 * 7)
    raw0 = RAW
    for t in range(turns - 1, -1, -1):
        caps, dogs = warm[t], reach[t]
        mats = ctx.serves[t]
        nxt, here = (t + 1) * 343, t * 343
        for x in range(49):
            best_move = 0
            for y, _ in paths[x][reach_range]:
                v = value[nxt + y * 7] + (BOWL if y in mats else 0)
                if v > best_move:
                    best_move = v
            cap = caps[x]
            reset = dogs >> x & 1
            fed = BOWL if x in mats else 0
            for s in range(7):
                s2 = 0 if reset else (s + 1 if s < TOP else TOP)
                stay = value[nxt + x * 7 + s2] + fed
                if cap and s2:
                    stay += raw0[s2 if s2 < cap else cap][0]
                value[here + x * 7 + s] = stay if stay > best_move else best_move
    return value


__all__ = ["BOWL", "RAW", "TOP", "DayTables"]
