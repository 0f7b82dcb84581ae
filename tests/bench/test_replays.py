"""``sunbot bench --replays N``: transcripts and replay pages of the first jobs, linked."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from sunbot.cli import app
from sunbot.transcripts import read_transcript

GOLDEN = Path(__file__).resolve().parents[2] / "transcripts" / "golden-naptuft-seed7.jsonl"


def bench(*args: str) -> object:
    return CliRunner().invoke(app, ["bench", *args], env={"COLUMNS": "200"})


def test_replays_are_kept_and_linked(tmp_path: Path) -> None:
    args = ["naptuft", "-s", "balancer", "--seeds", "1-3", "--cap", "days=1", "--workers", "1"]
    res = bench(*args, "--out", str(tmp_path), "--run", "r", "--replays", "2")
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    run = tmp_path / "r"
    assert sorted(p.name for p in (run / "replays").iterdir()) == [
        "balancer-seed1.html",
        "balancer-seed2.html",
    ]
    page = (run / "report.html").read_text()
    assert page.count(">replay</a>") == 2
    t = read_transcript(run / "transcripts" / "balancer-seed1.jsonl")
    assert t.header["seed"] == 1 and t.result is not None


def test_a_run_that_replays_differently_gets_no_page(tmp_path: Path) -> None:
    # the golden run is balancer, seed 7, 3 days: as a kept transcript it matches the
    # 3-day job's row and not the 2-day one's
    for cap, label in (("3", "same"), ("2", "other")):
        kept = tmp_path / label / "transcripts" / "balancer-seed7.jsonl"
        kept.parent.mkdir(parents=True)
        shutil.copy(GOLDEN, kept)
        res = bench(
            "naptuft", "-s", "balancer", "--seeds", "7", "--cap", f"days={cap}",
            "--workers", "1", "--out", str(tmp_path), "--run", label, "--replays", "1",
        )  # fmt: skip
        assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    assert (tmp_path / "same" / "replays" / "balancer-seed7.html").exists()
    assert not (tmp_path / "other" / "replays").exists()
    assert "no replay page" in res.output  # type: ignore[attr-defined]
