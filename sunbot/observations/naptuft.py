"""Naptuft's observation and actions (``docs/writing-a-bot.md``, Naptuft).

One cat, four needs (0-100). A day is 12 moments in three windows of 4; each moment takes
one care; each window shows a wish (cares in order) worth following.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Care = Literal["feed", "play", "brush", "nap"]


class Needs(TypedDict):
    """The four needs, 0-100 each (a need at 0 ends the run)."""

    food: int
    joy: int
    cleanliness: int
    energy: int


class Wish(TypedDict):
    """The live wish: ``actions`` (1-4 distinct cares, in order), ``progress`` done so far."""

    actions: list[Care]
    progress: int


class Descriptor(TypedDict):
    """A window's forecast: its wish and the extra decay (``pressure``) per need."""

    wish: list[Care]
    pressure: Needs


class NaptuftObservation(TypedDict, total=False):
    """What a Naptuft strategy sees. ``day`` counts from 1; ``moment`` is the moment of the
    day from 0 to 11 (the views show it from 1: ``moment 1/12``) and ``window`` its window,
    0 to 2. ``phase``: ``care`` (pick a care), ``dayBreak`` (the day is over: next day or end
    the run), ``over``."""

    day: int
    moment: int
    window: int
    phase: Literal["care", "dayBreak", "over"]
    needs: Needs
    wish: Wish | None
    wishStreak: int
    forecast: list[Descriptor]
    nextWindow: Descriptor
    lastCare: Care | None
    score: int
    result: str | None
    cause: str | None


class CareAction(TypedDict):
    """``{"type": "care", "care": "feed" | "play" | "brush" | "nap"}``."""

    type: Literal["care"]
    care: Care


class NextDay(TypedDict):
    """``{"type": "next-day"}``: at day break, start the next day."""

    type: Literal["next-day"]


class EndRun(TypedDict):
    """``{"type": "end-run"}``: end the run (at any time)."""

    type: Literal["end-run"]


NaptuftAction = CareAction | NextDay | EndRun


def explain(word: str) -> str | None:
    """What a ``result`` or ``cause`` means, in a few words (docs/rules/naptuft.md: a care
    that leaves a need at 0 ends the run; end-run banks the score): ``fatal``,
    ``zero:food,joy`` (``food and joy fell to 0``), ``ended``, ``end-run``; ``None`` for
    another word."""
    if word.startswith("zero:"):
        needs = [n for n in word.removeprefix("zero:").split(",") if n]
        if not needs:
            return None
        named = needs[0] if len(needs) == 1 else f"{', '.join(needs[:-1])} and {needs[-1]}"
        return f"{named} fell to 0"
    return {
        "fatal": "a need fell to 0",
        "ended": "the run was ended (end-run)",
        "end-run": "the strategy or the cap sent end-run",
    }.get(word)


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """Closing-summary fields: the day reached, the result (``ended``/``fatal``/None) and
    the cause (``end-run`` or ``zero:<needs>``)."""
    return {"day": state["day"], "result": state.get("result"), "cause": state.get("cause")}


__all__ = [
    "Care",
    "CareAction",
    "Descriptor",
    "EndRun",
    "NaptuftAction",
    "NaptuftObservation",
    "Needs",
    "NextDay",
    "Wish",
    "explain",
    "summary",
]
