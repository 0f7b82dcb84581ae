"""Run caps are bounded (no run asked to go on for ever), and an interrupted run without a
transcript offers no resume."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sunbot import api
from sunbot.cli import play as cli_play
from sunbot.cli.main import app
from sunbot.engines import keelhold
from sunbot.games import GAMES
from sunbot.runs.summary import RunSummary

runner = CliRunner()


def test_keelhold_largest_cap_is_its_placement_guard():
    # every voyage places at least one crate, so the guard ends a run before this many voyages
    assert GAMES["keelhold"].max_cap == keelhold.GUARD_TURNS == 20_000


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["naptuft", "--max-days", "1000000000"],
            "--max-days 1000000000 is above the largest naptuft cap, 1000 days",
        ),
        (
            ["sunloaf", "--max-days", "1001"],
            "--max-days 1001 is above the largest sunloaf cap, 1000 days",
        ),
        (
            ["keelhold", "--max-voyages", "20001"],
            "--max-voyages 20001 is above the largest keelhold cap, 20000 voyages",
        ),
    ],
)
def test_play_refuses_a_cap_above_the_largest(args, needle, tmp_path):
    res = runner.invoke(
        app, ["play", *args, "--seed", "1", "--quiet", "--transcript", str(tmp_path / "t.jsonl")]
    )
    assert res.exit_code == 2, res.output
    assert needle in " ".join(res.output.split())
    assert not (tmp_path / "t.jsonl").exists()  # nothing was started


def test_the_largest_cap_itself_is_accepted():
    assert api.run_cap(GAMES["naptuft"], None, 1000) == 1000
    assert api.run_cap(GAMES["keelhold"], 20_000, None) == 20_000
    with pytest.raises(ValueError, match="above the largest naptuft cap"):
        api.run_cap(GAMES["naptuft"], None, 1001)


def test_bench_refuses_a_cap_above_the_largest(tmp_path):
    out = tmp_path / "b"
    res = runner.invoke(
        app, ["bench", "naptuft", "--seeds", "1-2", "--cap", "days=1000000", "--out", str(out)]
    )
    assert res.exit_code == 2, res.output
    assert "--cap 1000000 is above the largest naptuft cap, 1000 days" in " ".join(
        res.output.split()
    )
    assert not out.exists()


def test_an_interrupted_run_without_transcript_offers_no_resume(monkeypatch):
    async def interrupted(*args, **kwargs) -> RunSummary:
        return RunSummary("keelhold", 7, "planner", steps=3, ended_by="interrupted")

    monkeypatch.setattr(cli_play, "_play", interrupted)
    res = runner.invoke(app, ["play", "keelhold", "--seed", "7", "--quiet", "--no-transcript"])
    assert res.exit_code == 130, res.output
    assert "--resume" not in res.output and "None" not in res.output
    assert "no transcript was kept" in res.output
