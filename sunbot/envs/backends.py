"""Where an environment's positions come from: the one run loop's :class:`~sunbot.runs.loop.Run`
over the engine in-process (fast; for training) or over a Gameboard server through the client
(the embedded one or any URL, the mirror checking every answer).

An environment steps its run with the learner's actions through :meth:`Run.step
<sunbot.runs.loop.Run.step>`, the same function that steps ``sunbot play``, ``sunbot.play``
and every bench job: checks, counters and refusals are handled there once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sunbot.games import GameInfo
from sunbot.mirror import Divergence
from sunbot.runs.backends import Answer, Backend, EngineBackend, drive
from sunbot.runs.loop import Run

Observation = dict[str, Any]
Action = dict[str, Any]

__all__ = ["Action", "Answer", "Observation", "Stepper"]


class Stepper:
    """A run an environment steps, synchronously.

    Args:
        game: the game's entry.
        server: ``None`` (the engine in-process), ``"embedded"`` (the local server through
            the client, no network) or an ``http(s)://`` base URL of any Gameboard server.
        mirror: with a server, recompute every answer with our engine; the findings on the
            latest answer are :attr:`found`.

    With the engine, an answer's ``observation`` is the engine state itself, hidden fields
    included (no copy per step): the environment hands it to its codec only, which reads
    the published fields alone. A server's answers are what the server published.

    A server stepper owns one event loop (``asyncio.Runner``), so it cannot be used from
    inside a running loop (a notebook cell): run the environment in a plain script or a
    thread.

    Raises:
        ValueError: ``server`` is neither ``None``, ``"embedded"`` nor an http(s) URL.
    """

    def __init__(self, game: GameInfo, server: str | None = None, *, mirror: bool = True) -> None:
        self.game = game
        self._mirror = mirror
        self._runner: asyncio.Runner | None = None
        self._drive: Callable[[Any], Any] = drive
        self.backend: Backend
        if server is None:  # the encoder reads the published fields of the engine state
            self.backend = EngineBackend(game, observe=False)
        else:
            self.backend = _server_backend(server)
            self._runner = asyncio.Runner()
            self._drive = self._runner.run
        self.run: Run | None = None

    @property
    def found(self) -> list[Divergence]:
        """The mirror's findings on the latest answer (none on the engine)."""
        return self.run.last_found if self.run is not None else []

    def init(self, seed: int) -> Answer:
        """The opening of ``seed`` (a fresh mirror checks it)."""
        checks = None
        if self._mirror and not self.backend.trusted:
            from sunbot.mirror import Mirror

            checks = Mirror(self.game.slug)
        self.run = Run(self.backend, self.game.slug, seed, checks=checks)
        quick = self.run.start_now()  # on the engine: Run.start without its coroutine
        if quick is not None:
            return quick
        answer: Answer = self._drive(self.run.start())
        return answer

    def act(self, action: Action) -> Answer:
        """Play ``action``; a refusal comes back with ``refused`` set, the position unchanged.

        Raises:
            RuntimeError: called before :meth:`init`.
            sunbot.client.ClientError: a server could not be reached or answered
                malformed JSON after the client's retries.
        """
        if self.run is None:
            raise RuntimeError("call init(seed) before act(action)")
        quick = self.run.step_now(action)  # on the engine: Run.step without its coroutine
        if quick is not None:
            return quick
        answer: Answer = self._drive(self.run.step(action))
        return answer

    def close(self) -> None:
        """Close a server's connections and the event loop."""
        if self._runner is None:
            return
        try:
            self._runner.run(self.backend.aclose())
        finally:
            self._runner.close()


def _server_backend(server: str) -> Backend:
    from sunbot.client import GameboardClient
    from sunbot.runs.remote import ServerBackend

    if server == "embedded":
        import httpx

        from sunbot.server.app import create_app

        transport = httpx.ASGITransport(app=create_app())
        return ServerBackend(GameboardClient(transport=transport), "embedded")
    if server.startswith(("http://", "https://")):
        return ServerBackend(GameboardClient(server), server)
    raise ValueError(f"server must be 'embedded' or an http(s) URL, got {server!r}")
