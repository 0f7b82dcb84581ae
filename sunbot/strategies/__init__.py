"""Strategies (policies): the :class:`Strategy` protocol and the registry.

A strategy is built with an injected ``random.Random`` (its only source of randomness, so a
seeded run replays exactly) and answers ``choose(observation, legal_actions) -> action`` in
every game, Harvest Watch included (there the observation is the view's ``data`` and
``legal_actions`` comes from :func:`sunbot.observations.harvest_watch.legal_actions`).
The contract and its optional hooks are described once, on :class:`Strategy`.
Built-in strategies are listed per game in the games table (``GameInfo.strategies`` of
:mod:`sunbot.games`, the first being the default); third-party ones are found
through the entry-point group ``sunbot.strategies``: the entry point's name is the strategy
name and the object it loads is a factory (usually a class) taking ``rng`` with an attribute
``game`` (a slug, or ``games``, a tuple of slugs).

Example ``pyproject.toml`` of a plug-in::

    [project.entry-points."sunbot.strategies"]
    my-bot = "mybots.keelhold:MyBot"     # class MyBot: game = "keelhold"
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import random
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from sunbot import bots
from sunbot.bots import UnknownStrategy
from sunbot.games import GAMES
from sunbot.strategies.contract import Action, Observation, Outcome, Strategy

ENTRY_POINT_GROUP = "sunbot.strategies"
log = logging.getLogger("sunbot.strategies")


def _takes(hook: Callable[..., Any], name: str) -> bool:
    """Whether ``hook`` accepts the keyword ``name`` (by name, or through ``**kwargs``)."""
    try:
        params = inspect.signature(hook).parameters.values()
    except (TypeError, ValueError):  # a builtin or C callable: the documented two arguments
        return False
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == name and p.kind is not inspect.Parameter.POSITIONAL_ONLY)
        for p in params
    )


def notify_start(
    strategy: object,
    game: str,
    seed: int | None,
    cap: int | None,
    *,
    spec: dict[str, Any] | None = None,
) -> None:
    """Call the strategy's optional ``on_start`` hook before a run (the contract on
    :class:`Strategy`): ``on_start(game, seed, cap=cap, spec=spec)``, each keyword passed
    only when the hook declares it (or ``**kwargs``), so bots written before the cap or the
    spec were passed keep working. Errors in the hook propagate (the run has not started).

    Args:
        game: the game's slug.
        seed: the run's seed (``None`` when the server chose it).
        cap: the run's cap in the game's unit (voyages or days), ``None`` when uncapped.
        spec: the game's served ``spec`` (goal, scoring, rules, action grammar) from the
            init answer, ``None`` when the server sent none.
    """
    on_start = getattr(strategy, "on_start", None)
    if not callable(on_start):
        return
    kwargs: dict[str, Any] = {}
    if _takes(on_start, "cap"):
        kwargs["cap"] = cap
    if _takes(on_start, "spec"):
        kwargs["spec"] = spec
    on_start(game, seed, **kwargs)


def notify_end(strategy: object, observation: Observation | None, outcome: Outcome) -> None:
    """Call the strategy's optional ``on_end`` hook; an error in it is logged, not raised
    (the run is already over and its result must still be written)."""
    on_end = getattr(strategy, "on_end", None)
    if not callable(on_end):
        return
    try:
        on_end(observation or {}, outcome)
    except Exception:
        log.warning("the strategy's on_end hook failed", exc_info=True)


StrategyFactory = Callable[[random.Random], Strategy]


def _table(game: str) -> dict[str, str]:
    """The games table's built-ins of ``game`` (:data:`GENERIC` for a game it does not
    list: any game a server lists)."""
    info = GAMES.get(game)
    return info.strategies if info is not None else GENERIC


#: The strategies of a game sunbot has no engine for (any game a server lists): they read
#: nothing but the legal actions. The first is the default.
GENERIC: dict[str, str] = {
    "random": "sunbot.strategies.generic:RandomLegal",
    "first": "sunbot.strategies.generic:First",
    "search": "sunbot.strategies.search:Search",
}


def _builtin(game: str) -> dict[str, str]:
    """The built-ins of ``game`` whose module exists (games are built one at a time); a
    game sunbot does not know gets :data:`GENERIC`."""
    out: dict[str, str] = {}
    for name, ref in _table(game).items():
        module = ref.partition(":")[0]
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        out[name] = ref
    return out


@functools.cache
def _loaded_plugins() -> tuple[tuple[str, str, Any], ...]:
    """Every plug-in that loads, as ``(name, source, factory)``, loaded once per process, so
    a broken one is reported once (not on every lookup)."""
    out: list[tuple[str, str, Any]] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not hide the built-in strategies
            log.warning(
                "strategy plug-in %r (%s) did not load: %s: %s",
                ep.name,
                ep.value,
                type(exc).__name__,
                exc,
            )
            continue
        out.append((ep.name, ep.value, obj))
    return tuple(out)


@functools.cache
def _warn_shadowed(game: str, name: str, source: str) -> None:
    log.warning(
        "strategy plug-in %r (%s) has the name of a built-in %s strategy and is not used: "
        "rename its entry point",
        name,
        source,
        game,
    )


def _plugins(game: str) -> dict[str, Any]:
    """Plug-ins that play ``game``, by name; one named like a built-in is left out, with a
    warning (once per process)."""
    builtin = _table(game)
    found: dict[str, Any] = {}
    for name, source, obj in _loaded_plugins():
        if game not in _games_of(obj) and "*" not in _games_of(obj):
            continue
        if name in builtin:
            _warn_shadowed(game, name, source)
            continue
        found[name] = obj
    return found


def _games_of(obj: Any) -> tuple[str, ...]:
    """The games a plug-in declares (``games``, a tuple, or ``game``, one slug; ``"*"``:
    any game)."""
    games = getattr(obj, "games", None) or getattr(obj, "game", None) or ()
    return (games,) if isinstance(games, str) else tuple(str(g) for g in games)


def _unknown(game: str, name: str) -> UnknownStrategy:
    """The error for a ``name`` ``game`` has no strategy of: ``my-bot plays keelhold, not
    naptuft`` when a built-in or plug-in of that name plays other games (as a bot file's
    error says), else the list of valid names."""
    elsewhere = [g.slug for g in GAMES.values() if g.slug != game and name in g.strategies]
    for plugin, _, obj in _loaded_plugins():
        if plugin == name:
            elsewhere += [g for g in _games_of(obj) if g != game and g not in elsewhere]
    if elsewhere:
        return UnknownStrategy(f"{name} plays {', '.join(elsewhere)}, not {game}")
    valid = ", ".join(names(game)) or "none"
    return UnknownStrategy(f"unknown strategy {name!r} for {game}; valid: {valid}")


def names(game: str) -> list[str]:
    """Strategy names for ``game``: built-ins (default first), then plug-ins, sorted."""
    builtin = _builtin(game)
    return [*builtin, *sorted(set(_plugins(game)) - set(builtin))]


def default_name(game: str) -> str:
    """The default strategy of ``game``: the games table's ``default_strategy`` (the first
    built-in); for a game without a built-in that loads, the first of :func:`names`.

    Raises:
        UnknownStrategy: the game has no strategy at all.
    """
    info = GAMES.get(game)
    default = info.default_strategy if info is not None else None
    if default is not None and default in _builtin(game):
        return default
    options = names(game)
    if not options:
        raise UnknownStrategy(f"no strategies for game {game!r}")
    return options[0]


def check(game: str, name: str) -> None:
    """Make sure ``name`` (a registry name or ``path/to/bot.py:ClassName``) can be built for
    ``game`` before a run starts.

    Raises:
        UnknownStrategy: as :func:`create` would.
    """
    if bots.is_file_spec(name):
        bots.check_file(game, name)
    elif name not in names(game):
        raise _unknown(game, name)


def create(game: str, name: str, rng: random.Random) -> Strategy:
    """Build strategy ``name`` for ``game`` with its random generator ``rng``.

    ``name`` is a registry name or a bot file, ``path/to/bot.py:ClassName``
    (:mod:`sunbot.bots`). Agents in another process or behind a model (``exec:``,
    ``http(s)://``, ``llm:``) are built one layer up, by :func:`sunbot.agents.spec.create_agent`,
    which every run path calls.

    Raises:
        UnknownStrategy: no such strategy for this game (the message lists the valid ones),
            or the bot file is missing, fails to import or lacks that name.
    """
    if bots.is_file_spec(name):
        return bots.create_from_file(game, name, rng)
    ref = _builtin(game).get(name)
    if ref is not None:
        module, _, attr = ref.partition(":")
        factory: Any = getattr(importlib.import_module(module), attr)
    else:
        factory = _plugins(game).get(name)
        if factory is None:
            raise _unknown(game, name)
    strategy: Strategy = factory(rng)
    return strategy


__all__ = [
    "ENTRY_POINT_GROUP",
    "GENERIC",
    "Action",
    "Observation",
    "Outcome",
    "Strategy",
    "UnknownStrategy",
    "check",
    "create",
    "default_name",
    "names",
    "notify_end",
    "notify_start",
]
