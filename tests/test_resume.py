"""`sunbot play --resume`: a killed run continues from its transcript and ends identically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli import app
from sunbot.replay import replay
from sunbot.transcripts import read_transcript

runner = CliRunner()


@pytest.fixture(autouse=True)
def _state_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("SUNBOT_SERVER_KEYS", raising=False)


def _play(path: Path, *args: str) -> None:
    res = runner.invoke(app, ["play", *args, "--quiet", "--transcript", str(path)])
    assert res.exit_code == 0, res.output


def _final(path: Path) -> tuple[dict, dict]:
    t = read_transcript(path)
    last = next(s["response"] for s in reversed(t.steps) if s["response"].get("ok") is not False)
    return last["state"], t.result


@pytest.mark.parametrize(
    ("strategy", "seed", "cut_line"), [("random", 9, 6), ("random", 12, 3), ("safe-greedy", 7, 40)]
)
def test_killed_run_resumes_to_the_same_end(tmp_path, strategy, seed, cut_line):
    whole = tmp_path / "whole.jsonl"
    _play(whole, "keelhold", "--seed", str(seed), "--strategy", strategy, "--max-voyages", "3")
    lines = whole.read_text().splitlines()
    killed = tmp_path / "killed.jsonl"
    killed.write_text(
        "\n".join(lines[:cut_line]) + "\n" + lines[cut_line][: len(lines[cut_line]) // 3]
    )
    res = runner.invoke(app, ["play", "--resume", str(killed), "--quiet"])
    assert res.exit_code == 0, res.output
    state_a, result_a = _final(whole)
    state_b, result_b = _final(killed)
    assert state_b == state_a
    for key in ("score", "steps", "gameOver", "endedBy", "divergences", "responsesChecked"):
        assert result_b[key] == result_a[key], key
    t = read_transcript(killed)
    assert t.error is None and [r["type"] for r in t.other] == ["resume"]
    assert [s["index"] for s in t.steps] == list(range(1, len(t.steps) + 1))
    assert replay(t).ok


def test_resume_after_an_outage_result_line(tmp_path):
    whole = tmp_path / "w.jsonl"
    _play(whole, "keelhold", "--seed", "5", "--strategy", "first-safe")
    lines = whole.read_text().splitlines()
    outage = json.loads(lines[-1])
    outage.update(endedBy="error", error="TransientHTTPError: HTTP 503", gameOver=False, steps=4)
    partial = tmp_path / "p.jsonl"
    partial.write_text("\n".join([*lines[:6], json.dumps(outage)]) + "\n")
    assert runner.invoke(app, ["play", "--resume", str(partial), "--quiet"]).exit_code == 0
    assert _final(partial)[0] == _final(whole)[0]
    assert read_transcript(partial).result["endedBy"] == "rules"


def test_finished_run_is_not_resumed(tmp_path):
    whole = tmp_path / "w.jsonl"
    _play(whole, "keelhold", "--seed", "5", "--strategy", "first-safe")
    res = runner.invoke(app, ["play", "--resume", str(whole), "--quiet"])
    assert res.exit_code == 2 and "finished run" in res.output


def test_resume_of_another_game_is_refused(tmp_path):
    whole = tmp_path / "w.jsonl"
    _play(whole, "keelhold", "--seed", "5", "--strategy", "first-safe", "--max-voyages", "1")
    lines = whole.read_text().splitlines()
    cut = tmp_path / "c.jsonl"
    cut.write_text("\n".join(lines[:4]) + "\n")
    res = runner.invoke(app, ["play", "sunloaf", "--resume", str(cut), "--quiet"])
    assert res.exit_code == 2 and "keelhold run" in res.output
