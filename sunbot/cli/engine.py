"""``sunbot engine draft GAME --strategy llm:MODEL --out FILE.py``: a forward model drafted
by a language model and corrected from ``certify``'s divergences
(:mod:`sunbot.certify.draft`). The drafted code runs only in a sandboxed child process.

Exit 0: the last draft passed (its certificate is written beside it); 3: it still diverged
after ``--rounds`` (the file is written for review, without a certificate); 1: the model or
the server could not be asked; 2: bad usage.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from sunbot._text.terminal import printable
from sunbot.bench.parse import Seeds, parse_seeds
from sunbot.certify.draft import DEFAULT_ROUNDS, DraftRound
from sunbot.cli.bench import option_parser
from sunbot.cli.console import Exit
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.play import check_server_url, console, err_console, fail

engine_app = typer.Typer(
    help="Forward models of games sunbot has no engine for.", no_args_is_help=True
)


@engine_app.command("draft")
def draft_command(
    game: Annotated[str, typer.Argument(help="Game slug (any game the server lists).")],
    strategy: Annotated[
        str, typer.Option(help="The language model that writes the model: llm:MODEL.")
    ],
    out: Annotated[Path, typer.Option(help="Where the drafted model is written (FILE.py).")],
    server: Annotated[
        str | None,
        typer.Option(help="The server it is certified against (default: embedded)."),
    ] = None,
    seeds: Annotated[
        Seeds | None,
        typer.Option(
            parser=option_parser(parse_seeds),
            metavar="1-5",
            help="Seeds each draft is certified on (default 1-5).",
        ),
    ] = None,
    rounds: Annotated[
        int, typer.Option(min=1, max=20, help="Drafts at most: the first, then corrections.")
    ] = DEFAULT_ROUNDS,
    max_steps: Annotated[
        int, typer.Option(min=1, max=10_000, help="Steps a certification trajectory plays.")
    ] = 60,
    llm_url: Annotated[
        str | None,
        typer.Option(help="The OpenAI-compatible endpoint (default: OPENAI_BASE_URL)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Draft a forward model with a language model, certify it, feed its divergences back.

    Exit 0 when the last draft passed, 3 when it still diverged, 1 when the model or the
    server could not be asked or no answer held Python code (no file written), 2 on bad
    usage."""
    from sunbot.certify.draft import draft_async

    setup_logging(verbose, log_level, console, err_console)
    check_server_url(server)
    if not strategy.startswith("llm:") or not strategy.removeprefix("llm:").strip():
        raise fail("--strategy: a language model, llm:MODEL")
    if out.suffix != ".py":
        raise fail(f"--out {out}: a Python file, FILE.py")
    chosen = seeds or parse_seeds("1-5")

    def said(r: DraftRound) -> None:
        if as_json:
            return
        if r.error is not None:
            text = f"round {r.number}: not checked: {r.error}"
        elif r.passed:
            text = f"round {r.number}: {r.predictions} predictions, 0 divergences"
        else:
            text = f"round {r.number}: {r.diverged} of {r.predictions} predictions diverged"
            text += "".join(f"\n  {line}" for line in r.first[:3])
        err_console.print(escape(printable(text)), soft_wrap=True)

    try:
        report = asyncio.run(
            draft_async(
                game,
                strategy,
                out,
                server=server,
                seeds=chosen.values,
                rounds=rounds,
                max_steps=max_steps,
                base_url=llm_url,
                on_round=said,
            )
        )
    except (ValueError, ImportError) as exc:
        raise fail(str(exc)) from None
    except Exception as exc:  # the model or the server could not be asked
        raise fail(printable(str(exc)), Exit.ERROR) from None
    if as_json:
        typer.echo(json.dumps(report.to_json()))
    if not report.written:
        n = len(report.rounds)
        raise fail(
            f"{out}: no file written: no answer held Python code"
            f" ({n} {'round' if n == 1 else 'rounds'}, {report.calls} model calls)",
            Exit.ERROR,
        )
    if not as_json:
        verdict = "passed" if report.passed else "still diverges"
        console.print(
            escape(printable(f"{out}: {verdict} after {len(report.rounds)} rounds"
                             f" ({report.calls} model calls, {report.tokens:,} tokens);"
                             " review it before you use it")),
            soft_wrap=True,
        )  # fmt: skip
        if report.certificate is not None:
            console.print(escape(f"certificate: {report.certificate}"), soft_wrap=True)
    if not report.passed:
        raise typer.Exit(Exit.DIVERGED)


__all__ = ["draft_command", "engine_app"]
