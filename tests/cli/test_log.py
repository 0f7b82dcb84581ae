"""Seeing why a bot failed: ``-v``/``--log-level`` on every command, a strategy's traceback
in the terminal at ``-v`` and always in the transcript's result line."""

from __future__ import annotations

import json
import logging

import pytest
from typer.testing import CliRunner

from sunbot.cli.log import level_of, setup_logging
from sunbot.cli.main import app
from sunbot.transcripts.jsonl import read_transcript

runner = CliRunner()
BUGGY = """
class Bot:
    def choose(self, observation, legal_actions):
        if len(legal_actions) > 0:
            return self.helper(observation)

    def helper(self, observation):
        raise RuntimeError("my bug")
"""


@pytest.mark.parametrize("game", ["keelhold", "harvest-watch"])
def test_a_failing_bot_shows_file_and_line(tmp_path, monkeypatch, game):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "buggy.py").write_text(BUGGY)
    args = ["play", game, "--seed", "2", "--strategy", "buggy.py:Bot", "--quiet"]
    quiet = runner.invoke(app, [*args, "--transcript", "a.jsonl"])
    assert quiet.exit_code == 1
    assert "RuntimeError: my bug" in quiet.output and "rerun with -v" in quiet.output
    assert "Traceback" not in quiet.output
    loud = runner.invoke(app, [*args, "--transcript", "b.jsonl", "-v"])
    assert loud.exit_code == 1
    assert "Traceback (most recent call last)" in loud.output
    assert 'buggy.py", line 8, in helper' in loud.output
    for name in ("a.jsonl", "b.jsonl"):
        result = json.loads((tmp_path / name).read_text().splitlines()[-1])
        where = " (raised by the strategy buggy.py:Bot at step 1)" if game == "keelhold" else ""
        assert result["endedBy"] == "error" and result["error"] == f"RuntimeError: my bug{where}"
        assert 'buggy.py", line 8, in helper' in result["errorTraceback"]
    assert read_transcript(tmp_path / "a.jsonl").result is not None  # the schema accepts it


def test_a_clean_run_has_no_traceback(tmp_path):
    path = tmp_path / "t.jsonl"
    res = runner.invoke(app, ["play", "keelhold", "--seed", "1", "--max-voyages", "1",
                              "--quiet", "--transcript", str(path)])  # fmt: skip
    assert res.exit_code == 0
    assert json.loads(path.read_text().splitlines()[-1])["errorTraceback"] is None


def test_levels():
    assert level_of(0, None) == logging.WARNING
    assert level_of(1, None) == logging.INFO
    assert level_of(2, None) == level_of(5, None) == logging.DEBUG
    assert level_of(2, "error") == logging.ERROR and level_of(0, "trace") == logging.DEBUG
    assert setup_logging(1) == logging.INFO and logging.getLogger("sunbot.x").isEnabledFor(20)
    setup_logging()
    assert not logging.getLogger("sunbot.x").isEnabledFor(logging.INFO)
    named = [h for h in logging.getLogger("sunbot").handlers if h.get_name() == "sunbot-cli"]
    assert len(named) == 1  # replaced, not stacked


def test_every_command_takes_v_and_log_level(tmp_path):
    path = tmp_path / "t.jsonl"
    play = ["play", "keelhold", "--seed", "1", "--max-voyages", "1", "--quiet"]
    assert runner.invoke(app, [*play, "--transcript", str(path), "-vv"]).exit_code == 0
    for args in (
        ["games"],
        ["rules", "keelhold"],
        ["replay", str(path)],
        ["export", str(path)],
        ["bench", "keelhold", "--seeds", "1", "--cap", "voyages=1", "--out", str(tmp_path / "b")],
    ):
        for flag in (["-v"], ["--log-level", "debug"]):
            res = runner.invoke(app, [*args, *flag])
            assert res.exit_code == 0, (args, flag, res.output)
    help_text = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "--verbose" in help_text and "--log-level" in help_text
    setup_logging()
