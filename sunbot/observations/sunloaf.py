"""Sunloaf's observation and actions (``docs/writing-a-bot.md``, Sunloaf).

Tiles are numbered ``row * 7 + column`` on the 7 x 7 room; a band of sunlight crosses it
during the day; cats earn cosy for each turn they end settled in the light.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Cat(TypedDict):
    """A cat: its tile, ``settled`` (turns in a row it ended without moving), ``range``
    (how far it can move) and whether it is a big cat."""

    id: int
    tile: int
    settled: int
    range: int
    big: bool


class Bowl(TypedDict):
    """A bowl on mat ``mat``, served by the resolution of turn ``serveTurn``."""

    mat: int
    serveTurn: int


class Layout(TypedDict, total=False):
    """Today's room: window side, furniture tiles, hearth, dogs' loops, shade, clouds."""

    window: str
    furniture: list[int]
    hearth: int | None
    dogLoops: list[list[int]]
    dogSpeed: int
    shadeLength: int
    latticeParity: int | None
    cloudTurns: list[int]


class SunloafObservation(TypedDict, total=False):
    """What a Sunloaf strategy sees. ``phase``: ``day`` (move or doze), ``sunset`` (the day
    is scored: next day or end the run), ``over``; ``result`` once over."""

    day: int
    phase: Literal["day", "sunset", "over"]
    result: str | None
    turn: int
    turnsInDay: int
    bandDwell: int
    bandWidth: int
    mult: int
    score: int
    chain: int
    dayCosyRaw: int
    dayPar: int
    dayQuota: int
    cats: list[Cat]
    bowls: list[Bowl]
    layout: Layout
    dogs: list[int]


class Move(TypedDict):
    """``{"type": "MOVE", "cat": id, "tile": t}``: move one cat, which ends the turn."""

    type: Literal["MOVE"]
    cat: int
    tile: int


class Doze(TypedDict):
    """``{"type": "DOZE"}``: nobody moves this turn."""

    type: Literal["DOZE"]


class NextDay(TypedDict):
    """``{"type": "NEXT_DAY"}``: at sunset, start the next day."""

    type: Literal["NEXT_DAY"]


class EndRun(TypedDict):
    """``{"type": "END_RUN"}``: at sunset, end the run."""

    type: Literal["END_RUN"]


SunloafAction = Move | Doze | NextDay | EndRun


#: What each ``result`` means, in a few words (docs/rules/sunloaf.md; END_RUN and the
#: quota check at a day's last turn).
RESULTS: dict[str, str] = {
    "win": "the run was ended at a sunset, every day's quota met (END_RUN)",
    "goodGame": "the run was ended during a day, before its sunset (END_RUN)",
    "missedQuota": "a day ended with less raw cosy than its quota",
}


def explain(word: str) -> str | None:
    """What a ``result`` (:data:`RESULTS`) means; ``None`` for another word."""
    return RESULTS.get(word)


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """Closing-summary fields: the day reached, the result, and that day's cosy and quota
    (labelled as in the live view: ``cosy 735 / quota 76``)."""
    return {
        "day": state["day"],
        "result": state.get("result"),
        "last day": f"cosy {state['dayCosyRaw']} / quota {state['dayQuota']}",
    }


__all__ = [
    "RESULTS",
    "Bowl",
    "Cat",
    "Doze",
    "EndRun",
    "Layout",
    "Move",
    "NextDay",
    "SunloafAction",
    "SunloafObservation",
    "explain",
    "summary",
]
