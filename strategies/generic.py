"""Strategies for any game, including those sunbot has no engine for: they read nothing of
the observation and return one of ``legal_actions`` as it is, whatever JSON it is.

``games = ("*",)`` marks a strategy that plays every game (:data:`ANY_GAME`);
:data:`GENERIC_STRATEGIES` lists them by name, the default first, for the registry.
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.strategies import Action, Observation

#: The ``games`` entry of a strategy that plays any game.
ANY_GAME = "*"


class RandomLegal:
    """A uniformly random legal action, drawn from the injected ``rng`` (seeded: a run
    replays exactly): :class:`sunbot.strategies.baselines.RandomLegal`'s policy, declared
    for every game. The floor every strategy must beat."""

    games = (ANY_GAME,)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.decisions = 0

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """One of ``legal_actions`` at random.

        Raises:
            ValueError: ``legal_actions`` is empty.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        self.decisions += 1
        return self.rng.choice(legal_actions)

    def totals(self) -> dict[str, Any]:
        """``{"kind": "random", "decisions": n}`` for the run's summary."""
        return {"kind": "random", "decisions": self.decisions}


class First:
    """The first legal action, every time (deterministic; ``rng`` is not used)."""

    games: tuple[str, ...] = (ANY_GAME,)

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng
        self.decisions = 0

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """``legal_actions[0]``.

        Raises:
            ValueError: ``legal_actions`` is empty.
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        self.decisions += 1
        return legal_actions[0]

    def totals(self) -> dict[str, Any]:
        """``{"kind": "first", "decisions": n}`` for the run's summary."""
        return {"kind": "first", "decisions": self.decisions}


#: name -> ``"module:attribute"`` of the strategies that play any game; the first is the
#: default for a game sunbot does not know.
GENERIC_STRATEGIES: dict[str, str] = {
    "random": "sunbot.strategies.generic:RandomLegal",
    "first": "sunbot.strategies.generic:First",
}
