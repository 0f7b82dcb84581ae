"""Bots from anywhere: a registry name, a ``path/to/bot.py:ClassName`` file, a class, an
instance, or a plain function, each turned into a :class:`~sunbot.strategies.Strategy`.

What each form means (``docs/writing-a-bot.md``):

- ``"safe-greedy"``: a built-in or plug-in strategy of the game (:mod:`sunbot.strategies`).
- ``"bots/mine.py:MyBot"``: the attribute ``MyBot`` of the Python file ``bots/mine.py``
  (relative to the working directory), treated as below. ``"bots/mine.py"`` alone picks the
  file's only class that defines ``choose``, or, when the file defines no such class, its
  module-level function ``choose``. The file is imported once per process, under a
  private module name, so it needs no package and no install; while it loads its folder
  is first on the import path, so it may import modules beside it by name.
- a class: built with the run's ``random.Random`` when its constructor takes an argument,
  else with none. A ``game`` (or ``games``) class attribute, when present, must name the game.
- an object with a ``choose`` method: used as it is (one run or one seat).
- any other callable: ``choose(observation, legal_actions) -> action`` itself.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import logging
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias, Union

if TYPE_CHECKING:  # the contract only: the registry (sunbot.strategies) imports this module
    from sunbot.strategies.contract import Action, Observation, Strategy


class UnknownStrategy(ValueError):
    """No strategy of that name for that game, or a bot file or object that cannot play it;
    the message says why (and lists the valid names). Raised here and by the registry
    (:mod:`sunbot.strategies`, which re-exports it)."""


class BotNotBuilt(UnknownStrategy):
    """A bot class whose constructor raised: ``bot.py:Bot could not be built: RuntimeError:
    no config`` (one line, clipped); the bot's exception is the ``__cause__``."""


#: What ``--strategy`` and ``strategy=`` accept besides a registry name. ``Union`` because
#: ``Strategy`` is named, not imported, at run time (``str | "Strategy"`` would not run).
StrategyLike: TypeAlias = Union[str, "Strategy", type, Callable[[Any, list[Any]], Any]]

_LOADED: dict[Path, ModuleType] = {}

log = logging.getLogger("sunbot.bots")


def is_file_spec(name: str) -> bool:
    """``True`` for ``path.py`` or ``path.py:Name`` (a bot in a file), not a registry name."""
    path, _, _ = name.partition(".py:")
    return name.endswith(".py") or (path != name and bool(path))


def _split(spec: str) -> tuple[Path, str | None]:
    if spec.endswith(".py"):
        return Path(spec), None
    path, _, attr = spec.rpartition(":")
    if not attr.isidentifier():
        raise UnknownStrategy(f"{spec!r}: after the ':' give a class or function name")
    return Path(path), attr


def _module(path: Path) -> ModuleType:
    resolved = path.resolve()
    if resolved in _LOADED:
        return _LOADED[resolved]
    if not resolved.is_file():
        raise UnknownStrategy(f"no bot file {str(path)!r} (looked in {Path.cwd()})")
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:10]
    name = f"sunbot_bot_{resolved.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise UnknownStrategy(f"{str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    # while it loads, the file's folder comes first on the import path, as for a script
    # run by Python: a bot split over modules beside it imports them by name
    folder = str(resolved.parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise UnknownStrategy(f"{path} did not load: {type(exc).__name__}: {exc}") from exc
    finally:
        sys.path.remove(folder)
    _LOADED[resolved] = module
    return module


def load_file(spec: str) -> Any:
    """The class or function named by ``path.py:Name``; for ``path.py`` alone, the file's
    only class with a ``choose``, else (no such class) its module-level ``choose`` function.

    Raises:
        UnknownStrategy: no such file, it fails to import, or no such name in it.
    """
    path, attr = _split(spec)
    module = _module(path)
    if attr is not None:
        if not hasattr(module, attr):
            raise UnknownStrategy(f"{path} has no {attr!r}")
        return getattr(module, attr)
    found = [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj) and obj.__module__ == module.__name__ and hasattr(obj, "choose")
    ]
    function = getattr(module, "choose", None)
    if not found and inspect.isfunction(function):
        return function
    if len(found) != 1:
        names = ", ".join(c.__name__ for c in found) or "none"
        raise UnknownStrategy(
            f"{path}: name the strategy as {path}:ClassName or {path}:function "
            f"(classes with choose: {names}; no module-level choose function)"
            if not found
            else f"{path}: name the strategy as {path}:ClassName (classes with choose: {names})"
        )
    return found[0]


class FunctionStrategy:
    """A plain function ``choose(observation, legal_actions) -> action`` as a strategy."""

    def __init__(self, fn: Callable[[Any, list[Any]], Any]) -> None:
        self.fn = fn

    def choose(self, observation: Observation, legal_actions: list[Action], /) -> Action:
        """Call the function."""
        action: Action = self.fn(observation, legal_actions)
        return action

    def __repr__(self) -> str:
        return f"FunctionStrategy({label(self.fn)})"


def _check_game(obj: Any, game: str, name: str) -> None:
    games = getattr(obj, "games", None) or (getattr(obj, "game", None),)
    if isinstance(games, str):
        games = (games,)
    if games != (None,) and game not in games and "*" not in games:
        raise UnknownStrategy(f"{name} plays {', '.join(map(str, games))}, not {game}")


def _takes_an_argument(cls: type) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):  # a builtin or C class: try the documented form
        return True
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.kind in kinds or p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)


def from_object(game: str, obj: Any, rng: random.Random, name: str | None = None) -> Strategy:
    """Turn a class, an instance or a function into a strategy for ``game`` (module doc).

    Raises:
        UnknownStrategy: the object names another game, or is none of the three forms.
        BotNotBuilt: its constructor raised (one line naming the bot and the exception;
            the traceback is logged at ``info``, which ``-v`` shows).
    """
    name = name or label(obj)
    _check_game(obj, game, name)
    if inspect.isclass(obj):
        factory: Any = obj
        try:
            built: Any = factory(rng) if _takes_an_argument(obj) else factory()
        except (Exception, SystemExit) as exc:  # the bot's own code: one line, not a traceback
            log.info("%s: its constructor raised", name, exc_info=True)  # -v shows it
            raise BotNotBuilt(f"{name} could not be built: {_one_line(exc)}") from exc
        if not callable(getattr(built, "choose", None)):
            raise UnknownStrategy(f"{name} has no choose(observation, legal_actions) method")
        strategy: Strategy = built
        return strategy
    if callable(getattr(obj, "choose", None)):
        return obj  # type: ignore[no-any-return]
    if callable(obj):
        return FunctionStrategy(obj)
    raise UnknownStrategy(f"{name!r} is not a strategy: give a name, a class or a function")


def _one_line(exc: BaseException) -> str:
    """``RuntimeError: no config``: the message's lines joined by spaces, scrubbed and
    clipped to 300 characters (``… (N more characters)``)."""
    from sunbot._text.safe import describe

    return " ".join(describe(exc).split())


def check_file(game: str, spec: str) -> None:
    """Load ``spec`` and check that it may play ``game`` (without building it).

    Raises:
        UnknownStrategy: as :func:`load_file`, or the class names another game.
    """
    _check_game(load_file(spec), game, spec)


def create_from_file(game: str, spec: str, rng: random.Random) -> Strategy:
    """:func:`load_file` then :func:`from_object` (what ``--strategy bot.py:Cls`` runs)."""
    return from_object(game, load_file(spec), rng, name=spec)


def label(obj: Any) -> str:
    """A short name for summaries and transcripts: a name as given, else the class's or
    function's ``__name__``."""
    if isinstance(obj, str):
        return obj
    target = obj if inspect.isclass(obj) or inspect.isroutine(obj) else type(obj)
    return str(getattr(target, "__name__", None) or "strategy")


__all__ = [
    "BotNotBuilt",
    "FunctionStrategy",
    "StrategyLike",
    "UnknownStrategy",
    "check_file",
    "create_from_file",
    "from_object",
    "is_file_spec",
    "label",
    "load_file",
]
