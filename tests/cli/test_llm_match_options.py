"""``--llm-url`` (and the other ``--llm-*`` options) reach a match game's seats too: a
Harvest Watch seat played by ``llm:MODEL`` must call the endpoint it was given, never the
SDK's default service (which would be sent our API key)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from sunbot.testing.llm_endpoint import create_llm_app, running


def test_a_harvest_watch_llm_seat_calls_the_given_endpoint(tmp_path):
    env = {**os.environ, "OPENAI_BASE_URL": "", "OPENAI_API_KEY": "sk-attack-not-for-you-123"}
    with running(create_llm_app()) as url:
        args = ["harvest-watch", "--seed", "3", "--strategy", "llm:legal", "--llm-url", url]
        done = subprocess.run(
            [sys.executable, "-m", "sunbot", "play", *args, "--json", "--no-transcript"],
            capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout[-800:] + done.stderr[-800:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["endedBy"] == "rules" and summary["error"] is None
    assert "sk-attack-not-for-you" not in done.stdout + done.stderr
