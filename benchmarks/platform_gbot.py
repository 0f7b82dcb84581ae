"""G-Bot's checkers reply time on the platform test server, by search depth.

Run: ``nice python benchmarks/platform_gbot.py [games]``. Plays ``games`` games (default 6)
of a seeded random red player against G-Bot at each depth, in one process, and prints per
depth the replies timed, their mean and largest time, and the mean as a ratio of depth 2's.
The replies are G-Bot's whole ``act`` call (your move, its search, the answer).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from sunbot.testing.platform import create_platform_app


def replies(depth: int, games: int) -> list[float]:
    """The seconds of every reply of ``games`` games at ``depth``."""
    game = create_platform_app(checkers_depth=depth).state.games["checkers"]
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        answer = game.init(seed)
        while not answer["gameOver"]:
            t0 = time.perf_counter()
            answer = game.act({"state": answer["state"],
                               "action": rng.choice(answer["legalActions"])})  # fmt: skip
            out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    base = 0.0
    print("depth  replies  mean ms  max ms  mean / depth 2")
    for depth in (2, 4, 6):
        got = replies(depth, games)
        mean = statistics.fmean(got)
        base = base or mean
        print(f"{depth:5d}  {len(got):7d}  {mean * 1e3:7.1f}  {max(got) * 1e3:6.1f}  "
              f"{mean / base:14.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
