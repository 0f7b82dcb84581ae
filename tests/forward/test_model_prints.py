"""Under ``--json`` (``--format json``) stdout holds exactly the JSON: what a model or a
strategy of the user's prints goes to stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from sunbot.cli.main import app

CHATTY = "tests/forward/hostile_models.py:Chatty"


def test_certify_json_is_the_whole_stdout(unseen_url: str) -> None:
    got = CliRunner().invoke(app, ["certify", "take-away", "--engine", CHATTY, "--server",
                                   unseen_url, "--seeds", "1", "--json", "--no-certificate"])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout)["passed"] is True
    assert "chatty step" in got.stderr


def test_play_json_is_the_whole_stdout(unseen_url: str) -> None:
    got = CliRunner().invoke(app, ["play", "take-away", "--server", unseen_url, "--seed", "1",
                                   "--strategy", "search", "--engine", CHATTY, "--json",
                                   "--no-transcript"])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout)["game"] == "take-away"
    assert "chatty from_observation" in got.stderr


def test_bench_json_is_the_whole_stdout(tmp_path: Path) -> None:
    # a real process: the bench's workers are forked, and print to the inherited fd 1
    bot = tmp_path / "chat.py"
    bot.write_text(
        "class Chat:\n"
        "    def choose(self, observation, legal_actions):\n"
        "        print('chatty strategy')\n"
        "        return legal_actions[0]\n"
    )
    got = subprocess.run(
        [sys.executable, "-m", "sunbot", "bench", "keelhold", "--strategy", f"{bot}:Chat",
         "--seeds", "1", "--format", "json", "--out", str(tmp_path / "out"), "--workers", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["game"] == "keelhold"
    assert "chatty strategy" in got.stderr
