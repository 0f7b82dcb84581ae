"""Runs under injected faults must end exactly like fault-free runs.

    python benchmarks/faults.py --runs 10

Starts two ``sunbot serve`` processes on loopback, one clean and one with
``--faults 429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01`` (Retry-After 1 s, slow
answers 3 s against a 2 s client timeout), plays the same Keelhold (safe-greedy, 4 voyages)
and Sunloaf (reference, 5 days) runs on both with the normal client and its retry policy,
and prints the share of faulted runs whose final state, score and step count equal the
clean run's, with the retries they needed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time

import typer
from serve_process import start_serve

from sunbot import strategies
from sunbot.client import GameboardClient, RetryPolicy
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.runs.summary import RunSummary

app = typer.Typer(add_completion=False)
FAULTS = "429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01,retry-after=1,slow-seconds=3"
GAMES = (("keelhold", "safe-greedy", 4), ("sunloaf", "reference", 5))


async def _run(url: str, game: str, strategy: str, seed: int, cap: int) -> RunSummary:
    policy = RetryPolicy(attempts=10, total_seconds=120)
    bot = strategies.create(game, strategy, random.Random(seed))
    async with GameboardClient(url, policy=policy, timeout=2.0) as client:
        return await play_run(client, game, seed, bot, cap=cap, mirror=Mirror(game))


@app.command()
def main(runs: int = 10) -> None:
    """Print how many faulted runs ended identically to their clean twin."""
    os.environ.setdefault("SUNBOT_SUNLOAF_BUDGET_MS", "none")
    logging.getLogger("sunbot.client").setLevel(logging.ERROR)  # the retries are counted
    clean, clean_url = start_serve([], "critical")
    faulty, faulty_url = start_serve(["--faults", FAULTS, "--fault-seed", "1"], "critical")
    same = total = retries = 0
    started = time.perf_counter()
    try:
        for game, strategy, cap in GAMES:
            for seed in range(1, runs + 1):
                a = asyncio.run(_run(clean_url, game, strategy, seed, cap))
                b = asyncio.run(_run(faulty_url, game, strategy, seed, cap))
                total += 1
                retries += b.retries
                ok = (a.final_state, a.score, a.steps) == (b.final_state, b.score, b.steps)
                same += ok and b.ended_by == a.ended_by and not b.divergences
                print(
                    f"{game} seed {seed}: {'identical' if ok else 'DIFFERENT'} "
                    f"({b.steps} steps, {b.retries} retries, ended by {b.ended_by})"
                )
    finally:
        for proc in (clean, faulty):
            proc.terminate()
            proc.wait(timeout=10)
    wall = time.perf_counter() - started
    print(
        f"faults {FAULTS}: {same}/{total} runs identical to the fault-free run "
        f"({100 * same / total:.0f}%), {retries} retries in all, {wall:.0f} s"
    )


if __name__ == "__main__":
    app()
