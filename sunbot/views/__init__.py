"""Rich renderers, one module per game, shared by ``play``, ``replay`` and the live view.

Each module has ``render(state: dict) -> rich renderable`` and
``summary(state: dict) -> dict[str, object]`` (the game's own closing-summary fields).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from sunbot._text.terminal import tidy
from sunbot.games import GAMES


def _module(slug: str) -> Any:
    game = GAMES.get(slug)
    if game is None:  # a game sunbot has no engine for: the generic view
        from sunbot.views import generic

        return generic
    ref = game.view_ref
    if ref is None:
        return None
    try:
        return importlib.import_module(ref.partition(":")[0])
    except ModuleNotFoundError:
        return None


def render(slug: str, state: dict[str, Any], ended: str | None = None) -> RenderableType:
    """The game's view of ``state`` (a plain pretty-print if the game has no view yet).
    ``ended``: our words for how the run ended (``capped at voyage 30``), which a game's view
    shows instead of the game's own ``cause``/``result`` (ignored by views without one).

    Every string of ``state`` is drawn as :func:`~sunbot._text.terminal.tidy` makes it
    (controls shown as ``\ufffd``, clipped): a server or a transcript chose them."""
    state = tidy(state)
    mod = _module(slug)
    if mod is None:
        return Pretty(state, max_length=12)
    if ended is not None and "ended" in inspect.signature(mod.render).parameters:
        out: RenderableType = mod.render(state, ended=ended)
    else:
        out = mod.render(state)
    return out


def summary(slug: str, state: dict[str, Any]) -> dict[str, Any]:
    """The game's closing-summary fields for ``state``
    (:meth:`sunbot.games.GameInfo.closing_summary`; empty for a game without an engine)."""
    game = GAMES.get(slug)
    return game.closing_summary(state) if game is not None else {}
