"""Keelhold wire schema (pydantic) and the consistency check of a client-sent state.

The local server accepts the documented ``{state, action}`` form with a whole plain state
(the platform protocol, "The local server"); :func:`check_state` decides whether such a
state is well formed and internally consistent. The mirror uses the same models to check
the shape of what a server draws (crates, voyage terms).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import CONDITIONS, CONDITIONS_FROM, params_for, wind_limit

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
    """A voyage's terms (spec "State", ``params``); cadences are ``None`` when off.

    The bounds are sanity limits far above any ramp (a state must not be able to make a
    step draw millions of crates), not rules.
    """

    tolerance: Annotated[StrictInt, Field(ge=0, le=10**6)]
    capacity: Annotated[StrictInt, Field(ge=1, le=100)]
    manifestSize: Annotated[StrictInt, Field(ge=2, le=20)]
    cargoTypes: Annotated[StrictInt, Field(ge=1, le=100)]
    weightMin: Annotated[StrictInt, Field(ge=1, le=10**6)]
    weightMax: Annotated[StrictInt, Field(ge=1, le=10**6)]
    quota: Annotated[StrictInt, Field(ge=1, le=10**4)]
    wind: Annotated[StrictInt, Field(ge=-(10**6), le=10**6)]
    openBays: Annotated[list[Hatch], Field(min_length=1, max_length=7)]
    queueSize: Annotated[StrictInt, Field(ge=1, le=20)]
    jamEvery: Annotated[StrictInt, Field(ge=1, le=10**4)] | None
    jamLength: Annotated[StrictInt, Field(ge=0, le=10**4)]
    maxJams: Annotated[StrictInt, Field(ge=0, le=7)]
    rushEvery: Annotated[StrictInt, Field(ge=1, le=10**4)] | None
    rushWindow: Annotated[StrictInt, Field(ge=1, le=10**4)]
    ballastEvery: Annotated[StrictInt, Field(ge=1, le=10**4)] | None
    squallEvery: Annotated[StrictInt, Field(ge=1, le=10**4)] | None
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
    hold: Annotated[
        list[Annotated[list[Crate], Field(max_length=100)]], Field(min_length=7, max_length=7)
    ]
    jammedUntil: Annotated[list[NonNeg], Field(min_length=7, max_length=7)]
    queue: Annotated[list[Crate], Field(max_length=20)]
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


def check_state(state: Any, *, ramp: bool = True) -> None:
    """Raise ``ValueError`` unless ``state`` is a well-formed, self-consistent state.

    Checks the schema, then what the rules derive: trim (formula), listing, arms, hatch
    contents against capacity and the manifest, crate ids, the queue length, the phase
    and cause pairing, and ``safeBays``/``listingBays``/``castOffSafe`` recomputed. With
    ``ramp`` (the local server), ``params`` and ``next`` must also be this project's terms
    for their voyage, conditions and wind (``docs/rules/keelhold.md``); the mirror checks a
    foreign server's states with ``ramp=False``, since the ramp is a local choice.
    """
    check_shape(state)
    s: dict[str, Any] = state
    p = s["params"]
    if ramp:
        _check_ramp(s)
        _check_history(s)
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


#: The heaviest crate the ramp deals (weights up to 6, heavyLot adds 1).
RAMP_WEIGHT_MAX = 7


def score_bounds(s: dict[str, Any]) -> tuple[int, int]:
    """The least and the most score a run of this project's ramp can hold at ``s``'s voyage
    and turn (spec Scoring): at least 300 x v for every voyage v completed (the current one
    once its quota is met); at most ``turn`` placements each paying the largest award the
    rules allow at the current multiplier (a whole hatch of the heaviest crates shipping at
    the outermost lever with the chain at its cap, every crate a rush crate, the even-keel
    and righting awards, a voyage completed).
    """
    v, m, cap = s["voyage"], s["voyage"] + 3, s["params"]["capacity"]
    done = v * (v - 1) // 2 + (v if s["lotsShipped"] >= s["params"]["quota"] else 0)
    heaviest = max([RAMP_WEIGHT_MAX, *(c["weight"] for h in s["hold"] for c in h)])
    lot = (10 * cap * heaviest * max(kh.LEVER_AWARD.values()) * (kh.CHAIN_CAP + 1) * m) // 32
    flat = cap * ((150 * m) // 4) + (50 * m) // 4 + (75 * m) // 4 + 300 * v
    return 300 * done, s["turn"] * (lot + flat)


def _check_history(s: dict[str, Any]) -> None:
    """What a plain state says of the run behind it must be reachable: the turn within the
    guard, the voyage's start turn not after the turn, at least one placement per voyage
    before this one, and a score within :func:`score_bounds` (a client's state is not proof
    of its score; the server refuses one no run could hold)."""
    if s["turn"] > kh.GUARD_TURNS:
        raise ValueError(f"inconsistent state: turn is past the {kh.GUARD_TURNS}-placement guard")
    if s["voyageStartTurn"] > s["turn"]:
        raise ValueError("inconsistent state: voyageStartTurn is after turn")
    if s["voyage"] - 1 > s["turn"]:
        raise ValueError("inconsistent state: more voyages completed than placements made")
    low, high = score_bounds(s)
    if not low <= s["score"] <= high:
        raise ValueError(
            f"inconsistent state: score {s['score']} is not one a run holds at voyage"
            f" {s['voyage']}, turn {s['turn']} (from {low} to {high})"
        )


def _check_ramp(s: dict[str, Any]) -> None:
    """``params`` and ``next`` are the ramp's terms for their voyage, conditions and wind."""
    for field, voyage in (("params", s["voyage"]), ("next", s["voyage"] + 1)):
        terms = s[field]
        conds = terms["conditions"]
        if abs(terms["wind"]) > wind_limit(voyage):
            raise ValueError(
                f"inconsistent state: {field}.wind is out of range for voyage {voyage}"
            )
        if (voyage < CONDITIONS_FROM and conds) or len(conds) > 2:
            raise ValueError(f"inconsistent state: {field}.conditions do not fit voyage {voyage}")
        expected = params_for(voyage, conds, terms["wind"])
        if field == "params" and "squall" in conds:
            expected["wind"] = terms["wind"]  # a squall may have flipped it this voyage
        if terms != expected:
            raise ValueError(f"inconsistent state: {field} are not the terms of voyage {voyage}")
