"""Measured reference means: a yardstick for one run's score (``sunbot play``'s summary).

Each :class:`Reference` is a mean score measured with ``sunbot bench`` on the embedded
engine at its ``cap`` (the game's default, and the short caps the docs' examples use), e.g.::

    sunbot bench keelhold -s planner -s safe-greedy --seeds 1-20 --cap voyages=5
    sunbot bench naptuft -s balancer -s rotation --seeds 1-50 --cap days=2
    sunbot bench sunloaf -s reference --seeds 1-20 --cap days=10

and copied here by hand from the summary table's ``mean score`` column (rounded to a whole
point). The Keelhold cap-100 figure is the README's benchmark table (``benchmarks/keelhold.py``,
seeds 1-50). Re-measure and update a row when a strategy or a game's engine changes its
scores; the numbers are the strategies' own, never invented. Sunloaf has the rules'
reference policy only (a planner run at the default 40 days takes minutes; the planner's
own figures are on the Sunloaf benchmark page).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["REFERENCES", "Reference", "measured_caps", "nearest", "short_number", "yardstick"]


@dataclass(frozen=True)
class Reference:
    """One measured mean: ``strategy`` on ``game`` at run cap ``cap`` (in the game's cap
    unit: voyages or days), ``mean`` score over ``runs`` runs on seeds ``seeds``
    (``"1-20"``)."""

    game: str
    strategy: str
    cap: int
    mean: float
    seeds: str
    runs: int


#: Every measured mean, by game, then cap, best strategy first.
REFERENCES: tuple[Reference, ...] = (
    Reference("keelhold", "planner", 3, 5_127, "1-20", 20),
    Reference("keelhold", "safe-greedy", 3, 4_703, "1-20", 20),
    Reference("keelhold", "planner", 5, 14_304, "1-20", 20),
    Reference("keelhold", "safe-greedy", 5, 12_618, "1-20", 20),
    Reference("keelhold", "planner", 10, 65_070, "1-20", 20),
    Reference("keelhold", "safe-greedy", 10, 54_583, "1-20", 20),
    Reference("keelhold", "planner", 30, 1_082_788, "1-20", 20),
    Reference("keelhold", "safe-greedy", 30, 281_633, "1-20", 20),
    Reference("keelhold", "planner", 100, 22_468_117, "1-50", 50),
    Reference("naptuft", "balancer", 2, 2_520, "1-50", 50),
    Reference("naptuft", "rotation", 2, 1_812, "1-50", 50),
    Reference("naptuft", "balancer", 5, 8_277, "1-50", 50),
    Reference("naptuft", "rotation", 5, 4_206, "1-50", 50),
    Reference("naptuft", "balancer", 10, 18_830, "1-50", 50),
    Reference("naptuft", "rotation", 10, 7_860, "1-50", 50),
    Reference("naptuft", "balancer", 30, 60_843, "1-50", 50),
    Reference("naptuft", "rotation", 30, 22_456, "1-50", 50),
    Reference("sunloaf", "reference", 10, 48_706, "1-20", 20),
    Reference("sunloaf", "reference", 40, 254_058, "1-20", 20),
)


def nearest(game: str, cap: int | None) -> list[Reference]:
    """The references of ``game`` at the measured cap nearest ``cap`` (a tie takes the lower
    cap; ``cap=None``, a run to the rules' end, takes the highest), best mean first; ``[]``
    when ``game`` has none."""
    mine = [r for r in REFERENCES if r.game == game]
    if not mine:
        return []
    caps = sorted({r.cap for r in mine})
    pick = caps[-1] if cap is None else min(caps, key=lambda c: (abs(c - cap), c))
    return sorted((r for r in mine if r.cap == pick), key=lambda r: -r.mean)


def short_number(x: float) -> str:
    """``1.08 M``, ``249 k``, ``18.8 k``, ``7,860``: three significant figures from 10,000."""
    if abs(x) >= 1e6:
        return f"{x / 1e6:.3g} M"
    if abs(x) >= 1e4:
        return f"{x / 1e3:.3g} k"
    return f"{x:,.0f}"


def measured_caps(game: str) -> list[int]:
    """The caps ``game`` has references at, ascending."""
    return sorted({r.cap for r in REFERENCES if r.game == game})


def yardstick(game: str, cap: int | None, unit: str | None = None) -> str | None:
    """One line comparing a run with the references measured at the run's own cap, e.g.
    ``planner averages 1.08 M capped at voyage 30 over seeds 1-20; safe-greedy 282 k``.

    A mean measured at another cap says little about this run (a Keelhold score grows
    with every voyage), so when none was measured at ``cap`` the line says so, names the
    caps that were, and gives the command that measures this one: ``no mean measured at
    voyage 7 (measured at voyages 3, 5, 10, 30, 100); sunbot bench keelhold -s planner
    -s safe-greedy --cap voyages=7 --seeds 1-20 measures one``. ``unit``: the cap's word
    (``voyage``, ``day``). ``None`` when ``game`` has no reference at all.
    """
    refs = [r for r in REFERENCES if r.game == game]
    if not refs:
        return None
    word = unit or "cap"
    mine = sorted((r for r in refs if r.cap == cap), key=lambda r: -r.mean)
    if not mine:
        caps = ", ".join(str(c) for c in measured_caps(game))
        names = list(dict.fromkeys(r.strategy for r in sorted(refs, key=lambda r: -r.mean)))
        seeds = max(refs, key=lambda r: r.runs).seeds
        if cap is None:  # bench caps every run: there is no command to measure this one
            return f"no mean measured for an uncapped run (measured at {word}s {caps})"
        how = f"sunbot bench {game} " + " ".join(f"-s {n}" for n in names)
        how += f" --cap {unit}s={cap}" if unit else ""
        return (
            f"no mean measured for {word} {cap} (measured at {word}s {caps});"
            f" {how} --seeds {seeds} measures one"
        )
    best, rest = mine[0], mine[1:]
    where = f"capped at {unit} {best.cap}" if unit else f"capped at {best.cap}"
    text = f"{best.strategy} averages {short_number(best.mean)} {where} over seeds {best.seeds}"
    return "; ".join([text, *(f"{r.strategy} {short_number(r.mean)}" for r in rest)])
