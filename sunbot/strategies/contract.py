"""The strategy contract: :class:`Strategy` (the policy every agent implements), its
action and observation types, and :class:`Outcome` (what ``on_end`` receives).

Its own module, so that what only names the contract (:mod:`sunbot.bots` among them)
imports it without the registry (:mod:`sunbot.strategies`, which re-exports every name).
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict, runtime_checkable

Action = dict[str, Any]
Observation = dict[str, Any]


@runtime_checkable
class Strategy(Protocol):
    """A policy: picks one action from ``legal_actions`` given the observation.

    ``choose(observation, legal_actions) -> action`` is called once per decision, in every
    game. ``observation`` is the game's public position (types per game in
    :mod:`sunbot.observations`); ``legal_actions`` the actions the rules accept now. Return
    one of them unchanged; on Harvest Watch's speech and diary beats, where the list holds
    the beat's example command, any text of the allowed length is legal too.

    Optional hooks (define them or not; the runner, the match loop and ``sunbot bench`` all
    call them the same way):

    - ``on_start(game: str, seed: int | None, *, cap: int | None = None) -> None``: once,
      before the first choice (e.g. a clearly marked clairvoyant baseline rebuilding a
      hidden deck from the seed). ``cap`` is the run's cap in the game's unit (Keelhold:
      voyages, Sunloaf and Naptuft: days): at that voyage's port / that day's day break the
      runner itself sends the end action; ``None`` for an uncapped run. It is passed only to
      a hook that declares a ``cap`` parameter (or ``**kwargs``), so a two-argument hook
      keeps working (:func:`notify_start`).
    - ``spec``: ``on_start`` may also declare ``spec``: the game's served ``spec`` object
      from the init answer (goal, scoring, rules, action grammar), as a language-model
      agent needs it; passed the same way as ``cap``.
    - ``blocking = True`` (a class attribute): ``choose`` may block for long (a network
      call, another process), so the loop runs it on a worker thread.
    - ``last_decision() -> dict | None``: what to record of the decision just made; it goes
      into the step's transcript line under ``agent`` (bounded in size).
    - ``totals() -> dict``: the agent's own counters (a model's calls and tokens), in the
      summary's ``agent`` and the result line.
    - ``close() -> None``: release processes or connections at the end of the run.
    - ``on_answer(answer: dict) -> None``: before each decision of a single-player run, the
      whole answer decided on (its ``state`` or ``stateToken``, ``score``...; on the engine
      backend, the envelope without them): what a search looking ahead through the server
      sends it back. An exception in it ends the run as the strategy's error.
    - ``on_end(observation: dict, outcome: dict) -> None``: once, after the run (or the
      seat's match) ended however it ended: ``observation`` is the last one seen,
      ``outcome`` is :class:`Outcome` (``score``, ``endedBy``, ``error``). An exception in
      it is logged and ignored.
    """

    def choose(self, observation: Observation, legal_actions: list[Action], /) -> Action:
        """Return one action (normally an element of ``legal_actions``)."""
        ...


class Outcome(TypedDict):
    """What ``on_end`` receives as ``outcome``.

    ``score``: the game's score (Harvest Watch: seats ranked below ours, 0-5); ``endedBy``:
    ``rules``, ``cap``, ``strict``, ``interrupted`` or ``error``; ``error``: why, or ``None``.
    """

    game: str
    score: int | float
    endedBy: str
    error: str | None


__all__ = ["Action", "Observation", "Outcome", "Strategy"]
