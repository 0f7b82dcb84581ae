"""A ``--strategy`` text made into an agent: ``exec:COMMAND``, ``http(s)://...``, ``llm:MODEL``.

:func:`agent_kind` tells the three forms from a strategy name or bot file; :func:`create_agent`
builds any of them (and, for the convenience of one call site, a name or bot file too,
isolated in a child process with ``isolate=True``). Forms and options:
``docs/guide-other-processes.md``.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from sunbot.strategies import Strategy

AgentKind = Literal["exec", "http", "llm"]


def agent_kind(text: str) -> AgentKind | None:
    """``"exec"`` for ``exec:...``, ``"http"`` for ``http://`` or ``https://`` URLs,
    ``"llm"`` for ``llm:...``; ``None`` for anything else (a strategy name, a bot file)."""
    t = text.strip()
    if t.startswith("exec:"):
        return "exec"
    if t.lower().startswith(("http://", "https://")):
        return "http"
    if t.startswith("llm:"):
        return "llm"
    return None


def create_agent(
    game: str,
    text: str,
    rng: random.Random,
    *,
    seed: int | None = None,
    isolate: bool = False,
    **options: Any,
) -> Strategy:
    """The strategy ``text`` names, for ``game``.

    - ``exec:python3 bot.py``: :class:`~sunbot.agents.exec.ExecStrategy` (``options``: its
      ``grace_s``, ``env``, ``cwd``, ``timeout_s``);
    - ``http://127.0.0.1:8080/move``: :class:`~sunbot.agents.http.HttpStrategy`
      (``timeout_s``);
    - ``llm:MODEL``: ``sunbot.agents.llm.LLMStrategy`` from ``parse_llm_spec(text)``, with
      ``options`` on top and ``rng`` (while daily spend caps are in force in this process,
      :func:`sunbot.spend.meter.current`, wrapped in
      :class:`~sunbot.spend.agent.MeteredAgent`, which counts its decisions);
    - ``search`` with ``options`` (its ``engine``, ``lookahead``, ``objective``...):
      :class:`sunbot.strategies.search.Search`;
    - anything else, a strategy name or ``path.py:Class``: built here with ``rng``
      (:func:`sunbot.strategies.create`), or with ``isolate=True`` in a child process,
      :class:`~sunbot.agents.isolate.IsolatedStrategy` seeded with ``seed``. ``isolate``
      does not apply to the three forms above (they already run elsewhere).

    Raises:
        ValueError: a malformed text: an empty command, unbalanced quotes, no such
            executable, a bad URL, an ``llm:`` without a model (one line each).
        UnknownStrategy: no strategy of that name, or no such bot file.
    """
    kind = agent_kind(text)
    t = text.strip()
    if kind == "exec":
        from sunbot.agents.exec import ExecStrategy

        command = t.removeprefix("exec:").strip()
        if not command:
            raise ValueError("exec: give a command to run, e.g. exec:python3 bot.py")
        return ExecStrategy(command, game=game, **options)
    if kind == "http":
        from sunbot.agents.http import HttpStrategy

        return HttpStrategy(t, game=game, **options)
    if kind == "llm":
        try:
            from sunbot.agents.llm import LLMStrategy, parse_llm_spec  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:
            raise ValueError(f"llm: language-model agents are not available ({exc})") from None
        settings = {**parse_llm_spec(t), **options}
        strategy: Strategy = LLMStrategy(**settings, game=game, rng=rng)
        from sunbot.spend.meter import current

        if current() is not None:  # the daily caps count every decision (sunbot.spend)
            from sunbot.spend.agent import MeteredAgent

            return MeteredAgent(strategy)
        return strategy
    from sunbot import strategies

    if t == "search":
        _search_has_a_model(game, options)
    if t == "search" and options:  # the search options: its model, lookahead, objective
        if isolate:
            raise ValueError("search plays in this process: drop --isolate")
        from sunbot.games import resolve

        search: Strategy = resolve(strategies.GENERIC["search"])(
            rng, game=game, seed=seed, **options
        )
        return search
    if isolate:
        from sunbot.agents.isolate import IsolatedStrategy

        return IsolatedStrategy(t, game, seed)
    return strategies.create(game, t, rng)


def _search_has_a_model(game: str, options: dict[str, Any]) -> None:
    """Refuse, before any run starts, a search with nothing to search through: a game sunbot
    has no engine for, without a forward model (``--engine``) or ``--lookahead``.

    Raises:
        ValueError: one line saying what to give.
    """
    from sunbot.games import GAMES
    from sunbot.strategies.search import no_model

    if game in GAMES or any(options.get(k) is not None for k in ("engine", "model", "lookahead")):
        return
    raise ValueError(no_model(game))


def parse_price(text: str) -> tuple[float, float]:
    """``"IN,OUT"`` (USD per million input and output tokens, ``--llm-price``) as numbers.

    Raises:
        ValueError: not two numbers from 0 to under 1,000,000, comma-separated.
    """
    try:
        cost = tuple(float(p) for p in text.split(","))
    except ValueError:
        cost = ()
    if len(cost) != 2 or not all(0 <= c < 1e6 for c in cost):
        raise ValueError("--llm-price: give IN,OUT in USD per million tokens, e.g. 0.15,0.60")
    return cost[0], cost[1]


def check_strategy(game: str, text: str) -> None:
    """Check any strategy text before a run starts (nothing is started): an agent
    (:func:`check_agent`), else a strategy name or bot file (:func:`sunbot.strategies.check`).

    Raises:
        sunbot.strategies.UnknownStrategy: a ``ValueError`` naming the problem.
    """
    from sunbot import strategies

    if agent_kind(text) is None:
        strategies.check(game, text)
        return
    try:
        check_agent(game, text)
    except ValueError as exc:
        raise strategies.UnknownStrategy(str(exc)) from None


def check_agent(game: str, text: str) -> None:
    """Check an agent text before a run starts, starting nothing: an ``exec:`` command that
    splits and names an executable, an ``http(s)://`` URL with a host, an ``llm:`` with a
    model; anything else as :func:`sunbot.strategies.check`.

    Raises:
        ValueError: the one-line reason.
    """
    import shlex
    import shutil
    from pathlib import Path

    kind = agent_kind(text)
    t = text.strip()
    if kind == "exec":
        try:
            argv = shlex.split(t.removeprefix("exec:"))
        except ValueError as exc:
            raise ValueError(f"exec: cannot split the command ({exc})") from None
        if not argv:
            raise ValueError("exec: give a command to run, e.g. exec:python3 bot.py")
        exe = argv[0]
        if shutil.which(exe) is None and not (Path(exe).is_file() and "/" in exe):
            raise ValueError(f"exec: no such executable {exe!r}")
    elif kind == "http":
        import httpx

        try:
            url = httpx.URL(t)
        except httpx.InvalidURL as exc:
            raise ValueError(f"http bot: not a URL ({exc})") from None
        if not url.host:
            raise ValueError("http bot: the URL has no host")
    elif kind == "llm" and not t.removeprefix("llm:").strip():
        raise ValueError("llm: give a model, e.g. llm:gpt-4o-mini")


__all__ = [
    "AgentKind",
    "agent_kind",
    "check_agent",
    "check_strategy",
    "create_agent",
    "parse_price",
]
