"""Keelhold mirror hooks (see :mod:`sunbot.mirror`).

The rules fix everything in a Keelhold answer except its draws: the crates newly added to
the queue, the hatch a jam hits, the next voyage's terms drawn at CAST_OFF, and the cursor.
:class:`ReplayDraws` feeds the server's draws to the engine in their place, checking each
for shape and range (weight within ``weightMin..weightMax``, cargo within ``cargoTypes`` or
``None`` exactly on a ballast draw, a jam on an allowed hatch, conditions not repeated).
Everything else, including what follows from those draws (safeBays, the run check), is
recomputed by :func:`sunbot.engines.keelhold.step_with_draws` and compared.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import CONDITIONS_FROM, params_for
from sunbot.engines.keelhold_schema import Crate, Params, check_shape, check_state
from sunbot.mirror import Finding


class ReplayDraws:
    """Draws taken from the server's answer ``got`` (implements ``keelhold_gen.Draws``)."""

    def __init__(self, prev: dict[str, Any], got: dict[str, Any]) -> None:
        self.got = got
        self.offset = max(0, len(prev.get("queue", [])) - 1)
        queue = got.get("queue")
        self.new_crates: list[Any] = queue[self.offset :] if isinstance(queue, list) else []
        self.drawn = 0
        self.findings: list[Finding] = []

    def crate(
        self, state: dict[str, Any], params: dict[str, Any], ballast: bool
    ) -> tuple[int | None, int]:
        i = self.drawn
        self.drawn += 1
        path = f"state.queue[{self.offset + i}]"
        fallback = (None if ballast else 0, int(params["weightMin"]))
        if i >= len(self.new_crates):
            self.findings.append(
                Finding(path, "a newly drawn crate", "<missing>", "no crate drawn")
            )
            return fallback
        try:
            crate = Crate.model_validate(self.new_crates[i])
        except ValidationError as exc:
            self.findings.append(Finding(path, "a crate", self.new_crates[i], _first(exc)))
            return fallback
        cargo, weight = crate.cargo, crate.weight
        if ballast and cargo is not None:
            self.findings.append(Finding(f"{path}.cargo", None, cargo, "ballast draw by cadence"))
        elif not ballast and (cargo is None or cargo >= params["cargoTypes"]):
            note = f"cargo must be 0..{params['cargoTypes'] - 1} on a non-ballast draw"
            self.findings.append(Finding(f"{path}.cargo", "a cargo type", cargo, note))
        if not params["weightMin"] <= weight <= params["weightMax"]:
            note = f"weight must be {params['weightMin']}..{params['weightMax']}"
            self.findings.append(Finding(f"{path}.weight", "in range", weight, note))
        return cargo, weight

    def jam(self, state: dict[str, Any], candidates: list[int]) -> int | None:
        until = state["turn"] + 1 + state["params"]["jamLength"]
        jams = self.got.get("jammedUntil")
        hits = [
            h for h in candidates if isinstance(jams, list) and h < len(jams) and jams[h] == until
        ]
        if not hits:
            note = f"a jam is due: one of hatches {candidates} jammed until {until}"
            self.findings.append(Finding("state.jammedUntil", "a new jam", jams, note))
            return None
        return hits[0]

    def voyage(
        self, state: dict[str, Any], voyage: int, prev_conditions: list[str]
    ) -> dict[str, Any]:
        raw = self.got.get("next")
        try:
            params = Params.model_validate(raw).model_dump()
        except ValidationError as exc:
            self.findings.append(Finding("state.next", "voyage terms", raw, _first(exc)))
            return params_for(voyage, [], 0)
        conds = params["conditions"]
        repeated = sorted(set(conds) & set(prev_conditions))
        if repeated:
            note = "a condition repeats the previous voyage's"
            self.findings.append(Finding("state.next.conditions", "new conditions", conds, note))
        if (voyage < CONDITIONS_FROM and conds) or (
            voyage >= CONDITIONS_FROM and not 1 <= len(conds) <= 2
        ):
            count = "no" if voyage < CONDITIONS_FROM else "1 or 2"
            note = f"voyage {voyage} carries {count} conditions"
            self.findings.append(Finding("state.next.conditions", "per the ramp", conds, note))
        return params


def _first(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}"


def check_initial(state: dict[str, Any]) -> list[Finding]:
    """The opening must be consistent and be voyage 1, turn 0, nothing scored or aboard."""
    try:
        check_state(state, ramp=False)
    except ValueError as exc:
        return [Finding("state", "a consistent opening position", "inconsistent", str(exc))]
    opening = {
        "voyage": 1,
        "turn": 0,
        "voyageStartTurn": 0,
        "phase": "loading",
        "score": 0,
        "chain": 0,
        "lotsShipped": 0,
        "hold": [[] for _ in range(7)],
    }
    return [
        Finding(f"state.{k}", v, state.get(k), "opening position")
        for k, v in opening.items()
        if state.get(k) != v
    ]


def expected_after(
    prev: dict[str, Any], action: Any, got: dict[str, Any]
) -> tuple[dict[str, Any], list[Finding]]:
    """The position the rules give for ``action`` from ``prev``, with ``got``'s draws.

    Raises:
        IllegalAction: the rules refuse ``action`` in ``prev``.
    """
    check_shape(prev)  # bounded terms: a hostile answer cannot make the replay draw forever
    draws = ReplayDraws(prev, got)
    expected = kh.step_with_draws(prev, action, draws)
    if "rng" in got:
        expected["rng"] = got["rng"]
    else:
        expected.pop("rng", None)
    return expected, draws.findings
