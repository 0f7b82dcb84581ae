"""Sunloaf engine speed: dict-API turns/s against the fast form's turns/s.

Run: ``python benchmarks/bench_sunloaf_engine.py [seconds-per-measure]``. Each measure plays
random legal day actions (no END_RUN; a new room at each day end) from many seeds; "step"
times only the transition, "legal+step" also lists the legal actions first, as a planner does.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast


def _days(seeds: int) -> list[dict[str, Any]]:
    return [sl.init(seed) for seed in range(seeds)]


def _measure(run_turn: Callable[[], int], seconds: float) -> float:
    turns, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(200):
            turns += run_turn()
    return turns / elapsed


def sl_move(tile: int) -> dict[str, Any]:
    return {"type": "MOVE", "cat": 0, "tile": tile}


def bench_dict(seconds: float, with_legal: bool) -> float:
    rnd, starts = random.Random(1), _days(50)
    state = {"s": starts[0]}
    rest: dict[str, Any] = {"type": "REST"}

    def turn() -> int:
        s = state["s"]
        if s["phase"] != "day":
            s = state["s"] = rnd.choice(starts)
        if with_legal:
            a = rnd.choice(sl.legal_actions(s)[:-1])
        else:
            dests = sl.destinations(s, 0)
            a = rest if not dests or rnd.random() < 0.5 else sl_move(dests[0])
        t = sl.step(s, a)
        state["s"] = t
        return int(t["turn"] - s["turn"])

    return _measure(turn, seconds)


def bench_fast(seconds: float, with_legal: bool) -> float:
    rnd = random.Random(1)
    days = [fast.to_fast(s) for s in _days(50)]
    cur: list[Any] = list(days[0])

    def turn() -> int:
        ctx, fs = cur
        if fs[fast.PHASE] != fast.DAY:
            ctx, fs = cur[:] = rnd.choice(days)
        if with_legal:
            a = rnd.choice(fast.fast_legal(ctx, fs)[:-1])
        else:
            moves = fast.fast_moves(ctx, fs, 0)
            a = fast.REST if not moves or rnd.random() < 0.5 else moves[0]
        nxt = fast.fast_step(ctx, fs, a)
        cur[1] = nxt
        return int(nxt[fast.TURN] - fs[fast.TURN])

    return _measure(turn, seconds)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for label, fn in (("dict API", bench_dict), ("fast form", bench_fast)):
        for with_legal in (False, True):
            rate = fn(seconds, with_legal)
            mode = "legal+step" if with_legal else "step      "
            print(f"{label:9s} {mode}: {rate:>10,.0f} turns/s")


if __name__ == "__main__":
    main()
