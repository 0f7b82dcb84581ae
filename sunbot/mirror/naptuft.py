"""Naptuft mirror hooks (see :mod:`sunbot.mirror`): what a player can check (spec ``naptuft.md``).

The server's ``state`` is the observation (§3): the seed and the deck are hidden, so the mirror
checks everything the observation determines and nothing else. A care and ``end-run`` are fully
determined by the previous observation (the pressures and the next wish are in ``forecast``):
:func:`sunbot.engines.naptuft.step_observation` recomputes the restoration, the decay, comfort,
the wish progress and payout, the streak, the window and day ends, the day bonus, the phase,
result and cause, and the mirror compares every field. ``next-day`` reveals three descriptors
(the new day's windows 1 and 2 and its ``nextWindow``; window 0 is the old ``nextWindow`` and is
checked): those alone are adopted from the answer, after a shape check (§3 descriptor: a wish of
1..4 distinct cares, a whole-number pressure >= 0 per need; ours are 0..4, but the rule text
states no range). The §4 generation ramp is a local choice, so it is not held against a server.
What the text leaves to the server's own words is taken from its answer: ``result`` and
``cause`` once the run is over, and how it shows that no wish is live (see
:func:`_their_words`).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from sunbot.engines import naptuft as nt
from sunbot.mirror import Finding
from sunbot.mirror.fields import is_int

_ABSENT = object()
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
    shown, prev = prev.get("wish", _ABSENT), _live_wish_only(prev)
    if not (isinstance(action, dict) and action.get("type") == "next-day"):
        expected = nt.step_observation(prev, action)
        if expected["phase"] == "over" and expected["wish"] is None:
            # the last action leaves the wish as it was (§6.2 step 4, §6.4): as the server
            # showed it, in its own way, when none was live
            if shown is _ABSENT:
                del expected["wish"]
            else:
                expected["wish"] = shown
        return _their_words(expected, got), []
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


#: Our two words for how a run ended (§3 ``result``); a server may use others.
_RESULTS = frozenset(("ended", "fatal"))


def _their_words(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """``expected`` with what the rule text leaves to the server taken from ``got``.

    - ``cause`` and ``result``: the text names neither field nor any wording. When both
      sides say the run is over, the server's own non-empty text stands; that it is over
      (``phase``, ``gameOver``, no legal action) and whether a need is at 0 are still
      checked, and a ``result`` in our own words must be the right one of the two.
    - ``wish`` when no wish is live (completed this window, or at a day break): the text
      promises only the current wish, so what a server shows then is its own: null, no
      key, the completed wish at full progress, or at a day break any wish.
    """
    for key in ("cause", "result"):
        theirs = got.get(key)
        mine = expected.get(key)
        ours_other = key == "result" and theirs in _RESULTS and theirs != mine
        if mine is not None and isinstance(theirs, str) and theirs and not ours_other:
            expected[key] = theirs
    if "wish" in expected and expected["wish"] is None and _dead_wish_ok(expected, got):
        if "wish" in got:
            expected["wish"] = got["wish"]
        else:
            del expected["wish"]
    return expected


def _dead_wish_ok(expected: dict[str, Any], got: dict[str, Any]) -> bool:
    """Whether ``got``'s ``wish`` is a faithful way to show that no wish is live."""
    if "wish" not in got or got["wish"] is None or expected.get("phase") == "dayBreak":
        return True
    wish, window = got["wish"], expected.get("window")
    if expected.get("phase") != "care" or not is_int(window) or not 0 <= window < 3:
        return False
    actions = expected["forecast"][window]["wish"]
    return bool(wish == {"actions": actions, "progress": len(actions)})


def _live_wish_only(prev: dict[str, Any]) -> dict[str, Any]:
    """``prev`` with ``wish`` null when it shows no live wish (left out, completed, or at a
    day break), as our rules hold it, so that a server's way of showing it is replayed
    like ours."""
    wish = prev.get("wish")
    live = (
        prev.get("phase") != "dayBreak"
        and isinstance(wish, dict)
        and isinstance(wish.get("actions"), list)
        and is_int(wish.get("progress"))
        and wish["progress"] < len(wish["actions"])
    )
    return prev if live else {**prev, "wish": None}


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
    """``state`` with the fields the rules do not promise filled in where it lacks them,
    and ``phase`` (promised, so a missing one is still reported) so that the replay goes
    on: at the opening the rules fix them (in play, no streak, no last care, no result or
    cause); later (a step the rules could not replay) the mirror's best guess is the same
    (over once a result is shown), and a streak
    the server hides is then counted again from 0. A resumed run does not come here: its
    mirror re-checks the transcript first (:meth:`sunbot.mirror.Mirror.warm`)."""
    s = dict(state)
    s.setdefault("phase", "care" if opening or s.get("result") is None else "over")
    s.setdefault("wishStreak", 0)
    s.setdefault("lastCare", None)
    s.setdefault("result", None)
    s.setdefault("cause", None)
    return s
