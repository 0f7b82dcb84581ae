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


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """Closing-summary fields: voyages reached, placements, cause."""
    return {"voyage": state["voyage"], "placements": state["turn"], "cause": state.get("cause")}


__all__ = [
    "CastOff",
    "Crate",
    "EndRun",
    "KeelholdAction",
    "KeelholdObservation",
    "Place",
    "Terms",
    "summary",
]
