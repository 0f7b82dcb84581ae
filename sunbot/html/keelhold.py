"""What a Keelhold replay page draws of a position (published fields only, never ``rng``).

A frame: ``voyage``, ``turn``, ``phase``, ``cause``, ``score``, ``trim``, ``tolerance``,
``wind``, ``capacity``, ``quota``, ``lots`` (lotsShipped), ``chain``, ``arms`` (7 lever arms),
``open`` (openBays), ``safe`` (safeBays), ``listingBays``, ``jam`` (turns each hatch stays
jammed, 0 when free), ``hold`` (7 hatches, bottom first), ``queue`` (queue[0] is in hand),
``conditions``, and at port ``castOffSafe`` and ``next`` (the next voyage's tolerance, quota,
wind and conditions). A crate is ``[cargo, weight, due]``: cargo ``null`` for ballast, ``due``
the turn a rush crate must ship by (``-1`` for a rush crate not yet placed, ``null`` for an
ordinary crate). Field names follow Keelhold's wire state
(``docs/rules/keelhold.md``, "Fields: determined, chosen, not promised").
"""

from __future__ import annotations

from typing import Any

Crate = list[int | None]


def crate(c: dict[str, Any]) -> Crate:
    """``[cargo, weight, due]`` of one crate (see the module docstring)."""
    due = None if c.get("rushWindow") is None else (-1 if c.get("due") is None else c["due"])
    return [c.get("cargo"), c.get("weight"), due]


def frame(state: dict[str, Any]) -> dict[str, Any]:
    """The drawn fields of a Keelhold ``state`` (see the module docstring).

    Raises:
        KeyError, TypeError: ``state`` lacks a field the rules publish.
    """
    p = state["params"]
    turn = state["turn"]
    out: dict[str, Any] = {
        "voyage": state["voyage"],
        "turn": turn,
        "phase": state["phase"],
        "cause": state.get("cause"),
        "score": state["score"],
        "trim": state["trim"],
        "tolerance": p["tolerance"],
        "wind": p["wind"],
        "capacity": p["capacity"],
        "quota": p["quota"],
        "lots": state["lotsShipped"],
        "chain": state["chain"],
        "arms": state["arms"],
        "open": p["openBays"],
        "safe": state.get("safeBays", []),
        "listingBays": state.get("listingBays", []),
        "jam": [max(0, until - turn) for until in state["jammedUntil"]],
        "hold": [[crate(c) for c in hatch] for hatch in state["hold"]],
        "queue": [crate(c) for c in state["queue"]],
        "conditions": p.get("conditions", []),
    }
    if state["phase"] == "port":
        nxt = state.get("next") or {}
        out["castOffSafe"] = state.get("castOffSafe")
        out["next"] = {k: nxt.get(k) for k in ("tolerance", "quota", "wind", "conditions")}
    return out


def progress(state: dict[str, Any]) -> str:
    """``voyage 2 · turn 37 · loading`` (the phase's cause added once over)."""
    cause = f" ({state['cause']})" if state.get("cause") else ""
    return f"voyage {state['voyage']} · turn {state['turn']} · {state['phase']}{cause}"
