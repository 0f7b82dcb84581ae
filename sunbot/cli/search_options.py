"""The ``search`` strategy's options shared by ``sunbot bench`` and ``sunbot tournament``:
``--engine``, ``--lookahead``, ``--lookahead-budget``, ``--allow-peek``, ``--objective``,
checked up front (the model loaded, the peek guard asked once on the first seed) and turned
into the jobs' options."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from sunbot import api
from sunbot._text.terminal import printable

EngineOption = Annotated[
    str | None,
    typer.Option(
        help="A forward model of the game, FILE.py:Class: --strategy search plans with it, and"
        " it checks the answers of a game sunbot has no engine for.",
    ),
]
LookaheadOption = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="search: look ahead through --server, at most N requests a decision (where the"
        " peek guard finds nothing hidden).",
    ),
]
LookaheadBudgetOption = Annotated[
    int | None,
    typer.Option(min=1, help="--lookahead: requests a run may send (default 2,000)."),
]
AllowPeekOption = Annotated[
    bool,
    typer.Option(
        "--allow-peek",
        help="--lookahead: look ahead even through hidden information; those rows are labelled"
        " clairvoyant and never pooled with honest ones.",
    ),
]
ObjectiveOption = Annotated[
    str | None,
    typer.Option(
        metavar="max|min|win",
        help="search: what to maximise where the served spec does not say.",
    ),
]


def option_words(message: str) -> str:
    """A library message naming ``lookahead_budget``-style options, in the command line's
    words (``--lookahead-budget``)."""
    for name in ("lookahead_budget", "allow_peek", "lookahead", "objective"):
        message = message.replace(name, "--" + name.replace("_", "-"))
    return message.replace("----", "--")


def search_job_options(
    game: str,
    names: list[str],
    seed: int,
    server: str | None,
    *,
    engine: str | None,
    lookahead: int | None,
    lookahead_budget: int | None,
    allow_peek: bool,
    objective: str | None,
    talk: Console,
    fail: Any,
) -> tuple[tuple[str, Any], ...]:
    """The jobs' options for the search options given (``()`` when none): checked, the
    model loaded, and with ``--lookahead`` the peek guard asked on ``seed``'s opening (its
    line printed on ``talk``; a refusal is ``fail(message)``, exit 2).

    Raises:
        typer.Exit: from ``fail``: an option without the ``search`` strategy, a model that
            cannot be loaded, a lookahead without a server, the guard's refusal.
    """
    from sunbot.search.peek import PeekRefused

    given = (engine, lookahead, lookahead_budget, objective)
    if all(v is None for v in given) and not allow_peek:
        return ()
    if lookahead is not None and server is None:
        raise fail("--lookahead asks a server: give --server URL (or --engine for a model)")
    searching = "search" in names
    try:
        options, looking = api.search_options(
            "search" if searching else None, engine=engine, server=server,
            lookahead=lookahead, lookahead_budget=lookahead_budget, allow_peek=allow_peek,
            objective=objective,
        )  # fmt: skip
        if engine is not None:
            from sunbot.forward.load import load_model

            load_model(engine, game)
        if looking is not None:
            plan = api.plan_run(
                game, seed=seed, strategy="search", server=server, lookahead=lookahead,
                lookahead_budget=lookahead_budget, allow_peek=allow_peek, objective=objective,
            )  # fmt: skip
            asyncio.run(api.peek_check(plan))
            assert plan.lookahead is not None
            guard = printable(plan.lookahead["guard"])
            talk.print(f"[bold]note:[/] {escape(guard)}", soft_wrap=True)
    except PeekRefused as exc:
        raise fail(str(exc)) from None
    except ValueError as exc:
        raise fail(option_words(str(exc))) from None
    except Exception as exc:  # the server could not be asked
        raise fail(f"the peek guard could not read the opening: {printable(exc)}", 1) from None
    kept = {k: v for k, v in (options or {}).items() if k != "server"}
    if not searching and engine is not None:  # the model checks the answers only
        kept = {"engine": engine}
    return tuple(sorted(kept.items()))


__all__ = [
    "AllowPeekOption",
    "EngineOption",
    "LookaheadBudgetOption",
    "LookaheadOption",
    "ObjectiveOption",
    "option_words",
    "search_job_options",
]
