"""``sunbot replay`` and ``sunbot export``: transcripts re-checked, watched and tabulated."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import click
import typer
from rich.constrain import Constrain
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from sunbot import views
from sunbot._text.atomic_write import WriteFailed, write_atomic
from sunbot._text.terminal import outside
from sunbot.cli.console import Exit, make_console
from sunbot.cli.llm_options import LlmPrompt, LlmUrl
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.games import GAMES
from sunbot.mirror import Divergence
from sunbot.transcripts.bounds import cut_note
from sunbot.transcripts.export import rows, to_csv, to_markdown
from sunbot.transcripts.integrity import Misfit
from sunbot.transcripts.jsonl import Transcript, read_transcript
from sunbot.transcripts.replay import replay_file
from sunbot.transcripts.stream import TranscriptLines
from sunbot.views.common import line, unknown_line

console = make_console()
err = make_console(stderr=True)

#: Width of ``replay --show``'s step rules when the output is not a terminal.
RULE_WIDTH = 100


def _warn_unread(t: Transcript | TranscriptLines, tail: str = "") -> None:
    """Say on stderr why reading stopped: a cut at the end, or a corrupt line N."""
    if t.error:
        what = ("transcript corrupt:", "red") if t.corrupt else ("transcript cut:", "yellow")
        err.print(line(what, " ", outside(t.error, 2000), tail), soft_wrap=True)


def _load(path: Path) -> Transcript:
    try:
        return read_transcript(path)
    except (ValueError, OSError) as exc:
        err.print(line(("error:", "bold red"), " ", outside(exc, 2000)), soft_wrap=True)
        raise typer.Exit(Exit.USAGE) from None


def replay_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Transcript (.jsonl).")],
    strict: Annotated[
        bool,
        typer.Option(
            help="Exit 3 on any divergence or mismatch, 4 on a cut file (or no result line)."
        ),
    ] = False,
    show: Annotated[bool, typer.Option(help="Render every recorded position.")] = False,
    step: Annotated[
        bool, typer.Option(help="Walk the positions one key at a time (q quits).")
    ] = False,
    local: Annotated[
        bool | None,
        typer.Option(
            "--local/--no-local",
            help="Force or skip the re-play through the engine (default: only runs of a "
            "server with our local choices, by the header's serverIdentity; any other "
            "server's run, loopback or not, is mirrored only).",
        ),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write a self-contained replay page (HTML) here."),
    ] = None,
    rerun: Annotated[
        bool,
        typer.Option(
            "--rerun",
            help="A model's run (llm:MODEL): play it again from its recorded answers, with no"
            " call and 0 tokens; with --llm-prompt, show each decision's prompt change.",
        ),
    ] = False,
    llm_prompt: LlmPrompt = None,
    llm_url: LlmUrl = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="--rerun: print the report as one JSON object.")
    ] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Re-check a transcript: the mirror over every step, and a re-play of local runs.

    With --rerun, a model's run is played again from its recorded answers instead (exit 0:
    the same decisions; 1: it differs or stopped).

    Exit 0 checked; with --strict 3 on a divergence, 4 on a cut file or no result line;
    5 on a corrupt line in the middle (the lines after it are not read; 5 wins over 3);
    2 bad usage, or lines that do not fit one run (a step index out of order, answers of
    another game than the header's).
    """
    setup_logging(verbose, log_level, console, err)
    if not rerun and (llm_prompt is not None or llm_url is not None or as_json):
        err.print("[bold red]error:[/] --llm-prompt, --llm-url and --json apply to --rerun")
        raise typer.Exit(Exit.USAGE)
    if rerun:
        from sunbot.cli.rerun import rerun_command

        rerun_command(file, llm_prompt, llm_url, as_json)
        return
    if html is not None and not html.parent.is_dir():  # before the work, never created
        why = f"--html {html}: no folder {html.parent} (create it first)"
        err.print(f"[bold red]error:[/] {escape(why)}", soft_wrap=True)
        raise typer.Exit(Exit.USAGE)
    if step and not sys.stdin.isatty():
        err.print("[bold red]error:[/] --step reads keys from a terminal; use --show here")
        raise typer.Exit(Exit.USAGE)
    try:  # one line at a time: the memory of the largest line, not of the file
        report, read = replay_file(file, local, keep_positions=show or step)
    except (ValueError, OSError) as exc:  # not a transcript; a Misfit names the file first
        where = f"{file}: " if isinstance(exc, Misfit) else ""
        err.print(line(("error:", "bold red"), " ", outside(f"{where}{exc}", 2000)), soft_wrap=True)
        raise typer.Exit(Exit.USAGE) from None
    except KeyError as exc:
        err.print(line(("error:", "bold red"), " ", outside(exc.args[0])), soft_wrap=True)
        raise typer.Exit(Exit.USAGE) from None
    head = read.header or {}
    known = GAMES.get(str(head.get("game")))
    match = known.kind == "match" if known is not None else read.counts.get("view", 0) > 0
    kind = "view" if match else "step"
    count = f"{read.counts.get(kind, 0)} {kind}s"
    console.print(header_line(head, count), soft_wrap=True)
    _warn_unread(read, "; replaying up to there")
    if show or step:
        for index, state in report.positions:
            # a rule as wide as the terminal, or 100 columns when the output is piped
            width = console.width if console.is_terminal else min(console.width, RULE_WIDTH)
            console.print(Constrain(Rule(line(f"step {outside(index)}")), width))
            console.print(views.render(report.game, state))
            if step and click.getchar() in ("q", "Q"):
                break
    _print_findings("mirror divergence", report.divergences)
    _print_findings("re-play mismatch", report.mismatches, plural=("", "es"))
    _print_findings("result-line inconsistenc", report.inconsistent, plural=("y", "ies"))
    _print_findings("foreign line", report.foreign)
    if report.unknown_fields:
        console.print(unknown_line(report.unknown_fields), soft_wrap=True)
    if (cut := cut_note(report.cut)) is not None:
        console.print(line(("note:", "bold"), " ", outside(cut, 2000)), soft_wrap=True)
    if report.checks == "generic":
        replayed = "generic checks only (sunbot has no rules engine for this game)"
        if isinstance(head.get("model"), dict) and report.recorded_divergences is not None:
            replayed += (  # the model's checks are not re-run: replay runs no model code
                f" · its forward model found {_n(report.recorded_divergences, 'divergence')}"
                " when the run was played (not re-checked: replay runs no model code)"
            )
    elif report.replayed:
        replayed = "re-played through the engine"
    elif match:
        replayed = "match: checked by the seat mirror (no engine re-play of a match)"
    else:
        replayed = "not re-played (not recorded from a server with our local choices)"
    style = "green" if report.ok else "red"
    finished = read.counts.get("result", 0) > 0
    console.print(
        f"[{style}]checked {_n(report.checked, 'answer')}: "
        f"{_n(len(report.divergences), 'divergence')}, "
        f"{_n(len(report.mismatches), 'mismatch', 'mismatches')}"
        + (f", {_n(len(report.foreign), 'kind')} of foreign lines" if report.foreign else "")
        + f"[/] · {replayed}"
        + ("" if finished else " · [yellow]no result line (the run did not finish)[/]"),
        soft_wrap=True,
    )
    if html is not None:  # the page holds the whole run, so it is read whole
        _write_page(_load(file), html, [*report.divergences, *report.mismatches], file)
    if read.corrupt:  # with or without --strict, before a divergence: part was not read
        raise typer.Exit(Exit.CORRUPT)
    if strict and not report.ok:
        raise typer.Exit(Exit.DIVERGED)
    if strict and (read.error or not finished):
        raise typer.Exit(Exit.CUT)


def _write_page(t: Transcript, out: Path, extra: list[Divergence], source: Path) -> None:
    """Write the replay page of ``t`` to ``out``, or exit 2 with a one-line reason."""
    from sunbot.html import write_replay_page

    try:
        size = write_replay_page(t, out, extra, source, rechecked=True)
    except WriteFailed as exc:  # a full disk: one line naming the file; no page left behind
        err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(Exit.ERROR) from None
    except (ValueError, KeyError, OSError) as exc:
        why = exc.args[0] if isinstance(exc, KeyError) else getattr(exc, "strerror", None) or exc
        err.print(
            line(("error:", "bold red"), f" cannot write the replay page {out}: {outside(why)}"),
            soft_wrap=True,
        )
        raise typer.Exit(Exit.USAGE) from None
    console.print(escape(f"wrote replay page {out} ({size / 1e6:.2f} MB)"), highlight=False)


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _print_findings(
    kind: str, found: list[Divergence], limit: int = 30, plural: tuple[str, str] = ("", "s")
) -> None:
    if not found:
        return
    table = Table(title=f"{len(found)} {kind}{plural[len(found) != 1]}")
    for col in ("step", "field", "expected", "got", "note"):
        table.add_column(col, overflow="fold")
    for d in found[:limit]:  # a transcript's words, every one: plain text, clipped
        cells = (d.step, d.path, _short(d.expected), _short(d.got), d.note)
        table.add_row(*(Text(outside(c)) for c in cells))
    console.print(table)
    if len(found) > limit:
        console.print(f"… and {len(found) - limit} more")


def _short(value: object, width: int = 60) -> str:
    text = repr(value) if not isinstance(value, str) or len(value) <= width else repr(value[:width])
    return text if len(text) <= width else text[: width - 1] + "…"


def header_line(head: dict[str, object], count: str) -> Text:
    """The replay's first line: game, seed, strategy, server and sunbot version from the
    transcript's header (each through :func:`~sunbot._text.terminal.outside`: a transcript
    may hold a megabyte or a terminal escape there), then ``count``."""
    game, rest = outside(head.get("game")), [outside(head.get(k)) for k in _HEAD_KEYS]
    seed, strategy, server, version = rest
    return line(
        (game, "bold"), f" seed {seed} · {strategy} · server {server} · sunbot {version} · {count}"
    )


_HEAD_KEYS = ("seed", "strategy", "server", "sunbotVersion")


class ExportFormat(StrEnum):
    """Export formats."""

    csv = "csv"
    md = "md"


def export_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Transcript (.jsonl).")],
    format: Annotated[ExportFormat, typer.Option(help="csv or md.")] = ExportFormat.csv,
    out: Annotated[
        Path | None,
        typer.Option(help="Output file, which must not exist yet (default: standard output)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing --out file (never the transcript).")
    ] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Turn a transcript into a per-step table (action, score, key state).

    Exit 0 written (a cut file: the rows up to the cut); 5 a corrupt line in the middle (the
    rows before it are written, the lines after it are not read); 2 bad usage.
    """
    setup_logging(verbose, log_level, console, err)
    if out is not None and out.exists():
        same = out.resolve() == file.resolve()
        if same or out.is_dir() or not force:
            why = "is the transcript" if same else "exists"
            hint = "" if same or out.is_dir() else " (--force replaces it)"
            err.print(f"[bold red]error:[/] {escape(f'{out} {why}{hint}')}", soft_wrap=True)
            raise typer.Exit(Exit.USAGE)
    t = _load(file)
    text = to_csv(t) if format is ExportFormat.csv else to_markdown(t)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            write_atomic(out, text)  # whole or not at all: no partial file to --force over
        except WriteFailed as exc:
            err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(Exit.ERROR) from None
        err.print(escape(f"wrote {out} ({len(rows(t))} rows)"))
    _warn_unread(t)
    if t.corrupt:
        raise typer.Exit(Exit.CORRUPT)
