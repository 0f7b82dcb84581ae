"""``sunbot bench`` with language models: cost beside strength (tokens and USD per run and
per decision, score per USD), the health table and ``--max-fallback-rate``, and prompt
variants with their null twin, the noise floor."""

from __future__ import annotations

import csv
import json
from importlib import resources
from pathlib import Path

from typer.testing import CliRunner

from sunbot.bench.costs import cost_of
from sunbot.bench.jobs import Result
from sunbot.cli import app
from sunbot.testing.llm_endpoint import create_llm_app, running

runner = CliRunner()


def _rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(next(out.glob("*/results.csv")).open()))


def test_cost_and_health_beside_the_score(tmp_path: Path) -> None:
    with running(create_llm_app()) as url:
        res = runner.invoke(
            app, ["bench", "naptuft", "-s", "llm:flaky", "-s", "balancer", "--seeds", "1-2",
                  "--cap", "days=1", "--llm-url", url, "--llm-price", "2,8", "--llm-mode", "text",
                  "--workers", "1", "--wide", "--out", str(tmp_path)],
        )  # fmt: skip
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    for column in ("tokens/run", "USD/run", "tokens/decision", "USD/decision", "score per USD"):
        assert column in text
    assert "model health (share of decisions)" in text and "unparsable" in text
    rows = [r for r in _rows(tmp_path) if r["strategy"] == "llm:flaky"]
    health = [json.loads(r["health"]) for r in rows]
    assert all(
        h["care"]["decisions"] == int(r["decisions"]) for h, r in zip(health, rows, strict=True)
    )
    tokens = sum(int(r["tokens"]) for r in rows)
    usd = sum(float(r["cost_usd"]) for r in rows)
    score = sum(float(r["score"]) for r in rows)
    decisions = sum(int(r["decisions"]) for r in rows)
    assert f"{tokens / decisions:,.0f}" in text and f"{usd / decisions:,.6f}" in text
    assert f"{score / usd:,.1f}" in text  # the mean score over the mean cost of a run
    report = next(tmp_path.glob("*/report.html")).read_text()
    assert "Model health (share of decisions)" in report and "score per USD" in report


def test_a_cost_is_unknown_without_a_price_for_every_row() -> None:
    row = dict(game="naptuft", strategy="llm:m", seed=1, cap=1, score=10, progress=1,
               progress_field="day", cause=None, ended_by="cap", error=None, steps=5,
               refused=0, decisions=4, seat=None, rank=None, table="", seating="", lineup="",
               win_share=None, decision_p50_ms=None, decision_p95_ms=None, wall_s=1.0,
               version="0", tokens=400)  # fmt: skip
    priced = cost_of([Result(**row, cost_usd=0.5), Result(**{**row, "score": 30}, cost_usd=1.5)])
    assert priced is not None and priced.per_run() == (400, 1.0)
    assert priced.per_decision() == (100, 0.25) and priced.score_per_usd() == 20.0
    half = cost_of([Result(**row, cost_usd=0.5), Result(**row)])
    assert half is not None and half.usd is None and half.per_decision()[0] == 100
    assert cost_of([Result(**{**row, "tokens": None})]) is None


def test_max_fallback_rate_fails_a_bench_whose_model_falls_back(tmp_path: Path) -> None:
    with running(create_llm_app()) as url:
        res = runner.invoke(
            app, ["bench", "naptuft", "-s", "llm:malformed", "--seeds", "1", "--cap", "days=1",
                  "--workers", "1",
                  "--llm-url", url, "--llm-mode", "text", "--max-fallback-rate", "0.1",
                  "--out", str(tmp_path)],
        )  # fmt: skip
    assert res.exit_code == 1, res.output
    said = " ".join(res.output.split())
    assert (
        "fallback over --max-fallback-rate 0.1: llm:malformed: naptuft care: fallback 100%" in said
    )


def test_prompt_variants_run_with_a_null_twin_that_shows_the_noise_floor(tmp_path: Path) -> None:
    default = resources.files("sunbot").joinpath("agents", "prompts", "default.j2").read_text()
    short = tmp_path / "short.j2"
    short.write_text(default.replace("Your last decisions", "Recent decisions"))
    with running(create_llm_app()) as url:
        res = runner.invoke(
            app, ["bench", "naptuft", "-s", "llm:legal", "--seeds", "1-2", "--cap", "days=1",
                  "--workers", "1",
                  "--llm-url", url, "--llm-variant", f"base={resources.files('sunbot') / 'agents' / 'prompts' / 'default.j2'}",
                  "--llm-variant", f"short={short}", "--llm-cache", str(tmp_path / "cache"),
                  "--out", str(tmp_path / "o")],
        )  # fmt: skip
    assert res.exit_code == 0, res.output
    labels = {r["strategy"] for r in _rows(tmp_path / "o")}
    assert labels == {"llm:legal@base", "llm:legal@short", "llm:legal@base-again"}
    said = " ".join(res.output.split())
    # the scripted model answers by the prompt's hash: the same prompt, the same game
    assert (
        "noise floor (the same prompt twice): llm:legal@base - llm:legal@base-again: mean diff 0"
        in said
    )
    # the twin did not take its answers from the first's cache entries
    assert len(list((tmp_path / "cache").rglob("*.json"))) > 0
    bad = runner.invoke(app, ["bench", "naptuft", "-s", "balancer", "--llm-variant", f"a={short}"])
    assert bad.exit_code == 2 and "--llm-variant applies to -s llm:MODEL" in bad.output


def test_a_tournament_shows_each_model_entrants_cost_beside_its_rank(tmp_path: Path) -> None:
    with running(create_llm_app()) as url:
        args = ["tournament", "naptuft", "-s", "llm:legal", "-s", "balancer", "--seeds", "1-2",
                "--cap", "days=1", "--llm-url", url, "--llm-price", "1,4", "--workers", "1",
                "--out", str(tmp_path)]  # fmt: skip
        shown = runner.invoke(app, [*args, "--run", "t1"])
        as_json = runner.invoke(app, [*args, "--run", "t1", "--resume", "--json"])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "tokens/run" in text and "score per USD" in text
    costs = json.loads(as_json.stdout)["costs"]
    assert list(costs) == ["llm:legal"] and costs["llm:legal"]["runs"] == 2
    model = costs["llm:legal"]
    assert model["tokensPerDecision"] == round(model["tokens"] / model["decisions"], 6)
    assert model["usdPerRun"] == round(model["usd"] / 2, 6) and model["scorePerUsd"] > 0
    page = next(tmp_path.glob("*/tournament.html")).read_text()
    assert "USD/decision" in page
