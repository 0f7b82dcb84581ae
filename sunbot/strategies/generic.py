"""Strategies for any game, including those sunbot has no engine for: they read nothing of
the observation and return one of ``legal_actions`` as it is, whatever JSON it is.

``games = ("*",)`` marks a strategy that plays every game (:data:`ANY_GAME`);
:data:`GENERIC_STRATEGIES` (the registry's :data:`~sunbot.strategies.GENERIC`) lists them,
the default first.
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.strategies import GENERIC, Action, Observation

#: The ``games`` entry of a strategy that plays any game.
ANY_GAME = "*"


class _AnyGame:
    """A strategy of any game that reads nothing but the legal actions and counts its
    decisions (:meth:`totals`); a subclass says how it picks (:meth:`pick`) and its
    ``kind``."""

    games: tuple[str, ...] = (ANY_GAME,)
    kind = ""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng
        self.decisions = 0

    def pick(self, legal_actions: list[Action]) -> Action:
        """One of the (non-empty) ``legal_actions``."""
        raise NotImplementedError

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """:meth:`pick` among ``legal_actions``.

        Raises:
            ValueError: ``legal_actions`` is empty.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        self.decisions += 1
        return self.pick(legal_actions)

    def totals(self) -> dict[str, Any]:
        """``{"kind": KIND, "decisions": n}`` for the run's summary."""
        return {"kind": self.kind, "decisions": self.decisions}


class RandomLegal(_AnyGame):
    """A uniformly random legal action, drawn from the injected ``rng`` (seeded: a run
    replays exactly): :class:`sunbot.strategies.baselines.RandomLegal`'s policy, declared
    for every game. The floor every strategy must beat."""

    kind = "random"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.random = rng

    def pick(self, legal_actions: list[Action]) -> Action:
        """A uniform draw from ``rng``."""
        return self.random.choice(legal_actions)


class First(_AnyGame):
    """The first legal action, every time (deterministic; ``rng`` is not used)."""

    kind = "first"

    def pick(self, legal_actions: list[Action]) -> Action:
        """``legal_actions[0]``."""
        return legal_actions[0]


#: The registry's table of them (:data:`sunbot.strategies.GENERIC`), under its old name.
GENERIC_STRATEGIES = GENERIC
