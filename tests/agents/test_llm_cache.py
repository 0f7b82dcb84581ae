"""Model decisions replayed offline: the decision cache (``--llm-cache``), and a run played
again from its transcript (``sunbot replay --rerun``), exactly or with a changed prompt."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

import sunbot
from sunbot.agents.llm import LLMStrategy
from sunbot.agents.llm_cache import DecisionCache, request_key
from sunbot.cli import app as cli
from sunbot.rerun.llm import CannotRerun, rerun
from sunbot.testing.llm_endpoint import create_llm_app, running


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[str, FastAPI]]:
    app = create_llm_app(slow_s=3.0)
    with running(app) as url:
        yield url, app


def _actions(path: Path) -> list[str]:
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    return [json.dumps(x["action"], sort_keys=True) for x in lines if x["type"] == "step"]


def _play(url: str, model: str, path: Path, **options) -> sunbot.RunSummary:
    bot = LLMStrategy(model, game="naptuft", base_url=url, **options)
    run = sunbot.play("naptuft", seed=9, strategy=bot, max_days=1, transcript=path)
    bot.close()
    return run


def test_the_key_names_endpoint_model_parameters_and_messages():
    base = dict(endpoint="http://e/v1", model="m", params={"temperature": 0.2},
                messages=[{"role": "user", "content": "hi"}])  # fmt: skip
    key = request_key(**base)
    assert len(key) == 64 and key == request_key(**base)
    for change in ({"endpoint": "http://f/v1"}, {"model": "n"}, {"params": {"temperature": 0.3}},
                   {"messages": [{"role": "user", "content": "hi!"}]},
                   {"response_format": {"type": "json_schema"}}):  # fmt: skip
        assert request_key(**{**base, **change}) != key


def test_a_cached_run_plays_again_with_no_call_and_the_same_actions(endpoint, tmp_path):
    url, app = endpoint
    cache = tmp_path / "cache"
    first = _play(url, "flaky", tmp_path / "a.jsonl", cache=cache, mode="text")
    calls = app.state.counts["flaky"]
    second = _play(url, "flaky", tmp_path / "b.jsonl", cache=cache, mode="text")
    assert app.state.counts["flaky"] == calls  # not one request
    assert _actions(tmp_path / "a.jsonl") == _actions(tmp_path / "b.jsonl")
    assert second.score == first.score and second.agent["cacheHits"] == second.agent["calls"]
    assert second.agent["promptTokens"] == second.agent["completionTokens"] == 0
    assert second.agent["reasks"] == first.agent["reasks"] >= 1  # re-asks replay too
    assert len(list(cache.rglob("*.json"))) == first.agent["calls"]


def test_an_unreadable_cache_file_is_a_miss_not_an_error(tmp_path, caplog):
    cache = DecisionCache(tmp_path)
    key = "ab" + "0" * 62
    (tmp_path / "ab").mkdir()
    (tmp_path / "ab" / f"{key}.json").write_text("{not json")
    assert cache.lookup(key, 1, 1) is None and "unreadable" in caplog.text
    with pytest.raises(ValueError, match="not a folder"):
        DecisionCache(tmp_path / "ab" / f"{key}.json")


@pytest.mark.parametrize(("model", "options"), [("flaky", {"mode": "text"}), ("legal", {}),
                                                ("legal", {"mode": "tools"})])  # fmt: skip
def test_a_transcript_replays_exactly_at_zero_tokens(endpoint, tmp_path, model, options):
    url, app = endpoint
    path = tmp_path / "run.jsonl"
    run = _play(url, model, path, **options)
    before = sum(app.state.counts.values())
    report = rerun(path)
    assert sum(app.state.counts.values()) == before  # the endpoint was not asked
    assert report.exact and report.error is None and report.first_difference is None
    assert report.replayed == report.recorded == run.agent["decisions"] >= run.steps - 1
    assert report.calls == 0 and report.tokens == 0 and report.cache_hits == run.agent["calls"]


def test_a_late_call_replays_as_the_same_fallback(endpoint, tmp_path):
    url, _ = endpoint
    path = tmp_path / "slow.jsonl"
    bot = LLMStrategy("slow:3", game="naptuft", base_url=url, timeout_s=0.6, max_attempts=1)
    sunbot.play("naptuft", seed=9, strategy=bot, max_steps=2, transcript=path)
    report = rerun(path)
    assert report.exact and report.replayed == 2 and report.calls == 0


def test_a_changed_prompt_is_diffed_decision_by_decision(endpoint, tmp_path):
    url, _ = endpoint
    path = tmp_path / "run.jsonl"
    run = _play(url, "legal", path)
    default = resources.files("sunbot").joinpath("agents", "prompts", "default.j2").read_text()
    changed = tmp_path / "changed.j2"
    changed.write_text(default.replace("Your last decisions", "Your most recent decisions"))
    report = rerun(path, prompt=changed)  # no endpoint: the recorded answers, followed
    assert report.error is None and report.calls == 0 and report.replayed == run.agent["decisions"]
    assert all(d.same_action for d in report.decisions)
    moved = [d.index for d in report.decisions if not d.same_prompt]
    assert moved and 1 not in moved  # the first decision has no history to show
    first = next(d for d in report.decisions if not d.same_prompt)
    assert "-Your last decisions (oldest first; score change; what changed):" in first.diff
    assert "+Your most recent decisions (oldest first; score change; what changed):" in first.diff
    result = CliRunner().invoke(cli, ["replay", str(path), "--rerun", "--llm-prompt", str(changed)])
    assert result.exit_code == 0, result.output
    assert f"{len(moved)} decisions changed" in result.output
    assert "+Your most recent decisions" in result.output


def test_replay_rerun_on_the_command_line(endpoint, tmp_path):
    url, _ = endpoint
    path = tmp_path / "run.jsonl"
    _play(url, "legal", path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--rerun", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["exact"] and report["calls"] == 0 and report["tokens"] == 0
    shown = CliRunner().invoke(cli, ["replay", str(path), "--rerun"])
    assert "the same prompts and the same actions, decision by decision" in shown.output
    # a record whose answers were edited no longer fits its keys: the offline rerun stops
    lines = path.read_text().splitlines()
    step = json.loads(lines[3])
    step["agent"]["calls"][0]["key"] = "0" * 64
    lines[3] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n")
    stopped = CliRunner().invoke(cli, ["replay", str(path), "--rerun"])
    assert stopped.exit_code == 1 and "rerun stopped: decision 2, call 1" in stopped.output


@pytest.mark.parametrize(
    ("edit", "said"),
    [(lambda h: h.update(game="../../etc/passwd"), "etc/passwd"),
     (lambda h: h.update(seed="seven"), "seed")],
)  # fmt: skip
def test_a_tampered_header_is_one_line_not_a_traceback(endpoint, tmp_path, edit, said):
    url, _ = endpoint
    path = tmp_path / "run.jsonl"
    _play(url, "legal", path)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    edit(head)
    lines[0] = json.dumps(head)
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["replay", str(path), "--rerun"])
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output and said in result.output


def test_a_run_without_a_model_record_cannot_rerun(tmp_path):
    path = tmp_path / "plain.jsonl"
    sunbot.play("naptuft", seed=1, max_days=1, transcript=path)
    with pytest.raises(CannotRerun, match="no model run"):
        rerun(path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--rerun"])
    assert result.exit_code == 2 and "no model run" in result.output
