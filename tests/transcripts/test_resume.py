"""`sunbot play --resume`: a killed run continues from its transcript and ends identically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.jsonl import read_transcript
from sunbot.transcripts.replay import replay

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


def test_stop_request_ends_the_run_resumably(tmp_path):
    import asyncio
    import random

    import httpx

    from sunbot import strategies
    from sunbot.client import GameboardClient
    from sunbot.mirror import Mirror
    from sunbot.runs.remote import play_run
    from sunbot.server import TokenCodec, create_app
    from sunbot.transcripts.jsonl import TranscriptWriter

    whole = tmp_path / "whole.jsonl"
    _play(whole, "keelhold", "--seed", "4", "--strategy", "random", "--max-voyages", "2")
    path = tmp_path / "stopped.jsonl"
    calls = {"n": 0}

    def stop_after_five() -> bool:
        calls["n"] += 1
        return calls["n"] > 5

    async def run():
        bot = strategies.create("keelhold", "random", random.Random(4))
        transport = httpx.ASGITransport(app=create_app(TokenCodec.embedded()))
        async with GameboardClient(transport=transport) as client:
            with TranscriptWriter(path) as writer:
                return await play_run(
                    client,
                    "keelhold",
                    4,
                    bot,
                    strategy_name="random",
                    cap=2,
                    mirror=Mirror("keelhold"),
                    transcript=writer,
                    server_label="embedded",
                    should_stop=stop_after_five,
                )

    summary = asyncio.run(run())
    assert summary.ended_by == "interrupted" and summary.steps == 5
    assert read_transcript(path).result["endedBy"] == "interrupted"
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 0, res.output
    assert _final(path)[0] == _final(whole)[0]


def test_ctrl_c_stops_after_the_step_and_resumes(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "sig.jsonl"
    env = {**os.environ, "SUNBOT_SUNLOAF_BUDGET_MS": "50"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sunbot",
            "play",
            "sunloaf",
            "--seed",
            "3",
            "--max-days",
            "3",
            "--quiet",
            "--transcript",
            str(path),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while (not path.exists() or path.read_text().count("\n") < 6) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    t = read_transcript(path)
    assert t.error is None and t.result["endedBy"] == "interrupted"
    assert b"--resume" in err
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"], env=env)
    assert res.exit_code == 0, res.output
    assert read_transcript(path).result["endedBy"] == "cap"


def test_resume_takes_no_overrides_and_a_busy_transcript_is_refused(tmp_path):
    from sunbot.transcripts.jsonl import TranscriptWriter

    whole = tmp_path / "w.jsonl"
    _play(whole, "keelhold", "--seed", "5", "--strategy", "first-safe", "--max-voyages", "2")
    lines = whole.read_text().splitlines()
    cut = tmp_path / "c.jsonl"
    cut.write_text("\n".join(lines[:5]) + "\n")
    res = runner.invoke(app, ["play", "--resume", str(cut), "--seed", "9", "--quiet"])
    assert res.exit_code == 2 and "--seed" in res.output
    with TranscriptWriter(cut, append=True):
        res = runner.invoke(app, ["play", "--resume", str(cut), "--quiet"])
    assert res.exit_code == 2 and "another sunbot process" in res.output
    assert cut.read_text().splitlines() == lines[:5]


def test_match_transcripts_are_not_resumed_and_caps_do_not_apply_to_matches(tmp_path):
    path = tmp_path / "hw.jsonl"
    _play(path, "harvest-watch", "--seed", "7")
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 2 and "match transcript" in res.output
    for flag in ("--max-days", "--max-voyages"):
        res = runner.invoke(
            app, ["play", "harvest-watch", "--seed", "1", flag, "3", "--no-transcript"]
        )
        assert res.exit_code == 2 and "do not apply to harvest-watch" in res.output
