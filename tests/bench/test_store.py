"""The SQLite store: rows round-trip, runs stay apart, one game and cap per run, CSV."""

from __future__ import annotations

import csv
import sqlite3
from dataclasses import replace

import pytest

from sunbot.bench.jobs import RESULT_FIELDS, Job, run_job
from sunbot.bench.store import COLUMNS, RunMismatch, Store, export_csv


@pytest.fixture
def rows():
    return [
        run_job(Job("keelhold", s, seed)) for s in ("first-safe", "random") for seed in (3, 1, 2)
    ]


def test_rows_round_trip_in_strategy_then_seed_order(tmp_path, rows):
    with Store(tmp_path / "b.sqlite") as store:
        for r in rows:
            store.add("r1", r)
        got = store.results("r1")
    assert got == sorted(rows, key=lambda r: (r.strategy != "first-safe", r.seed))
    # a fresh connection sees every committed row
    with Store(tmp_path / "b.sqlite") as again:
        assert again.done("r1") == {(r.strategy, "", r.seed) for r in rows}
        assert [r.strategy for r in again.results("r1", ["random"])] == ["random"] * 3


def test_one_row_per_job_and_runs_apart(tmp_path, rows):
    with Store(tmp_path / "b.sqlite") as store:
        store.add("r1", rows[0])
        with pytest.raises(sqlite3.IntegrityError):
            store.add("r1", rows[0])
        store.add("r2", rows[0])
        assert store.done("r1") == store.done("r2") == {("first-safe", "", 3)}
        assert store.done("r3") == set()
        info = store.run_info("r1")
        assert (info.game, info.cap, info.rows, info.strategies) == (
            "keelhold",
            None,
            1,
            ("first-safe",),
        )
        assert [i.run for i in store.runs("keelhold")] == ["r1", "r2"]
        assert store.runs("naptuft") == []
        assert store.run_info("nope") is None


def test_a_run_keeps_one_game_and_cap(tmp_path, rows):
    with Store(tmp_path / "b.sqlite") as store:
        store.add("r1", rows[0])
        store.check_run("r1", "keelhold", None)
        store.check_run("new", "naptuft", 5)
        with pytest.raises(
            RunMismatch, match="holds keelhold with cap None, not keelhold with cap 20"
        ):
            store.check_run("r1", "keelhold", 20)
        with pytest.raises(RunMismatch):
            store.check_run("r1", "naptuft", None)


def test_table_layout(tmp_path, rows):
    with Store(tmp_path / "b.sqlite") as store:
        store.add("r1", rows[0])
    db = sqlite3.connect(tmp_path / "b.sqlite")
    cols = [r[1] for r in db.execute("PRAGMA table_info(results)")]
    pk = [
        r[1] for r in sorted(db.execute("PRAGMA table_info(results)"), key=lambda r: r[5]) if r[5]
    ]
    assert tuple(cols) == COLUMNS == ("run", *RESULT_FIELDS, "finished_at")
    assert pk == ["run", "strategy", "table", "seed"]
    assert db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall() == [
        ("results",),
        ("setups",),  # what a run's rows of a strategy were played with (a search's model)
    ]
    assert [r[1] for r in db.execute("PRAGMA table_info(setups)")] == ["run", "strategy", "setup"]


def test_csv_export(tmp_path, rows):
    capped = replace(rows[0], cap=4, cause=None)
    n = export_csv([*rows, capped], tmp_path / "out" / "r.csv")
    assert n == 7
    with (tmp_path / "out" / "r.csv").open(newline="") as fh:
        got = list(csv.DictReader(fh))
    assert list(got[0]) == list(RESULT_FIELDS)
    assert got[0]["score"] == str(rows[0].score) and got[0]["cap"] == ""
    assert got[-1]["cap"] == "4" and got[-1]["cause"] == ""
