"""Where an environment's positions come from: the engine directly, or a Gameboard server.

Both backends answer the same :class:`Answer` (the wire observation, the legal actions, the
run's score, whether it is over), so one environment class serves both:

- :class:`EngineBackend` plays the game's pure engine in-process (fast; for training).
- :class:`ServerBackend` plays through :class:`~sunbot.client.GameboardClient`, against the
  embedded server (``server="embedded"``) or any Gameboard server URL, with the mirror on:
  every answer is recomputed by our engine and each divergence is reported.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from sunbot.engines import IllegalAction
from sunbot.games import GameInfo
from sunbot.mirror import Divergence

Observation = dict[str, Any]
Action = dict[str, Any]


@dataclass
class Answer:
    """One position as a player sees it.

    ``observation`` is the wire observation (Keelhold's may carry ``rng``, which nothing
    here reads); ``refused`` is the rules' reason when the action was refused (the position
    is then unchanged); ``divergences`` are the mirror's findings on this answer.
    """

    observation: Observation
    legal_actions: list[Action]
    score: int
    game_over: bool
    refused: str | None = None
    divergences: list[Divergence] = field(default_factory=list)


class Backend(Protocol):
    """What an environment needs from a backend."""

    def init(self, seed: int) -> Answer:
        """The opening position of ``seed``."""
        ...

    def act(self, action: Action) -> Answer:
        """Play ``action`` from the current position (a refusal changes nothing)."""
        ...

    def close(self) -> None:
        """Release what the backend holds (connections, event loop)."""
        ...


class EngineBackend:
    """The game's engine, in-process. ``observation`` is the engine's ``observation``
    except for games without hidden state, whose state is handed as is (so no copy is made
    per step): Keelhold's then still carries ``rng``, which its observation leaves out and
    which neither the encoder nor any strategy reads."""

    def __init__(self, game: GameInfo) -> None:
        self.game = game
        self.engine = game.engine
        self._state: dict[str, Any] | None = None
        self._state_is_observation = not game.hidden

    def _answer(self, refused: str | None = None) -> Answer:
        s = self._state
        assert s is not None
        eng = self.engine
        obs = s if self._state_is_observation else eng.observation(s)
        return Answer(obs, eng.legal_actions(s), eng.score(s), eng.is_over(s), refused)

    def init(self, seed: int) -> Answer:
        """``engine.init(seed)``."""
        self._state = self.engine.init(seed)
        return self._answer()

    def act(self, action: Action) -> Answer:
        """``engine.step``; an :class:`IllegalAction` is a refusal, the position unchanged.

        Raises:
            RuntimeError: called before :meth:`init`.
        """
        if self._state is None:
            raise RuntimeError("call init(seed) before act(action)")
        try:
            self._state = self.engine.step(self._state, action)
        except IllegalAction as exc:
            return self._answer(refused=str(exc) or "refused")
        return self._answer()

    def close(self) -> None:
        """Nothing to release."""


class ServerBackend:
    """A Gameboard server through sunbot's client, the mirror checking every answer.

    Args:
        game: the game's entry.
        server: ``"embedded"`` (the local server in-process, no network) or an
            ``http(s)://`` base URL of any Gameboard server.
        mirror: recompute every answer with our engine and report divergences.

    The backend owns one event loop (``asyncio.Runner``), so it cannot be used from inside a
    running loop (a notebook cell): run the environment in a plain script or a thread.

    Raises:
        ValueError: ``server`` is neither ``"embedded"`` nor an http(s) URL.
    """

    def __init__(self, game: GameInfo, server: str, *, mirror: bool = True) -> None:
        import httpx

        from sunbot.client import GameboardClient, Position
        from sunbot.mirror import Mirror

        self.game = game
        self._position_type = Position
        if server == "embedded":
            from sunbot.server.app import create_app

            transport = httpx.ASGITransport(app=create_app())
            self.client = GameboardClient(transport=transport)
        elif server.startswith(("http://", "https://")):
            self.client = GameboardClient(server)
        else:
            raise ValueError(f"server must be 'embedded' or an http(s) URL, got {server!r}")
        self._mirror_on = mirror
        self._new_mirror = Mirror
        self.mirror: Mirror | None = None
        self._runner = asyncio.Runner()
        self._pos: Position | None = None
        self._steps = 0

    def init(self, seed: int) -> Answer:
        """``GET /init?seed=``; a fresh mirror checks the opening."""
        pos = self._runner.run(self.client.init(self.game.slug, seed))
        self._pos, self._steps = pos, 0
        self.mirror = self._new_mirror(self.game.slug) if self._mirror_on else None
        found = self.mirror.check_init(pos.raw) if self.mirror else []
        return self._answer(pos, None, found)

    def act(self, action: Action) -> Answer:
        """``POST /action`` carrying the last answer's token (or plain state).

        Raises:
            RuntimeError: called before :meth:`init`.
            sunbot.client.ClientError: the server could not be reached or answered
                malformed JSON after the client's retries.
        """
        prev = self._pos
        if prev is None:
            raise RuntimeError("call init(seed) before act(action)")
        got = self._runner.run(self.client.act(self.game.slug, prev, action))
        self._steps += 1
        found = (
            self.mirror.check_action(self._steps, prev.raw, action, got.raw) if self.mirror else []
        )
        if isinstance(got, self._position_type):
            self._pos = got
            return self._answer(got, None, found)
        return self._answer(prev, getattr(got, "reason", "refused"), found)

    @staticmethod
    def _answer(pos: Any, refused: str | None, found: list[Divergence]) -> Answer:
        return Answer(
            pos.observation, list(pos.legal_actions), pos.score, pos.game_over, refused, found
        )

    def close(self) -> None:
        """Close the client's connections and the event loop."""
        try:
            self._runner.run(self.client.aclose())
        finally:
            self._runner.close()
