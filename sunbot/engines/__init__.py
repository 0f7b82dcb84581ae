"""Pure rules engines, one module per game (the engine API, below).

Every engine module exposes, on plain JSON-compatible dicts in its game's wire schema:

- ``init(seed) -> state``, ``legal_actions(state) -> list[action]``,
  ``step(state, action) -> state`` (never mutates its input; raises :class:`IllegalAction`),
  ``observation(state) -> dict``, ``score(state) -> int``, ``is_over(state) -> bool``.

Harvest Watch is the exception (a simultaneous-move match): ``init(seed, seats)``,
``resolve_beat``, ``legal_commands`` and ``view``.

The registry maps the platform slug to the module, imported lazily so that importing
``sunbot.engines`` stays cheap.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is the refusal reason.

    A refused action changes nothing: no turn, no random draw (spec README, conventions).
    """


#: Platform slug -> engine module path.
ENGINE_MODULES: dict[str, str] = {
    "keelhold": "sunbot.engines.keelhold",
    "sunloaf": "sunbot.engines.sunloaf",
    "naptuft": "sunbot.engines.naptuft",
    "harvest-watch": "sunbot.engines.harvest_watch",
}


def available_slugs() -> list[str]:
    """Slugs whose engine module is importable, in registry order."""
    out: list[str] = []
    for slug, path in ENGINE_MODULES.items():
        try:
            importlib.import_module(path)
        except ModuleNotFoundError:
            continue
        out.append(slug)
    return out


def get_engine(slug: str) -> ModuleType:
    """Return the engine module for ``slug``.

    Raises:
        KeyError: unknown slug, or a game whose engine is not built yet; the message lists
            the available slugs.
    """
    path = ENGINE_MODULES.get(slug)
    if path is not None:
        try:
            return importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name != path:
                raise
    raise KeyError(f"unknown game {slug!r}; available: {', '.join(available_slugs())}")


__all__ = ["ENGINE_MODULES", "IllegalAction", "available_slugs", "get_engine"]
