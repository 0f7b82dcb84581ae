"""Keelhold wire schema (pydantic) and the consistency check of a client-sent state.

The local server accepts the documented ``{state, action}`` form with a whole plain state
(``shared/spec/README.md``, "The local server"); :func:`check_state` decides whether such a
state is well formed and internally consistent. The mirror uses the same models to check
the shape of what a server draws (crates, voyage terms).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import CONDITIONS

NonNeg = Annotated[StrictInt, Field(ge=0)]
Hatch = Annotated[StrictInt, Field(ge=0, le=6)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Crate(_Strict):
    """``{id, weight, cargo, rushWindow, due}`` (spec "State", Crate)."""

    id: StrictInt
    weight: Annotated[StrictInt, Field(ge=1)]
    cargo: NonNeg | None
    rushWindow: Annotated[StrictInt, Field(ge=1)] | None
    due: NonNeg | None


class Params(_Strict):
    """A voyage's terms (spec "State", ``params``); cadences are ``None`` when off."""

    tolerance: NonNeg
    capacity: Annotated[StrictInt, Field(ge=1)]
    manifestSize: Annotated[StrictInt, Field(ge=2)]
    cargoTypes: Annotated[StrictInt, Field(ge=1)]
    weightMin: Annotated[StrictInt, Field(ge=1)]
    weightMax: Annotated[StrictInt, Field(ge=1)]
    quota: Annotated[StrictInt, Field(ge=1)]
    wind: StrictInt
    openBays: Annotated[list[Hatch], Field(min_length=1, max_length=7)]
    queueSize: Annotated[StrictInt, Field(ge=1)]
    jamEvery: Annotated[StrictInt, Field(ge=1)] | None
    jamLength: NonNeg
    maxJams: NonNeg
    rushEvery: Annotated[StrictInt, Field(ge=1)] | None
    rushWindow: Annotated[StrictInt, Field(ge=1)]
    ballastEvery: Annotated[StrictInt, Field(ge=1)] | None
    squallEvery: Annotated[StrictInt, Field(ge=1)] | None
    conditions: list[Literal[CONDITIONS]]  # type: ignore[valid-type]


class KeelholdState(_Strict):
    """The whole public state (spec "State (pinned schema)")."""

    seed: StrictInt
    rng: StrictInt | Annotated[list[NonNeg], Field(min_length=1)]
    voyage: Annotated[StrictInt, Field(ge=1)]
    turn: NonNeg
    voyageStartTurn: NonNeg
    phase: Literal["loading", "port", "over"]
    cause: Literal["lurch", "noSafeStow", "holdFull", "ended", "guard"] | None
    score: NonNeg
    trim: StrictInt
    listing: StrictBool
    chain: Annotated[StrictInt, Field(ge=0, le=7)]
    lotsShipped: NonNeg
    arms: Annotated[list[StrictInt], Field(min_length=7, max_length=7)]
    hold: Annotated[list[list[Crate]], Field(min_length=7, max_length=7)]
    jammedUntil: Annotated[list[NonNeg], Field(min_length=7, max_length=7)]
    queue: list[Crate]
    params: Params
    next: Params
    safeBays: list[Hatch]
    listingBays: list[Hatch]
    castOffSafe: StrictBool | None
    nextCrateId: StrictInt
    drawn: NonNeg


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "state"
    return f"{where}: {err['msg']}"


def check_shape(state: Any) -> None:
    """Raise ``ValueError`` naming the first field whose type or range is wrong."""
    try:
        KeelholdState.model_validate(state)
    except ValidationError as exc:
        raise ValueError(f"malformed keelhold state: {_first_error(exc)}") from None


def check_state(state: Any) -> None:
    """Raise ``ValueError`` unless ``state`` is a well-formed, self-consistent state.

    Checks the schema, then what the rules derive: trim (formula), listing, arms, hatch
    contents against capacity and the manifest, crate ids, the queue length, the phase
    and cause pairing, and ``safeBays``/``listingBays``/``castOffSafe`` recomputed.
    """
    check_shape(state)
    s: dict[str, Any] = state
    p = s["params"]
    if s["arms"] != kh.arms_for(p["conditions"]):
        raise ValueError("inconsistent state: arms do not follow the voyage's conditions")
    if s["trim"] != kh.compute_trim(s):
        raise ValueError("inconsistent state: trim is not wind + Σ weight × arm")
    if s["listing"] != (abs(s["trim"]) > p["tolerance"]) and s["phase"] != "over":
        raise ValueError("inconsistent state: listing does not match trim and tolerance")
    if p["weightMin"] > p["weightMax"]:
        raise ValueError("inconsistent state: weightMin > weightMax")
    for i, hatch in enumerate(s["hold"]):
        if len(hatch) > p["capacity"]:
            raise ValueError(f"inconsistent state: hatch {i} holds more than capacity")
        cargos = [c["cargo"] for c in hatch if c["cargo"] is not None]
        if any(cargos.count(c) >= p["manifestSize"] for c in set(cargos)):
            raise ValueError(f"inconsistent state: hatch {i} holds a full lot that did not ship")
    ids = [c["id"] for h in s["hold"] for c in h] + [c["id"] for c in s["queue"]]
    if len(ids) != len(set(ids)) or (ids and max(ids) >= s["nextCrateId"]):
        raise ValueError("inconsistent state: crate ids repeat or run past nextCrateId")
    if s["phase"] != "over" and not s["queue"]:
        raise ValueError("inconsistent state: no crate in hand")
    if (s["phase"] == "over") != (s["cause"] is not None):
        raise ValueError("inconsistent state: cause must be set exactly when the run is over")
    port_mismatch = (s["phase"] == "port") != (s["lotsShipped"] == p["quota"])
    if s["phase"] != "over" and (s["lotsShipped"] > p["quota"] or port_mismatch):
        raise ValueError("inconsistent state: port phase must match lotsShipped == quota")
    expected = dict(s)
    kh.refresh(expected)
    for field in ("phase", "safeBays", "listingBays", "castOffSafe"):
        if expected[field] != s[field]:
            raise ValueError(f"inconsistent state: {field} is not what the rules derive")
