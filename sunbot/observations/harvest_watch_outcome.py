"""How a Harvest Watch match ended, in words and plain values: the closing summary's
fields, one of our seats' line, and who ranked first and why (the rule text's Design and
Finish sections; ``docs/rules/harvest-watch.md``). Plain Python: the views and the API
share it."""

from __future__ import annotations

from typing import Any


def split(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(outer, data)`` for a whole view or a bare ``data`` object."""
    if "data" in view and isinstance(view["data"], dict):
        return view, view["data"]
    return {}, view


def final_summary(view: dict[str, Any] | None) -> dict[str, Any]:
    """``data.summary`` of a whole view or its ``data`` (``{}`` when there is none or it is
    not an object, as from a foreign server)."""
    if not isinstance(view, dict):
        return {}
    s = split(view)[1].get("summary")
    return s if isinstance(s, dict) else {}


def summary(view: dict[str, Any]) -> dict[str, Any]:
    """Closing-summary fields: day, our seat and food, who is living, ranks and winners."""
    _, data = split(view)
    s = data.get("summary", {})
    out: dict[str, Any] = {
        "day": s.get("day"),
        "seat": s.get("you"),
        "food": s.get("food"),
        "living": s.get("aliveSeats"),
    }
    ranks = (data.get("result") or {}).get("ranks")
    if ranks:
        out["ranks"] = ranks
        out["rank-1 seats"] = [i for i, r in enumerate(ranks) if r == 1]
    out["last public"] = s.get("lastPublic")
    return out


def _seats_text(seats: list[int]) -> str:
    """``5``, ``1 and 4``, ``0, 2 and 3``."""
    names = [str(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def seat_line(
    rank: int | None, seats: int, food: float | None, alive: bool | None, out_night: int | None
) -> str:
    """One of our seats at the end of a match: ``rank 2 of 6 · food 0.0 · out on night 5``.

    Args:
        rank: its rank (1 is best; ``None`` when the match did not finish).
        seats: seats at the table (the length of ``ranks``).
        food: its store in food units (0.0 once out, spec §4 ``foods``), ``None`` if unseen.
        alive: whether it was still in; ``None`` if unseen.
        out_night: the night it went out, ``None`` when still in or not seen.
    """
    parts = ["no rank (unfinished)" if rank is None else f"rank {rank} of {seats}"]
    if food is not None:
        parts.append(f"food {food:.1f}")
    if alive is True:
        parts.append("still in")
    elif alive is False:
        parts.append("out" if out_night is None else f"out on night {out_night}")
    return " · ".join(parts)


def winner_line(ranks: list[int] | None, living: list[int] | None, day: Any) -> str | None:
    """Who ranked first and why, in the rules' terms (``None`` before the end).

    The rule text's Design and Finish sections (spec ``harvest-watch.md`` §3 step 7 and
    ranks §9): one seat left living wins; when every seat still in goes out on the same
    night, the largest store just before that night's cost ranks first and equal largest
    stores draw; a seat that lasted longer ranks ahead of one out earlier. So a winner may
    show 0.0 food and no living seats: it went out last, on the final night ``day``.
    """
    if not ranks:
        return None
    firsts = [s for s, r in enumerate(ranks) if r == 1]
    still_in = list(living or [])
    if len(still_in) == 1 and firsts == still_in:
        return f"seat {firsts[0]} wins: the last seat still in after night {day}"
    if not still_in and len(firsts) == 1:
        return (
            f"seat {firsts[0]} ranks first: every seat still in went out on night {day}, "
            "and it had the most food before that night's cost"
        )
    if not still_in and firsts:
        return (
            f"seats {_seats_text(firsts)} draw for first: they went out together on night "
            f"{day} with equal largest stores before that night's cost"
        )
    return f"rank 1: seats {_seats_text(firsts)}" if firsts else "no seat at rank 1"
