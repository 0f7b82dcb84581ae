"""The bench's CSVs (``results.csv``, ``--format csv``): no cell a spreadsheet runs."""

from __future__ import annotations

import csv
from dataclasses import replace

import sunbot
from sunbot.bench.analysis import analyse
from sunbot.bench.store import export_csv
from sunbot.cli.bench_output import summary_text

LINK = '=HYPERLINK("http://127.0.0.1/x","click")'


def test_results_csv_neutralises_server_text_and_keeps_numbers(tmp_path):
    (row,) = sunbot.bench("keelhold", ["first-safe"], seeds=[3], cap=1, workers=1)
    hostile = replace(row, error=LINK, cause="-2+3+cmd|' /C calc'!A0", ended_by="error")
    path = tmp_path / "r.csv"
    assert export_csv([hostile, row], path) == 2
    with path.open(newline="") as fh:
        bad, plain = list(csv.DictReader(fh))
    assert bad["error"] == "'" + LINK and bad["cause"] == "'-2+3+cmd|' /C calc'!A0"
    assert plain["cause"] == str(row.cause) and plain["score"] == str(row.score)
    assert plain["strategy"] == "first-safe" and plain["seed"] == "3"


def test_summary_csv_neutralises_a_strategy_name():
    rows = sunbot.bench("keelhold", ["first-safe"], seeds=[3, 4], cap=1, workers=1)
    named = [replace(r, strategy="@evil") for r in rows]
    text = summary_text(analyse("keelhold", named, ["@evil"]), "csv", {"run": "t"})
    head, line = list(csv.reader(text.splitlines()))
    assert line[0] == "'@evil" and line[1] == "2" and head[0] == "strategy"
