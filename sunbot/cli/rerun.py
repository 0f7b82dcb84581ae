"""``sunbot replay --rerun``: a model's run played again from its transcript
(:mod:`sunbot.rerun.llm`), and what changed decision by decision."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from sunbot._text.terminal import outside
from sunbot.cli.console import Exit, make_console
from sunbot.views.common import line

console = make_console()
err = make_console(stderr=True)

#: Changed decisions listed at most.
LISTED = 40


def rerun_command(file: Path, prompt: Path | None, url: str | None, as_json: bool) -> None:
    """Play the model run of ``file`` again and print the report; exit 0 when every
    decision came back the same (or, with ``prompt``, the diff was printed), 1 when the
    rerun differs or stopped, 2 when the file holds no model run to play again."""
    import json

    from sunbot.rerun.llm import CannotRerun, rerun

    try:
        report = rerun(file, prompt=prompt, base_url=url)
    except (CannotRerun, ValueError, OSError, KeyError, TypeError) as exc:
        # a KeyError (an unknown game) or a TypeError (a field of the wrong type): a file
        # edited by hand or by someone else, said in one line like any other
        why = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        said = outside(f"{file}: {why}", 2000)
        err.print(line(("error:", "bold red"), " ", said), soft_wrap=True)
        raise typer.Exit(Exit.USAGE) from None
    if as_json:
        typer.echo(json.dumps(report.to_dict(), ensure_ascii=False))
    else:
        _print(report)
    if report.error is not None or (prompt is None and not report.exact):
        raise typer.Exit(Exit.ERROR)


def _print(report: object) -> None:
    from sunbot.rerun.llm import RerunReport

    assert isinstance(report, RerunReport)
    r = report
    said = (
        f"{r.game} seed {r.seed}: replayed {r.replayed} of {r.recorded} decisions · "
        f"{r.cache_hits} answers from the record · {r.calls} calls to the endpoint · "
        f"{r.tokens:,} tokens"
    )
    console.print(line(outside(said)), soft_wrap=True)
    changed = [d for d in r.decisions if not (d.same_prompt and d.same_action)]
    if changed:
        table = Table(title=f"{len(changed)} decisions changed")
        for col in ("decision", "phase", "prompt", "action"):
            table.add_column(col)
        for d in changed[:LISTED]:
            cells = (d.index, d.phase, "same" if d.same_prompt else "changed",
                     "same" if d.same_action else "changed")  # fmt: skip
            table.add_row(*(Text(outside(c)) for c in cells))
        console.print(table)
        first = next((d for d in changed if d.diff), None)
        if first is not None:
            console.print(line((f"decision {first.index}'s prompt:", "bold")), soft_wrap=True)
            console.print(Text(outside("\n".join(first.diff), 20_000)), soft_wrap=True)
    if r.error is not None:
        console.print(line(("rerun stopped:", "red"), " ", outside(r.error)), soft_wrap=True)
    elif r.exact:
        same = "the same prompts and the same actions, decision by decision"
        console.print(line((same, "green")))


__all__ = ["rerun_command"]
