"""``sunbot check-bot BOT [GAME...]``: is a bot fit to bench? (:mod:`sunbot.checkbot.check`)

Prints one line per game as its check ends, then a table (runs, refused actions, decision
times against the deadline, determinism) and the verdict; ``--json`` prints the report as
one JSON object instead. Exit 0 when fit to bench, 1 otherwise (or when ``--server``
cannot be read), 2 on bad usage, 130 when interrupted.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

import httpx
import typer
from rich.table import Table
from rich.text import Text

from sunbot._text.terminal import outside
from sunbot.checkbot.check import (
    DEFAULT_MOVE_TIMEOUT,
    DEFAULT_SEEDS,
    MAX_SEEDS,
    BadCheck,
    BotCheck,
    GameCheck,
    check_bot,
)
from sunbot.cli.console import Exit
from sunbot.cli.games import quiet_retries
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.play import check_server_url, console, err_console, fail
from sunbot.client import ClientError
from sunbot.client.http import public_url
from sunbot.views.common import line


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _verdict(check: GameCheck) -> Text:
    """``keelhold: fit`` or ``keelhold: NOT fit`` then each problem, or why it was skipped."""
    if check.skipped is not None:
        return line(outside(f"{check.game}: skipped: {check.skipped}"))
    if check.fit:
        return line(outside(check.game), ": ", ("fit", "green"))
    said = "; ".join(check.problems())
    return line(outside(check.game), ": ", ("NOT fit", "bold red"), " ", outside(said))


def report_table(report: BotCheck) -> Table:
    """One row per game: runs, refused, timeouts, p50/p95 ms, the deadline, determinism."""
    table = Table(title=Text(outside(f"check-bot {report.bot}")))
    columns = ("game", "where", "runs", "refused", "timeouts", "p50 ms", "p95 ms", "deadline")
    for col in (*columns, "same actions", "fit"):
        table.add_column(col)
    for g in report.games:
        if g.skipped is not None:
            table.add_row(Text(outside(g.game)), *["-"] * 8, "skipped")
            continue
        same = {True: "yes", False: f"NO (decision {g.differs_at})", None: "-"}[g.deterministic]
        cells = (
            g.game, g.where, len(g.runs), g.refused, g.timeouts, _ms(g.p50_ms), _ms(g.p95_ms),
            f"{g.deadline_s:g} s", same, "yes" if g.fit else "NO",
        )  # fmt: skip
        table.add_row(*(Text(outside(c)) for c in cells))
    return table


def check_bot_command(
    bot: Annotated[
        str,
        typer.Argument(
            metavar="BOT",
            help="The bot: a strategy name, a bot file path.py:Class, exec:COMMAND, an http(s)"
            " URL or llm:MODEL.",
        ),
    ],
    games: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="GAME", help="Games to check (default: every game the bot declares)."
        ),
    ] = None,
    seeds: Annotated[
        int,
        typer.Option(
            min=1, max=MAX_SEEDS, help="Seeded runs per game; Harvest Watch plays one match."
        ),
    ] = DEFAULT_SEEDS,
    move_timeout: Annotated[
        float,
        typer.Option(min=0.001, max=3600, help="Seconds one decision may take (the deadline)."),
    ] = DEFAULT_MOVE_TIMEOUT,
    server: Annotated[
        str | None,
        typer.Option(help="Play the games sunbot has no engine for on this server."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object.")
    ] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Check that a bot is fit to bench: a few short seeded runs of each game it plays.

    Each game reports refused actions, decision times against the deadline, errors, and
    whether a seed played twice gives the same actions. Exit 0 when fit to bench, 1 when
    not, 2 on bad usage.
    """
    setup_logging(verbose, log_level, console, err_console)
    check_server_url(server)

    def progress(check: GameCheck) -> None:
        if not as_json:
            console.print(_verdict(check), soft_wrap=True)

    try:
        with quiet_retries():
            run = check_bot(
                bot, games or (), seeds=seeds, move_timeout=move_timeout, server=server,
                on_game=progress,
            )  # fmt: skip
            report = asyncio.run(run)
    except BadCheck as exc:
        raise fail(str(exc)) from None
    except (ClientError, httpx.HTTPError) as exc:
        said = outside(f"cannot read {public_url(server or '')}/api/games: {exc}")
        raise fail(said, Exit.ERROR) from None
    except KeyboardInterrupt:
        err_console.print("interrupted")
        raise typer.Exit(Exit.INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        console.print(report_table(report))
        verdict = ("fit to bench", "bold green") if report.fit else ("NOT fit to bench", "bold red")
        console.print(line(outside(report.bot), ": ", verdict), soft_wrap=True)
    raise typer.Exit(Exit.OK if report.fit else Exit.ERROR)
