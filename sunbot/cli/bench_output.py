"""What ``sunbot bench`` prints: the live progress bar and the rich tables of a run.

The cells are :mod:`sunbot.bench.analysis`'s text, shown as plain ``Text`` (a ``[1.2, 3.4]``
interval or a strategy name is never read as rich markup).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import PurePath
from typing import Any

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

from sunbot._text import csv_cells
from sunbot._text.terminal import printable
from sunbot.bench.analysis import (
    Analysis,
    StrategyStats,
    compare_rows,
    pair_rows,
    summary_rows,
)
from sunbot.bench.stats import Paired
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
    right): cells such as ``[1.2, 3.4]`` or names are never rich markup, and their control
    characters (a bot file named with an ESC sequence) are shown as ``\ufffd``."""
    table = Table(title=Text(printable(title)))
    for i, h in enumerate(head):
        table.add_column(Text(printable(h)), justify="left" if i < left else "right")
    for row in rows:
        table.add_row(*(Text(printable(c)) for c in row))
    return table


#: Longest strategy label in a table before :func:`short_label` shortens it.
LABEL_WIDTH = 30

#: The summary's columns shown by default (the rest go to a second table, or all in one
#: with ``--wide``): under 100 characters wide with labels of :data:`LABEL_WIDTH`.
MAIN_COLUMNS: tuple[str, ...] = ("strategy", "runs", "mean score", "95% CI")
MAIN_COLUMNS += ("capped/errors", "capped/errors/timeouts", "rank-1 rate [95% Wilson]")
MAIN_COLUMNS += ("mean rank", "USD/run")


def short_label(name: str, width: int = LABEL_WIDTH) -> str:
    """``name`` in at most ``width`` characters: a bot file ``mybots/deep/bot.py:Bot``
    keeps its file name and class (``…/bot.py:Bot``), anything still too long keeps its
    head and tail around ``…``. Other names up to ``width`` (a match group's ``farmer vs
    random + 4 house``) are returned as they are."""
    is_file = ".py:" in name or name.endswith(".py")
    if len(name) <= width and not (is_file and ("/" in name or "\\" in name)):
        return name
    path, colon, cls = name.rpartition(":") if ".py:" in name else (name, "", "")
    if is_file and ("/" in path or "\\" in path):
        name = f"…/{PurePath(path.replace(chr(92), '/')).name}{colon}{cls}"
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    return name[:head] + "…" + name[len(name) - (width - 1 - head) :]


def short_labels(names: list[str], width: int = LABEL_WIDTH) -> list[str]:
    """:func:`short_label` of each name, unless two would read the same (two ``bot.py`` in
    different folders): then each long one keeps its head and tail around ``…``."""
    out = [short_label(n, width) for n in names]
    if len(set(out)) == len(set(names)):
        return out
    return [n if len(n) <= width else n[: width // 3] + "…" + n[-(width - 1 - width // 3) :]
            for n in names]  # fmt: skip


def _main_column(h: str, progress_head: str) -> bool:
    return h in MAIN_COLUMNS or h == progress_head


def summary_tables(a: Analysis, title: str, wide: bool = False) -> list[Table]:
    """Per strategy (:func:`~sunbot.bench.analysis.summary_rows`), labels shortened
    (:func:`short_label`): the main columns (:data:`MAIN_COLUMNS` and the progress median),
    then a second table of the others (quartiles, decision times, rank counts, tokens),
    readable at 100 columns; ``wide``: one table of every column."""
    head, rows = summary_rows(a)
    labels = short_labels([r[0] for r in rows])
    rows = [[label, *r[1:]] for label, r in zip(labels, rows, strict=True)]
    if wide:
        return [text_table(title, head, rows)]
    progress_head = f"{a.progress_field} (median)"
    main = [i for i, h in enumerate(head) if _main_column(h, progress_head)]
    rest = [0] + [i for i, h in enumerate(head) if not _main_column(h, progress_head)]
    tables = [text_table(title, [head[i] for i in main], [[r[i] for i in main] for r in rows])]
    if len(rest) > 1:
        tables.append(
            text_table("more per strategy (--wide: one table)", [head[i] for i in rest],
                       [[r[i] for i in rest] for r in rows])
        )  # fmt: skip
    return tables


def summary_table(a: Analysis, title: str) -> Table:
    """Every summary column in one table (:func:`summary_tables` with ``wide``)."""
    return summary_tables(a, title, wide=True)[0]


def paired_table(a: Analysis) -> Table:
    """Each pair of strategies on their common seeds: mean difference, CI, Wilcoxon p
    (labels shortened by :func:`short_label`)."""
    head, rows = pair_rows(a)
    names = [s.name for s in a.strategies]
    short = dict(zip(names, short_labels(names), strict=True))
    for row, (x, y, _) in zip(rows, a.pairs, strict=True):
        row[0] = f"{short.get(x, x)} - {short.get(y, y)}"
    return text_table("paired on the same seeds", head, rows)


#: ``--format`` values: rich tables, Markdown, CSV or JSON of the summary on stdout.
FORMATS = ("table", "md", "csv", "json")


def summary_text(a: Analysis, fmt: str, meta: dict[str, str]) -> str:
    """The summary (every column, full strategy labels) and the paired comparisons as
    ``fmt``: ``md`` (two Markdown tables and the verdict), ``csv`` (the summary only, one
    header line) or ``json`` (``{"run": .., "game": .., "strategies": [{column: cell}],
    "pairs": [..], "verdict": ..}``, cells as the table shows them, and each strategy's
    and pair's figures as JSON numbers under ``"values"``, see :func:`strategy_values` and
    :func:`pair_values`; :func:`sunbot.bench.verdict.bench_verdict`). Raises ``ValueError``
    for another ``fmt``."""
    from sunbot.bench.verdict import bench_verdict

    head, rows = summary_rows(a)
    phead, prows = pair_rows(a)
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerows(csv_cells.row(r) for r in [head, *rows])  # a name may be "=.."
        return buf.getvalue()
    if fmt == "json":
        return (
            json.dumps(
                {
                    "run": meta.get("run"),
                    "game": a.game,
                    "strategies": [
                        {**dict(zip(head, r, strict=True)), "values": strategy_values(s)}
                        for r, s in zip(rows, a.strategies, strict=True)
                    ],
                    "pairs": [
                        {**dict(zip(phead, r, strict=True)), "values": pair_values(p)}
                        for r, (_, _, p) in zip(prows, a.pairs, strict=True)
                    ],
                    "verdict": bench_verdict(a),
                }
            )
            + "\n"
        )
    if fmt == "md":
        out = _markdown(head, rows)
        out += "\n" + _markdown(phead, prows) if prows else ""
        return out + f"\nVerdict: {bench_verdict(a)}\n"
    raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")


def _number(x: float) -> float | None:
    """``x`` as JSON can hold it: ``None`` for ``nan`` or an infinity (no statistic)."""
    return x if math.isfinite(x) else None


def strategy_values(s: StrategyStats) -> dict[str, Any]:
    """One strategy's figures as numbers (``None`` where undefined): ``runs``, ``errors``,
    ``capped``, ``timeouts``; ``score`` and ``progress`` as ``{mean, ci_low, ci_high,
    median, q1, q3, min, max}``; ``decision_p50_ms`` and ``decision_p95_ms`` (ms); for a
    match game ``wins`` as ``{wins, n, rate, low, high}`` (rank-1 rate, Wilson interval)."""
    out: dict[str, Any] = {"runs": len(s.results), "errors": s.errors, "capped": s.capped}
    out["timeouts"] = s.timeouts
    for key, summary in (("score", s.score), ("progress", s.progress)):
        out[key] = {k: _number(float(getattr(summary, k))) for k in _SUMMARY_KEYS}
    out["decision_p50_ms"] = _number(s.decision_p50_ms)
    out["decision_p95_ms"] = _number(s.decision_p95_ms)
    if s.wins is not None:
        w = s.wins
        out["wins"] = {"wins": w.wins, "n": w.n, "rate": _number(w.rate),
                       "low": _number(w.low), "high": _number(w.high)}  # fmt: skip
    return out


def pair_values(p: Paired) -> dict[str, Any]:
    """``a - b`` on common seeds as numbers (``None`` where undefined): ``n``,
    ``mean_diff``, ``ci_low``, ``ci_high``, ``p_value`` (Wilcoxon), ``better``, ``worse``,
    ``ties`` (seeds ``a`` won, lost and tied: scored more, less, the same; less, more, the
    same where the game's spec says a lower score is better)."""
    out: dict[str, Any] = {"n": p.n}
    for k in ("mean_diff", "ci_low", "ci_high", "p_value"):
        out[k] = _number(float(getattr(p, k)))
    out.update(better=p.better, worse=p.worse, ties=p.ties)
    return out


_SUMMARY_KEYS = ("mean", "ci_low", "ci_high", "median", "q1", "q3", "min", "max")


def _markdown(head: list[str], rows: list[list[str]]) -> str:
    def cells(r: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in r) + " |\n"

    rule = "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|\n"
    return cells(head) + rule + "".join(cells(r) for r in rows)


def compare_table(run_a: str, a: Analysis, run_b: str, b: Analysis) -> Table:
    """Two stored runs side by side, per strategy; ``B - A`` paired on common seeds."""
    return text_table(f"{run_a} (A) vs {run_b} (B) · {a.game}", *compare_rows(a, b))
