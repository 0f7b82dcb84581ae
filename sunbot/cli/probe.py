"""``sunbot probe URL``: the command that checks a Gameboard server (:mod:`sunbot.probe`)
and prints its report: a table, then each game's findings (or ``--json``). Our games are
checked against their rule text; every other listed game through the generic checks.

Exit 0 when every listed game can be played, 1 otherwise, 2 on a usage error.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from typing import Annotated

import httpx
import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sunbot._text.terminal import outside
from sunbot.cli.console import Exit, make_console
from sunbot.client import ClientError, RetryPolicy
from sunbot.client.http import url_problem
from sunbot.probe.report import GameReport, Recorder, fit, run_probe

#: Characters of one probe finding line shown (it may list many of a server's field names).
_LINE = 2000


def show_reports(console: Console, reports: list[GameReport], rec: Recorder) -> None:
    """The compatibility table, then one line per finding of each game, then the rate limits
    met; every cell and line is a server's words, printed plain and clipped."""
    table = Table(title="compatibility")
    for col in ("game", "playable", "carry", "steps", "missing", "unknown", "grammar", "checks"):
        table.add_column(col)
    for r in reports:
        playable = "yes" if r.playable else "NO" if r.listed else "unlisted"
        cells: tuple[object, ...] = (r.slug, playable, r.carry or "-", r.steps)
        cells += (len(r.missing), len(r.unknown), _grammar_cell(r), r.support)
        table.add_row(*(Text(outside(c)) for c in cells))  # a server's words: plain, clipped
    console.print(table)
    for r in reports:
        lines = [] if r.listed else ["not listed in /api/games (not judged)"]
        lines += [f"missing: {', '.join(r.missing)}"] if r.missing else []
        lines += [f"unknown (ignored): {', '.join(r.unknown)}"] if r.unknown else []
        if r.unpromised:
            lines.append(f"not sent, not promised (fine): {', '.join(r.unpromised)}")
        if r.support == "generic" and r.grammar is not None and r.grammar.error:
            lines.append(f"grammar: {r.grammar.error}")
        elif r.grammar is not None and not r.grammar.same:
            g = r.grammar
            lines.append(
                f"grammar ({g.found_at}): {g.error or ''} only ours accept "
                f"{json.dumps(g.only_ours)}; only theirs accept {json.dumps(g.only_theirs)}"
            )
        if r.spec_route and f"spec route: {r.spec_route}" not in r.findings:
            lines.append(f"spec route: {r.spec_route}")
        lines += r.notes + r.findings
        if r.error and r.listed:
            lines.append(f"error: {r.error}")
        for line in lines:
            console.print(Text(outside(f"{r.slug}: {line}", _LINE)), soft_wrap=True)
    heads = ", ".join(f"{k}: {v}" for k, v in sorted(rec.headers.items())) or "none"
    said = f"429 answers: {rec.throttled}; rate-limit headers seen: {heads}"
    console.print(Text(outside(said, _LINE)), soft_wrap=True)


def _as_json(r: GameReport) -> dict[str, object]:
    """One report as JSON-ready values (the init spec kept for the checks left out)."""
    out = asdict(r)
    out.pop("init_spec", None)
    return out


def _grammar_cell(r: GameReport) -> str:
    """Ours: ``same`` or ``differs`` from our grammar; generic: ``served`` or ``unusable``."""
    if r.grammar is None:
        return "-"
    if r.support == "generic":
        return "unusable" if r.grammar.error else "served"
    return "same" if r.grammar.same else "differs"


def probe_command(
    url: Annotated[str, typer.Argument(help="Server origin, e.g. https://gameboard.gg")],
    seed: Annotated[int, typer.Option(help="Seed of every run.")] = 7,
    steps: Annotated[int, typer.Option(min=1, max=50, help="Legal steps per game.")] = 5,
    match: Annotated[bool, typer.Option(help="Create a one-seat Harvest Watch match.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    retry_seconds: Annotated[
        float, typer.Option(min=0.1, max=600, help="Retry budget of each request, seconds.")
    ] = 60.0,
) -> None:
    """Check a Gameboard server against what sunbot needs: fields, grammar, tokens, limits.

    Every game the server lists is probed: ours against their rules, any other through the
    generic checks. Exit 0 when every listed game can be played, 1 otherwise.
    """
    if (problem := url_problem(url)) is not None:
        raise typer.BadParameter(problem, param_hint="URL")
    console = make_console()
    try:
        policy = RetryPolicy(total_seconds=retry_seconds)
        reports, rec = asyncio.run(run_probe(url, seed, steps, match, policy=policy))
    except (ClientError, httpx.HTTPError) as exc:
        said = outside(f"probe: cannot read {url}/api/games: {exc}", _LINE)
        make_console(stderr=True).print(Text(said), soft_wrap=True)
        raise typer.Exit(Exit.ERROR) from None
    if as_json:
        body = {
            "games": [_as_json(r) for r in reports],
            "throttled": rec.throttled,
            "rateHeaders": rec.headers,
        }
        console.print_json(json.dumps(body))
    else:
        show_reports(console, reports, rec)
    raise typer.Exit(Exit.OK if fit(reports) else Exit.ERROR)
