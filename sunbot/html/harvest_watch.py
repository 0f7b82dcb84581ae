"""What a Harvest Watch replay page draws of one seat's view (spec ``harvest-watch.md`` §4).

A frame: ``you`` (our seat), ``day``, ``phase``, ``round``, ``foods`` (6 stores, index = seat),
``alive`` (aliveSeats), ``speeches1`` and ``speeches2`` (``{seat: text}``: other players'
free text, shown escaped), ``votes`` (``{seat: ballot}``), ``punishResult``, ``caught`` and
``collided`` (our own thefts seen), ``nightCost``, ``lastPublic``, ``pending`` (our pending
command, if shown) and ``ranks`` once the match is done. Absent fields are ``null``.
"""

from __future__ import annotations

from typing import Any

SUMMARY_FIELDS = (
    "you", "day", "phase", "foods", "aliveSeats", "speeches1", "speeches2", "votes",
    "punishResult", "caught", "collided", "nightCost", "lastPublic",
)  # fmt: skip


def data_of(view: dict[str, Any]) -> dict[str, Any]:
    """The ``data`` object of a whole view (or the object itself if it is one)."""
    data = view.get("data")
    return data if isinstance(data, dict) else view


def frame(view: dict[str, Any]) -> dict[str, Any]:
    """The drawn fields of a match view or its ``data`` (see the module docstring)."""
    data = data_of(view)
    s = data.get("summary") or {}
    out: dict[str, Any] = {k: s.get(k) for k in SUMMARY_FIELDS}
    out["alive"] = out.pop("aliveSeats")
    out["round"] = data.get("round")
    out["pending"] = data.get("pending")
    out["ranks"] = (data.get("result") or {}).get("ranks")
    return out


def food(view: dict[str, Any]) -> float | None:
    """Our seat's store in ``view`` (``summary.food``), the value a match page charts."""
    value = (data_of(view).get("summary") or {}).get("food")
    return float(value) if isinstance(value, int | float) else None


def progress(view: dict[str, Any]) -> str:
    """``day 2 · vote · round 8 · seat 2``."""
    data = data_of(view)
    s = data.get("summary") or {}
    return (
        f"day {s.get('day', '?')} · {s.get('phase', data.get('phase', '?'))} · "
        f"round {data.get('round', '?')} · seat {s.get('you', '?')}"
    )
