"""Harvest Watch strategy figures quoted in the README (engines directly: no HTTP, no clock).

    python benchmarks/harvest_watch.py                    # 300 matches per row
    python benchmarks/harvest_watch.py --matches 100 --strategies coalition,random

Rows:

1. each strategy in one seat against five house bots (seat drawn by the match RNG exactly as
   the server draws it, house bots called in ascending seat order as each beat opens);
2. ``coalition`` in all six seats (every seat's finish is counted: six per match).

Per row: the **rank-1 rate** (sole wins and shared rank 1 both count: a draw is a rank-1
finish for every seat in it, ``shared/spec/harvest-watch.md`` §3.9) with its 95% Wilson
interval, the sole-win rate, and the **win share** (a draw among k seats counts 1/k, so a
table of identical strategies averages exactly 1/6 per seat). A random seat's rank-1 rate
against itself would be at least 1/6. ``--timing`` adds the wall time of each ``choose``
call on action beats (the planner's beats; the others take microseconds): p50 / p95 / max.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import typer

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.observations.harvest_watch import legal_actions
from sunbot.server.match_state import SEATS, seat_data

app = typer.Typer(add_completion=False)
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``successes`` of ``n``)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_engine_match(
    seed: int,
    makers: list[Callable[[random.Random], Any]],
    times: list[float] | None = None,
) -> tuple[list[int], list[int], dict[str, Any]]:
    """One match with ``len(makers)`` strategy seats and house bots in the rest.

    Seats are drawn like the server (``random.Random(seed).sample``), strategy ``i`` plays
    the ``i``-th drawn seat with its own ``random.Random(seed * 1000 + i)``. Returns the
    strategy seats, their ranks and the final state. ``times`` collects the seconds of
    every strategy ``choose`` on an action beat.
    """
    rng = random.Random(seed)
    seats = sorted(rng.sample(range(SEATS), len(makers)))
    pairs = enumerate(zip(seats, makers, strict=True))
    bots = {s: mk(random.Random(seed * 1000 + i)) for i, (s, mk) in pairs}
    house = [s for s in range(SEATS) if s not in bots]
    memory: dict[int, dict[str, Any]] = {s: {} for s in house}
    state = hw.init(seed, SEATS)
    while state["status"] != "done":
        commands: dict[int, list[Any]] = {}
        for s in house:
            if state["alive"][s]:
                cmd = hw.house_command(state, s, memory[s], rng, house_seats=house)
                commands[s] = [cmd]
        for s, bot in bots.items():
            if state["alive"][s]:
                data = seat_data(state, s, can_act=True, pending=None)
                t0 = time.perf_counter()
                commands[s] = [bot.choose(data, legal_actions(data))]
                if times is not None and state["phase"] == "action":
                    times.append(time.perf_counter() - t0)
        state = hw.resolve_beat(state, commands)
    ranks = state["result"]["ranks"]
    return seats, [ranks[s] for s in seats], state


@dataclass
class Row:
    """One benchmark row's tallies."""

    name: str
    matches: int = 0
    finishes: int = 0
    rank1: int = 0
    sole: int = 0
    share: float = 0.0
    seconds: float = 0.0
    times: list[float] = field(default_factory=list)

    def line(self) -> str:
        """The printed row."""
        n = self.finishes
        lo, hi = wilson(self.rank1, n)
        ci = f"[{lo:5.1%}, {hi:5.1%}]"
        per = ""
        if n != self.matches:  # the seats of one match are not independent draws: no interval
            ci, per = f"{'(per seat)':<16}", f", {n // self.matches} seats each"
        out = (
            f"{self.name:<28} rank-1 {self.rank1 / n:6.1%} {ci}  "
            f"sole wins {self.sole / n:6.1%}  win share {self.share / n:6.1%}  "
            f"({self.matches} matches{per}, {self.seconds:.1f} s)"
        )
        if self.times:
            p50, p95, top = percentiles(self.times)
            out += f"  action choose p50/p95/max {p50:.1f}/{p95:.1f}/{top:.1f} ms"
        return out


def percentiles(seconds: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max of ``seconds``, in ms (nearest rank)."""
    ms = sorted(x * 1000 for x in seconds)
    rank = lambda q: ms[min(len(ms) - 1, max(0, math.ceil(q * len(ms)) - 1))]  # noqa: E731
    return rank(0.50), rank(0.95), ms[-1]


def run_row(
    name: str, makers: list[Callable[[random.Random], Any]], matches: int, timing: bool = False
) -> Row:
    """Play ``matches`` matches (seeds 1..N) and tally every strategy seat's finish."""
    row = Row(name)
    t0 = time.perf_counter()
    for seed in range(1, matches + 1):
        _, ranks, state = play_engine_match(seed, makers, row.times if timing else None)
        firsts = state["result"]["ranks"].count(1)
        row.matches += 1
        for rank in ranks:
            row.finishes += 1
            if rank == 1:
                row.rank1 += 1
                row.sole += firsts == 1
                row.share += 1 / firsts
    row.seconds = time.perf_counter() - t0
    return row


def maker(name: str) -> Callable[[random.Random], Any]:
    """A factory for strategy ``name`` of Harvest Watch."""
    return lambda rng: strategies.create("harvest-watch", name, rng)


@app.command()
def main(
    matches: int = typer.Option(300, help="Matches per row (seeds 1..N)."),
    names: str = typer.Option(
        "coalition,guard,farmer,random,house", "--strategies", help="Rows vs 5 house bots."
    ),
    table: bool = typer.Option(True, help="Also the all-six-coalition row."),
    timing: bool = typer.Option(False, help="Time each choose on action beats."),
) -> None:
    """Print the rank-1 rate (95% Wilson interval), sole wins and win share per row."""
    for name in names.split(","):
        row = run_row(f"{name} vs 5 house", [maker(name)], matches, timing)
        print(row.line(), flush=True)
    if table:
        row = run_row("coalition x6", [maker("coalition")] * SEATS, matches, timing)
        print(row.line(), flush=True)


if __name__ == "__main__":
    app()
