"""``sunbot rules GAME``: the rules and action grammar a server serves for a game.

The text is the server's own ``spec`` (``GET /api/games/{slug}/spec``; a server without that
route is asked for a run's opening, which carries ``spec`` too), so what is printed is what a
bot plays against: the embedded server by default, ``--server URL`` for another one, where
any game it lists can be asked (its text through :func:`sunbot.generic.index.describe_spec`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import httpx
import typer
from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from sunbot._text.terminal import outside, printable_lines
from sunbot.api import unknown_game
from sunbot.cli.console import Exit
from sunbot.cli.games import quiet_retries
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.play import check_server_url, console, fail
from sunbot.client import ClientError, GameboardClient, ServerRefused
from sunbot.games import GAMES, get_game
from sunbot.generic.index import check_slug, describe_spec, rules_on
from sunbot.server import TokenCodec, create_app
from sunbot.views.common import line


async def fetch_spec(
    slug: str, server: str | None, transport: httpx.AsyncBaseTransport | None = None
) -> dict[str, Any]:
    """The ``spec`` object ``server`` (``None``: the embedded server) serves for ``slug``.

    Raises:
        ClientError, httpx.HTTPError: the server could not be asked or refused.
    """
    if server:
        client = GameboardClient(server, transport=transport)
    else:
        client = GameboardClient(transport=httpx.ASGITransport(app=create_app(TokenCodec())))
    async with client:
        try:
            return await client.spec(slug)
        except ServerRefused:
            if get_game(slug).kind != "single":
                raise
            opening = await client.init(slug)  # the opening of a run carries the spec
            spec = opening.raw.get("spec")
            if not isinstance(spec, dict):
                raise
            return spec


def render(slug: str, spec: dict[str, Any]) -> Group:
    """The spec as text: goal, scoring, numbered rules, then the action grammar (JSON)."""
    info = get_game(slug)
    parts: list[Any] = []
    for key in ("goal", "scoring"):
        if isinstance(spec.get(key), str):
            parts += [
                Text(key.capitalize(), style="bold"),
                Text(printable_lines(spec[key])),
                Text(""),
            ]
    rules = spec.get("rules")
    if isinstance(rules, list):
        parts.append(Text("Rules", style="bold"))
        parts += [Text(printable_lines(f"{i}. {rule}")) for i, rule in enumerate(rules, 1)]
        parts.append(Text(""))
    for key in ("actionSchema", "commandSchema"):
        if key in spec:
            parts.append(Text(f"Action grammar ({key})", style="bold"))
            parts.append(Text(printable_lines(json.dumps(spec[key], indent=2, ensure_ascii=False))))
    known = {"goal", "scoring", "rules", "actionSchema", "commandSchema"}
    for key in sorted(set(spec) - known):
        shown = printable_lines(json.dumps(spec[key], indent=2))
        parts += [Text(""), Text(outside(key), style="bold"), Text(shown)]
    return Group(Panel(Text(f"{info.name} ({slug})"), expand=False), *parts)


def rules_command(
    game: Annotated[
        str, typer.Argument(help="Game slug: keelhold, sunloaf, naptuft, or any --server lists.")
    ],
    server: Annotated[
        str | None,
        typer.Option(help="Ask this server, for any game it lists (default: the embedded one)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the spec as JSON.")] = False,
    retry_seconds: Annotated[
        float, typer.Option(min=0.1, max=600, help="Retry budget of each request, seconds.")
    ] = 10.0,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Print the rules and action grammar the server serves for GAME (its ``spec``).

    With --server, any game that server lists, as the server words it (not sunbot's copy).
    Exit 1 when the server cannot be read or serves no spec, 2 on bad usage.
    """
    setup_logging(verbose, log_level, console)
    check_server_url(server)
    if server is not None:
        _served_elsewhere(game, server, as_json, retry_seconds)
        return
    try:
        info = get_game(game)
    except KeyError:
        raise fail(unknown_game(game)) from None
    try:
        spec = asyncio.run(fetch_spec(info.slug, server))
    except (ClientError, httpx.HTTPError) as exc:
        raise fail(f"{server or 'embedded server'}: {type(exc).__name__}: {exc}", 1) from None
    if as_json:
        typer.echo(json.dumps(spec, indent=2, ensure_ascii=False))
        return
    console.print(render(info.slug, spec), soft_wrap=True)
    origin = escape(server or "the embedded server")
    console.print(f"[dim]served by {origin}; sunbot play {info.slug} plays against it[/]")


def _served_elsewhere(slug: str, server: str, as_json: bool, retry_seconds: float) -> None:
    """``sunbot rules SLUG --server URL``: the server's spec of any game, as
    :func:`~sunbot.generic.index.describe_spec` words it."""
    try:
        check_slug(slug)
    except ValueError as exc:
        raise fail(str(exc)) from None
    try:
        with quiet_retries():
            spec = asyncio.run(rules_on(server, slug, retry_seconds=retry_seconds))
    except (ClientError, httpx.HTTPError) as exc:
        said = outside(f"{server}: {type(exc).__name__}: {exc}")
        raise fail(f"no rules of {slug}: {said}", Exit.ERROR) from None
    if as_json:
        typer.echo(json.dumps(spec, indent=2, ensure_ascii=False))
        return
    title = f"{GAMES[slug].name} ({slug})" if slug in GAMES else slug
    console.print(Panel(Text(outside(title)), expand=False))
    console.print(Text(describe_spec(spec)), soft_wrap=True)
    console.print(
        line(
            (outside(f"served by {server}; sunbot play {slug} --server {server} plays it"), "dim")
        ),
        soft_wrap=True,
    )
