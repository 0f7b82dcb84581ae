"""Keelhold figures quoted in the README.

    python benchmarks/keelhold.py            # all three sections
    python benchmarks/keelhold.py --seeds 50 --server-runs 5

1. Engine placements per second (``step`` including safeBays/listingBays), on the
   first-safe line of play.
2. Moves per second through the in-process server (ASGI transport, tokens, client,
   mirror on), with the safe-greedy strategy.
3. Per strategy on seeds 1..N: median voyage reached, mean score, and whether a
   strategy ever placed outside ``safeBays`` while a safe bay existed.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time

import httpx
import typer

from sunbot import strategies
from sunbot.client import GameboardClient
from sunbot.engines import keelhold as kh
from sunbot.mirror import Mirror
from sunbot.runner import play_run
from sunbot.server import TokenCodec, create_app

app = typer.Typer(add_completion=False)


def engine_speed(seeds: range) -> tuple[int, float]:
    placements, spent = 0, 0.0
    for seed in seeds:
        s = kh.init(seed)
        while not kh.is_over(s):
            if s["phase"] == "port":
                a = {"type": "CAST_OFF"} if s["castOffSafe"] else {"type": "END_RUN"}
            else:
                a = {"type": "PLACE", "bay": s["safeBays"][0]}
                placements += 1
            t0 = time.perf_counter()
            s = kh.step(s, a)
            spent += time.perf_counter() - t0
    return placements, spent


async def server_speed(runs: int) -> tuple[int, float, int]:
    client = GameboardClient(transport=httpx.ASGITransport(app=create_app(TokenCodec())))
    steps, divergences = 0, 0
    t0 = time.perf_counter()
    async with client:
        for seed in range(1, runs + 1):
            bot = strategies.create("keelhold", "safe-greedy", random.Random(seed))
            s = await play_run(client, "keelhold", seed, bot, mirror=Mirror("keelhold"))
            steps += s.steps
            divergences += len(s.divergences)
    return steps, time.perf_counter() - t0, divergences


def strategy_run(name: str, seed: int) -> tuple[int, int, bool, float]:
    bot = strategies.create("keelhold", name, random.Random(seed))
    s = kh.init(seed)
    unsafe = False
    decide = 0.0
    while not kh.is_over(s):
        t0 = time.perf_counter()
        a = bot.choose(kh.observation(s), kh.legal_actions(s))
        decide += time.perf_counter() - t0
        if a["type"] == "PLACE" and s["safeBays"] and a["bay"] not in s["safeBays"]:
            unsafe = True
        s = kh.step(s, a)
    return s["voyage"], s["score"], unsafe, decide / max(1, s["turn"])


@app.command()
def main(seeds: int = 50, server_runs: int = 5, engine_seeds: int = 50) -> None:
    """Print the Keelhold benchmark figures."""
    n, spent = engine_speed(range(1, engine_seeds + 1))
    print(
        f"engine: {n} placements in {spent:.2f} s = {n / spent:,.0f} placements/s "
        "(safeBays included)"
    )
    steps, wall, div = asyncio.run(server_speed(server_runs))
    print(
        f"in-process server + client + mirror: {steps} moves in {wall:.2f} s = "
        f"{steps / wall:,.0f} moves/s, {div} divergences"
    )
    print(f"strategies on seeds 1-{seeds}:")
    for name in ("safe-greedy", "first-safe", "random"):
        rows = [strategy_run(name, seed) for seed in range(1, seeds + 1)]
        voyages = [r[0] for r in rows]
        print(
            f"  {name:12s} median voyage {statistics.median(voyages):5.1f}  "
            f"mean score {statistics.mean(r[1] for r in rows):10,.0f}  "
            f"voyage>=10 on {sum(v >= 10 for v in voyages)}/{seeds}  "
            f"unsafe choice while safe existed: {'YES' if any(r[2] for r in rows) else 'never'}  "
            f"decision {1000 * statistics.mean(r[3] for r in rows):.2f} ms"
        )


if __name__ == "__main__":
    app()
