"""Is a Naptuft miss a fair player's mistake, or a bet that an unseen window lost?

    python benchmarks/naptuft_gamble.py 141 --decide 77 --hidden 79   # day 26: finish 26/3?
    python benchmarks/naptuft_gamble.py 242 --decide 23 --hidden 25   # day 8: finish 8/3?

A fair player on day ``d`` sees the day's three windows and the next day's first (deck
indices ``3(d-1) .. 3d``; spec naptuft.md §3). This script takes one wish it decides on that
day (deck index ``--decide``) and one window it cannot see yet (``--hidden``), and replaces
the hidden window's wish by every wish our deck can draw there (spec §4: the lengths of that
day's ramp, every order of distinct cares, weighted as the deck draws them: each length
alike, each order alike). In each such world it computes, with the exact wish search of
``naptuft_bound.wish_points`` (needs ignored; on the seeds it is meant for, care, comfort
and day bonuses are at their bound), the most wish points from day ``d`` to the cap when
the decided wish is finished and when it is not, from the streak and last care the
``balancer`` actually had at day ``d``'s start.

Both worlds look the same to a player on day ``d``, so the right choice for it is the one
with the larger mean over the worlds. When the seed's real world is one of the few where
the other choice wins, the miss is the price of a bet that is right on average: no fair
player avoids it without giving up more on the other seeds. REFERENCE ONLY: reads the
local hidden deck.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import typer

sys.path.insert(0, str(Path(__file__).resolve().parent))

from naptuft_bound import wish_points

from sunbot import strategies
from sunbot.engines import naptuft as nt

app = typer.Typer(add_completion=False)
_CARE = {c: i for i, c in enumerate(nt.CARES)}


def ramp_lengths(day: int) -> tuple[int, ...]:
    """Wish lengths our deck draws on ``day`` (spec naptuft.md §4, a local choice)."""
    return (1, 2) if day <= 2 else ((2, 3) if day <= 5 else (2, 3, 4))


def worlds(day: int) -> list[tuple[list[int], float]]:
    """Every wish our deck can draw on ``day``, as care indices, with its probability
    (each length alike, each order of that length alike)."""
    lengths = ramp_lengths(day)
    out: list[tuple[list[int], float]] = []
    for size in lengths:
        orders = list(itertools.permutations(range(4), size))
        out += [(list(o), 1 / len(lengths) / len(orders)) for o in orders]
    return out


def start_of_day(seed: int, day: int, cap: int) -> tuple[int, int]:
    """``(wishStreak, last care index or -1)`` of the ``balancer`` at ``day``'s first moment
    on ``seed`` (its run told the cap ``cap``, as ``sunbot play`` does).

    Raises:
        ValueError: the run ended before ``day``.
    """
    bot = strategies.create("naptuft", "balancer", random.Random(seed))
    strategies.notify_start(bot, "naptuft", seed, cap)
    s = nt.init(seed)
    for _ in range(nt.MOMENTS_PER_WINDOW * nt.WINDOWS_PER_DAY * (day + 1) + day):
        if s["phase"] == "care" and s["day"] == day and s["moment"] == 0:
            last = s["lastCare"]
            return s["wishStreak"], (_CARE[last] if last is not None else -1)
        if nt.is_over(s):
            break
        s = nt.step(s, bot.choose(nt.observation(s), nt.legal_actions(s)))
    raise ValueError(f"the balancer's run on seed {seed} did not reach day {day}")


@app.command()
def main(
    seed: int,
    decide: int = typer.Option(..., help="Deck index of the wish decided on (3*(day-1)+window)."),
    hidden: int = typer.Option(..., help="Deck index of a window the player cannot see yet."),
    days: int = typer.Option(30, help="The run's cap (end-run at this day's break)."),
) -> None:
    """Print, over every wish the hidden window could hold, the best wish points with the
    decided wish finished and not, and which choice a fair player should make."""
    day = decide // nt.WINDOWS_PER_DAY + 1
    first = nt.WINDOWS_PER_DAY * (day - 1)
    if hidden <= first + nt.WINDOWS_PER_DAY:
        raise typer.BadParameter(f"window {hidden} is shown on day {day}", param_hint="--hidden")
    if hidden >= nt.WINDOWS_PER_DAY * days:
        raise typer.BadParameter(f"window {hidden} is after the cap", param_hint="--hidden")
    streak, last = start_of_day(seed, day, days)
    deck = [
        [_CARE[c] for c in nt.descriptor(seed, k)["wish"]]
        for k in range(first, nt.WINDOWS_PER_DAY * days)
    ]
    real = deck[hidden - first]
    rows = []
    for wish, weight in worlds(hidden // nt.WINDOWS_PER_DAY + 1):
        deck[hidden - first] = wish
        best = {
            done: wish_points(
                deck, days - day + 1, day, streak=streak, last=last, must={decide - first: done}
            )
            for done in (True, False)
        }
        rows.append((wish, weight, best[True] - best[False]))
    mean = sum(w * d for _, w, d in rows)
    worse = [(w, d) for w, p, d in rows if d < 0]
    gain_real = next(d for w, _, d in rows if w == real)
    print(
        f"seed {seed}, day {day} (streak {streak}, last care "
        f"{nt.CARES[last] if last >= 0 else None}): finish wish {decide} "
        f"{nt.descriptor(seed, decide)['wish']}?"
    )
    print(
        f"  over the {len(rows)} wishes window {hidden} can hold: finishing it is worth "
        f"{mean:+.0f} wish points on average; it loses in {len(worse)} worlds "
        f"(probability {sum(p for _, p, d in rows if d < 0):.3f})"
    )
    print(
        f"  this seed's real window {hidden} ({[nt.CARES[c] for c in real]}): finishing is "
        f"worth {gain_real:+d}"
    )


if __name__ == "__main__":
    app()
