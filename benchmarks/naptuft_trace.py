"""Where a Naptuft strategy falls short of the provable bound, part by part and day by day.

    python benchmarks/naptuft_trace.py 125 141             # balancer, 30-day cap
    python benchmarks/naptuft_trace.py 141 --days 30 --strategy balancer --reference clairvoyant

For each seed: the run's score split into the bound's four parts (``naptuft_bound.py``): care
points (through the final needs' sum, against :func:`naptuft_bound.final_room`), comfort, day
bonuses and wish bonuses, each next to its bound; then the days on which the strategy's wish
bonuses differ from the reference's (default: the clairvoyant, which reads the local hidden
deck: REFERENCE ONLY, not playable on a live server). Both are told the cap through
``on_start``, as ``sunbot play`` does. Engine only, no HTTP.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer

sys.path.insert(0, str(Path(__file__).resolve().parent))

from naptuft_bound import upper_bound

from sunbot import strategies
from sunbot.engines import naptuft as nt

app = typer.Typer(add_completion=False)


@dataclass
class Parts:
    """A run's score by part (points); ``wishes_by_day`` maps day -> wish bonuses that day."""

    score: int = 0
    final_needs: int = 0
    care: int = 0
    comfort: int = 0
    day_bonus: int = 0
    wishes: int = 0
    wishes_by_day: dict[int, int] = field(default_factory=dict)
    fatal: bool = False


def split_run(name: str, seed: int, days: int) -> Parts:
    """Play ``name`` on ``seed`` to the day break of ``days`` (end-run there) and split its
    score by the rules that paid it (spec naptuft.md §6.2): ``r`` per care, +10 comfort,
    +120 day bonus, the rest of a care's gain is its wish bonus.

    Raises:
        ValueError: ``days < 1`` or an unknown strategy name.
    """
    if days < 1:
        raise ValueError(f"days must be >= 1, got {days}")
    bot = strategies.create("naptuft", name, random.Random(seed))
    strategies.notify_start(bot, "naptuft", seed, days)
    parts = Parts()
    s = nt.init(seed)
    while not nt.is_over(s):
        if s["phase"] == "dayBreak" and s["day"] >= days:
            s = nt.step(s, nt.END_RUN)
            break
        action = bot.choose(nt.observation(s), nt.legal_actions(s))
        before, s = s, nt.step(s, action)
        if action["type"] != "care" or (nt.is_over(s) and s["result"] == "fatal"):
            continue
        gain = s["score"] - before["score"]
        gain -= min(nt.RESTORE_MAX, 100 - before["needs"][nt.CARE_NEED[action["care"]]])
        if min(s["needs"].values()) >= nt.COMFORT_MIN:
            parts.comfort += nt.COMFORT_BONUS
            gain -= nt.COMFORT_BONUS
        if s["phase"] == "dayBreak" and min(s["needs"].values()) >= nt.DAY_MIN:
            parts.day_bonus += nt.DAY_BONUS
            gain -= nt.DAY_BONUS
        parts.wishes += gain
        parts.wishes_by_day[before["day"]] = parts.wishes_by_day.get(before["day"], 0) + gain
    parts.score = s["score"]
    parts.fatal = s["result"] == "fatal"
    parts.final_needs = sum(s["needs"].values())
    parts.care = parts.score - parts.comfort - parts.day_bonus - parts.wishes
    return parts


@app.command()
def main(
    seeds: Annotated[list[int], typer.Argument(help="Seeds to trace.")],
    days: int = typer.Option(30, help="End-run at the day break of this day."),
    strategy: str = typer.Option("balancer", help="The strategy traced."),
    reference: str = typer.Option("clairvoyant", help="Compared day by day (reference only)."),
) -> None:
    """Print each seed's score by part against the bound, and the days that differ."""
    for seed in seeds:
        bound = upper_bound(seed, days)
        mine, ref = split_run(strategy, seed, days), split_run(reference, seed, days)
        print(
            f"seed {seed}: {strategy} {mine.score:,} / bound {bound.total:,} = "
            f"{100 * mine.score / bound.total:.3f}%  ({reference} {ref.score:,})"
            + ("  FATAL" if mine.fatal else "")
        )
        for label, got, most in (
            (
                "care (final needs)",
                f"{mine.care:,} ({mine.final_needs})",
                f"{bound.care:,} ({bound.final_needs})",
            ),
            ("comfort", f"{mine.comfort:,}", f"{bound.comfort:,}"),
            ("day bonus", f"{mine.day_bonus:,}", f"{bound.day_bonus:,}"),
            ("wishes", f"{mine.wishes:,}", f"{bound.wishes:,}"),
        ):
            print(f"  {label:20s} {got:>14s}  bound {most:>14s}")
        differ = [
            (d, mine.wishes_by_day.get(d, 0), ref.wishes_by_day.get(d, 0))
            for d in range(1, days + 1)
            if mine.wishes_by_day.get(d, 0) != ref.wishes_by_day.get(d, 0)
        ]
        shown = ", ".join(f"day {d}: {a} vs {b}" for d, a, b in differ) or "none"
        print(f"  wish bonuses by day, {strategy} vs {reference} where they differ: {shown}")


if __name__ == "__main__":
    app()
