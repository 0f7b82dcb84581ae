"""What the three unseen games share: refusals, the answer envelope, seeded draws, a game's
interface (:class:`UnseenGame`)."""

from __future__ import annotations

import random
from typing import Any, Protocol

#: Extra fields in every answer: a faithful client ignores them.
ANSWER_EXTRAS: dict[str, Any] = {"server": {"name": "unseen", "build": 3}, "fairUse": "be kind"}


class Illegal(Exception):
    """A well-formed action the rules refuse: HTTP 200 ``{ok: false, reason, legalActions}``."""

    def __init__(self, reason: str, legal: list[dict[str, Any]]) -> None:
        super().__init__(reason)
        self.reason, self.legal = reason, legal


class BadRequest(Exception):
    """A malformed request (bad carry, a forged or inconsistent state): HTTP 4xx."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.reason, self.status = reason, status


def draws(salt: str, *parts: object) -> random.Random:
    """A generator seeded from the salt and ``parts`` (seed, slug, position), so the same
    run always draws the same, and another salt draws otherwise."""
    return random.Random(":".join([salt, *map(str, parts)]))


def envelope(
    carry: dict[str, Any],
    observation: dict[str, Any],
    legal: list[dict[str, Any]],
    score: int,
    over: bool,
) -> dict[str, Any]:
    """One success answer: ``carry`` (``state`` and/or ``stateToken``), then the fields
    every game promises, then :data:`ANSWER_EXTRAS`."""
    return {
        "ok": True,
        **carry,
        "observation": observation,
        "legalActions": legal,
        "score": score,
        "gameOver": over,
        **ANSWER_EXTRAS,
    }


def as_action(action: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """``action`` when it is an object with a string ``type``, as the platform says.

    Raises:
        Illegal: it is not.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Illegal("an action is an object with a string type", legal)
    return action


class UnseenGame(Protocol):
    """One game of the unseen server: its index row, its spec, and the two calls."""

    slug: str
    row: dict[str, Any]
    spec: dict[str, Any]

    def init(self, seed: int) -> dict[str, Any]:
        """The opening answer (without ``spec``)."""
        ...

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``{<carry>, action}``.

        Raises:
            BadRequest: the carry is not one this game issued or is inconsistent.
            Illegal: the action is refused.
        """
        ...
