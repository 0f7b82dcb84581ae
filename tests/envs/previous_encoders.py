"""The Keelhold and Naptuft encoders as they were before the incremental ones (commit
57c26b2), kept whole and stateless as the reference the new encoders are compared with:
every key built from the whole observation, one flat list, clipped into the space's bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sunbot.engines.keelhold import arms_for
from sunbot.engines.keelhold_gen import CONDITIONS
from sunbot.engines.naptuft import NEEDS
from sunbot.envs import keelhold as K
from sunbot.envs import naptuft as N

_KEEL_SHAPES = {
    "hold": (7, 8, 3), "queue": (4, 3), "hatches": (7, 3), "bays": (2, 7), "status": (8,),
    "terms": (2, K.N_TERMS),
}  # fmt: skip


def _terms_row(p: dict[str, Any]) -> list[int]:
    row = [int(p.get(k) or 0) for k in K.TERMS]
    conditions = p.get("conditions") or ()
    row += [1 if c in conditions else 0 for c in CONDITIONS]
    open_bays = p.get("openBays") or ()
    row += [1 if b in open_bays else 0 for b in range(7)]
    return row


def keelhold_flat(o: dict[str, Any]) -> list[int]:
    """Every key's values in the order of ``_KEEL_SHAPES`` (the previous ``_flat``)."""
    turn = int(o["turn"])
    flat: list[int] = []
    add = flat.extend
    for hatch in o["hold"]:
        for c in hatch:
            cargo, due = c["cargo"], c.get("due")
            add((c["weight"], 1 if cargo is None else 2 + cargo, -1 if due is None else due - turn))
        add((0, 0, -1) * (8 - len(hatch)))
    queue = o["queue"]
    for c in queue:
        cargo = c["cargo"]
        add((c["weight"], 1 if cargo is None else 2 + cargo, c.get("rushWindow") or 0))
    add((0, 0, 0) * (4 - len(queue)))
    params = o["params"]
    voyage = o.get("voyage", 0)
    open_bays = params.get("openBays") or (range(1, 6) if voyage == 1 else range(7))
    jam = o["jammedUntil"]
    arms = o.get("arms") or arms_for(params.get("conditions") or [])
    for b, arm in enumerate(arms):
        add((arm, max(0, jam[b] - turn), 1 if b in open_bays else 0))
    safe, listing = o["safeBays"], o["listingBays"]
    add([1 if b in safe else 0 for b in range(7)])
    add([1 if b in listing else 0 for b in range(7)])
    cos, start = o.get("castOffSafe"), o.get("voyageStartTurn")
    add(
        (
            K.PHASES[o["phase"]],
            voyage,
            -1 if start is None else turn - start,
            o["trim"],
            1 if o["listing"] else 0,
            o.get("chain", 0),
            o.get("lotsShipped", 0),
            -1 if cos is None else int(cos),
        )
    )
    add([*_terms_row(params), *_terms_row(o["next"])])
    return flat


def keelhold(o: dict[str, Any], clip: bool = True) -> dict[str, Any]:
    """The previous Keelhold encoding of ``o`` (``clip=False``: v0's)."""
    flat = np.array(keelhold_flat(o), dtype=np.int64)
    out, at = {}, 0
    for key, shape in _KEEL_SHAPES.items():
        n = int(np.prod(shape))
        part = flat[at : at + n].reshape(shape)
        at += n
        if key == "bays":
            out[key] = part.astype(np.int8)
            continue
        if clip:
            low, high = K.BOUNDS[key]
            part = np.clip(part, low, high)
        out[key] = part.astype(np.int32)
    return out


def _cares(names: list[str] | None) -> list[int]:
    names = names or []
    codes = [N._CARE_CODE[n] for n in names]
    return codes + [0] * (4 - len(codes))


def _descriptor(d: dict[str, Any]) -> list[int]:
    pressure = d.get("pressure") or {}
    return _cares(d.get("wish")) + [int(pressure.get(n, 0)) for n in NEEDS]


def naptuft(o: dict[str, Any], clip: bool = True) -> dict[str, Any]:
    """The previous Naptuft encoding of ``o`` (``clip=False``: v0's)."""
    wish = o.get("wish")
    wish_row = [*_cares(wish["actions"]), int(wish.get("progress", 0)), 1] if wish else [0] * 6
    rows = [_descriptor(d) for d in o["forecast"]] + [_descriptor(o["nextWindow"])]
    last = o.get("lastCare")
    parts = {
        "needs": [int(o["needs"][n]) for n in NEEDS],
        "clock": [o["day"], o["moment"], o["window"], N.PHASES[o["phase"]]],
        "wish": wish_row,
        "status": [o["wishStreak"], N._CARE_CODE.get(str(last), 0)],
        "forecast": rows,
    }
    out = {}
    for key, values in parts.items():
        arr = np.array(values, dtype=np.int64)
        if clip:
            arr = np.clip(arr, N.BOUNDS[key][0], N.BOUNDS[key][1])
        out[key] = arr.astype(np.int32)
    return out
