"""Keelhold figures quoted in the README.

    python benchmarks/keelhold.py                       # all sections, seeds 1-50
    python benchmarks/keelhold.py --seeds 50 --max-voyages 0 --workers 2   # uncapped runs
    python benchmarks/keelhold.py --compare planner-v2,planner --first 7001 --seeds 40 --workers 2

1. Engine placements per second (``step`` including safeBays/listingBays), on the
   first-safe line of play.
2. Moves per second through the in-process server (ASGI transport, tokens, client,
   mirror on), with the safe-greedy baseline (its runs are short).
3. Per strategy on seeds 1..N (engine only, no HTTP): median voyage reached, mean score,
   runs ending before voyage 21, whether it ever placed outside ``safeBays`` while a safe
   bay existed, and the decision time (mean and p95 over every choice). The default
   ``planner`` is printed next to ``clairvoyant``, a reference that reads the local
   server's cursor (NOT playable against a live server), as a ratio.

4. ``--compare OLD,NEW`` (instead of 1-3): both strategies on the same seeds, each seed's
   pair in one process with the order alternated by seed parity (so both see the same load):
   per strategy the runs that reached the cap, the voyages and causes of the others, the
   mean score and the decision time (wall clock and CPU), then NEW / OLD mean score and
   decision p95. ``planner-v2`` is the default before the long-horizon hold terms.

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
    cpu: list[float] = field(default_factory=list)


def strategy_run(job: tuple[str, int, int]) -> Run:
    """Play ``(strategy, seed, max_voyages)`` on the engine; 0 means no cap."""
    name, seed, cap = job
    bot = strategies.create("keelhold", name, random.Random(seed))
    strategies.notify_start(bot, "keelhold", seed, cap or None)
    s = kh.init(seed)
    unsafe = False
    times: list[float] = []
    cpu: list[float] = []
    while not kh.is_over(s):
        if cap and s["phase"] == "port" and s["voyage"] >= cap:
            s = kh.step(s, {"type": "END_RUN"})
            break
        observation, legal = kh.observation(s), kh.legal_actions(s)
        t0, c0 = time.perf_counter(), time.process_time()
        a = bot.choose(observation, legal)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if a["type"] == "PLACE" and s["safeBays"] and a["bay"] not in s["safeBays"]:
            unsafe = True
        s = kh.step(s, a)
    return Run(s["voyage"], s["score"], s["cause"], unsafe, times, cpu)


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


def _pair(job: tuple[str, str, int, int]) -> dict[str, Run]:
    """One seed of :func:`compare`: both strategies, the order alternated by seed parity."""
    old, new, seed, cap = job
    order = (old, new) if seed % 2 else (new, old)
    return {name: strategy_run((name, seed, cap)) for name in order}


def _compare_line(name: str, rows: list[Run], cap: int) -> str:
    made = [bool(cap) and r.cause == "ended" and r.voyage == cap for r in rows]
    others = ", ".join(f"v{r.voyage} {r.cause}" for r, m in zip(rows, made, strict=True) if not m)
    times = [t for r in rows for t in r.decisions]
    cpu = [t for r in rows for t in r.cpu]
    return (
        f"  {name:12s} reached voyage {cap}'s port: {sum(made)}/{len(rows)}  "
        f"mean score {statistics.mean(r.score for r in rows):13,.0f}  "
        f"decision mean {1000 * statistics.mean(times or [0.0]):.2f} ms "
        f"p95 {1000 * p95(times):.2f} ms (CPU p95 {1000 * p95(cpu):.2f} ms)"
        + (f"\n  {'':12s} the others ended at: {others}" if others else "")
    )


def compare(old: str, new: str, seeds: range, cap: int, workers: int) -> None:
    """``old`` and ``new`` on the same seeds (see the module docstring, section 4)."""
    runs: dict[str, list[Run]] = {old: [], new: []}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = [(old, new, seed, cap) for seed in seeds]
        for seed, pair in zip(seeds, pool.map(_pair, jobs), strict=True):
            for name in (old, new):
                runs[name].append(pair[name])
            a, b = pair[old], pair[new]
            print(
                f"  seed {seed}: {old} v{a.voyage} {a.cause} {a.score:,}  "
                f"{new} v{b.voyage} {b.cause} {b.score:,}",
                flush=True,
            )
    for name in (old, new):
        print(_compare_line(name, runs[name], cap))
    a_scores, b_scores = ([r.score for r in runs[k]] for k in (old, new))
    ahead = sum(y > x for x, y in zip(a_scores, b_scores, strict=True))
    ta, tb = ([t for r in runs[k] for t in r.decisions] for k in (old, new))
    ca, cb = ([t for r in runs[k] for t in r.cpu] for k in (old, new))
    print(
        f"{new} / {old}: mean score "
        f"{statistics.mean(b_scores) / statistics.mean(a_scores):.3f} ({new} ahead on "
        f"{ahead}/{len(a_scores)} seeds), decision p95 {p95(tb) / p95(ta):.2f} "
        f"(CPU p95 {p95(cb) / p95(ca):.2f})  [{time.perf_counter() - t0:.0f} s wall]"
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
    first: int = typer.Option(1, help="the first seed: seeds FIRST..FIRST+SEEDS-1"),
    compare_names: str = typer.Option(
        "",
        "--compare",
        help="OLD,NEW: play both on the same seeds and print NEW / OLD (e.g. "
        "planner-v2,planner); nothing else is measured then",
    ),
) -> None:
    """Print the Keelhold benchmark figures."""
    if compare_names:
        pair = [n.strip() for n in compare_names.split(",")]
        if len(pair) != 2 or not all(pair):
            raise typer.BadParameter("--compare takes two names: OLD,NEW")
        cap_text = f"capped at voyage {max_voyages}" if max_voyages else "uncapped"
        print(
            f"Keelhold, {pair[1]} vs {pair[0]} on seeds {first}-{first + seeds - 1} ({cap_text}):"
        )
        compare(pair[0], pair[1], range(first, first + seeds), max_voyages, workers)
        return
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
    print(f"strategies on seeds {first}-{first + seeds - 1} ({cap_text}):")
    names = [DEFAULT, REFERENCE, *(BASELINES if baselines else ())]
    results: dict[str, list[Run]] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name in names:
            jobs = [(name, seed, max_voyages) for seed in range(first, first + seeds)]
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
