"""Naptuft mirror hooks (see :mod:`sunbot.mirror`): what a player can check (spec ``naptuft.md``).

The server's ``state`` is the observation (§3): the seed and the deck are hidden, so the mirror
checks everything the observation determines and nothing else. A care and ``end-run`` are fully
determined by the previous observation (the pressures and the next wish are in ``forecast``):
:func:`sunbot.engines.naptuft.step_observation` recomputes the restoration, the decay, comfort,
the wish progress and payout, the streak, the window and day ends, the day bonus, the phase,
result and cause, and the mirror compares every field. ``next-day`` reveals three descriptors
(the new day's windows 1 and 2 and its ``nextWindow``; window 0 is the old ``nextWindow`` and is
checked): those alone are adopted from the answer, after a shape check (§3 descriptor: a wish of
1..4 distinct cares, pressures 0..4). The §4 generation ramp is a local choice, so it is not
held against a server.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from sunbot.engines import naptuft as nt
from sunbot.mirror import Finding

#: A descriptor used in place of a malformed revealed one, so replay can go on.
_PLACEHOLDER: dict[str, Any] = {"wish": ["feed"], "pressure": dict.fromkeys(nt.NEEDS, 0)}


def _where(loc: tuple[int | str, ...]) -> str:
    """A ``_Revealed`` error location as a path in the answer's state."""
    head, *rest = loc
    if head == "windows" and rest and isinstance(rest[0], int):
        path = f"state.forecast[{rest[0] + 1}]"
        rest = rest[1:]
    else:
        path = "state.forecast" if head == "windows" else f"state.{head}"
    return path + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)


def check_initial(state: dict[str, Any]) -> list[Finding]:
    """The opening observation (§3 "Initial state"): shape, then the pinned opening values.

    Shape: :func:`~sunbot.engines.naptuft.check_observation_shape` (types, ranges, keys,
    relations). Values: day 1, moment 0, window 0, phase ``care``, every need in 1..100 (its
    starting value, 70 on our server, is a local choice), the wish
    of window 0 (``forecast[0].wish``) with progress 0, wishStreak 0, lastCare, result and
    cause null, score 0. The descriptors themselves are hidden-deck draws: shape only.

    Returns:
        One :class:`Finding` per wrong field (path ``state.<field>``); empty when all hold.
    """
    try:
        nt.check_observation_shape(state)
    except ValueError as exc:
        return [Finding("state", "a well-formed observation (§3)", "malformed", _short(exc))]
    opening: dict[str, Any] = {
        "day": 1,
        "moment": 0,
        "window": 0,
        "phase": "care",
        "wish": {"actions": list(state["forecast"][0]["wish"]), "progress": 0},
        "wishStreak": 0,
        "lastCare": None,
        "score": 0,
        "result": None,
        "cause": None,
    }
    found = [
        Finding(f"state.{k}", v, state.get(k), "opening position (§3)")
        for k, v in opening.items()
        if state.get(k) != v
    ]
    # the starting value of the needs is a local choice: a live cat has every need above 0
    found += [
        Finding(f"state.needs.{n}", "1..100 at the opening", v, "a need starts above 0")
        for n, v in state["needs"].items()
        if not 1 <= v <= 100
    ]
    return found


def expected_after(
    prev: dict[str, Any], action: Any, got: dict[str, Any]
) -> tuple[dict[str, Any], list[Finding]]:
    """The observation the rules give for ``action`` from observation ``prev`` (§6).

    For ``next-day`` the new day's windows 1, 2 and ``nextWindow`` are taken from ``got``
    (the server's answer) when they are well-formed descriptors; a malformed or missing one
    is reported at its path (e.g. ``state.forecast[2].pressure.joy``) and the answer's own
    value is kept in the expectation, so that it is reported once.

    Returns:
        ``(expected observation, findings about the revealed descriptors)``.

    Raises:
        IllegalAction: the rules refuse ``action`` in ``prev`` (§6.1; the code is the same one
            the engine gives).
    """
    if not (isinstance(action, dict) and action.get("type") == "next-day"):
        return _their_cause(nt.step_observation(prev, action), got), []
    nt.step_observation(prev, action, _placeholder_reveal())  # refusals first (§6.1)
    try:
        revealed = nt.revealed_from(got)
    except (KeyError, TypeError, IndexError):
        revealed = None
        key = "forecast" if "nextWindow" in got else "nextWindow"
        note = "the next day's revealed windows are missing"
        findings = [Finding(f"state.{key}", "3 descriptors and a nextWindow", _peek(got), note)]
    else:
        try:
            return nt.step_observation(prev, action, revealed), []
        except ValidationError as exc:
            findings = [
                Finding(
                    _where(tuple(e["loc"])), "a descriptor field (§3)", e.get("input"), e["msg"]
                )
                for e in exc.errors()
            ]
    expected = nt.step_observation(prev, action, _placeholder_reveal())
    if revealed is not None:  # keep what the server sent, already reported above
        expected["forecast"][1:] = revealed["windows"]
        expected["nextWindow"] = revealed["nextWindow"]
    else:
        for key in ("forecast", "nextWindow"):  # reported once, above
            if key in got:
                expected[key] = got[key]
            else:
                del expected[key]
    return expected, findings


def expected_envelope(state: dict[str, Any]) -> dict[str, Any]:
    """The envelope fields for observation ``state`` (spec §2, §5).

    ``legalActions`` in the §5 order, ``score`` = ``state.score``, ``gameOver`` = phase
    ``over``, ``observation`` = the state itself (for Naptuft ``state`` equals it).
    """
    return {
        "legalActions": nt.legal_actions(state),
        "score": int(state["score"]),
        "gameOver": state["phase"] == "over",
        "observation": state,
    }


def _their_cause(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """The wording of ``cause`` is the server's (the rule text names no causes): when both
    sides say the run is over, its own non-empty text stands; that it is over, and why
    (``result``), is still checked."""
    theirs = got.get("cause")
    if expected.get("cause") is not None and isinstance(theirs, str) and theirs:
        expected["cause"] = theirs
    return expected


def _placeholder_reveal() -> dict[str, Any]:
    return {"windows": [_PLACEHOLDER, _PLACEHOLDER], "nextWindow": _PLACEHOLDER}


def _peek(got: dict[str, Any]) -> Any:
    return {k: got.get(k, "<missing>") for k in ("forecast", "nextWindow")}


def _short(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}"
    return str(exc)


def template_states() -> list[dict[str, Any]]:
    """Our own opening observation, whose keys the mirror knows (the state is the
    observation for Naptuft: the deck stays hidden)."""
    return [nt.observation(nt.init(1))]


#: Observation fields not promised by the rule text (field table: ``docs/rules/naptuft.md``):
#: the streak and the last care (the player counts and remembers them), ``cause`` (the text
#: names no cause field) and ``result`` (null or absent while the run is on; its wording is
#: the server's). A server may leave them out; the mirror then fills them from its own
#: expectation and keeps checking every later step.
NOT_PROMISED = ("wishStreak", "lastCare", "cause", "result")
PROMISED: frozenset[str] = frozenset(
    f"state.{k}" for k in nt.observation(nt.init(1)) if k not in NOT_PROMISED
)


def numbering(opening: dict[str, Any]) -> dict[str, int]:
    """The server's constant offset for ``moment`` and ``window``, learned from its opening.

    The rule text gives a day 12 care moments in three windows of 4 but never says where
    their count starts (a player sees a position, and 1..12 is as faithful as our 0..11), so
    the opening's whole-number ``moment`` is taken as our 0 and that same start applies to
    ``window`` (moments 1..12 go with windows 1..3); every later value is read minus it
    (field table: ``docs/rules/naptuft.md``). How they advance is still checked exactly.
    Returns ``{"moment": k, "window": k}``, or ``{}`` when the count starts at 0 or the
    opening shows no whole-number moment.
    """
    start = opening.get("moment")
    return {"moment": start, "window": start} if type(start) is int and start else {}


def complete(state: dict[str, Any], *, opening: bool) -> dict[str, Any]:
    """``state`` with the fields the rules do not promise filled in where it lacks them:
    at the opening the rules fix them (no streak, no last care, no result or cause); later
    (a step the rules could not replay) the mirror's best guess is the same, and a streak
    the server hides is then counted again from 0. A resumed run does not come here: its
    mirror re-checks the transcript first (:meth:`sunbot.mirror.Mirror.warm`)."""
    s = dict(state)
    s.setdefault("wishStreak", 0)
    s.setdefault("lastCare", None)
    s.setdefault("result", None)
    s.setdefault("cause", None)
    return s
