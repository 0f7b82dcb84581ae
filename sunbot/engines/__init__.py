"""Pure rules engines, one module per game (the engine API, below).

Every engine module exposes, on plain JSON-compatible dicts in its game's wire schema, the
functions of :class:`Engine`:

- ``init(seed) -> state``, ``legal_actions(state) -> list[action]``,
  ``step(state, action) -> state`` (never mutates its input; raises :class:`IllegalAction`),
  ``observation(state) -> dict``, ``score(state) -> int``, ``is_over(state) -> bool``.

Harvest Watch is the exception (a simultaneous-move match), :class:`MatchEngine`:
``init(seed, seats)``, ``resolve_beat``, ``legal_commands``, ``validate_command``, ``view``
and the house bots' ``house_command``. Both are protocols, so mypy holds each engine module
to its own (:mod:`sunbot.testing.conformance`).

Which module plays which game is the games table's: ``get_game(slug).engine`` (or
``.match_engine``) of :mod:`sunbot.games`, imported on first use, so importing
``sunbot.engines`` stays cheap.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]


class Engine(Protocol):
    """A single-player game's rules (Keelhold, Sunloaf, Naptuft): the engine API above, as
    a module's functions on plain JSON dicts (:attr:`sunbot.games.GameInfo.engine`)."""

    def init(self, seed: int, /) -> State:
        """The opening state of ``seed``."""
        ...

    def legal_actions(self, state: State, /) -> list[Action]:
        """The actions the rules accept now, in the game's pinned order (``[]`` when over)."""
        ...

    def step(self, state: State, action: Action, /) -> State:
        """The state after ``action``; never mutates ``state``.

        Raises:
            IllegalAction: the rules refuse ``action`` (nothing changes).
        """
        ...

    def observation(self, state: State, /) -> dict[str, Any]:
        """What the player sees of ``state``."""
        ...

    def score(self, state: State, /) -> int:
        """The run's score so far."""
        ...

    def is_over(self, state: State, /) -> bool:
        """Whether the run is over (no action is legal)."""
        ...


class MatchEngine(Protocol):
    """A simultaneous-move match's rules (Harvest Watch): every seat's commands of one beat
    resolved at once (:attr:`sunbot.games.GameInfo.match_engine`)."""

    def init(self, seed: int, seats: int = ..., /) -> State:
        """The opening state of a table of ``seats`` seats."""
        ...

    def default_command(self, phase: str, /) -> Action:
        """The command a missed beat applies on ``phase``."""
        ...

    def legal_commands(self, state: State, seat: int, /) -> list[Action] | None:
        """The beat's legal list for ``seat`` (``None``: free text or ballot beats)."""
        ...

    def validate_command(self, state: State, seat: int, command: object, /) -> str | None:
        """``None`` if ``command`` fits this beat for ``seat``, else why not."""
        ...

    def resolve_beat(self, state: State, commands: dict[int, list[Action]], /) -> State:
        """The state after this beat, every seat's stored commands applied."""
        ...

    def view(self, state: State, seat: int, /) -> dict[str, Any]:
        """What ``seat`` sees of ``state``."""
        ...

    def house_command(
        self,
        state: State,
        seat: int,
        memory: dict[str, Any],
        rng: random.Random,
        /,
        *,
        house_seats: Collection[int],
    ) -> Action:
        """The house-bot policy's command for ``seat`` (``memory`` updated in place)."""
        ...


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is the refusal reason.

    A refused action changes nothing: no turn, no random draw (the platform protocol,
    "Conventions for all games").
    """


__all__ = [
    "Action",
    "Engine",
    "IllegalAction",
    "MatchEngine",
    "State",
]
