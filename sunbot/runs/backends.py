"""Where a run's positions come from: the :class:`Backend` protocol and the engine backend.

A backend answers the same :class:`Answer` whatever it talks to, so one loop
(:mod:`sunbot.runs.loop`) steps every run:

- :class:`EngineBackend` plays the game's pure rules engine in-process (``sunbot bench``,
  the RL environments, planning). It needs no HTTP and its answers are trusted: they are
  the rules.
- :class:`sunbot.runs.remote.ServerBackend` plays any Gameboard server through the async
  client: the embedded one (in-process, over the same HTTP code path), one on loopback or
  the live service. Its answers are checked (the mirror, or the generic checks).

This module imports no HTTP code, so a bench worker that plays on the engine stays light.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from sunbot.engines import IllegalAction
from sunbot.games import GameInfo

Observation = dict[str, Any]
Action = Any


@dataclass
class Answer:
    """One position as a player sees it, from any backend.

    Attributes:
        observation: the game's public position (the wire ``observation``).
        legal_actions: the actions the rules accept now (``[]`` once over).
        score: the run's score (an integer in the four known games; any finite number
            for a game sunbot does not know).
        game_over: no action is legal any more.
        state: the wire ``state`` (a server's) or the engine state (in-process); ``None``
            when a server sent none.
        raw: the server's answer as received (what transcripts record and checks read);
            ``None`` for the engine backend.
        refused: the rules' reason when the action was refused (the position is then
            unchanged), else ``None``.
        carry: what the backend needs to play on from here (the client's position, or the
            engine state); opaque to the loop.
    """

    observation: Observation
    legal_actions: list[Any]
    score: int | float
    game_over: bool
    state: Any = None
    raw: dict[str, Any] | None = None
    refused: str | None = None
    carry: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def shown(self) -> Any:
        """What a view draws: the state when the server sent one, else the observation."""
        return self.state or self.observation


class Backend(Protocol):
    """What the loop needs from a backend. All methods are coroutines so one loop serves
    in-process and remote play; the engine backend's never suspend.

    Attributes:
        trusted: the answers are our own engine's (no envelope checks, no same-position
            guard); false for every server.
        label: where the run is played, for transcripts (``engine``, ``embedded``, a URL).
        retries: client retries so far (0 for the engine).
    """

    trusted: bool
    label: str

    @property
    def retries(self) -> int:
        """Client retries so far."""
        ...

    async def identify(self) -> dict[str, Any] | None:
        """What the server says of itself (``{service, localChoices}``), or ``None``."""
        ...

    async def init(self, slug: str, seed: int | None) -> Answer:
        """The opening position of ``seed``."""
        ...

    async def act(self, slug: str, position: Answer, action: Action) -> Answer:
        """Play ``action`` from ``position``; a refusal is an :class:`Answer` with
        ``refused`` set and the position unchanged."""
        ...

    def resume_at(self, raw: dict[str, Any]) -> Answer:
        """The position of a recorded answer (``sunbot play --resume``, or an answer the
        loop cut: :mod:`sunbot.transcripts.bounds`)."""
        ...

    def interrupt(self) -> None:
        """Cut a retry wait short (Ctrl-C); may do nothing."""
        ...

    async def aclose(self) -> None:
        """Release what the backend holds."""
        ...


class EngineBackend:
    """The game's engine, in-process, trusted.

    ``observation`` is the engine's ``observation`` except for games without hidden state,
    whose state is handed as is (no copy per step): Keelhold's then still carries ``rng``,
    which its served observation leaves out and which no strategy or encoder reads.

    Args:
        game: the game's entry.
        observe: ``False`` hands the engine state as the observation for a game with hidden
            state too (Naptuft's deck seed and cursor), skipping a copy per step: only for a
            reader that takes nothing but the published fields, such as an environment's
            encoder; never for a strategy, which would see what the rules hide.
    """

    trusted = True
    label = "engine"

    def __init__(self, game: GameInfo, *, observe: bool = True) -> None:
        self.game = game
        self.engine = game.engine
        self._state_is_observation = not game.hidden or not observe

    @property
    def retries(self) -> int:
        """Always 0: nothing is retried in-process."""
        return 0

    async def identify(self) -> dict[str, Any] | None:
        """``None``: the engine is no server."""
        return None

    def _answer(self, state: dict[str, Any], refused: str | None = None) -> Answer:
        eng = self.engine
        obs = state if self._state_is_observation else eng.observation(state)
        return Answer(
            obs, eng.legal_actions(state), eng.score(state), eng.is_over(state), state,
            None, refused, state,
        )  # fmt: skip

    def start(self, seed: int) -> Answer:
        """``engine.init(seed)`` as an :class:`Answer` (synchronous form of :meth:`init`)."""
        return self._answer(self.engine.init(seed))

    def play(self, position: Answer, action: Action) -> Answer:
        """``engine.step``; an :class:`IllegalAction` is a refusal, the position unchanged
        (synchronous form of :meth:`act`)."""
        try:
            state = self.engine.step(position.carry, action)
        except IllegalAction as exc:
            return self._answer(position.carry, str(exc) or "refused")
        return self._answer(state)

    async def init(self, slug: str, seed: int | None) -> Answer:
        """``engine.init(seed)``.

        Raises:
            ValueError: ``seed`` is ``None`` (the engine needs one).
        """
        if seed is None:
            raise ValueError("the engine needs a seed")
        return self.start(seed)

    async def act(self, slug: str, position: Answer, action: Action) -> Answer:
        """:meth:`play` as a coroutine."""
        return self.play(position, action)

    def resume_at(self, raw: dict[str, Any]) -> Answer:
        """Not supported: engine runs keep no transcript.

        Raises:
            NotImplementedError: always.
        """
        raise NotImplementedError("engine runs are not resumed")

    def interrupt(self) -> None:
        """Nothing to cut short."""

    async def aclose(self) -> None:
        """Nothing to release."""


def drive(coroutine: Any) -> Any:
    """Run a coroutine that never suspends (the engine backend's steps) to its result
    without an event loop: a few hundred nanoseconds instead of an event loop's tens of
    microseconds per step (the RL environments step millions of times).

    Raises:
        RuntimeError: the coroutine suspended (it needed a real event loop).
    """
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("drive() needs a coroutine that never suspends (an engine backend's)")
