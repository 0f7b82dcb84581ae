"""Measured reference means: a yardstick for one run's score (``sunbot play``'s summary).

Each :class:`Reference` is a mean score measured with ``sunbot bench`` on the embedded
engine, with the game's default cap unless ``cap`` says otherwise, e.g.::

    sunbot bench keelhold -s planner -s safe-greedy --seeds 1-20
    sunbot bench naptuft -s balancer -s rotation --seeds 1-50
    sunbot bench sunloaf -s reference --seeds 1-20

and copied here by hand from the summary table's ``mean score`` column (rounded to a whole
point). The Keelhold cap-100 figure is the README's benchmark table (``benchmarks/keelhold.py``,
seeds 1-50). Re-measure and update a row when a strategy or a game's engine changes its
scores; the numbers are the strategies' own, never invented. Sunloaf has the rules'
reference policy only (a planner run at the default 40 days takes minutes; the planner's
own figures are on the Sunloaf benchmark page).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["REFERENCES", "Reference", "nearest", "short_number", "yardstick"]


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
    Reference("keelhold", "planner", 30, 1_082_788, "1-20", 20),
    Reference("keelhold", "safe-greedy", 30, 281_633, "1-20", 20),
    Reference("keelhold", "planner", 100, 22_468_117, "1-50", 50),
    Reference("naptuft", "balancer", 10, 18_830, "1-50", 50),
    Reference("naptuft", "rotation", 10, 7_860, "1-50", 50),
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


def yardstick(game: str, cap: int | None, unit: str | None = None) -> str | None:
    """One line comparing a run with the nearest references, e.g. ``planner averages 1.08 M
    capped at voyage 30 over seeds 1-20; safe-greedy 282 k``, saying so when the measured cap
    is not the run's (``… capped at voyage 100 (the nearest measured; this run: 50)``).
    ``unit``: the cap's word (``voyage``, ``day``). ``None`` when ``game`` has no reference."""
    refs = nearest(game, cap)
    if not refs:
        return None
    best, rest = refs[0], refs[1:]
    where = f"capped at {unit} {best.cap}" if unit else f"capped at {best.cap}"
    if cap != best.cap:
        run_cap = "no cap" if cap is None else str(cap)
        where += f" (the nearest measured; this run: {run_cap})"
    text = f"{best.strategy} averages {short_number(best.mean)} {where} over seeds {best.seeds}"
    return "; ".join([text, *(f"{r.strategy} {short_number(r.mean)}" for r in rest)])
