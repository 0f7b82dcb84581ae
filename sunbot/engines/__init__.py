"""Pure rules engines, one module per game (the engine API, below).

Every engine module exposes, on plain JSON-compatible dicts in its game's wire schema:

- ``init(seed) -> state``, ``legal_actions(state) -> list[action]``,
  ``step(state, action) -> state`` (never mutates its input; raises :class:`IllegalAction`),
  ``observation(state) -> dict``, ``score(state) -> int``, ``is_over(state) -> bool``.

Harvest Watch is the exception (a simultaneous-move match): ``init(seed, seats)``,
``resolve_beat``, ``legal_commands`` and ``view``.

Which module plays which game is the games table's (``GameInfo.engine_ref`` of
:mod:`sunbot.games`); each is imported on first use, so importing ``sunbot.engines`` stays
cheap.
"""

from __future__ import annotations

from types import ModuleType

from sunbot.games import available, get_game


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is the refusal reason.

    A refused action changes nothing: no turn, no random draw (the platform protocol,
    "Conventions for all games").
    """


def available_slugs() -> list[str]:
    """Slugs whose engine module is importable, in the games table's order."""
    return [g.slug for g in available()]


def get_engine(slug: str) -> ModuleType:
    """Return the engine module for ``slug`` (``get_game(slug).engine``).

    Raises:
        KeyError: unknown slug, or a game whose engine is not built yet; the message lists
            the available slugs.
    """
    return get_game(slug).engine


__all__ = ["IllegalAction", "available_slugs", "get_engine"]
