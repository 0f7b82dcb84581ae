"""Is a Naptuft miss a fair player's mistake, or a bet that an unseen window lost?

    python benchmarks/naptuft_gamble.py 141 --decide 77             # day 26: finish 26/3?
    python benchmarks/naptuft_gamble.py 141 --decide 77 --hidden 79 # one unseen window
    python benchmarks/naptuft_gamble.py 242 --decide 23             # day 8: finish 8/3?

Windows are numbered by their deck index ``k = 3 * (day - 1) + window`` (window 0, 1, 2). A
fair player on day ``d`` sees the day's three windows and the next day's first (indices
``3(d-1) .. 3d``; spec naptuft.md §3). This script takes one wish decided on that day
(``--decide``) and the streak and last care the ``balancer`` actually had at day ``d``'s
start, and computes with the exact wish search of ``naptuft_bound.wish_points`` (needs
ignored; on the seeds it is meant for, care, comfort and day bonuses are at their bound)
the most wish points from day ``d`` to the cap with that wish finished, and without: the
difference is what finishing it is worth. It prints that on the seed's real deck, then on
average over decks that look the same on day ``d``: every unseen window redrawn as our deck
draws (spec §4, a local choice: each wish length of the day's ramp alike, each order of
distinct cares alike; so from day 6 a 4-step wish is 1 draw in 3, and one that starts with
a given care 1 in 12), or with ``--hidden K`` every wish window ``K`` can hold, the rest as
dealt.

Both kinds of deck look the same to a player on day ``d``, so the right choice for it is
the one with the larger mean. When the real deck is one of the few where the other choice
wins, the miss is the price of a bet that is right on average. REFERENCE ONLY: reads the
local hidden deck.
"""

from __future__ import annotations

import itertools
import random
import statistics
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


def balancer_day(seed: int, day: int, cap: int) -> tuple[int, int, set[int]]:
    """The ``balancer`` on ``seed`` (told the cap ``cap``, as ``sunbot play`` does): its
    ``wishStreak`` and last care index (or -1) at ``day``'s first moment, and the deck
    indices of the wishes it finished on ``day``.

    Raises:
        ValueError: the run ended before ``day`` was over.
    """
    bot = strategies.create("naptuft", "balancer", random.Random(seed))
    strategies.notify_start(bot, "naptuft", seed, cap)
    s = nt.init(seed)
    start: tuple[int, int] | None = None
    done: set[int] = set()
    for _ in range(nt.MOMENTS_PER_WINDOW * nt.WINDOWS_PER_DAY * (day + 1) + day):
        if s["phase"] == "care" and s["day"] == day and s["moment"] == 0 and start is None:
            last = s["lastCare"]
            start = (s["wishStreak"], _CARE[last] if last is not None else -1)
        if nt.is_over(s) or (s["day"] == day and s["phase"] == "dayBreak"):
            break
        before = s
        s = nt.step(s, bot.choose(nt.observation(s), nt.legal_actions(s)))
        if before["day"] == day and s["wishStreak"] == before["wishStreak"] + 1:
            done.add(nt.WINDOWS_PER_DAY * (day - 1) + before["window"])
    if start is None or s["phase"] != "dayBreak":
        raise ValueError(f"the balancer's run on seed {seed} did not play day {day} through")
    return start[0], start[1], done


def _names(wish: list[int]) -> str:
    return "[" + ", ".join(nt.CARES[c] for c in wish) + "]"


@app.command()
def main(
    seed: int,
    decide: int = typer.Option(
        ..., min=0, help="Deck index of the wish decided on: 3*(day-1) + window (0, 1, 2)."
    ),
    hidden: int | None = typer.Option(
        None,
        help="Deck index of one window the player cannot see yet: try every wish it can hold "
        "and keep the rest of the deck as dealt (default: redraw every unseen window).",
    ),
    samples: int = typer.Option(2000, min=1, max=100_000, help="Decks redrawn (no --hidden)."),
    sample_seed: int = typer.Option(0, help="Seed of the redraws (no --hidden)."),
    days: int = typer.Option(
        30, min=1, max=1000, help="The run's cap (end-run at this day's break)."
    ),
) -> None:
    """Print what finishing the wish ``--decide`` is worth, in wish points, on this seed's
    deck and on average over the decks a player on that day cannot tell from it."""
    day = decide // nt.WINDOWS_PER_DAY + 1
    first = nt.WINDOWS_PER_DAY * (day - 1)
    seen = first + nt.WINDOWS_PER_DAY  # the last window shown on `day`: next day's first
    end = nt.WINDOWS_PER_DAY * days
    if day > days:
        raise typer.BadParameter(f"wish {decide} is on day {day}, after the cap {days}")
    if hidden is not None and not seen < hidden < end:
        raise typer.BadParameter(
            f"window {hidden} is not one a player cannot see on day {day} before the cap: "
            f"pick {seen + 1}..{end - 1}",
            param_hint="--hidden",
        )
    streak, last, finished = balancer_day(seed, day, days)
    deck = [[_CARE[c] for c in nt.descriptor(seed, k)["wish"]] for k in range(first, end)]

    def worth(cards: list[list[int]]) -> int:
        best = [
            wish_points(
                cards, days - day + 1, day, streak=streak, last=last, must={decide - first: d}
            )
            for d in (True, False)
        ]
        return best[0] - best[1]

    print(
        f"seed {seed}, day {day}: streak {streak}, last care "
        f"{nt.CARES[last] if last >= 0 else None}. Deck index = 3*(day-1) + window: on day "
        f"{day} a player sees windows {first}-{seen}; {seen + 1} on are unseen."
    )
    print(
        f"  finish wish {decide} (day {day}, window {decide - first + 1} of 3) "
        f"{_names(deck[decide - first])}? the balancer did: "
        f"{'yes' if decide in finished else 'no'}"
    )
    try:
        here = worth(deck)
    except ValueError:  # the day's visible windows decide it: nothing to weigh
        print("  no choice to weigh: from the day's start it can only be finished, or only not")
        raise typer.Exit(1) from None
    print(f"  on this seed's deck, finishing it is worth {here:+d} wish points")
    if hidden is None:
        rng = random.Random(sample_seed)
        pools = {d: worlds(d) for d in range(day, days + 1)}
        gains = []
        for _ in range(samples):
            redrawn = list(deck)
            for k in range(seen + 1, end):
                pool = pools[k // nt.WINDOWS_PER_DAY + 1]
                redrawn[k - first] = rng.choices(pool, weights=[p for _, p in pool])[0][0]
            gains.append(worth(redrawn))
        mean = statistics.mean(gains)
        err = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
        lose = sum(g < 0 for g in gains) / len(gains)
        print(
            f"  over {samples} decks with every unseen window redrawn as our deck draws "
            f"(each length alike, each order alike): worth {mean:+.0f} on average "
            f"(+/- {err:.0f}), a loss on {100 * lose:.1f}% of them"
        )
        return
    real = deck[hidden - first]
    rows = []
    for wish, weight in worlds(hidden // nt.WINDOWS_PER_DAY + 1):
        deck[hidden - first] = wish
        rows.append((wish, weight, worth(deck)))
    print(
        f"  over the {len(rows)} wishes window {hidden} can hold (weighted as drawn: each "
        f"length alike, each order alike), the rest as dealt: worth "
        f"{sum(w * g for _, w, g in rows):+.0f} on average, a loss on "
        f"{sum(1 for *_, g in rows if g < 0)} of them (probability "
        f"{sum(w for _, w, g in rows if g < 0):.3f}); the real one is {_names(real)}"
    )


if __name__ == "__main__":
    app()
