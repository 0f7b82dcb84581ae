"""Harvest Watch joint-night check (``sunbot/mirror/harvest_night.py``): speed, no false
flags, and how often a planted farm bug is caught. Engines directly (no HTTP, no clock).

    python benchmarks/harvest_night.py                  # seeds 0..999
    python benchmarks/harvest_night.py --seeds 200

Each seed is one six-seat engine match: 1 to 6 seats drawn from the seed play a strategy
(random, house, coalition, farmer, guard, also drawn), house bots the rest. Every night is
checked once per living seat, as that seat's mirror sees it (its own act, ``caught`` and
``collided``). Printed: nights checked, how many the search explained, left undecided
(budget spent) or flagged (must be 0: the nights are legal), the mean and worst seconds of
one search; then the same nights with the other server's ``hw-farm`` bug planted (a farm
pays 1.5, not 2.0, for every other seat that farmed) and the share of them flagged (a
night where a split theft explains a 0.5 step as well stays unflagged).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import typer

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.mirror.harvest_night import Night, explain_night
from sunbot.observations.harvest_watch import legal_actions

app = typer.Typer(add_completion=False)
NAMES = ("random", "house", "coalition", "farmer", "guard")


def engine_nights(seed: int) -> Iterator[tuple[Night, dict[int, Any]]]:
    """Every night of one engine match, once per living seat's view, with the true acts.

    Seats and strategies are drawn from ``seed``; the rest are house bots."""
    rng = random.Random(seed)
    picked = rng.sample(range(6), rng.randint(1, 6))
    bots = {
        s: strategies.create("harvest-watch", rng.choice(NAMES), random.Random(s)) for s in picked
    }
    house = [s for s in range(6) if s not in bots]
    memory: dict[int, dict[str, Any]] = {s: {} for s in house}
    state = hw.init(seed, 6)
    while state["status"] != "done":
        commands: dict[int, list[Any]] = {}
        for s in house:
            if state["alive"][s]:
                commands[s] = [hw.house_command(state, s, memory[s], rng, house_seats=house)]
        for s, bot in bots.items():
            if state["alive"][s]:
                data = seat_data(state, s, can_act=True, pending=None)
                commands[s] = [bot.choose(data, legal_actions(data))]
        prev, state = state, hw.resolve_beat(state, commands)
        if prev["phase"] != "action":
            continue
        living = tuple(s for s in range(6) if prev["alive"][s])
        acts = {int(k): v for k, v in state["log"][-1]["applied"].items()}
        for me in living:
            lists = tuple(state["caught"][me]), tuple(state["collided"][me])
            night = Night(tuple(prev["food"]), tuple(state["food"]), living, me, acts[me], *lists)
            yield night, acts


def farm_bug(night: Night, acts: dict[int, Any]) -> Night | None:
    """``night`` as the ``hw-farm`` bug would show it to that seat, or ``None`` when no
    other seat farmed with food to lose."""
    final = list(night.final)
    for s, act in acts.items():
        if act == {"act": "farm"} and s != night.me and (final[s] or 0) > 5:
            final[s] = (final[s] or 0) - 5
    if tuple(final) == night.final:
        return None
    return Night(**{**night.__dict__, "final": tuple(final)})


@app.command()
def main(seeds: int = typer.Option(1000, min=1, help="Matches (seeds 0..N-1).")) -> None:
    """Print the legal nights' verdicts and timing, then the planted bug's catch rate."""
    counts = {"explained": 0, "undecided": 0, "flagged": 0}
    planted = caught = 0
    times: list[float] = []
    for seed in range(seeds):
        for night, acts in engine_nights(seed):
            t0 = time.perf_counter()
            verdict = explain_night(night)
            times.append(time.perf_counter() - t0)
            key = "undecided" if verdict.exhausted else "flagged" if verdict.unexplained else None
            counts[key or "explained"] += 1
            bugged = farm_bug(night, acts)
            if bugged is not None:
                planted += 1
                caught += explain_night(bugged).unexplained
    mean = sum(times) / len(times)
    print(f"legal nights (seat views): {len(times)}  {counts}", flush=True)
    print(f"search: mean {mean * 1000:.2f} ms, worst {max(times) * 1000:.1f} ms")
    print(f"hw-farm planted: {planted} nights, flagged {caught} ({caught / max(planted, 1):.1%})")


if __name__ == "__main__":
    app()
