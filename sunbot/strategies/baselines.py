"""Baselines shared by every game."""

from __future__ import annotations

import random

from . import Action, Observation


class RandomLegal:
    """Uniformly random legal action (the floor every strategy must beat)."""

    games = ("keelhold", "sunloaf", "naptuft")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """One of ``legal_actions`` at random.

        Raises:
            ValueError: ``legal_actions`` is empty (the run is over).
        """
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return self.rng.choice(legal_actions)
