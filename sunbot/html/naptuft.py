"""What a Naptuft replay page draws of an observation (Naptuft §3, "Observation schema").

A frame: ``day``, ``moment`` and ``window`` (0-based, as published), ``phase``, ``needs``
(food, joy, cleanliness, energy: 0..100), ``wish`` (``{actions, progress}`` or null),
``streak`` (wishStreak), ``forecast`` (the day's three windows, each ``[wish cares,
[pressure per need]]``), ``nextWindow`` (the next day's first window, same shape),
``lastCare``, ``score``, ``result`` and ``cause``. ``streak``, ``lastCare``, ``result`` and
``cause`` are null when a server leaves them out, as it may: the rule text promises none of
them. Needs and pressures are in the order of :data:`sunbot.engines.naptuft.NEEDS`.
"""

from __future__ import annotations

from typing import Any

from sunbot.engines.naptuft import NEEDS


def _window(desc: dict[str, Any]) -> list[Any]:
    return [list(desc["wish"]), [desc["pressure"][n] for n in NEEDS]]


def frame(state: dict[str, Any]) -> dict[str, Any]:
    """The drawn fields of a Naptuft observation (see the module docstring).

    Raises:
        KeyError, TypeError: the observation lacks a field the rules publish.
    """
    return {
        "day": state["day"],
        "moment": state["moment"],
        "window": state["window"],
        "phase": state["phase"],
        "needs": [state["needs"][n] for n in NEEDS],
        "wish": state.get("wish"),
        "streak": state.get("wishStreak"),
        "forecast": [_window(d) for d in state["forecast"]],
        "nextWindow": _window(state["nextWindow"]),
        "lastCare": state.get("lastCare"),
        "score": state["score"],
        "result": state.get("result"),
        "cause": state.get("cause"),
    }


def progress(state: dict[str, Any]) -> str:
    """``day 2 · moment 5/12 · window 2/3 · care`` (1-based, as a player counts)."""
    told = [str(state[k]) for k in ("result", "cause") if state.get(k) is not None]
    end = f" ({': '.join(told)})" if state.get("phase") == "over" and told else ""
    return (
        f"day {state['day']} · moment {state['moment'] + 1}/12 · window {state['window'] + 1}/3"
        f" · {state['phase']}{end}"
    )
