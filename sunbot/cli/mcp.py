"""``sunbot mcp``: serve the games to any MCP client (:mod:`sunbot.mcp`; extra ``[mcp]``).

Over standard input and output by default (what a desktop assistant or an IDE starts);
``--http`` serves streamable HTTP at ``http://HOST:PORT/mcp`` instead, on 127.0.0.1 unless
``--host`` says otherwise, where a bearer token (``SUNBOT_MCP_TOKEN`` or ``--token``) is
then required. Nothing but the protocol is written on standard output; messages go to
standard error. Exit 2 on bad usage (a short token, beyond loopback without one, the extra
not installed), 0 when stopped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.play import check_server_url, err_console, fail
from sunbot.cli.ports import check_port


#: Where transcripts go by default: ``$XDG_DATA_HOME/sunbot/mcp`` (``~/.local/share``).
def default_folder() -> Path:
    """The default transcript folder (a host may start the server in any directory)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sunbot" / "mcp"


def mcp_command(
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP (at /mcp) instead of stdio.")
    ] = False,
    host: Annotated[
        str, typer.Option(help="--http: the interface to bind (beyond loopback: a token).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="--http: the TCP port.")] = 8765,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="SUNBOT_MCP_TOKEN",
            show_envvar=True,
            help="--http: the bearer token every request must carry (16+ characters);"
            " prefer the environment variable to the option (a command line is visible).",
        ),
    ] = None,
    transcripts: Annotated[
        Path | None,
        typer.Option(
            envvar="SUNBOT_MCP_TRANSCRIPTS",
            file_okay=False,
            help="The folder of the games' transcripts (default: ~/.local/share/sunbot/mcp).",
        ),
    ] = None,
    server: Annotated[
        list[str] | None,
        typer.Option(
            "--server",
            help="A Gameboard server (URL) clients may play on besides the embedded one;"
            " repeat for more.",
        ),
    ] = None,
    suggest: Annotated[
        bool, typer.Option(help="Offer the suggest tool: what sunbot's strategy would play.")
    ] = False,
    max_games: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="Games one session may start.")
    ] = 100,
    max_steps: Annotated[
        int, typer.Option(min=1, max=100_000_000, help="Actions one session may play.")
    ] = 100_000,
    max_requests: Annotated[
        int, typer.Option(min=1, max=100_000_000, help="Tool calls one session may make.")
    ] = 100_000,
    max_live: Annotated[
        int,
        typer.Option(
            min=1,
            max=10_000,
            help="Games running at once over all sessions (each holds a thread); a start"
            " past it is refused until one ends.",
        ),
    ] = 32,
    idle: Annotated[
        float,
        typer.Option(
            min=1, max=86_400, help="Seconds a game waits for an action before it is stopped."
        ),
    ] = 600.0,
    beat_ms: Annotated[
        int,
        typer.Option(min=10, max=600_000, help="Harvest Watch: each beat's length, milliseconds."),
    ] = 60_000,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Serve the games over MCP: an assistant lists, starts and plays them; sunbot checks
    every answer, records every game and can rate the assistant."""
    setup_logging(verbose, log_level, err_console)
    try:
        from sunbot.mcp import Budget, McpOptions
        from sunbot.mcp.serve import check_exposure, run_http, run_stdio
    except ImportError as exc:
        raise fail(
            "sunbot mcp needs the MCP SDK: the mcp extra, pip install '.[mcp]' in a checkout"
            f" ({exc})"
        ) from None
    for url in server or []:
        check_server_url(url)
    if not http and (host != "127.0.0.1" or port != 8765):
        raise fail("--host and --port are for --http (stdio is the default)")
    options = McpOptions(
        transcripts=transcripts or default_folder(),
        servers=tuple(server or ()),
        budget=Budget(games=max_games, steps=max_steps, requests=max_requests),
        suggest=suggest,
        max_live=max_live,
        idle_s=idle,
        beat_ms=beat_ms,
    )
    if not http:
        run_stdio(options)
        return
    try:
        check_exposure(host, token)
    except ValueError as exc:
        raise fail(str(exc)) from None
    check_port(host, port)
    shown = f"[{host}]" if ":" in host else host  # an IPv6 address in a URL is bracketed
    err_console.print(f"sunbot mcp: streamable HTTP on http://{shown}:{port}/mcp", highlight=False)
    run_http(options, host=host, port=port, token=token)
