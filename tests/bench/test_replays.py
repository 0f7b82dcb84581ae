"""``sunbot bench --replays N``: transcripts and replay pages of the first jobs, linked."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.jsonl import read_transcript

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


def test_a_bot_file_s_replays_stay_flat_in_the_run_folder(tmp_path: Path, monkeypatch) -> None:
    bots_dir = tmp_path / "work" / "bots"
    bots_dir.mkdir(parents=True)
    example = Path(__file__).resolve().parents[2] / "examples" / "bots" / "keelhold_bot.py"
    shutil.copy(example, bots_dir / "keelhold_bot.py")
    monkeypatch.chdir(tmp_path / "work")
    absolute = f"{bots_dir / 'keelhold_bot.py'}:Bot"
    relative = "bots/keelhold_bot.py"
    out = tmp_path / "out"
    res = bench(
        "keelhold", "-s", absolute, "-s", relative, "--seeds", "1", "--cap", "voyages=1",
        "--workers", "1", "--out", str(out), "--run", "r", "--replays", "1",
    )  # fmt: skip
    assert res.exit_code == 0, res.output  # type: ignore[attr-defined]
    run = out / "r"
    pages = sorted(p.name for p in (run / "replays").iterdir())
    logs = sorted(p.name for p in (run / "transcripts").iterdir())
    assert len(pages) == 2 and all(p.endswith("-seed1.html") for p in pages)
    assert pages[0].startswith("keelhold_bot-") and pages[1].startswith("keelhold_bot_Bot-")
    assert logs == [p.replace(".html", ".jsonl") for p in pages]  # flat: no folders
    assert sorted(p.name for p in bots_dir.iterdir()) == ["keelhold_bot.py"]  # nothing beside
    report = (run / "report.html").read_text()
    assert all(f"href='replays/{p}'" in report for p in pages)
    hrefs = re.findall(r"href='(replays/[^']*)'", report)
    assert sorted(hrefs) == sorted(f"replays/{p}" for p in pages)
    t = read_transcript(run / "transcripts" / logs[1])
    assert t.header["strategy"] == absolute and t.result is not None
