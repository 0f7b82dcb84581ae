"""Hand-built Keelhold states for the worked examples of Keelhold's rules."""

from __future__ import annotations

from typing import Any

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import params_for


def crate(
    cargo: int | None, weight: int, cid: int = 0, rush: int | None = None, due: int | None = None
) -> dict[str, Any]:
    return {"id": cid, "weight": weight, "cargo": cargo, "rushWindow": rush, "due": due}


def build(
    voyage: int = 1,
    hold: dict[int, list[dict[str, Any]]] | None = None,
    queue: list[dict[str, Any]] | None = None,
    chain: int = 0,
    wind: int = 0,
    conditions: list[str] | None = None,
    turn: int = 0,
    lots: int = 0,
    score: int = 0,
    **params: Any,
) -> dict[str, Any]:
    """A loading-phase state with the given hold and queue; derived fields recomputed."""
    p = params_for(voyage, conditions or [], wind)
    p.update(params)
    q = queue or [crate(0, 1, 900), crate(1, 1, 901), crate(2, 1, 902)]
    s: dict[str, Any] = {
        "seed": 0,
        "rng": [12345],
        "voyage": voyage,
        "turn": turn,
        "voyageStartTurn": 0,
        "phase": "loading",
        "cause": None,
        "score": score,
        "trim": 0,
        "listing": False,
        "chain": chain,
        "lotsShipped": lots,
        "arms": kh.arms_for(p["conditions"]),
        "hold": [list((hold or {}).get(i, [])) for i in range(7)],
        "jammedUntil": [0] * 7,
        "queue": q,
        "params": p,
        "next": params_for(voyage + 1, [], 0),
        "safeBays": [],
        "listingBays": [],
        "castOffSafe": None,
        "nextCrateId": 1000,
        "drawn": 1,
    }
    s["trim"] = kh.compute_trim(s)
    s["listing"] = abs(s["trim"]) > p["tolerance"]
    kh.refresh(s)
    return s
