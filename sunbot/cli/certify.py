"""``sunbot certify GAME --engine FILE.py:Class``: a forward model checked against a server.

Plays each seed with each policy on the server (``--server``; default the embedded one, for
a game it plays) with the model predicting every answer (:mod:`sunbot.certify.check`);
prints the agreement, the first divergences with their step and field path, and writes the
model's signed certificate when none diverged (and the file is still the bytes that were
checked). After a divergence it leaves no certificate of the model for the game behind: the
entry is withdrawn, with every entry this sunbot did not sign
(:func:`sunbot.forward.certificate.withdraw`). Exit 0: no divergence; 3: a divergence (as
``--strict``); 1: a trajectory ended on an error (a server that could not be played); 2: bad
usage.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.markup import escape

from sunbot._text.atomic_write import WriteFailed
from sunbot._text.terminal import printable
from sunbot.bench.parse import Seeds, parse_seeds
from sunbot.certify.check import DEFAULT_MAX_STEPS, DEFAULT_POLICIES, CertifyReport
from sunbot.cli.bench import option_parser
from sunbot.cli.console import Exit, result_stdout, stdout_to_stderr
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.play import check_server_url, console, err_console, fail
from sunbot.cli.signals import HARD_STOP_S, HardStop, StopSignals, exit_code

#: The seeds certified on by default.
DEFAULT_SEEDS = "1-20"


def _short(value: object) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _print(report: CertifyReport, seeds: Seeds) -> None:
    m = report.model
    where = f"{m.path}, sha256 {m.sha256[:12]}…" if m.path and m.sha256 else m.spec
    console.print(
        escape(printable(f"certify {report.game} · {m.name} ({where}) on {report.server}")),
        soft_wrap=True,
    )
    console.print(
        f"{report.trajectories} trajectories ({len(report.seeds)} seeds {escape(seeds.text)}"
        f" x {escape(', '.join(report.policies))}), {report.steps} steps"
    )
    mark = (
        "[green]0 divergences[/]"
        if not report.divergences
        else (f"[bold red]{report.divergences} divergences[/]")
    )
    console.print(
        f"predictions checked {report.predictions} · {mark}"
        + (f" · model errors {report.model_errors}" if report.model_errors else "")
    )
    if report.first:
        console.print("first divergences (the model's value, then the server's):")
        for f in report.first[:10]:
            d = f.divergence
            note = d.note.removeprefix("model: ")
            where = f"  seed {f.seed} {f.policy} step {d.step}"
            if d.path == "model":  # the model raised or gave no answer: its reason only
                text = f"{where}: {note}"
            else:
                shown = f"model {_short(d.expected)}, server {_short(d.got)}"
                text = f"{where}: {d.path}: {shown}" + (f" ({note})" if note else "")
            console.print(escape(printable(text)), soft_wrap=True)
    if report.generic:
        first = report.generic_first[0] if report.generic_first else None
        console.print(
            escape(printable(f"generic checks: {report.generic} findings of the server's envelope"
                             + (f"; first: {first}" if first else ""))),
            soft_wrap=True,
        )  # fmt: skip
    if report.unpredicted:
        shown = ", ".join(sorted(report.unpredicted)[:8])
        more = len(report.unpredicted) - 8
        tail = f" and {more} more" if more > 0 else ""
        console.print(escape(printable(f"not predicted (ignored): {shown}{tail}")), soft_wrap=True)
    for error in report.errors[:5]:
        err_console.print(f"[bold red]error:[/] {escape(printable(error))}", soft_wrap=True)


def _keep_certificate(
    report: CertifyReport, seeds_text: str, wanted: bool
) -> tuple[Path | None, Path | None]:
    """Write the certificate of a model that passed (when ``wanted`` and its file still
    hashes as checked), or withdraw its entry after a divergence; (written, withdrawn)."""
    from sunbot.forward.certificate import withdraw, write
    from sunbot.forward.load import file_hash

    path = report.model.path
    if path is None:
        return None, None
    try:
        if report.divergences:
            return None, withdraw(path, report.model.name, report.game)
        if not (wanted and report.passed):
            return None, None
        try:
            same = file_hash(path) == report.model.sha256
        except OSError:
            same = False
        if not same:
            err_console.print(f"[yellow]certificate not written:[/] {escape(str(path))} changed"
                              " while it was certified")  # fmt: skip
            return None, None
        return write(path, report.certificate(seeds_text)), None
    except WriteFailed as exc:
        err_console.print(f"[yellow]certificate not written:[/] {escape(str(exc))}")
        return None, None


def certify_command(
    game: Annotated[str, typer.Argument(help="Game slug (any game the server lists).")],
    engine: Annotated[
        str,
        typer.Option(help="The forward model: FILE.py:Class, FILE.py, or an installed model."),
    ],
    server: Annotated[
        str | None,
        typer.Option(help="Server origin, e.g. https://gameboard.gg (default: embedded)."),
    ] = None,
    seeds: Annotated[
        Seeds | None,
        typer.Option(
            parser=option_parser(parse_seeds),
            metavar="1-20|1,2,5-9",
            help=f"Seeds of the trajectories (default {DEFAULT_SEEDS}).",
        ),
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            "--policy",
            help="A policy playing each seed (a strategy name); repeat for several"
            f" (default: {', '.join(DEFAULT_POLICIES)}).",
        ),
    ] = None,
    max_steps: Annotated[
        int, typer.Option(min=1, max=100_000, help="Steps a trajectory plays at most.")
    ] = DEFAULT_MAX_STEPS,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    certificate: Annotated[
        bool,
        typer.Option(help="Write the certificate beside the model file when none diverged."),
    ] = True,
    isolate: Annotated[
        bool,
        typer.Option(
            "--isolate",
            help="Run the model only in a sandboxed child process (no network, bounded memory"
            " and time): for a model you did not write. Without it the model runs in this"
            " process: a model that ends the process (os._exit) ends certify with no result"
            " and an exit code of its choosing, 0 included.",
        ),
    ] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Check a forward model against a server: every answer of seeded trajectories
    predicted and compared.

    Exit 0 when no prediction diverged, 3 when one did, 1 when a trajectory ended on an
    error, 2 on bad usage."""
    from sunbot.certify.check import certify_async

    setup_logging(verbose, log_level, console, err_console)
    check_server_url(server)
    chosen = seeds or parse_seeds(DEFAULT_SEEDS)
    policies = list(dict.fromkeys(policy or DEFAULT_POLICIES))

    def progress(seed: int, name: str, report: CertifyReport) -> None:
        if not as_json and report.trajectories % 10 == 0:
            err_console.print(
                f"{report.trajectories} trajectories, {report.predictions} predictions,"
                f" {report.divergences} divergences"
            )

    hard = HardStop(  # a model that catches the interrupt is ended at once, not waited for
        lambda: exit_code(stop.signum),
        lambda: (
            f"interrupted; nothing certified (stopped at once: the model did not end"
            f" its call within {HARD_STOP_S:g} s of the stop)"
        ),
    )

    def interrupt(signum: int, frame: FrameType | None) -> None:
        hard.arm()
        raise KeyboardInterrupt

    stop = StopSignals(interrupt)  # SIGTERM too, and where SIGINT was ignored
    try:
        with stop, hard, stdout_to_stderr(as_json):  # a stuck model is left at once; its prints
            report = asyncio.run(certify_async(  # go to stderr: stdout holds the JSON alone
                game,
                engine,
                server=server,
                seeds=chosen.values,
                policies=policies,
                max_steps=max_steps,
                on_trajectory=progress,
                isolate=isolate,
            ))  # fmt: skip
    except (ValueError, ImportError) as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/]; nothing certified")
        raise typer.Exit(exit_code(stop.signum)) from None
    written, withdrawn = _keep_certificate(report, chosen.text, certificate)
    if as_json:
        out = report.to_json()
        out["certificate"] = str(written) if written is not None else None
        out["certificateWithdrawn"] = str(withdrawn) if withdrawn is not None else None
        typer.echo(json.dumps(out, default=str), file=result_stdout())
    else:
        _print(report, chosen)
        if written is not None:
            console.print(escape(f"certificate: {written}"), soft_wrap=True)
        if withdrawn is not None:
            console.print(escape(f"certificate withdrawn: {withdrawn}"), soft_wrap=True)
    if report.divergences:
        raise typer.Exit(Exit.DIVERGED)
    if report.errors:
        raise typer.Exit(Exit.ERROR)


__all__ = ["certify_command"]
