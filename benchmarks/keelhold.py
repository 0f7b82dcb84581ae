"""Keelhold figures quoted in the README.

    python benchmarks/keelhold.py                       # all sections, seeds 1-50
    python benchmarks/keelhold.py --seeds 50 --max-voyages 0 --workers 2   # uncapped runs

1. Engine placements per second (``step`` including safeBays/listingBays), on the
   first-safe line of play.
2. Moves per second through the in-process server (ASGI transport, tokens, client,
   mirror on), with the safe-greedy baseline (its runs are short).
3. Per strategy on seeds 1..N (engine only, no HTTP): median voyage reached, mean score,
   runs ending before voyage 21, whether it ever placed outside ``safeBays`` while a safe
   bay existed, and the decision time (mean and p95 over every choice). The default
   ``planner`` is printed next to ``clairvoyant``, a reference that reads the local
   server's cursor (NOT playable against a live server), as a ratio.

The default planner's runs last hundreds of voyages (up to the rules' 20,000-placement
guard), so runs are capped by default: at the port of voyage ``--max-voyages`` the run ends
(END_RUN, as ``sunbot play --max-voyages`` does). A capped run's score is a lower bound of
its uncapped score; ``--max-voyages 0`` plays to the rules' end.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import httpx
import typer

from sunbot import strategies
from sunbot.client import GameboardClient
from sunbot.engines import keelhold as kh
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app

app = typer.Typer(add_completion=False)

DEFAULT = "planner"
REFERENCE = "clairvoyant"
BASELINES = ("safe-greedy", "first-safe", "random")


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


@dataclass
class Run:
    """One run's outcome: voyage reached, score, cause, unsafe choice, decision times (s)."""

    voyage: int
    score: int
    cause: str | None
    unsafe: bool
    decisions: list[float] = field(default_factory=list)


def strategy_run(job: tuple[str, int, int]) -> Run:
    """Play ``(strategy, seed, max_voyages)`` on the engine; 0 means no cap."""
    name, seed, cap = job
    bot = strategies.create("keelhold", name, random.Random(seed))
    strategies.notify_start(bot, "keelhold", seed, cap or None)
    s = kh.init(seed)
    unsafe = False
    times: list[float] = []
    while not kh.is_over(s):
        if cap and s["phase"] == "port" and s["voyage"] >= cap:
            s = kh.step(s, {"type": "END_RUN"})
            break
        t0 = time.perf_counter()
        a = bot.choose(kh.observation(s), kh.legal_actions(s))
        times.append(time.perf_counter() - t0)
        if a["type"] == "PLACE" and s["safeBays"] and a["bay"] not in s["safeBays"]:
            unsafe = True
        s = kh.step(s, a)
    return Run(s["voyage"], s["score"], s["cause"], unsafe, times)


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summarize(name: str, rows: list[Run], cap: int) -> str:
    voyages = [r.voyage for r in rows]
    times = [t for r in rows for t in r.decisions]
    capped = sum(r.cause == "ended" and r.voyage == cap for r in rows) if cap else 0
    return (
        f"  {name:12s} median voyage {statistics.median(voyages):6.1f}  "
        f"mean score {statistics.mean(r.score for r in rows):13,.0f}  "
        f"ended before voyage 21: {sum(v < 21 for v in voyages):2d}  "
        f"reached the cap: {capped:2d}  "
        f"unsafe choice while safe existed: {'YES' if any(r.unsafe for r in rows) else 'never'}  "
        f"decision mean {1000 * statistics.mean(times or [0.0]):.2f} ms "
        f"p95 {1000 * p95(times):.2f} ms"
    )


@app.command()
def main(
    seeds: int = 50,
    server_runs: int = 5,
    engine_seeds: int = 50,
    max_voyages: int = typer.Option(100, help="END_RUN at this voyage's port; 0: no cap"),
    workers: int = typer.Option(1, min=1, help="processes for the strategy runs"),
    baselines: bool = typer.Option(True, help="also play safe-greedy, first-safe, random"),
    sections: str = typer.Option("engine,server,strategies", help="comma-separated subset"),
) -> None:
    """Print the Keelhold benchmark figures."""
    wanted = set(sections.split(","))
    if "engine" in wanted:
        n, spent = engine_speed(range(1, engine_seeds + 1))
        print(
            f"engine: {n} placements in {spent:.2f} s = {n / spent:,.0f} placements/s "
            "(safeBays included)"
        )
    if "server" in wanted:
        steps, wall, div = asyncio.run(server_speed(server_runs))
        print(
            f"in-process server + client + mirror (safe-greedy): {steps} moves in "
            f"{wall:.2f} s = {steps / wall:,.0f} moves/s, {div} divergences"
        )
    if "strategies" not in wanted:
        return
    cap_text = f"capped at voyage {max_voyages}" if max_voyages else "uncapped"
    print(f"strategies on seeds 1-{seeds} ({cap_text}):")
    names = [DEFAULT, REFERENCE, *(BASELINES if baselines else ())]
    results: dict[str, list[Run]] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name in names:
            jobs = [(name, seed, max_voyages) for seed in range(1, seeds + 1)]
            results[name] = list(pool.map(strategy_run, jobs))
            print(summarize(name, results[name], max_voyages), flush=True)
    mine, ref = results[DEFAULT], results[REFERENCE]
    ratio_score = statistics.mean(r.score for r in mine) / statistics.mean(r.score for r in ref)
    ratio_voyage = statistics.median(r.voyage for r in mine) / statistics.median(
        r.voyage for r in ref
    )
    better = sum(a.score >= b.score for a, b in zip(mine, ref, strict=True))
    print(
        f"{DEFAULT} / {REFERENCE} (reads the local cursor: NOT playable on a live server): "
        f"mean score x{ratio_score:.3f}, median voyage x{ratio_voyage:.3f}, "
        f"{DEFAULT} scores at least as much on {better}/{seeds} seeds  "
        f"[{time.perf_counter() - t0:.0f} s wall for the strategy runs]"
    )


if __name__ == "__main__":
    app()
