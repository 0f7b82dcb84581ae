"""A strategy wrapped to record its answers and decision times (``sunbot check-bot``).

:func:`recorded` wraps any strategy; every optional member of the strategy contract passes
through, so the loop treats the wrapper as it would treat the bot.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from sunbot import strategies

__all__ = ["recorded"]


class _Recorded:
    """A strategy wrapped to record each answer (as JSON) and the time its ``choose`` took;
    every optional member of the contract is passed through (``blocking``, ``on_start``,
    ``on_end``, ``last_decision``, ``totals``, ``close``; ``choose_by`` on :class:`_Timed`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.blocking = bool(getattr(inner, "blocking", False))
        self.actions: list[str] = []
        self.times_ms: list[float] = []
        self._lock = threading.Lock()
        self._closed = False

    def _record(self, started: float, action: Any) -> Any:
        try:
            text = json.dumps(action, sort_keys=True, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = repr(action)
        with self._lock:  # a late call may still answer on the worker thread
            self.times_ms.append((time.perf_counter() - started) * 1000)
            self.actions.append(text)
        return action

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        """The bot's ``choose``, recorded."""
        started = time.perf_counter()
        return self._record(started, self.inner.choose(observation, legal_actions))

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        """The bot's ``on_start``, with what it declares of ``cap`` and ``spec``."""
        strategies.notify_start(self.inner, game, seed, cap, spec=spec)

    def on_end(self, observation: Any, outcome: Any) -> None:
        """The bot's ``on_end``, if it has one."""
        on_end = getattr(self.inner, "on_end", None)
        if callable(on_end):
            on_end(observation, outcome)

    def last_decision(self) -> dict[str, Any] | None:
        """The bot's ``last_decision()``, if it has one."""
        own = getattr(self.inner, "last_decision", None)
        return own() if callable(own) else None

    def totals(self) -> dict[str, Any]:
        """The bot's ``totals()`` (``{}`` when it has none)."""
        own = getattr(self.inner, "totals", None)
        return dict(own() or {}) if callable(own) else {}

    def close(self) -> None:
        """The bot's ``close()``, once."""
        if self._closed:
            return
        self._closed = True
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()

    def snapshot(self) -> tuple[list[str], list[float]]:
        """The answers and times so far (copies)."""
        with self._lock:
            return list(self.actions), list(self.times_ms)


class _Timed(_Recorded):
    """:class:`_Recorded` of a deadline-aware bot (``choose_by``)."""

    def choose_by(
        self, observation: Any, legal_actions: list[Any], deadline: float | None, /
    ) -> Any:
        """The bot's ``choose_by``, recorded (a missed deadline records nothing)."""
        started = time.perf_counter()
        action = self.inner.choose_by(observation, legal_actions, deadline)
        return self._record(started, action)


def recorded(strategy: Any) -> _Recorded:
    """``strategy`` wrapped to record each answer (``actions``: JSON texts, sorted keys) and
    each ``choose``'s time (``times_ms``); read both with ``snapshot()``. A deadline-aware
    strategy (``choose_by``) keeps its ``choose_by``."""
    return (
        _Timed(strategy) if callable(getattr(strategy, "choose_by", None)) else _Recorded(strategy)
    )
