"""sunbot: play the Gameboard agent games well, reliably and fast.

The public API, in one import::

    import sunbot

    summary = sunbot.play("keelhold", seed=7, max_voyages=3)     # a script or a notebook
    result = sunbot.bench("naptuft", ["balancer", "rotation"], seeds=range(1, 11))
    print(result.verdict)  # "balancer scores ...x rotation on 10 paired seeds, 95% CI ..."
    summary = await sunbot.play_async("naptuft", strategy=MyBot)  # async code
    print(summary.score, summary.ended_by, len(summary.divergences))

:func:`play` / :func:`play_async` take a strategy name, ``"path/bot.py:Class"``, a class, an
object or a function ``choose(observation, legal_actions)``. To compose a loop of your own
the pieces are here under stable names: :class:`GameboardClient` and :class:`MatchClient`
(the async clients), :class:`Mirror` (re-checks answers), :func:`play_run` and
:func:`play_match` (the run and match loops), :func:`get_game` and ``sunbot.engines`` (the
pure rules engines), ``sunbot.strategies`` (the registry) and its :class:`Strategy`
protocol, ``sunbot.observations`` (typed observations per game), :func:`create_app` (the
local server), :class:`TranscriptWriter`.

Names are imported on first use, so ``import sunbot`` stays cheap.
Layers: ``docs/architecture.md``; writing a bot: ``docs/writing-a-bot.md``.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from sunbot import _compat

_compat.install()  # old module paths (sunbot.runner, ...) for one release, with a warning

try:
    __version__ = version("sunbot")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+local"

if TYPE_CHECKING:  # the lazy names below, for type checkers
    from sunbot import engines, observations, strategies
    from sunbot.agents.exec import ExecStrategy
    from sunbot.agents.http import HttpStrategy
    from sunbot.agents.llm import LLMStrategy
    from sunbot.api import play, play_async
    from sunbot.bench.result import BenchResult, TournamentResult
    from sunbot.bench.run import BenchRow, run_bench, tournament
    from sunbot.bots import StrategyLike
    from sunbot.client import GameboardClient, MatchClient, Position, RetryPolicy
    from sunbot.games import GameInfo, available, get_game
    from sunbot.mirror import Divergence, Mirror
    from sunbot.runs.remote import play_run
    from sunbot.runs.summary import MatchSeat, RunSummary
    from sunbot.server import TokenCodec, create_app
    from sunbot.strategies import Outcome, Strategy, UnknownStrategy
    from sunbot.transcripts.jsonl import TranscriptWriter

#: name -> module holding it (``None``: the name is that submodule of sunbot).
_LAZY: dict[str, str | None] = {
    "play": "sunbot.api",
    "LLMStrategy": "sunbot.agents.llm",
    "ExecStrategy": "sunbot.agents.exec",
    "HttpStrategy": "sunbot.agents.http",
    "play_async": "sunbot.api",
    "RunSummary": "sunbot.runs.summary",
    "MatchSeat": "sunbot.runs.summary",
    "play_run": "sunbot.runs.remote",
    "StrategyLike": "sunbot.bots",
    "GameboardClient": "sunbot.client",
    "MatchClient": "sunbot.client",
    "Position": "sunbot.client",
    "RetryPolicy": "sunbot.client",
    "play_match": "sunbot.runs.seat_http",
    "GameInfo": "sunbot.games",
    "available": "sunbot.games",
    "get_game": "sunbot.games",
    "Divergence": "sunbot.mirror",
    "Mirror": "sunbot.mirror",
    "TokenCodec": "sunbot.server",
    "create_app": "sunbot.server",
    "Outcome": "sunbot.strategies",
    "Strategy": "sunbot.strategies",
    "UnknownStrategy": "sunbot.strategies",
    "TranscriptWriter": "sunbot.transcripts.jsonl",
    "run_bench": "sunbot.bench.run",
    "BenchRow": "sunbot.bench.run",
    "BenchResult": "sunbot.bench.result",
    "TournamentResult": "sunbot.bench.result",
    "tournament": "sunbot.bench.run",
    "bench": None,
    "engines": None,
    "observations": None,
    "strategies": None,
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'sunbot' has no attribute {name!r}")
    where = _LAZY[name]
    if where is None:
        return importlib.import_module(f"sunbot.{name}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "BenchResult",
    "BenchRow",
    "Divergence",
    "ExecStrategy",
    "GameInfo",
    "GameboardClient",
    "HttpStrategy",
    "LLMStrategy",
    "MatchClient",
    "MatchSeat",
    "Mirror",
    "Outcome",
    "Position",
    "RetryPolicy",
    "RunSummary",
    "Strategy",
    "StrategyLike",
    "TokenCodec",
    "TournamentResult",
    "TranscriptWriter",
    "UnknownStrategy",
    "__version__",
    "available",
    "bench",
    "create_app",
    "engines",
    "get_game",
    "observations",
    "play",
    "play_async",
    "play_match",
    "play_run",
    "run_bench",
    "strategies",
    "tournament",
]
