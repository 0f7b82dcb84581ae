"""The ``sunbot status DIR`` command: how long runs are doing, from their status files.

``DIR`` is a run's folder (``OUT/RUN``, holding ``status.json``) or a ``--out`` folder of
``sunbot bench`` / ``sunbot tournament`` (every run in it). One table row per run: its
state, jobs stored of those asked, errors, refusals, model spend, jobs per hour and the age
of the last update; then, for each run that is not going, why and how to go on.

Exit codes: 0 every run is going or ended as asked (``done``, ``stopped`` at a daily cap,
``interrupted``); 1 a run failed, or says it is running while its process is gone (it
crashed, was killed, or the machine rebooted: ``--resume`` continues it) or has not
written for 10 minutes; 2 no status file in ``DIR``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from sunbot._text.terminal import printable
from sunbot.bench.status import RunStatus, find_status_files, liveness, read_status
from sunbot.cli.console import Exit, make_console

console = make_console()
err_console = make_console(stderr=True)


def status_command(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            exists=True,
            file_okay=False,
            help="A run's folder (OUT/RUN) or a bench/tournament --out folder.",
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the status files as one JSON list.")
    ] = False,
) -> None:
    """Show how long bench and tournament runs are doing (their status files)."""
    paths = find_status_files(folder)
    if not paths:
        err_console.print(
            f"[bold red]error:[/] {escape(str(folder))} holds no status.json (a bench or"
            " tournament run's folder, or their --out folder)",
            soft_wrap=True,
        )
        raise typer.Exit(Exit.USAGE)
    found: list[tuple[Path, RunStatus]] = []
    for path in paths:
        try:
            found.append((path, read_status(path)))
        except (ValueError, OSError) as exc:
            err_console.print(f"[yellow]unreadable:[/] {escape(printable(exc))}", soft_wrap=True)
    if as_json:
        rows = [{**s.to_json(), "liveness": liveness(s)} for _, s in found]
        typer.echo(json.dumps(rows, indent=1))
    else:
        _show(found)
    unwell = [s for _, s in found if s.state == "failed" or liveness(s) in ("gone", "stale")]
    if unwell or len(found) < len(paths):
        raise typer.Exit(Exit.ERROR)


def _show(found: list[tuple[Path, RunStatus]]) -> None:
    table = Table(title="sunbot runs", title_justify="left")
    for name in ("run", "state", "jobs", "errors", "refusals", "spend", "jobs/h", "updated"):
        table.add_column(name, justify="right" if name in ("errors", "refusals") else "left")
    notes: list[str] = []
    for _, s in found:
        alive = liveness(s)
        state = s.state if alive in ("alive", "ended") else f"{s.state}, process {alive}"
        spend = ", ".join(
            part
            for part in (
                f"{s.tokens:,} tokens" if s.tokens is not None else "",
                f"${s.usd:,.4f}" if s.usd is not None else "",
            )
            if part
        )
        table.add_row(
            escape(printable(f"{s.command} {s.run} ({s.game})")),
            escape(state),
            f"{s.stored:,} of {s.jobs:,}",
            f"{s.errors:,}" + (f" (+{s.timeouts:,} timed out)" if s.timeouts else ""),
            f"{s.refusals:,}",
            spend or "-",
            f"{s.rate_per_hour:,.1f}" if s.rate_per_hour is not None else "-",
            _age(s.updated),
        )
        notes += _notes(s, alive)
    console.print(table)
    for note in notes:
        console.print(note, soft_wrap=True)


def _notes(s: RunStatus, alive: str) -> list[str]:
    """What to say of a run below the table: why it is not going, and how to go on."""
    name = escape(printable(s.run))
    resume = escape(printable(s.resume))
    if alive == "gone":
        return [
            f"[red]{name}[/]: says {s.state}, but its process {s.pid} on {escape(s.host)} is"
            f" gone (a crash, a kill or a reboot): continue with {resume}"
        ]
    if alive == "stale":
        return [f"[red]{name}[/]: no update from {escape(s.host)} since {escape(s.updated)}"]
    if s.state in ("stopped", "interrupted", "failed", "waiting"):
        why = f" ({escape(printable(s.reason))})" if s.reason else ""
        hint = "" if s.state == "waiting" else f"; continue with {resume}"
        return [f"[yellow]{name}[/]: {s.state}{why}{hint}"]
    if s.spend_today:
        today = ", ".join(f"{k} {v:,.4g}" for k, v in s.spend_today.items())
        return [f"{name}: spent today (every run sharing the ledger): {escape(today)}"]
    return []


def _age(stamp: str) -> str:
    """``"12 s ago"``, ``"3 min ago"``, ``"2.5 h ago"`` (the stamp itself if unreadable)."""
    try:
        seconds = (datetime.now(UTC) - datetime.fromisoformat(stamp)).total_seconds()
    except ValueError:
        return escape(printable(stamp))
    if seconds < 120:
        return f"{max(0, seconds):.0f} s ago"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min ago"
    return f"{seconds / 3600:.1f} h ago"
