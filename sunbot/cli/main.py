"""The ``sunbot`` command line (typer + rich).

``sunbot play GAME`` plays one run on the embedded server (in-process, over the same HTTP
code path) or on ``--server URL``; ``sunbot serve`` runs the local server with uvicorn;
``sunbot games`` lists games and strategies (``--server URL``: any server's games);
``sunbot check-bot BOT`` says whether a bot is fit to bench. The CLI owns the event loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperOption

import sunbot
from sunbot.cli.bench import bench_command
from sunbot.cli.check_bot import check_bot_command
from sunbot.cli.config import ConfigGroup, apply_config, config_app
from sunbot.cli.games import games_command
from sunbot.cli.log import LogLevel, LogLevelOption, Verbose, set_root_logging, setup_logging
from sunbot.cli.mcp import mcp_command
from sunbot.cli.play import console, err_console, fail, play_command
from sunbot.cli.ports import check_port
from sunbot.cli.probe import probe_command
from sunbot.cli.rules import rules_command
from sunbot.cli.status import status_command
from sunbot.cli.tournament import tournament_command
from sunbot.cli.transcripts import export_command, replay_command
from sunbot.server import TokenCodec, create_app
from sunbot.server.tokens import BadKey

_typer_type_column = TyperOption.display_type_rich


def _type_column(self: TyperOption, ctx: Any) -> str | None:
    """The help's type column: nothing for a flag (``--strict``) or a counter (``-v``), which
    take no value (typer shows ``<bool>``/``<int>`` there); the value's type otherwise."""
    if self.is_flag or self.count:
        return None
    return _typer_type_column(self, ctx)


TyperOption.display_type_rich = _type_column  # type: ignore[method-assign]

app = typer.Typer(
    cls=ConfigGroup,  # --config FILE before or after the command
    name="sunbot",
    help="Play the Gameboard agent games: run a bot, serve the games locally, list them.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",  # a docstring's paragraphs reflow to the terminal's width
)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    key_file: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="File of Fernet keys, one a line, the first encrypting (make one with "
            "python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key()"
            ".decode())'); default: SUNBOT_SERVER_KEYS, else a fresh key.",
        ),
    ] = None,
    log_level: Annotated[
        LogLevel, typer.Option(help="Log level of uvicorn and sunbot on stderr.")
    ] = LogLevel.warning,
    verbose: Verbose = 0,
    faults: Annotated[
        str | None,
        typer.Option(
            help="Inject faults, e.g. 429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01 "
            "(settings: retry-after=SECONDS, slow-seconds=SECONDS). Off by default."
        ),
    ] = None,
    fault_seed: Annotated[int | None, typer.Option(help="Seed of the fault draws.")] = None,
    token_ttl: Annotated[
        int | None,
        typer.Option(min=1, help="Seconds a state token stays valid (default: forever)."),
    ] = None,
    request_deadline: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Seconds a client has to send a whole request (head and body); past it "
            "the connection is closed (408), so half-sent requests cannot pile up "
            "(default: 10).",
        ),
    ] = None,
) -> None:
    """Run the local Gameboard-compatible server with uvicorn."""
    setup_logging(verbose, log_level if log_level is not LogLevel.warning or not verbose else None)
    import uvicorn

    from sunbot.server.faults import FaultInjector, FaultPlan
    from sunbot.server.serving import REQUEST_DEADLINE_S, serve_config

    try:
        codec = TokenCodec.from_environment(key_file, token_ttl)
    except (BadKey, OSError) as exc:
        raise fail(f"server keys: {exc}") from None
    if key_file is not None and key_file.stat().st_mode & 0o077:
        err_console.print(
            f"[yellow]warning:[/] {escape(str(key_file))} is readable by others: chmod 600 it"
        )
    asgi: Any = create_app(codec)
    if faults:
        try:
            plan = FaultPlan.parse(faults)
        except ValueError as exc:
            raise fail(str(exc)) from None
        asgi = FaultInjector(asgi, plan, fault_seed)
        console.print(f"fault injection on: {plan.rates}")
    check_port(host, port)  # before the banner: a busy port is an error, not a served line
    console.print(f"sunbot {sunbot.__version__} serving on http://{host}:{port}/api/games")
    config = serve_config(
        asgi,
        host=host,
        port=port,
        log_level=log_level.value,
        request_deadline_s=request_deadline or REQUEST_DEADLINE_S,
    )
    uvicorn.Server(config).run()


app.command("games")(games_command)
app.command("play")(play_command)
app.command("rules")(rules_command)
app.command("replay")(replay_command)
app.command("export")(export_command)
app.command("bench")(bench_command)
app.command("tournament")(tournament_command)
app.command("probe")(probe_command)
app.command("check-bot")(check_bot_command)
app.command("mcp")(mcp_command)
app.command("status")(status_command)
app.add_typer(config_app)


def _version(value: bool) -> None:
    if value:
        console.print(f"sunbot {sunbot.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            dir_okay=False,
            help="Config file of option defaults (default: $SUNBOT_CONFIG, else ./sunbot.toml"
            " if there is one); before or after the command.",
        ),
    ] = None,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Play the Gameboard agent games: run a bot, serve the games locally, list them.

    -v/--verbose and --log-level work before the command (sunbot -v play ...) or after it,
    as --config does.
    """
    set_root_logging(verbose, log_level)
    if not ctx.resilient_parsing:
        apply_config(ctx, config)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
