"""Naptuft figures quoted in the README (engine only, no HTTP).

    python benchmarks/naptuft.py                   # seeds 1-200, 30-day cap, all strategies
    python benchmarks/naptuft.py --seeds 50 --days 10 --strategies balancer,rotation

Each run is played on the engine like the runner plays it: the strategy chooses from the
observation and the legal actions, and at the day break of the last allowed day the harness
sends end-run (spec naptuft.md §9: compare bots only at the same cap and seeds). The
clairvoyant is the local-only upper bound: it is given the seed and the cap.

Per strategy: fatal runs, mean score per day (score / days played, days played = the day
reached), mean final score, the lowest need ever seen, and the decision time of ``choose``
(p50, p95, max over every decision, next-day included). Then the balancer against the targets:
0 fatal runs, mean score per day >= 90% of the clairvoyant's, decisions p95 <= 50 ms.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

import typer

from sunbot import strategies
from sunbot.engines import naptuft as nt
from sunbot.strategies.naptuft import Clairvoyant

app = typer.Typer(add_completion=False)
END_RUN = {"type": "end-run"}


@dataclass
class Tally:
    """One strategy's runs: scores, days played, fatal count, lowest need, decision times."""

    scores: list[int] = field(default_factory=list)
    days: list[int] = field(default_factory=list)
    fatal: int = 0
    lowest: int = 100
    times: list[float] = field(default_factory=list)

    @property
    def per_day(self) -> float:
        return statistics.mean(s / d for s, d in zip(self.scores, self.days, strict=True))

    def pct(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def play(name: str, seed: int, cap: int, tally: Tally) -> None:
    bot = strategies.create("naptuft", name, random.Random(seed))
    if isinstance(bot, Clairvoyant):
        bot.day_cap = cap
    on_start = getattr(bot, "on_start", None)
    if callable(on_start):
        on_start("naptuft", seed)
    s = nt.init(seed)
    while not nt.is_over(s):
        if s["phase"] == "dayBreak" and s["day"] >= cap:
            s = nt.step(s, END_RUN)
            break
        obs, legal = nt.observation(s), nt.legal_actions(s)
        t0 = time.perf_counter()
        action = bot.choose(obs, legal)
        tally.times.append(time.perf_counter() - t0)
        s = nt.step(s, action)
        tally.lowest = min(tally.lowest, *s["needs"].values())
    tally.scores.append(s["score"])
    tally.days.append(s["day"])
    tally.fatal += s["result"] == "fatal"


@app.command()
def main(
    seeds: int = 200,
    days: int = 30,
    names: str = typer.Option("balancer,clairvoyant,rotation,random", "--strategies"),
) -> None:
    """Print the Naptuft benchmark figures."""
    print(f"Naptuft, seeds 1-{seeds}, cap {days} days (end-run at its day break)")
    tallies: dict[str, Tally] = {}
    for name in names.split(","):
        tally = tallies[name] = Tally()
        t0 = time.perf_counter()
        for seed in range(1, seeds + 1):
            play(name, seed, days, tally)
        print(
            f"  {name:12s} fatal {tally.fatal:3d}/{seeds}  "
            f"score/day {tally.per_day:8.1f}  mean score {statistics.mean(tally.scores):9,.0f}  "
            f"mean days {statistics.mean(tally.days):5.1f}  lowest need {tally.lowest:3d}  "
            f"decision p50 {tally.pct(0.5):.3f} ms p95 {tally.pct(0.95):.2f} ms "
            f"max {tally.pct(1.0):.1f} ms  ({time.perf_counter() - t0:.0f} s)"
        )
    bal, clair = tallies.get("balancer"), tallies.get("clairvoyant")
    if bal is not None and clair is not None:
        ratio = bal.per_day / clair.per_day
        ok = bal.fatal == 0 and ratio >= 0.9 and bal.pct(0.95) <= 50
        print(
            f"balancer vs targets: fatal {bal.fatal} (0), score/day {100 * ratio:.2f}% of "
            f"clairvoyant (>= 90%), p95 {bal.pct(0.95):.2f} ms (<= 50): "
            f"{'MET' if ok else 'MISSED'}"
        )


if __name__ == "__main__":
    app()
