"""Sunloaf's fast internal form, for planners (Sunloaf §5-§8).

The dict API of :mod:`sunbot.engines.sunloaf` is the contract; this module is a second,
independent implementation of one day's turns tuned for speed, and the tests check that both
give identical states on random play. A day is split into:

- :class:`DayCtx`, built once per day by :func:`to_fast`: everything that cannot change during
  the day, precomputed per turn (warm caps of §5 as one tuple per turn, lit bitmasks, the tiles
  a dog resets, bowl serves, DOZE's static stop turns, move rays).
- a fast state, a flat tuple of ints: ``(turn, phase, result, score, chain, dayCosyRaw,
  tile_0..tile_{n-1}, settled_0..settled_{n-1})``; hashable, so it can key a transposition
  table. :func:`from_fast` turns it back into the wire dict.

Fast actions are ints: :data:`REST`, :data:`DOZE`, :data:`END_RUN`, or ``cat * 49 + tile`` for
a MOVE. NEXT_DAY is not handled here (it generates a new room: use the dict API).
:func:`fast_step` trusts its action to come from :func:`fast_legal`.
"""

from __future__ import annotations

from typing import Any

PURR = (0, 1, 2, 3, 5, 7, 10)
RANGE = (3, 2, 4, 3, 2)
REST, DOZE, END_RUN = -1, -2, -3
DAY, SUNSET, OVER = 0, 1, 2
PHASES = ("day", "sunset", "over")
RESULTS: tuple[str | None, ...] = (None, "win", "goodGame", "missedQuota")
TURN, PHASE, RESULT, SCORE, CHAIN, COSY, CATS = range(7)

FastState = tuple[int, ...]

# §7 step 5: raw cosy by [tier][pile].
_RAW = tuple(tuple((10 * PURR[tier] * (4 + pile)) // 4 for pile in range(7)) for tier in range(7))


def _nbrs(x: int) -> list[int]:
    r, c = divmod(x, 7)
    out = []
    for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)):
        if 0 <= rr < 7 and 0 <= cc < 7:
            out.append(rr * 7 + cc)
    return out


NBR = tuple(sum(1 << y for y in _nbrs(x)) for x in range(49))
NEAR = tuple(NBR[x] | (1 << x) for x in range(49))  # on or orthogonally next to x
_STEP = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}  # one step toward the window
_DIRS = ((-1, 0), (0, -1), (0, 1), (1, 0))  # up, left, right, down: ascending tile order


class DayCtx:
    """Per-day constants and tables for the fast path (read only once built)."""

    __slots__ = (
        "base",
        "bonus",
        "lit",
        "mult",
        "n",
        "paths",
        "quota",
        "ranges",
        "reach",
        "run",
        "serves",
        "stop",
        "turns",
        "warm",
        "weights",
    )

    def __init__(self, state: dict[str, Any]) -> None:
        lay = state["layout"]
        furn = set(lay["furniture"])
        turns: int = state["turnsInDay"]
        clouds = set(lay["cloudTurns"])
        self.base = copy_state(state)
        self.n = len(state["cats"])
        self.turns = turns
        self.mult: int = state["mult"]
        self.quota: int = state["dayQuota"]
        self.bonus = min(100 * state["day"], 3000)
        self.weights = tuple(2 if c["big"] else 1 for c in state["cats"])
        self.ranges = tuple(c["range"] for c in state["cats"])
        # §5 light: a static mask (furniture, shade, lattice) and one band mask per start line.
        dr, dc = _STEP[lay["window"]]
        parity = lay["latticeParity"]
        static, lines = 0, [0] * 7
        for x in range(49):
            r, c = divmod(x, 7)
            lines[c if lay["window"] in "NS" else r] |= 1 << x
            if x in furn or (parity is not None and (r + c) % 2 != parity):
                continue
            if any(
                0 <= r + dr * k < 7
                and 0 <= c + dc * k < 7
                and (r + dr * k) * 7 + c + dc * k in furn
                for k in range(1, lay["shadeLength"] + 1)
            ):
                continue
            static |= 1 << x
        width, dwell, hearth = state["bandWidth"], state["bandDwell"], lay["hearth"]
        lit, warm = [], []
        for t in range(turns):
            p = t // dwell
            band = 0
            for line in range(p, min(p + width, 7)):
                band |= lines[line]
            mask = 0 if t in clouds else static & band
            lit.append(mask)
            caps = [6 if mask >> x & 1 else 0 for x in range(49)]
            if hearth is not None and t not in clouds and not caps[hearth]:
                caps[hearth] = 3
            warm.append(tuple(caps))
        self.lit = tuple(lit)
        self.warm = tuple(warm)
        # §10 run lengths: run[u][d] = consecutive warm turns of d from u on.
        run: list[tuple[int, ...]] = [(0,) * 49]
        for t in range(turns - 1, -1, -1):
            run.append(tuple(run[-1][x] + 1 if warm[t][x] else 0 for x in range(49)))
        self.run = tuple(reversed(run))
        # §7 step 2/4: tiles whose cats a dog resets while turn t resolves.
        speed = lay["dogSpeed"]
        self.reach = tuple(
            _or(NEAR[loop[(t * speed) % len(loop)]] for loop in lay["dogLoops"])
            for t in range(turns)
        )
        serves: list[list[int]] = [[] for _ in range(turns)]
        stop = [False] * (turns + 1)
        for b in state["bowls"]:
            serves[b["serveTurn"]].append(b["mat"])
            for n in (b["serveTurn"], b["serveTurn"] - 3):  # §8 (c)
                if 0 <= n <= turns:
                    stop[n] = True
        for n in range(1, turns):  # §8 (f)
            if (n in clouds) != (n - 1 in clouds):
                stop[n] = True
        self.serves = tuple(tuple(sorted(m)) for m in serves)
        self.stop = tuple(stop)
        # §6 moves: for each tile and range, the (destination, path mask) pairs in ascending
        # destination order, furniture already cut; a move is legal when no cat is on its path.
        paths: list[list[tuple[tuple[int, int], ...]]] = []
        for x in range(49):
            r, c = divmod(x, 7)
            found: list[tuple[int, int, int]] = []  # (destination, path mask, distance)
            for ddr, ddc in _DIRS:
                mask = 0
                for k in range(1, 5):
                    rr, cc = r + ddr * k, c + ddc * k
                    if not (0 <= rr < 7 and 0 <= cc < 7) or rr * 7 + cc in furn:
                        break
                    mask |= 1 << (rr * 7 + cc)
                    found.append((rr * 7 + cc, mask, k))
            found.sort()
            paths.append([tuple((y, m) for y, m, k in found if k <= rng) for rng in range(5)])
        self.paths = tuple(tuple(per) for per in paths)


def _or(masks: Any) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """Copy of a wire state deep enough that no list or dict is shared with ``state``."""
    s = dict(state)
    s["cats"] = [dict(c) for c in state["cats"]]
    s["bowls"] = [dict(b) for b in state["bowls"]]
    s["dogs"] = list(state["dogs"])
    lay = dict(state["layout"])
    lay["furniture"] = list(lay["furniture"])
    lay["cloudTurns"] = list(lay["cloudTurns"])
    lay["dogLoops"] = [list(loop) for loop in lay["dogLoops"]]
    s["layout"] = lay
    return s


_CACHE: dict[tuple[Any, ...], DayCtx] = {}


def _day_key(state: dict[str, Any]) -> tuple[Any, ...]:
    """Every field a :class:`DayCtx` depends on: states of one day share the key."""
    lay = state["layout"]
    return (
        *(state.get(k) for k in ("seed", "rng")),  # not promised: another server may omit them
        *(state[k] for k in ("day", "turnsInDay", "bandDwell", "bandWidth")),
        *(state[k] for k in ("mult", "dayPar", "dayQuota")),
        *(lay[k] for k in ("window", "hearth", "dogSpeed", "shadeLength", "latticeParity")),
        tuple(lay["furniture"]),
        tuple(lay["cloudTurns"]),
        tuple(tuple(loop) for loop in lay["dogLoops"]),
        tuple((b["mat"], b["serveTurn"]) for b in state["bowls"]),
        tuple((c["range"], c["big"]) for c in state["cats"]),
    )


def day_ctx(state: dict[str, Any]) -> DayCtx:
    """The :class:`DayCtx` of ``state``'s day, reused from a small cache when seen before."""
    key = _day_key(state)
    ctx = _CACHE.get(key)
    if ctx is None:
        if len(_CACHE) >= 256:
            _CACHE.clear()
        ctx = _CACHE[key] = DayCtx(state)
    return ctx


def to_fast(state: dict[str, Any]) -> tuple[DayCtx, FastState]:
    """Split a wire state into its day's :class:`DayCtx` and a fast state."""
    cats = state["cats"]
    head = (
        state["turn"],
        PHASES.index(state["phase"]),
        RESULTS.index(state["result"]),
        state["score"],
        state["chain"],
        state["dayCosyRaw"],
    )
    return day_ctx(state), head + tuple(c["tile"] for c in cats) + tuple(c["settled"] for c in cats)


def from_fast(ctx: DayCtx, fs: FastState) -> dict[str, Any]:
    """The wire state of ``fs`` (dogs placed for the last resolved turn, §12)."""
    s = copy_state(ctx.base)
    n = ctx.n
    s["turn"], s["phase"], s["result"] = fs[TURN], PHASES[fs[PHASE]], RESULTS[fs[RESULT]]
    s["score"], s["chain"], s["dayCosyRaw"] = fs[SCORE], fs[CHAIN], fs[COSY]
    for i, cat in enumerate(s["cats"]):
        cat["tile"], cat["settled"] = fs[CATS + i], fs[CATS + n + i]
    lay = s["layout"]
    idx = max(fs[TURN] - 1, 0) * lay["dogSpeed"]
    s["dogs"] = [loop[idx % len(loop)] for loop in lay["dogLoops"]]
    return s


def _occupied(fs: FastState, n: int) -> int:
    occ = 0
    for x in fs[CATS : CATS + n]:
        occ |= 1 << x
    return occ


def fast_moves(ctx: DayCtx, fs: FastState, cat: int) -> list[int]:
    """Legal MOVE destinations of ``cat`` in ascending tile order (§6)."""
    occ = _occupied(fs, ctx.n)
    return [y for y, m in ctx.paths[fs[CATS + cat]][ctx.ranges[cat]] if not m & occ]


def fast_legal(ctx: DayCtx, fs: FastState) -> list[int]:
    """Legal fast actions in spec order (§6); NEXT_DAY at sunset is left to the dict API."""
    if fs[PHASE] == OVER:
        return []
    if fs[PHASE] == SUNSET:
        return [END_RUN]
    n, paths, ranges = ctx.n, ctx.paths, ctx.ranges
    occ = _occupied(fs, n)
    out: list[int] = []
    for cat in range(n):
        base = cat * 49
        out += [base + y for y, m in paths[fs[CATS + cat]][ranges[cat]] if not m & occ]
    out += [REST, DOZE, END_RUN]
    return out


def _resolve(ctx: DayCtx, fs: FastState, moved: int, dest: int) -> FastState:
    """One turn, §7 steps 1-7 (``moved`` is -1 for REST)."""
    n = ctx.n
    t, _, _, score, chain, cosy = fs[:CATS]
    tiles = list(fs[CATS : CATS + n])
    if moved >= 0:
        tiles[moved] = dest
    reach = ctx.reach[t]
    old = fs[CATS + n :]
    settled = [0 if i == moved or reach >> tiles[i] & 1 else old[i] + 1 for i in range(n)]
    # pile (§7 step 5): settled neighbours by bitmask, heavy cats once more
    weights = ctx.weights
    light = heavy = 0
    for i in range(n):
        if settled[i]:
            light |= 1 << tiles[i]
            if weights[i] == 2:
                heavy |= 1 << tiles[i]
    caps, mult = ctx.warm[t], ctx.mult
    for i in range(n):
        s = settled[i]
        if not s:  # the moved cat, a reset cat: tier 0 earns nothing
            continue
        x = tiles[i]
        cap = caps[x]
        if not cap:
            continue
        nb = NBR[x]
        pile = (nb & light).bit_count() + (nb & heavy).bit_count()
        raw = _RAW[s if s < cap else cap][pile if pile < 6 else 6]
        cosy += raw
        score += (raw * mult + 50) // 100
    for mat in ctx.serves[t]:
        if mat in tiles:
            chain = chain + 1 if chain < 8 else 8
            cosy += 30 * chain
            score += (30 * chain * mult + 50) // 100
        else:
            chain = 0
    t += 1
    phase = result = 0
    if t == ctx.turns:
        if cosy >= ctx.quota:
            phase, score = SUNSET, score + ctx.bonus
        else:
            phase, result = OVER, 3
    return (t, phase, result, score, chain, cosy, *tiles, *settled)


def fast_step(ctx: DayCtx, fs: FastState, action: int) -> FastState:
    """Apply a legal fast action (§7, §8); DOZE resolves the same turns as that many RESTs."""
    if action >= 0:
        return _resolve(ctx, fs, action // 49, action % 49)
    if action == REST:
        return _resolve(ctx, fs, -1, 0)
    if action == END_RUN:
        return (fs[TURN], OVER, 1 if fs[PHASE] == SUNSET else 2, *fs[SCORE:])
    return fast_doze(ctx, fs)[0]


def fast_doze(ctx: DayCtx, fs: FastState) -> tuple[FastState, int]:
    """DOZE (§8): the state after it and the number ``k`` of RESTs it equals."""
    n = ctx.n
    for k in range(1, 5):
        t = fs[TURN]
        fs = _resolve(ctx, fs, -1, 0)
        if fs[PHASE] != DAY or k == 4 or ctx.stop[t + 1]:
            return fs, k
        cats = 0
        for x in fs[CATS : CATS + n]:
            cats |= 1 << x
        if ctx.reach[t + 1] & cats or ctx.lit[t] & ~ctx.lit[t + 1] & cats:
            return fs, k
    raise AssertionError("unreachable")  # pragma: no cover


def fast_reference(ctx: DayCtx, fs: FastState) -> int:
    """The reference policy of §10 on a running day: a MOVE code or :data:`REST`."""
    t = fs[TURN]
    if t >= ctx.turns - 1:
        return REST
    now, nxt, run = ctx.warm[t], ctx.warm[t + 1], ctx.run[t + 1]
    for cat in range(ctx.n):
        x = fs[CATS + cat]
        if now[x] or nxt[x]:
            continue
        best, best_run = -1, 0
        for d in fast_moves(ctx, fs, cat):
            if run[d] > best_run:
                best, best_run = d, run[d]
        if best >= 0:
            return cat * 49 + best
    return REST


def fast_day_par(ctx: DayCtx, fs: FastState) -> int:
    """Raw cosy of the reference policy over the whole day from ``fs`` with chain 0 (§10)."""
    fs = (*fs[:CHAIN], 0, *fs[CHAIN + 1 :])
    while fs[TURN] < ctx.turns:
        fs = fast_step(ctx, fs, fast_reference(ctx, fs))
    return fs[COSY]
