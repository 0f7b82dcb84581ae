"""Item 3: the bench summary readable at 100 columns, short labels, ``--format``."""

from __future__ import annotations

import csv
import io
import json

from rich.console import Console

import sunbot
from sunbot.bench.analysis import analyse
from sunbot.cli.bench_output import short_label, short_labels, summary_tables, summary_text


def _analysis():  # type: ignore[no-untyped-def]
    rows = sunbot.bench("naptuft", ["rotation", "balancer"], seeds=[1, 2, 3], cap=2, workers=1)
    return analyse("naptuft", rows, ["rotation", "balancer"])


def test_short_labels() -> None:
    assert short_label("planner") == "planner"
    assert short_label("mybots/some/deep/folder/bot.py:MyBot") == "…/bot.py:MyBot"
    assert short_label("farmer vs 5 guard") == "farmer vs 5 guard"  # a match group's label
    assert short_label("farmer vs random + 4 house") == "farmer vs random + 4 house"
    assert short_label("llm:some-really-long-model-name-v2") == "llm:some-reall…g-model-name-v2"
    assert len(short_label("llm:some-really-long-model-name-v2")) == 30
    two = short_labels(["a/long/folder/one/bot.py", "b/other/folder/two/bot.py"])
    assert len(set(two)) == 2 and all(len(n) <= 30 for n in two)


def test_default_tables_fit_100_columns_and_wide_has_every_column() -> None:
    a = _analysis()
    console = Console(width=100, record=True, color_system=None)
    tables = summary_tables(a, "naptuft · run t")
    assert len(tables) == 2
    for t in tables:
        console.print(t)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "mean score" in text and "choose ms p50/p95" in text and "…" not in text
    (wide,) = summary_tables(a, "t", wide=True)
    assert len(wide.columns) == len(tables[0].columns) + len(tables[1].columns) - 1


def test_formats_write_the_summary() -> None:
    a = _analysis()
    got = list(csv.reader(io.StringIO(summary_text(a, "csv", {"run": "t"}))))
    assert got[0][:3] == ["strategy", "runs", "mean score"]
    assert [r[0] for r in got[1:]] == ["rotation", "balancer"] and got[1][1] == "3"
    doc = json.loads(summary_text(a, "json", {"run": "t"}))
    assert doc["run"] == "t" and doc["game"] == "naptuft"
    assert [s["strategy"] for s in doc["strategies"]] == ["rotation", "balancer"]
    assert doc["pairs"][0]["A - B"] == "rotation - balancer"
    # the figures as numbers too: the same as the analysis, readable without parsing cells
    for got_s, want in zip(doc["strategies"], a.strategies, strict=True):
        v = got_s["values"]
        assert v["runs"] == 3 and v["errors"] == 0
        assert v["score"]["mean"] == want.score.mean
        assert v["score"]["min"] <= v["score"]["median"] <= v["score"]["max"]
        assert isinstance(v["decision_p95_ms"], float)
    pv = doc["pairs"][0]["values"]
    assert pv["n"] == 3 and pv["better"] + pv["worse"] + pv["ties"] == 3
    assert pv["mean_diff"] == a.pairs[0][2].mean_diff
    md = summary_text(a, "md", {}).splitlines()
    assert md[0].startswith("| strategy | runs | mean score |") and md[1].startswith("|---|---:|")
