"""Keelhold's observation and actions (``docs/writing-a-bot.md``, Keelhold).

The observation is the whole public state: the barge (``arms``, ``hold``, ``trim``), the
crate in hand (``queue[0]``), this voyage's and the next voyage's terms, and the engine's
own safety answer (``safeBays``: the hatches where placing ``queue[0]`` is safe).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Crate(TypedDict):
    """A crate: ``cargo`` ``0..cargoTypes-1`` or ``None`` (iron ballast); ``rushWindow`` an
    int for a rush crate (else ``None``); ``due`` the turn a placed rush crate is due."""

    id: int
    weight: int
    cargo: int | None
    rushWindow: int | None
    due: int | None


class Terms(TypedDict, total=False):
    """One voyage's terms (``params``, ``next``)."""

    tolerance: int
    capacity: int
    manifestSize: int
    cargoTypes: int
    weightMin: int
    weightMax: int
    quota: int
    wind: int
    openBays: list[int]
    queueSize: int
    conditions: list[str]


class KeelholdObservation(TypedDict, total=False):
    """What a Keelhold strategy sees. ``phase``: ``loading`` (place the crate in hand) or
    ``port`` (a voyage's quota shipped: cast off or end the run); ``over`` once ended."""

    voyage: int
    turn: int
    phase: Literal["loading", "port", "over"]
    cause: str | None
    score: int
    trim: int
    listing: bool
    chain: int
    lotsShipped: int
    arms: list[int]
    hold: list[list[Crate]]
    jammedUntil: list[int]
    queue: list[Crate]
    params: Terms
    next: Terms
    safeBays: list[int]
    listingBays: list[int]
    castOffSafe: bool | None
    nextCrateId: int
    drawn: int


class Place(TypedDict):
    """``{"type": "PLACE", "bay": 0..6}``: put ``queue[0]`` into hatch ``bay``."""

    type: Literal["PLACE"]
    bay: int


class CastOff(TypedDict):
    """``{"type": "CAST_OFF"}``: at port, start the next voyage."""

    type: Literal["CAST_OFF"]


class EndRun(TypedDict):
    """``{"type": "END_RUN"}``: at port, bank the score and end the run."""

    type: Literal["END_RUN"]


KeelholdAction = Place | CastOff | EndRun


#: What each ``cause`` means, in a few words (docs/rules/keelhold.md; the rules' run check
#: at the end of a turn, END_RUN at port, and the placement guard).
CAUSES: dict[str, str] = {
    "lurch": "she was listing and no hatch for the crate in hand would right her",
    "noSafeStow": "every hatch for the crate in hand would leave her listing",
    "holdFull": "no hatch could take the crate in hand",
    "ended": "the run was ended at port (END_RUN)",
    "guard": "the run reached the 20,000-placement guard",
}


def explain(word: str) -> str | None:
    """What a ``cause`` (:data:`CAUSES`) means; ``None`` for another word."""
    return CAUSES.get(word)


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """Closing-summary fields: voyages reached, placements, cause."""
    return {"voyage": state["voyage"], "placements": state["turn"], "cause": state.get("cause")}


__all__ = [
    "CAUSES",
    "CastOff",
    "Crate",
    "EndRun",
    "KeelholdAction",
    "KeelholdObservation",
    "Place",
    "Terms",
    "explain",
    "summary",
]
