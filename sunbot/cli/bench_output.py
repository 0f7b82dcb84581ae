"""What ``sunbot bench`` prints: the live progress bar and the rich tables of a run.

The cells are :mod:`sunbot.bench.analysis`'s text, shown as plain ``Text`` (a ``[1.2, 3.4]``
interval or a strategy name is never read as rich markup).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from sunbot.bench.analysis import Analysis, compare_rows, pair_rows, summary_rows
from sunbot.cli.progress_lines import ProgressLines


def progress_bar(console: Console) -> Progress:
    """The live bar: description, bar, done/total, elapsed and ETA."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("jobs"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
    )


@contextmanager
def progress(
    out: Console, err: Console, label: str, total: int, wave: int, every_s: float
) -> Iterator[Callable[[], None]]:
    """Yields the function to call as each job finishes: the live bar on ``out`` when both
    ``out`` and ``err`` are terminals, else :class:`~sunbot.cli.progress_lines.ProgressLines`
    on ``err`` (a line every ``every_s`` seconds or ~5%, and the estimate once ``wave`` jobs,
    one per worker, are done)."""
    if out.is_terminal and err.is_terminal:
        with progress_bar(out) as bar:
            task = bar.add_task(label, total=total)
            yield lambda: bar.advance(task)
        return

    def write(text: str) -> None:
        err.print(Text(text), soft_wrap=True)

    with ProgressLines(label, total, wave, write, every_s=every_s) as lines:
        yield lines.advance


def text_table(title: str, head: list[str], rows: list[list[str]], left: int = 1) -> Table:
    """A rich table of plain text (the first ``left`` columns left-aligned, the others
    right): cells such as ``[1.2, 3.4]`` or names are never rich markup."""
    table = Table(title=Text(title))
    for i, h in enumerate(head):
        table.add_column(Text(h), justify="left" if i < left else "right")
    for row in rows:
        table.add_row(*(Text(c) for c in row))
    return table


def summary_table(a: Analysis, title: str) -> Table:
    """Per strategy: runs, mean score with 95% CI, median, quartiles, progress, errors
    (:func:`~sunbot.bench.analysis.summary_rows`)."""
    return text_table(title, *summary_rows(a))


def paired_table(a: Analysis) -> Table:
    """Each pair of strategies on their common seeds: mean difference, CI, Wilcoxon p."""
    return text_table("paired on the same seeds", *pair_rows(a))


def compare_table(run_a: str, a: Analysis, run_b: str, b: Analysis) -> Table:
    """Two stored runs side by side, per strategy; ``B - A`` paired on common seeds."""
    return text_table(f"{run_a} (A) vs {run_b} (B) · {a.game}", *compare_rows(a, b))
