"""The strategy an MCP client plays through: each decision of a run waits for the client.

:class:`AgentSeat` is an ordinary strategy to the run's loop (``choose``, with the optional
``choose_by``, ``blocking``, ``last_decision`` and ``totals`` hooks of
:class:`sunbot.strategies.Strategy`), so a game played over MCP goes through the one run
path: the move clock (:class:`sunbot.agents.clock.Decider`) runs ``choose_by`` on its worker
thread, which announces the decision (a :class:`Turn`) to the event loop and waits for the
client's ``act`` to hand in an action. Every wait is bounded: by the decision's deadline (a
Harvest Watch beat; past it :class:`~sunbot.agents.clock.DecisionTimeout`, the beat's
default applies) and by ``idle_s`` (past it ``on_idle`` is called and :class:`Stopped`
raised: the game's owner stops the run, whose transcript stays whole and resumable).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sunbot.agents.clock import DecisionTimeout

__all__ = ["AgentSeat", "Stopped", "Turn"]

#: Longest single wait on the answer queue, seconds (each wait re-checks its bounds).
_POLL_S = 1.0


class Stopped(Exception):
    """A decision gave up waiting: the game was stopped, or the client stayed idle."""


@dataclass(frozen=True)
class Turn:
    """One decision the client is asked for.

    Attributes:
        number: the decision's number in this game (1, 2, ...).
        observation: what the loop handed the strategy (a single-player answer's
            ``observation``; a Harvest Watch view's ``data``).
        legal_actions: the loop's legal actions (Harvest Watch: the beat's, with the
            example command on a speech or diary beat).
        deadline: the :func:`time.monotonic` instant the decision must be made by (a
            beat's clock), ``None``: none.
    """

    number: int
    observation: Any
    legal_actions: list[Any]
    deadline: float | None


class AgentSeat:
    """A seat played by an MCP client (module doc).

    Args:
        label: the agent's label (recorded in the run's ``agent`` totals).
        on_turn: called on the worker thread with each new :class:`Turn` (the owner hands
            it to its event loop with ``call_soon_threadsafe``).
        on_idle: called on the worker thread when ``idle_s`` passed without an answer.
        idle_s: seconds one decision waits for the client, > 0.
    """

    blocking = True

    def __init__(
        self,
        label: str,
        on_turn: Callable[[Turn], None],
        on_idle: Callable[[], None],
        idle_s: float,
    ) -> None:
        if not idle_s > 0:
            raise ValueError(f"idle_s must be above 0, got {idle_s!r}")
        self.label = label
        self.idle_s = idle_s
        self._on_turn = on_turn
        self._on_idle = on_idle
        self._answers: queue.SimpleQueue[tuple[int, Any] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._number = 0
        self._stopped = False
        self._heard: float | None = None  # the client's last answer, or its first question
        self.answered = 0
        self.missed = 0

    # -- the loop's side (the Decider's worker thread) ----------------------------------

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        """:meth:`choose_by` without a deadline."""
        return self.choose_by(observation, legal_actions, None)

    def choose_by(
        self, observation: Any, legal_actions: list[Any], deadline: float | None, /
    ) -> Any:
        """Announce the decision and wait for the client's action.

        Raises:
            DecisionTimeout: ``deadline`` passed first (the caller plays its fallback).
            Stopped: the game was stopped, or ``idle_s`` passed since the client last
                answered (``on_idle`` was called).
        """
        with self._lock:
            if self._stopped:
                raise Stopped("the game was stopped")
            self._number += 1
            number = self._number
        self._on_turn(Turn(number, observation, list(legal_actions), deadline))
        if self._heard is None:
            self._heard = time.monotonic()
        idle_at = self._heard + self.idle_s
        while True:
            now = time.monotonic()
            if now >= idle_at:
                self._on_idle()
                raise Stopped(f"no action in {self.idle_s:g} s")
            if deadline is not None and now >= deadline:
                self.missed += 1
                raise DecisionTimeout(f"decision {number}: the beat's clock ran out")
            limit = idle_at if deadline is None else min(idle_at, deadline)
            try:
                item = self._answers.get(timeout=min(_POLL_S, max(limit - now, 0.0)))
            except queue.Empty:
                continue
            if item is None:
                raise Stopped("the game was stopped")
            answered, action = item
            if answered == number:  # an answer to an earlier decision is stale: dropped
                self.answered += 1
                self._heard = time.monotonic()
                return action

    def last_decision(self) -> dict[str, Any]:
        """The step's ``agent`` record: which decision of the client's it was."""
        return {"via": "mcp", "decision": self._number}

    def totals(self) -> dict[str, Any]:
        """The run's ``agent`` totals: ``{kind: "mcp", agent, answered, missed}``."""
        return {
            "kind": "mcp",
            "agent": self.label,
            "answered": self.answered,
            "missed": self.missed,
        }

    # -- the client's side (the event loop) ------------------------------------------------

    def answer(self, number: int, action: Any) -> None:
        """Hand in the action for decision ``number`` (a stale number is dropped)."""
        self._answers.put((number, action))

    def stop(self) -> None:
        """Wake a waiting decision and make every later one raise :class:`Stopped`."""
        with self._lock:
            self._stopped = True
        self._answers.put(None)
