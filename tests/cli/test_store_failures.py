"""A row the bench cannot store: each cause gets its own advice (issue 26, item 11)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from typer.testing import CliRunner

from sunbot.bench.jobs import run_job
from sunbot.bench.store import Store, after_failure
from sunbot.cli import bench as bench_cli
from sunbot.cli.main import app


def _real_error(tmp_path, kind: str) -> sqlite3.Error:
    """The error sqlite3 itself raises for a lock or a damaged file."""
    path = tmp_path / f"{kind}.sqlite"
    if kind == "damaged":
        path.write_bytes(b"not sqlite at all " * 512)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        if kind == "locked":
            holder.execute("CREATE TABLE t (x)")
            holder.execute("BEGIN EXCLUSIVE")
        other = sqlite3.connect(path, timeout=0)
        other.execute("INSERT INTO t VALUES (1)")
    except sqlite3.Error as exc:
        return exc
    finally:
        holder.close()
    raise AssertionError("no error")


def test_each_cause_gets_its_own_advice(tmp_path):
    full = after_failure(sqlite3.OperationalError("database or disk is full"), "r")
    assert full == "once there is room, continue with the same command plus --resume --run r"
    locked = after_failure(_real_error(tmp_path, "locked"), "r")
    assert locked == (
        "another process holds the store: once it is done, continue with the same command"
        " plus --resume --run r"
    )
    damaged = after_failure(_real_error(tmp_path, "damaged"), "r")
    assert "--resume cannot open it" in damaged and "another --out" in damaged
    assert "--resume --run" not in damaged
    readonly = after_failure(sqlite3.OperationalError("attempt to write a readonly database"), "r")
    assert readonly.startswith("the store cannot be written: make it writable")


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        ("database is locked", "another process holds the store: once it is done"),
        ("database disk image is malformed", "the store file is damaged, so --resume cannot"),
    ],
)
def test_bench_says_the_advice_of_its_cause(tmp_path, monkeypatch, error, advice):
    store_add, calls = Store.add, {"n": 0}

    def add(self: Store, run: str, result: Any) -> None:
        calls["n"] += 1
        if calls["n"] > 1:
            raise sqlite3.OperationalError(error)
        store_add(self, run, result)

    monkeypatch.setattr(Store, "add", add)
    monkeypatch.setattr(bench_cli, "run_jobs", lambda jobs, *a: (run_job(j) for j in jobs))
    args = ["bench", "keelhold", "-s", "first-safe", "--seeds", "1-3", "--cap", "voyages=1"]
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "b"), "--run", "f"])
    assert res.exit_code == 1, res.output
    said = " ".join(res.output.split())
    assert f"{error}; 1 of 3 jobs stored; {advice}" in said and "once there is room" not in said
