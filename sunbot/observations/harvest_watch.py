"""Harvest Watch's observation, commands, and a ``legal_actions`` for every beat.

The observation is the view's ``data`` object: ``round``, ``phase``, ``summary`` (the seat's
public position when the beat opened), ``legal`` on the action beat, ``schema.example`` on
the others, ``pending`` (what this seat stored for the beat), ``result`` once done.

**Legal actions per beat** (:func:`legal_actions`; the loop passes it as the second
argument of ``choose``):

- ``action``: the served ``legal`` list, unchanged (farm, farm_coop with each other living
  seat, guard, steal from each, donate to each when the store allows it). Answer one
  element of it, unchanged.
- ``vote``: every ballot the rules accept: ``{"punish": None}`` (abstain) first, then
  ``{"punish": N, "giveTo": M}`` for each living ``N`` and each living ``M`` that is
  neither ``N`` nor the voter, ascending. It is built from ``summary.aliveSeats`` and
  ``summary.you``: public facts.
- ``speech1``, ``speech2``, ``diary``: one element, the beat's example command
  (``schema.example``, e.g. ``{"speech": "…"}``). It stands for a shape, not a list: any
  ``{"speech": text}`` of 1 to :data:`SPEECH_MAX` characters (a diary: ``{"diary": text}``,
  1 to :data:`DIARY_MAX`) is as legal as the example. Speeches are public; a diary is
  private and changes nothing.
- no acting seat (out, or the match is done): ``[]``.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from sunbot.engines.harvest_watch import MAX_SEATS

#: Longest speech and diary, in characters (code points), from the published rules.
SPEECH_MAX, DIARY_MAX = 200, 80

Phase = Literal["speech1", "speech2", "vote", "action", "diary", "done"]


class PunishResult(TypedDict):
    """The day's fine: the punished seat, the fine, and each recipient's share."""

    punished: int | None
    fine: float
    shares: dict[str, float]


class Summary(TypedDict, total=False):
    """A seat's public position (foods in units of 0.1, shown as floats)."""

    you: int
    day: int
    phase: Phase
    food: float
    foods: list[float]
    alive: bool
    aliveSeats: list[int]
    nightCostBase: float
    nightCostIfGuard: float
    nightCost: float | None
    lastPublic: str
    speeches1: dict[str, str]
    speeches2: dict[str, str]
    votes: dict[str, dict[str, int | None]]
    punishResult: PunishResult
    caught: list[int]
    collided: list[int]


class Schema(TypedDict, total=False):
    """``schema`` on the speech, vote and diary beats: ``example`` is one valid command."""

    example: dict[str, Any]


class HarvestWatchObservation(TypedDict):
    """The view's ``data`` object that ``choose`` receives."""

    round: int
    phase: Phase
    summary: Summary
    legal: NotRequired[list[dict[str, Any]]]
    schema: NotRequired[Schema]
    pending: NotRequired[list[Any]]
    result: NotRequired[dict[str, Any]]


class Speech(TypedDict):
    """``{"speech": text}`` (1-200 characters) on ``speech1`` and ``speech2``."""

    speech: str


class Ballot(TypedDict, total=False):
    """``{"punish": None}`` or ``{"punish": N, "giveTo": M}`` on the ``vote`` beat."""

    punish: int | None
    giveTo: int


class Act(TypedDict, total=False):
    """An element of ``legal`` on the ``action`` beat, e.g. ``{"act": "steal", "target": 2}``
    (``with`` for ``farm_coop``, ``to`` for ``donate``)."""

    act: Literal["farm", "farm_coop", "guard", "steal", "donate"]
    target: int
    to: int


class Diary(TypedDict):
    """``{"diary": text}`` (1-80 characters) on the ``diary`` beat; private."""

    diary: str


HarvestWatchAction = Speech | Ballot | Act | Diary

_EXAMPLES: dict[str, dict[str, Any]] = {
    "speech1": {"speech": "\u2026"},
    "speech2": {"speech": "\u2026"},
    "diary": {"diary": "\u2026"},
}


def ballots(you: int, living: list[int]) -> list[dict[str, Any]]:
    """Every ballot seat ``you`` may cast with ``living`` seats alive: abstain first, then
    ``{"punish": N, "giveTo": M}`` by ascending ``N`` then ``M`` (``M`` living, ``M != N``,
    ``M != you``). Only seat numbers a table has count (0..5, the rule text's six seats),
    each once, so a server listing 100,000 living seats still gives at most 26 ballots."""
    seats = sorted({s for s in living if 0 <= s < MAX_SEATS})
    out: list[dict[str, Any]] = [{"punish": None}]
    out += [{"punish": n, "giveTo": m} for n in seats for m in seats if m not in (n, you)]
    return out


def legal_actions(observation: dict[str, Any]) -> list[dict[str, Any]]:
    """The second argument of ``choose`` for this beat (see the module doc).

    Args:
        observation: a view's ``data`` object (``phase``, ``summary``, ``legal`` or
            ``schema``).

    Returns:
        A fresh list (the caller may keep or change it).
    """
    legal = observation.get("legal")
    if isinstance(legal, list):
        return [dict(a) if isinstance(a, dict) else a for a in legal]
    summary = observation.get("summary") or {}
    # summary.phase is the text's field; data.phase is only our server's copy of it
    phase = summary.get("phase", observation.get("phase"))
    if phase == "vote":
        you, living = summary.get("you"), summary.get("aliveSeats")
        if isinstance(you, int) and isinstance(living, list):
            return ballots(you, [s for s in living if isinstance(s, int)])
    schema = observation.get("schema")
    example = schema.get("example") if isinstance(schema, dict) else None
    if isinstance(example, dict):
        return [dict(example)]
    if phase in _EXAMPLES and "schema" in observation:
        return [dict(_EXAMPLES[phase])]
    return []


__all__ = [
    "DIARY_MAX",
    "SPEECH_MAX",
    "Act",
    "Ballot",
    "Diary",
    "HarvestWatchAction",
    "HarvestWatchObservation",
    "Phase",
    "PunishResult",
    "Schema",
    "Speech",
    "Summary",
    "ballots",
    "legal_actions",
]
