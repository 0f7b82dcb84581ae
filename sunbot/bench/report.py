"""What a benchmark shows: the live progress bar, rich tables and a self-contained ``report.html``.

The terminal tables (:func:`summary_table`, :func:`paired_table`, :func:`compare_table`) and
the HTML report (:func:`write_report`: score distribution, survival curve, paired differences
drawn by :mod:`sunbot.bench.plots` and put inline as SVG, and one row per run linking its
replay page) all read the statistics of :func:`sunbot.bench.analysis.analyse`.
"""

from __future__ import annotations

import hashlib
import html
import math
from collections.abc import Mapping
from pathlib import Path, PurePath

import numpy as np
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

from sunbot._text.atomic_write import write_atomic
from sunbot.bench import stats
from sunbot.bench.analysis import Analysis, scores_by_seed
from sunbot.bots import is_file_spec
from sunbot.transcripts import file_name_part


def num(x: float) -> str:
    """A number for tables: ``-`` for nan, thousands separators from 100 up."""
    if math.isnan(x):
        return "-"
    return f"{x:,.0f}" if abs(x) >= 100 or x == int(x) else f"{x:.2f}"


def _ms(p50: float, p95: float) -> str:
    """``choose`` time percentiles, ``0.025/0.037``; ``-`` when no job timed one (every
    job of the group errored)."""
    return "-" if math.isnan(p50) or math.isnan(p95) else f"{p50:.3f}/{p95:.3f}"


def _ci(low: float, high: float) -> str:
    return "-" if math.isnan(low) else f"[{num(low)}, {num(high)}]"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


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


def _summary_rows(a: Analysis) -> tuple[list[str], list[list[str]]]:
    head = ["strategy", "runs", "mean score", "95% CI", "median", "Q1-Q3"]
    head += [f"{a.progress_field} (median)", "capped/errors", "choose ms p50/p95"]
    matches = any(s.wins is not None for s in a.strategies)
    if matches:
        head += ["rank 1", "rank-1 rate [95% Wilson]", "sole wins/draws", "win share"]
        head += ["mean rank"]
    rows = []
    for s in a.strategies:
        sc = s.score
        row = [s.name, str(sc.n), num(sc.mean), _ci(sc.ci_low, sc.ci_high), num(sc.median)]
        row += [f"{num(sc.q1)}-{num(sc.q3)}", num(s.progress.median), f"{s.capped}/{s.errors}"]
        row += [_ms(s.decision_p50_ms, s.decision_p95_ms)]
        if matches:
            w = s.wins or stats.win_rate(0, 0)
            ranks = [r.rank for r in s.results if r.rank is not None]
            mean_rank = float(np.mean(ranks)) if ranks else math.nan
            row += [str(w.wins), f"{_pct(w.rate)} [{_pct(w.low)}, {_pct(w.high)}]"]
            shares = [r.win_share for r in s.results if r.win_share is not None]
            share = _pct(float(np.mean(shares))) if shares else "-"
            row += [f"{s.sole}/{s.draws}", share, num(mean_rank)]
        rows.append(row)
    return head, rows


def _pair_rows(a: Analysis) -> tuple[list[str], list[list[str]]]:
    head = ["A - B", "seeds", "mean diff", "95% CI", "A >/</= B", "Wilcoxon p"]
    rows = [
        [
            f"{x} - {y}",
            str(p.n),
            num(p.mean_diff),
            _ci(p.ci_low, p.ci_high),
            f"{p.better}/{p.worse}/{p.ties}",
            "-" if math.isnan(p.p_value) else f"{p.p_value:.3g}",
        ]
        for x, y, p in a.pairs
    ]
    return head, rows


def _table(title: str, head: list[str], rows: list[list[str]]) -> Table:
    """A table of plain text: cells such as ``[1.2, 3.4]`` or names are never rich markup."""
    table = Table(title=Text(title))
    for i, h in enumerate(head):
        table.add_column(Text(h), justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*(Text(c) for c in row))
    return table


def summary_table(a: Analysis, title: str) -> Table:
    """Per strategy: runs, mean score with 95% CI, median, quartiles, progress, errors."""
    return _table(title, *_summary_rows(a))


def paired_table(a: Analysis) -> Table:
    """Each pair of strategies on their common seeds: mean difference, CI, Wilcoxon p."""
    return _table("paired on the same seeds", *_pair_rows(a))


def compare_table(run_a: str, a: Analysis, run_b: str, b: Analysis) -> Table:
    """Two stored runs side by side, per strategy; ``B - A`` paired on common seeds."""
    head = ["strategy", "runs A", "mean A [95% CI]", "runs B", "mean B [95% CI]"]
    head += ["median A/B", "B - A (paired)", "95% CI", "Wilcoxon p"]
    rows: list[list[str]] = []
    left = {s.name: s for s in a.strategies}
    right = {s.name: s for s in b.strategies}
    for name in [*left, *(n for n in right if n not in left)]:
        sa, sb = left.get(name), right.get(name)
        cells = [name]
        for s in (sa, sb):
            cells += ["0", "-"] if s is None else [str(s.score.n), _mean_ci(s.score)]
        medians = [num(s.score.median) if s else "-" for s in (sa, sb)]
        cells.append(" / ".join(medians))
        if sa is not None and sb is not None:
            p = stats.paired(scores_by_seed(sb.results), scores_by_seed(sa.results))
            pv = "-" if math.isnan(p.p_value) else f"{p.p_value:.3g}"
            cells += [f"{num(p.mean_diff)} on {p.n}", _ci(p.ci_low, p.ci_high), pv]
        else:
            cells += ["-", "-", "-"]
        rows.append(cells)
    return _table(f"{run_a} (A) vs {run_b} (B) · {a.game}", head, rows)


def _mean_ci(s: stats.Summary) -> str:
    return f"{num(s.mean)} {_ci(s.ci_low, s.ci_high)}"


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{th}</tr>{body}</table>"


def _runs_table(a: Analysis, out: Path, pages: Mapping[tuple[str, int], str] | None) -> str:
    """One row per job; a link to its replay page where one is known or found beside the
    report (``replays/<strategy>-seed<N>.html``). Match games add our seat and the lineup
    (every seat's strategy, seats 0-5)."""
    match = any(r.lineup for s in a.strategies for r in s.results)
    head = ["strategy", "seed", "score", a.progress_field, "ended by", "cause", "steps"]
    head += ["seat", "lineup (seats 0-5)", "replay"] if match else ["replay"]
    body = []
    for s in a.strategies:
        for r in sorted(s.results, key=lambda r: r.seed):
            href = (pages or {}).get((r.strategy, r.seed))
            if href is None and (out / replay_name(r.strategy, r.seed)).exists():
                href = replay_name(r.strategy, r.seed)
            cells = [s.name, str(r.seed), num(float(r.score)), str(r.progress)]
            cells += [r.ended_by, r.cause or "-", str(r.steps)]
            if match:
                cells += [str(r.seat), r.lineup.replace(",", ", ") or "-"]
            row = "".join(f"<td>{html.escape(c)}</td>" for c in cells)
            link = f"<a href='{html.escape(href, quote=True)}'>replay</a>" if href else "-"
            body.append(f"<tr>{row}<td>{link}</td></tr>")
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    return f"<table class='runs'><tr>{th}</tr>{''.join(body)}</table>"


def replay_name(strategy: str, seed: int) -> str:
    """Where a job's replay page sits, relative to its report:
    ``replays/<file_part(strategy)>-seed<N>.html``."""
    return f"replays/{file_part(strategy)}-seed{seed}.html"


def file_part(strategy: str) -> str:
    """A flat, safe file-name part for a strategy spec (no folders, no ``..``).

    A registry name stays as it is (characters other than letters, digits, ``.``, ``_`` and
    ``-`` become ``_``); a bot file ``path/to/bot.py:Bot`` (absolute or relative) becomes
    ``bot_Bot-<6 hex digits of the whole spec>``, so two files of one name stay apart.
    """
    if not is_file_spec(strategy):
        return file_name_part(strategy) or "strategy"
    head, sep, attr = strategy.rpartition(".py:")
    stem = PurePath(head if sep else strategy.removesuffix(".py")).name
    digest = hashlib.sha1(strategy.encode()).hexdigest()[:6]
    return f"{file_name_part(f'{stem}_{attr}' if attr and sep else stem) or 'bot'}-{digest}"


_STYLE = (
    "body{font-family:sans-serif;margin:2em;color:#1d2430}table{border-collapse:collapse;"
    "margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
    "td:first-child,th:first-child{text-align:left}figure{margin:1em 0}"
    "figure svg{max-width:100%;height:auto}details summary{cursor:pointer;font-weight:600}"
)


def report_page(
    a: Analysis, meta: dict[str, str], out: Path, pages: Mapping[tuple[str, int], str] | None = None
) -> str:
    """The report as one self-contained HTML document: tables, plots as inline SVG, and the
    runs with their replay links (see :func:`write_report`)."""
    from sunbot.bench.plots import figures

    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; img-src data:\">",
        f"<title>sunbot bench · {html.escape(a.game)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>sunbot bench · {html.escape(a.game)}</h1><ul>",
        *(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in meta.items()),
        "</ul><h2>Per strategy</h2>",
        _html_table(*_summary_rows(a)),
    ]
    if a.pairs:
        parts += ["<h2>Paired on the same seeds</h2>", _html_table(*_pair_rows(a))]
    for title, svg in figures(a):
        parts.append(f"<h2>{html.escape(title)}</h2><figure>{svg}</figure>")
    runs = sum(len(s.results) for s in a.strategies)
    parts += [
        f"<h2>Runs</h2><details><summary>{runs} runs, one row each</summary>",
        _runs_table(a, out, pages),
        "</details></body></html>",
    ]
    return "\n".join(parts)


def write_report(
    a: Analysis, out: Path, meta: dict[str, str], pages: Mapping[tuple[str, int], str] | None = None
) -> Path:
    """Write ``out/report.html``: one self-contained file (plots inline as SVG, no file
    beside it needed), so it can be copied or mailed alone.

    Args:
        meta: label -> value lines shown at the top (run, cap, seeds, backend, version...).
        pages: ``(strategy, seed)`` -> link to that job's replay page; jobs without one
            link to ``replays/<strategy>-seed<N>.html`` under ``out`` if that file exists.

    Returns:
        The path of ``report.html``.

    Raises:
        OSError: ``out`` cannot be created or written.
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.html"
    write_atomic(path, report_page(a, meta, out, pages))
    return path
