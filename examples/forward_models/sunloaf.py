"""Sunloaf's rules engine as a forward model, for a server that shows no random cursor.

sunbot knows Sunloaf (its engine, its mirror), so this file is not needed to play it; it
shows how a known engine becomes a model of the contract, and it is what ``sunbot certify``
checks against another server's Sunloaf (``sunbot.testing.otherserver``, which keeps no
``rng`` in its answers and adds fields of its own). Within a day the rules decide
everything; a new day's room is a draw (``stochastic = True``), which certify compares by
shape, since another server generates its rooms its own way.
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.engines import sunloaf


class Sunloaf:
    """The engine's state with its random cursor drawn when the observation lacks it."""

    game = "sunloaf"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The observation as an engine state (the cursor ``rng`` drawn)."""
        state = {k: v for k, v in observation.items() if k in _FIELDS}
        state["rng"] = observation.get("rng", self.rng.getrandbits(32))
        return state

    def legal_actions(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """The engine's legal actions."""
        return sunloaf.legal_actions(state)

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """The engine's step."""
        return sunloaf.step(state, action)

    def observation(self, state: dict[str, Any]) -> dict[str, Any]:
        """The engine's observation without the cursor, which such a server does not show."""
        shown = sunloaf.observation(state)
        shown.pop("rng", None)
        return shown

    def score(self, state: dict[str, Any]) -> float:
        """The engine's score."""
        return sunloaf.score(state)

    def is_over(self, state: dict[str, Any]) -> bool:
        """The engine's end."""
        return sunloaf.is_over(state)


#: The fields of an engine state (the rest of an observation is another server's own).
_FIELDS = frozenset(sunloaf.observation(sunloaf.init(0)))
