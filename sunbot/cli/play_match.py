"""``sunbot play`` for match games: the live view, the signals and the summary around
:func:`sunbot.api.run_match_plan` (the API assembles the match)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console, RenderableType

from sunbot import api, strategies
from sunbot._text.atomic_write import WriteFailed
from sunbot._text.terminal import outside, printable, tidy
from sunbot.agents.clock import BotError
from sunbot.agents.spec import check_strategy
from sunbot.cli.console import Exit, make_console, result_stdout
from sunbot.cli.log import show_traceback
from sunbot.cli.match_report import announce_match, print_summary
from sunbot.cli.signals import STOP_SIGNALS, exit_code
from sunbot.runs.match import MatchRecorder
from sunbot.transcripts.bounds import DEFAULT_MAX_TRANSCRIPT_MB
from sunbot.transcripts.jsonl import MIB, default_path
from sunbot.views import harvest_watch as hw_view
from sunbot.views.common import line, live_view

T = TypeVar("T")
err_console = make_console(stderr=True)


class _LiveView:
    def __init__(self, rec: MatchRecorder) -> None:
        self.rec = rec

    def __rich__(self) -> RenderableType:
        if not self.rec.latest:
            return "starting…"
        return hw_view.render(tidy(self.rec.latest), ours=list(self.rec.mirrors))


async def until_interrupted(run: Coroutine[Any, Any, T], got: list[int] | None = None) -> T:
    """Await ``run``; the first Ctrl-C or SIGTERM cancels it (``run`` then writes its result
    line and returns) and is appended to ``got`` (for the exit code). Outside the main
    thread, or where signals cannot be handled, it only awaits."""
    task = asyncio.ensure_future(run)
    loop = asyncio.get_running_loop()

    def stop(signum: int) -> None:
        if got is not None:
            got.append(signum)
        task.cancel()

    handled: list[int] = []
    try:
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, stop, sig)
            handled.append(sig)
    except (NotImplementedError, RuntimeError, ValueError):
        pass
    try:
        return await task
    finally:
        for handled_sig in handled:
            loop.remove_signal_handler(handled_sig)


def play_match_command(
    *,
    game: str,
    seed: int | None,
    strategy: str | None,
    server: str | None,
    match_id: str | None,
    seats: int,
    transcript: Path | None,
    write_transcript: bool,
    strict: bool,
    quiet: bool,
    console: Console,
    as_json: bool = False,
    wait: int | None = None,
    move_timeout: float | None = None,
    isolate: bool = False,
    agent_options: dict[str, Any] | None = None,
    max_transcript_bytes: int | None = DEFAULT_MAX_TRANSCRIPT_MB * MIB,
) -> int:
    """Play a match from the CLI: :func:`sunbot.api.plan_match` and
    :func:`sunbot.api.run_match_plan` do the work; this face shows the live view, handles
    the signals and maps the outcome to the exit code: 0 the match ended by the rules, 1 an
    error, 2 bad usage, 3 a divergence under ``--strict``, 130 / 143 interrupted by Ctrl-C
    / SIGTERM (the result line is written). ``wait``: seconds a created match on ``server``
    waits for other players (its id is printed at once). ``agent_options``: the agent's
    options (``llm:MODEL``'s ``--llm-*``), as for :func:`sunbot.play`.
    ``max_transcript_bytes``: the transcript's size limit (``None``: none)."""
    if wait is not None and (server is None or match_id is not None):
        console.print("[red]error:[/] --wait creates a match on --server that others can join")
        return Exit.USAGE
    if match_id is not None and server is None:
        console.print("[red]error:[/] --match needs --server (the match lives there)")
        return Exit.USAGE
    name = strategy or strategies.default_name(game)
    try:
        check_strategy(game, name)
    except strategies.UnknownStrategy as exc:
        console.print(line(("error:", "red"), " ", outside(exc, 2000)))
        return Exit.USAGE
    try:
        plan = api.plan_match(
            game, seed=seed, strategy=name, server=server, seats=seats, match=match_id,
            strict=strict, move_timeout=move_timeout, isolate=isolate,
            agent_options=agent_options, wait_s=wait,
        )  # fmt: skip
    except ValueError as exc:
        console.print(line(("error:", "red"), " ", outside(exc, 2000)))
        return Exit.USAGE
    default = default_path(game, plan.seed, plan.strategy, match_id=match_id)
    path = (transcript or default) if write_transcript else None
    got: list[int] = []
    try:
        with live_view(console, "starting…", quiet) as live:
            summary = asyncio.run(
                until_interrupted(
                    api.run_match_plan(
                        plan,
                        transcript=path,
                        max_transcript_bytes=max_transcript_bytes,
                        on_recorder=None
                        if live is None
                        else (lambda rec: live.update(_LiveView(rec))),
                        announce=lambda mid: announce_match(mid, server, match_id, wait),
                    ),
                    got,
                )
            )
    except WriteFailed as exc:  # the header or the result line: no room for it
        err_console.print(line(("error:", "bold red"), " ", printable(exc)), soft_wrap=True)
        return Exit.ERROR
    except BotError as exc:  # an isolated bot that cannot start (its constructor raised)
        err_console.print(line(("error:", "bold red"), " ", outside(exc, 2000)), soft_wrap=True)
        return Exit.ERROR
    if summary.transcript_error is not None:  # the disk filled up mid-match
        err = printable(summary.transcript_error)
        err_console.print(line(("error:", "bold red"), " ", err), soft_wrap=True)
        return Exit.ERROR
    result = summary.result
    if as_json:
        print(json.dumps({"game": game, "seed": plan.shown_seed, "strategySeed": plan.seed,
                          "strategy": plan.strategy, **result,
                          "transcript": str(path) if path else None}),
              file=result_stdout())  # fmt: skip
    else:
        shown = {**result, "final": summary.final_view}
        print_summary(console, shown, plan.shown_seed, plan.strategy)
    if result["endedBy"] == "interrupted":
        err_console.print("[yellow]interrupted[/]: the match goes on without us; result written")
        return exit_code(got[-1] if got else None)
    if as_json:
        pass
    elif path is not None:
        console.print(line(f"transcript: {printable(path)}"), soft_wrap=True)
    if result["endedBy"] == "error":
        show_traceback(result.get("errorTraceback"), path, result.get("error"))
    if result["endedBy"] == "strict" or (strict and result["divergences"]):
        return Exit.DIVERGED
    return Exit.OK if result["endedBy"] == "rules" else Exit.ERROR
