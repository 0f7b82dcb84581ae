"""A full disk (ENOSPC) gives one line naming the file and "disk full", a non-zero exit,
no partial output file, and a transcript that resumes. The disk is made full by failing the
writes themselves (no tmpfs needed), at the layer the OS would fail them."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import sunbot._text.atomic_write as atomic_write
from sunbot._text.atomic_write import WriteFailed, write_atomic
from sunbot.bench.jobs import run_job
from sunbot.bench.store import Store
from sunbot.cli import bench as bench_cli
from sunbot.cli.main import app
from sunbot.transcripts import jsonl as transcripts
from sunbot.transcripts.jsonl import read_transcript

runner = CliRunner()
GOLDEN = Path(__file__).resolve().parents[2] / "transcripts" / "golden-keelhold-seed7.jsonl"
DISK_FULL = "disk full (no space left on the device)"


def _no_space(*args: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def _one_line(output: str) -> str:
    return " ".join(output.split())


def test_write_atomic_leaves_nothing_and_keeps_an_older_file(tmp_path, monkeypatch):
    old = tmp_path / "report.html"
    old.write_text("the earlier report")
    monkeypatch.setattr(atomic_write.os, "fsync", _no_space)
    with pytest.raises(WriteFailed) as err:
        write_atomic(old, "x" * 10_000)
    assert str(err.value) == f"cannot write {old}: {DISK_FULL}"
    assert old.read_text() == "the earlier report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary left
    monkeypatch.undo()
    assert write_atomic(old, "é") == 2 and old.read_text(encoding="utf-8") == "é"


def test_export_on_a_full_disk_leaves_no_partial_file(tmp_path, monkeypatch):
    out = tmp_path / "k.csv"
    monkeypatch.setattr(atomic_write.os, "fsync", _no_space)
    res = runner.invoke(app, ["export", str(GOLDEN), "--out", str(out)])
    assert res.exit_code == 1, res.output
    assert f"error: cannot write {out}: {DISK_FULL}" in _one_line(res.output)
    assert "Traceback" not in res.output and not out.exists()
    monkeypatch.undo()  # room again: the same command works, no --force needed
    res = runner.invoke(app, ["export", str(GOLDEN), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith("step,")


def test_play_html_on_a_full_disk_exits_1_without_a_page(tmp_path, monkeypatch):
    page = tmp_path / "k.html"
    monkeypatch.setattr(atomic_write.os, "fsync", _no_space)
    args = ["play", "keelhold", "--seed", "7", "--max-voyages", "1", "--quiet"]
    res = runner.invoke(
        app, [*args, "--transcript", str(tmp_path / "k.jsonl"), "--html", str(page)]
    )
    assert res.exit_code == 1, res.output
    assert f"cannot write {page}: {DISK_FULL}" in _one_line(res.output)
    assert not page.exists() and list(tmp_path.glob(".k.html*")) == []


class _FillingFile:
    """A transcript file object on a disk that fills after ``room`` lines: every write
    after that fails as the OS fails it (ENOSPC)."""

    def __init__(self, inner: Any, room: int) -> None:
        self.inner, self.room = inner, room

    def write(self, text: str) -> int:
        if self.room <= 0:  # as a real disk does: part of the line gets in first
            self.inner.write(text[: len(text) // 2])
            self.inner.flush()
            _no_space()
        self.room -= 1
        return int(self.inner.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _disk_fills_after(monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    opened = transcripts.TranscriptWriter.__init__

    def init(self: transcripts.TranscriptWriter, path: Path, **options: Any) -> None:
        opened(self, path, **options)
        self._fh = _FillingFile(self._fh, room)  # type: ignore[assignment]

    monkeypatch.setattr(transcripts.TranscriptWriter, "__init__", init)


def test_play_on_a_disk_that_fills_mid_run_says_so_and_resumes(tmp_path, monkeypatch):
    path = tmp_path / "k.jsonl"
    _disk_fills_after(monkeypatch, room=12)  # header, init, 10 steps
    args = ["play", "keelhold", "--seed", "7", "--max-voyages", "2", "--quiet"]
    res = runner.invoke(app, [*args, "--transcript", str(path)])
    assert res.exit_code == 1, res.output
    said = _one_line(res.output)
    assert f"error: cannot write {path}: {DISK_FULL}; its 12 whole lines are kept" in said
    assert f"sunbot play --resume {path}" in said and "Traceback" not in res.output
    assert path.read_bytes().endswith(b"\n")  # the half line the disk took is cut off
    assert len(path.read_bytes().splitlines()) == 12
    cut = read_transcript(path)
    assert cut.error is None and len(cut.steps) == 10 and cut.result is None
    monkeypatch.undo()  # room again
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 0, res.output
    whole = read_transcript(path)
    assert whole.result is not None and whole.result["endedBy"] == "cap"
    assert whole.result["steps"] == len(whole.steps) > 10
    assert [s["index"] for s in whole.steps] == list(range(1, len(whole.steps) + 1))


def test_play_on_a_full_disk_at_start_leaves_no_file(tmp_path, monkeypatch):
    path = tmp_path / "k.jsonl"
    _disk_fills_after(monkeypatch, room=0)
    res = runner.invoke(
        app, ["play", "keelhold", "--seed", "7", "--quiet", "--transcript", str(path)]
    )
    assert res.exit_code == 1, res.output
    assert _one_line(res.output) == f"error: cannot write {path}: {DISK_FULL}"
    assert not path.exists()


def test_bench_on_a_full_disk_stops_with_one_line_keeping_what_is_stored(tmp_path, monkeypatch):
    out = tmp_path / "b"
    store_add = Store.add
    calls = {"n": 0}

    def add(self: Store, run: str, result: Any) -> None:
        calls["n"] += 1
        if calls["n"] > 2:
            raise sqlite3.OperationalError("database or disk is full")
        store_add(self, run, result)

    monkeypatch.setattr(Store, "add", add)
    monkeypatch.setattr(bench_cli, "run_jobs", lambda jobs, *a: (run_job(j) for j in jobs))
    args = ["bench", "keelhold", "-s", "first-safe", "--seeds", "1-5", "--cap", "voyages=1"]
    res = runner.invoke(app, [*args, "--out", str(out), "--run", "f"])
    assert res.exit_code == 1, res.output
    said = _one_line(res.output)
    assert f"cannot store a result in {out / 'bench.sqlite'}: database or disk is full" in said
    assert "2 of 5 jobs stored" in said and "--resume --run f" in said
    assert "Traceback" not in res.output
    db = sqlite3.connect(out / "bench.sqlite")
    assert db.execute("SELECT COUNT(*) FROM results WHERE run = 'f'").fetchone()[0] == 2


def test_a_match_on_a_disk_that_fills_says_so_in_one_line(tmp_path, monkeypatch):
    path = tmp_path / "hw.jsonl"
    _disk_fills_after(monkeypatch, room=5)  # header and a few views
    res = runner.invoke(
        app, ["play", "harvest-watch", "--seed", "7", "--quiet", "--transcript", str(path)]
    )
    assert res.exit_code == 1, res.output
    assert f"error: cannot write {path}: {DISK_FULL}" in _one_line(res.output)
    assert "Traceback" not in res.output
    kept = read_transcript(path)
    assert kept.error is None and len(kept.other) == 4 and kept.result is None
