"""Item 4: ``sunbot.bench(...)`` from Python, and RunSummary's notebook faces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sunbot
from sunbot.bench.jobs import Job, run_job
from sunbot.runs.summary import RunSummary


def test_bench_returns_rows_seed_by_seed_in_the_order_given() -> None:
    rows = sunbot.bench("naptuft", ["rotation", "balancer"], seeds=[3, 1], cap=2, workers=1)
    assert [(r.strategy, r.seed) for r in rows] == [
        ("rotation", 3), ("balancer", 3), ("rotation", 1), ("balancer", 1),
    ]  # fmt: skip
    assert all(r.ended_by == "cap" and r.progress == 2 for r in rows)
    # the same job run directly gives the same score: the rows are the bench machinery's
    assert rows[0].score == run_job(Job("naptuft", "rotation", 3, 2)).score
    assert isinstance(rows[0], sunbot.BenchRow)
    assert sunbot.run_bench is sunbot.bench.run.bench  # type: ignore[attr-defined]
    assert "bench" in sunbot.__all__ and "run_bench" in sunbot.__all__


def test_bench_defaults_to_the_default_strategy_and_cap() -> None:
    rows = sunbot.bench("naptuft", seeds=[5], workers=1)
    assert [(r.strategy, r.progress, r.ended_by) for r in rows] == [("balancer", 10, "cap")]


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"game": "chess"}, "chess"),
        ({"game": "naptuft", "strategies": ["nope"]}, "unknown strategy 'nope' for naptuft"),
        ({"game": "naptuft", "seeds": [2**63]}, "seed must fit a signed 64-bit integer"),
        ({"game": "naptuft", "cap": 0}, "cap must be 1..1000 days, got 0"),
        ({"game": "harvest-watch", "cap": 3}, "harvest-watch runs have no cap"),
    ],
)
def test_bench_refuses_bad_input_in_one_line(kwargs: dict[str, object], said: str) -> None:
    with pytest.raises(ValueError, match=said) as caught:
        sunbot.bench(**kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_run_summary_to_dict_is_json_ready_and_html_escapes() -> None:
    s = RunSummary(
        game="keelhold", seed=7, strategy="<b>bot</b>", score=12, steps=3, ended_by="cap",
        final_state={"cause": "ended"}, transcript=Path("t/x.jsonl"), elapsed_s=1.234,
    )  # fmt: skip
    d = s.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert (d["score"], d["cause"], d["transcript"], d["divergences"]) == (
        12,
        "ended",
        "t/x.jsonl",
        [],
    )
    page = s._repr_html_()
    assert "&lt;b&gt;bot&lt;/b&gt;" in page and "<b>bot</b>" not in page
    assert "<th style='text-align:left'>score</th><td style='text-align:left'>12</td>" in page
    assert "1.23 s" in page
