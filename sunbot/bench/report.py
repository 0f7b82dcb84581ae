"""A benchmark's self-contained ``report.html``: :func:`write_report`.

The page holds the tables of :mod:`sunbot.bench.analysis` (the same cells the terminal
shows), the score distribution, survival curve and paired differences drawn by
:mod:`sunbot.bench.plots` and put inline as SVG, and one row per run linking its replay page
(:func:`replay_name`).
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Mapping
from pathlib import Path, PurePath

from sunbot._text.atomic_write import write_atomic
from sunbot.bench.analysis import Analysis, num, pair_rows, summary_rows
from sunbot.bench.costs import HEALTH_HEAD, health_rows
from sunbot.bots import is_file_spec
from sunbot.transcripts.jsonl import file_name_part


def html_table(head: list[str], rows: list[list[str]]) -> str:
    """An HTML ``<table>`` of plain text: a head row, then ``rows``; every cell escaped."""
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


#: The style sheet of the report pages (inline: a page is one self-contained file).
STYLE = (
    "body{font-family:sans-serif;margin:2em;color:#1d2430}table{border-collapse:collapse;"
    "margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
    "td:first-child,th:first-child{text-align:left}figure{margin:1em 0}"
    "figure svg{max-width:100%;height:auto}details summary{cursor:pointer;font-weight:600}"
)


def page_head(title: str) -> str:
    """A report page's opening up to its ``<h1>``: doctype, charset, a Content Security
    Policy allowing only inline styles and ``data:`` images (the page loads nothing),
    ``<title>``, :data:`STYLE` and ``<body><h1>``; ``title`` is plain text (escaped)."""
    text = html.escape(title)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>\n"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{text}</title><style>{STYLE}</style></head><body>\n<h1>{text}</h1>"
    )


def report_page(
    a: Analysis, meta: dict[str, str], out: Path, pages: Mapping[tuple[str, int], str] | None = None
) -> str:
    """The report as one self-contained HTML document: tables, plots as inline SVG, and the
    runs with their replay links (see :func:`write_report`)."""
    from sunbot.bench.plots import figures

    parts = [
        page_head(f"sunbot bench · {a.game}"),
        "<ul>",
        *(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in meta.items()),
        "</ul><h2>Per strategy</h2>",
        html_table(*summary_rows(a)),
    ]
    if a.pairs:
        parts += ["<h2>Paired on the same seeds</h2>", html_table(*pair_rows(a))]
    health = health_rows(a.game, [(s.name, s.results) for s in a.strategies])
    if health:
        parts += ["<h2>Model health (share of decisions)</h2>", html_table(HEALTH_HEAD, health)]
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
