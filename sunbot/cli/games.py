"""``sunbot games``: the games sunbot plays, or every game a server lists and what sunbot has
for each (:func:`sunbot.generic.index.games_on`).

Without ``--server``: the embedded games and their strategies. With ``--server URL``: each
game of the server's index, marked ``rules`` (sunbot has its rules engine and mirror, and its
tuned strategies) or ``generic`` (played on the protocol alone with ``random``, ``first``, a
bot file or an agent; generic checks only); an index entry that cannot be read (no string
slug, not a plausible slug, a repeated slug) is listed as ``bad entry`` with its one-line
reason, the others as usual. Exit 0, or 1 when the server cannot be read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import httpx
import typer
from rich.table import Table
from rich.text import Text

from sunbot import strategies
from sunbot._text.terminal import outside
from sunbot.cli.console import Exit
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.play import check_server_url, console, fail
from sunbot.client import ClientError
from sunbot.games import available
from sunbot.generic.index import BadEntry, GameListing, index_on, listing_json


@contextmanager
def quiet_retries() -> Iterator[None]:
    """While active, the client's retry warnings are not shown unless ``-v`` or
    ``--log-level`` asked for sunbot's logs below warning: a one-shot query that fails says
    so in its one error line."""
    client = logging.getLogger("sunbot.client")
    before = client.level
    if logging.getLogger("sunbot").getEffectiveLevel() >= logging.WARNING:
        client.setLevel(logging.ERROR)
    try:
        yield
    finally:
        client.setLevel(before)


def _with_default(slug: str, names: list[str]) -> list[str]:
    """``names`` with the game's default strategy first, marked ``(default)``."""
    if not names:
        return names
    default = strategies.default_name(slug)
    return [f"{default} (default)", *[n for n in names if n != default]]


def embedded_rows() -> list[dict[str, Any]]:
    """The embedded games as ``{slug, name, kind, strategies, default}`` (table order)."""
    return [
        {
            "slug": g.slug,
            "name": g.name,
            "kind": g.kind,
            "strategies": strategies.names(g.slug),
            "default": strategies.default_name(g.slug),
        }
        for g in available()
    ]


def _embedded_table() -> Table:
    table = Table(title="sunbot games")
    for col in ("slug", "name", "kind", "strategies"):
        table.add_column(col)
    for row in embedded_rows():
        names = _with_default(row["slug"], list(row["strategies"]))
        table.add_row(row["slug"], row["name"], row["kind"], ", ".join(names) or "-")
    return table


def _server_table(server: str, listed: list[GameListing], bad: list[BadEntry]) -> Table:
    """One row per listed game, then one per bad entry; every cell but ``sunbot`` is the
    server's words (plain)."""
    table = Table(title=Text(outside(f"games on {server}")))
    for col in ("slug", "name", "genre", "sunbot", "strategies"):
        table.add_column(col)
    for g in listed:
        names = list(g.strategies)
        if g.support == "rules":
            names = _with_default(g.slug, names)
        support = "rules, replayable" if g.replayable else g.support
        cells = (g.slug, g.name, g.genre or "-", support, ", ".join(names) or "-")
        table.add_row(*(Text(outside(c)) for c in cells))
    for b in bad:
        table.add_row(*(Text(outside(c)) for c in (_entry(b), "-", "-", "bad entry", "-")))
    return table


def _entry(bad: BadEntry) -> str:
    """``entry 3`` (the row has no string slug) or the slug it gave, ``'ke lhold'``."""
    return bad.slug if bad.slug is not None else f"entry {bad.position}"


def bad_json(bad: BadEntry) -> dict[str, Any]:
    """A bad index entry as ``{position, slug, reason}``."""
    return {"position": bad.position, "slug": bad.slug, "reason": bad.reason}


def games_command(
    server: Annotated[
        str | None,
        typer.Option(help="List the games this server lists, and what sunbot has for each."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
    retry_seconds: Annotated[
        float, typer.Option(min=0.1, max=600, help="Retry budget of the index request, seconds.")
    ] = 10.0,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """List the games and their strategies (the default first, marked "(default)").

    With --server, list every game that server lists, marked "rules" (sunbot has its rules
    engine and tuned strategies) or "generic" (playable with random, first, a bot file or
    an agent; generic checks only). Exit 1 when the server cannot be read.
    """
    setup_logging(verbose, log_level, console)
    if server is None:
        if as_json:
            typer.echo(json.dumps({"games": embedded_rows()}, indent=2))
        else:
            console.print(_embedded_table())
        return
    check_server_url(server)
    try:
        with quiet_retries():
            listed, bad = asyncio.run(index_on(server, retry_seconds=retry_seconds))
    except (ClientError, httpx.HTTPError) as exc:
        raise fail(f"cannot read {server}/api/games: {exc}", Exit.ERROR) from None
    if as_json:
        body = {
            "server": server,
            "games": [listing_json(g) for g in listed],
            "badEntries": [bad_json(b) for b in bad],
        }
        typer.echo(json.dumps(body, indent=2, ensure_ascii=False))
        return
    console.print(_server_table(server, listed, bad))
    for b in bad:
        said = f"bad index entry {b.position} ({_entry(b)}): {b.reason}"
        console.print(Text(outside(said)), soft_wrap=True)
    if not listed:
        console.print("the server lists no game")
