"""Replaying a run that a forward model checked: replay runs no model code, so it says what
the model found when the run was played instead of a bare "0 divergences"."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import sunbot
from sunbot.cli.main import app
from tests.forward.conftest import MODELS


def test_replay_says_what_the_runs_model_found(unseen_url: str, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    s = sunbot.play("take-away", seed=1, strategy="first", server=unseen_url,
                    engine=f"{MODELS}:BrokenTakeAway", transcript=path)  # fmt: skip
    n = len(s.divergences)
    assert n > 0  # the broken house takes one where the server's takes more
    out = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    assert "generic checks only" in out.output
    assert (
        f"its forward model found {n} divergence{'s' if n != 1 else ''} when the run was played"
        in out.output
    )
    honest = tmp_path / "honest.jsonl"
    sunbot.play("take-away", seed=1, strategy="first", server=unseen_url,
                engine=f"{MODELS}:TakeAway", transcript=honest)  # fmt: skip
    again = CliRunner().invoke(app, ["replay", str(honest)], env={"COLUMNS": "400"})
    assert "its forward model found 0 divergences" in again.output
