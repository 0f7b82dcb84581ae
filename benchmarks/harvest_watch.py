"""Harvest Watch strategy figures quoted in the README (engines directly: no HTTP, no clock).

    python benchmarks/harvest_watch.py --suite --timing          # every table, 300 matches
    python benchmarks/harvest_watch.py --table guard,guard,guard,guard,guard
    python benchmarks/harvest_watch.py --ours coalition --table house,house,guard,guard,random
    python benchmarks/harvest_watch.py --strategies coalition,random --six   # older rows

Rows:

1. ``--table A,B,C,D,E`` (repeatable) and ``--suite`` (every table of :data:`SUITE`): our
   strategy (``--ours``, default: the registry's default) against the five named seats
   (registered strategy names, or ``house`` for an engine house bot of §2.7 that pairs
   with the other house seats); the six players are dealt to seats by a uniform shuffle
   of the match seed, so our seat is uniform over 0-5;
2. ``--strategies a,b``: each strategy in the seat the server would draw (the match RNG),
   house bots in the other five (the figures quoted before seat shuffling);
3. ``--six``: ``coalition`` in all six seats (every seat's finish is counted: six per match).

Per row: the **rank-1 rate** (sole wins and shared rank 1 both count: a draw is a rank-1
finish for every seat in it, Harvest Watch §3.9, "Ranks") and the **sole-win
rate**, each with its 95% Wilson interval, and the **win share** (a draw among k seats
counts 1/k, so a table of identical strategies averages exactly 1/6 per seat) with a
normal 95% interval. ``--timing`` adds the wall time of each of our ``choose`` calls on
action beats (the planner's beats; the others take microseconds): p50 / p95 / max.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.observations.harvest_watch import legal_actions
from sunbot.server.match_state import SEATS

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


def play_loop(
    seed: int,
    rng: random.Random,
    bots: dict[int, Any],
    house: list[int],
    timed: set[int],
    times: list[float] | None,
) -> dict[str, Any]:
    """Play match ``seed`` to its end: engine house bots in ``house`` (drawing from the
    match RNG ``rng``, in ascending seat order as each beat opens), strategies ``bots`` by
    seat. ``times`` collects the seconds of every ``choose`` of a ``timed`` seat on an
    action beat. Returns the final state."""
    memory: dict[int, dict[str, Any]] = {s: {} for s in house}
    state = hw.init(seed, SEATS)
    while state["status"] != "done":
        commands: dict[int, list[Any]] = {}
        for s in house:
            if state["alive"][s]:
                commands[s] = [hw.house_command(state, s, memory[s], rng, house_seats=house)]
        for s, bot in sorted(bots.items()):
            if state["alive"][s]:
                data = seat_data(state, s, can_act=True, pending=None)
                t0 = time.perf_counter()
                commands[s] = [bot.choose(data, legal_actions(data))]
                if times is not None and s in timed and state["phase"] == "action":
                    times.append(time.perf_counter() - t0)
        state = hw.resolve_beat(state, commands)
    return state


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
    state = play_loop(seed, rng, bots, house, set(bots), times)
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
    shares: list[float] = field(default_factory=list)

    def line(self) -> str:
        """The printed row: rate [95% Wilson] for rank-1 and sole wins, win share with a
        normal 95% interval (over matches; only when every finish is its own match)."""
        n = self.finishes
        per = ""
        if n == self.matches:
            r_lo, r_hi = wilson(self.rank1, n)
            s_lo, s_hi = wilson(self.sole, n)
            rank1 = f"{self.rank1 / n:6.1%} [{r_lo:5.1%}, {r_hi:5.1%}]"
            sole = f"{self.sole / n:6.1%} [{s_lo:5.1%}, {s_hi:5.1%}]"
        else:  # the seats of one match are not independent draws: no interval
            rank1, sole = f"{self.rank1 / n:6.1%}", f"{self.sole / n:6.1%}"
            per = f", {n // self.matches} seats each"
        share = f"{self.share / n:6.1%}"
        if self.shares and len(self.shares) == n and n > 1:
            mean = self.share / n
            var = sum((x - mean) ** 2 for x in self.shares) / (n - 1)
            half = Z95 * math.sqrt(var / n)
            share += f" [{max(0.0, mean - half):5.1%}, {min(1.0, mean + half):5.1%}]"
        out = (
            f"{self.name:<44} rank-1 {rank1}  sole wins {sole}  win share {share}  "
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


def play_table_match(
    seed: int,
    ours: Callable[[random.Random], Any],
    table: list[str],
    times: list[float] | None = None,
) -> tuple[int, list[int]]:
    """One match of ``ours`` against the five seats named in ``table``.

    ``table`` holds five names: a registered Harvest Watch strategy or ``house`` (an engine
    house bot, §2.7, pairing only with the other house seats and drawing from the match
    RNG as the server's do). The six players are dealt to seats 0-5 by a uniform shuffle
    of ``random.Random(seed)``, so our seat is uniform over the six. Every strategy seat
    ``i`` (ours is 0) gets its own ``random.Random(seed * 1000 + i)``. Returns our seat and
    the final ranks (index = seat).

    Raises:
        ValueError: ``table`` does not name five seats.
    """
    if len(table) != SEATS - 1:
        raise ValueError(f"a table names the other {SEATS - 1} seats, got {len(table)}")
    rng = random.Random(seed)
    players: list[str | None] = [None, *table]  # None = ours
    order = list(range(SEATS))
    rng.shuffle(order)  # order[i] = the seat of player i
    me = order[0]
    house = sorted(order[i] for i, name in enumerate(players) if name == "house")
    bots: dict[int, Any] = {me: ours(random.Random(seed * 1000))}
    for i, name in enumerate(players[1:], start=1):
        if name != "house":
            assert name is not None
            bots[order[i]] = maker(name)(random.Random(seed * 1000 + i))
    state = play_loop(seed, rng, bots, house, {me}, times)
    return me, list(state["result"]["ranks"])


def run_table(
    ours: str, table: list[str], matches: int, timing: bool = False, first_seed: int = 1
) -> Row:
    """``matches`` matches (seeds ``first_seed``...) of ``ours`` against ``table``."""
    row = Row(f"{ours} vs {','.join(table)}")
    t0 = time.perf_counter()
    make = maker(ours)
    for seed in range(first_seed, first_seed + matches):
        me, ranks = play_table_match(seed, make, table, row.times if timing else None)
        firsts = ranks.count(1)
        row.matches += 1
        row.finishes += 1
        if ranks[me] == 1:
            row.rank1 += 1
            row.sole += firsts == 1
            row.share += 1 / firsts
            row.shares.append(1 / firsts)
        else:
            row.shares.append(0.0)
    row.seconds = time.perf_counter() - t0
    return row


#: The tables ``--suite`` runs: house bots, each baseline, and mixes of them.
SUITE = (
    "house,house,house,house,house",
    "random,random,random,random,random",
    "house,random,random,random,random",
    "guard,guard,guard,guard,guard",
    "farmer,farmer,farmer,farmer,farmer",
    "coalition,coalition,coalition,coalition,coalition",
    "house,house,guard,guard,random",
    "house,house,farmer,farmer,random",
    "house,house,house,guard,farmer",
    "house,house,house,house,guard",
    "house,house,house,house,farmer",
    "guard,guard,farmer,farmer,random",
    "coalition,coalition,house,house,guard",
    "coalition,farmer,guard,random,house",
)


def parse_table(text: str) -> list[str]:
    """``"guard,guard,house,random,farmer"`` as five names, each checked.

    Raises:
        typer.BadParameter: not five names, or a name that is neither ``house`` nor a
            registered Harvest Watch strategy.
    """
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) != SEATS - 1:
        raise typer.BadParameter(f"{text!r}: name the other {SEATS - 1} seats, comma-separated")
    valid = strategies.names("harvest-watch")
    for name in names:
        if name != "house" and name not in valid:
            raise typer.BadParameter(f"{name!r}: not house nor one of {', '.join(valid)}")
    return names


@app.command()
def main(
    matches: int = typer.Option(300, help="Matches per row (seeds 1..N)."),
    names: str = typer.Option(
        "", "--strategies", help="Rows vs 5 house bots in server-drawn seats, e.g. coalition,guard."
    ),
    ours: str = typer.Option(
        "", help="Our strategy in --table/--suite rows (default: the default one)."
    ),
    tables: Annotated[
        list[str] | None,
        typer.Option("--table", help="The other five seats, e.g. guard,guard,guard,guard,guard."),
    ] = None,
    suite: bool = typer.Option(False, help="Run every table of SUITE (house, baselines, mixes)."),
    six: bool = typer.Option(False, "--six", help="Also the all-six-coalition row."),
    timing: bool = typer.Option(False, help="Time our choose on action beats."),
) -> None:
    """Print rank-1 / sole wins (95% Wilson intervals) and win share per row."""
    for name in filter(None, names.split(",")):
        row = run_row(f"{name} vs 5 house (drawn seat)", [maker(name)], matches, timing)
        print(row.line(), flush=True)
    todo = [parse_table(t) for t in tables or []]
    if suite:
        todo += [parse_table(t) for t in SUITE]
    if not todo and not names and not six:
        todo = [parse_table(SUITE[0])]
    player = ours or strategies.default_name("harvest-watch")
    for table in todo:
        print(run_table(player, table, matches, timing).line(), flush=True)
    if six:
        row = run_row("coalition x6", [maker("coalition")] * SEATS, matches, timing)
        print(row.line(), flush=True)


if __name__ == "__main__":
    app()
