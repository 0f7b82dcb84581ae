"""`sunbot tournament` through the real command line: the issue's acceptance check (30
Harvest Watch matches on the process pool, JSON only on stdout), resume after an
interruption and a longer rerun giving the same ratings, a single-player tournament,
errored matches left out and named, and one-line usage errors."""

from __future__ import annotations

import json
import sqlite3
import statistics
import time

import pytest
from typer.testing import CliRunner

from sunbot.bench.jobs import Job, run_job
from sunbot.cli import bench as bench_cli
from sunbot.cli.main import app

runner = CliRunner()
THREE = ["-s", "adaptive", "-s", "random", "-s", "guard"]
RATING_KEYS = {"strategy", "mu", "sigma", "ordinal", "matches"}


def tournament(*args: str):
    return runner.invoke(app, ["tournament", *args], env={"COLUMNS": "200"})


def _inline(jobs, backend, workers, address):
    return (run_job(j) for j in jobs)


def _json(res) -> dict:
    return json.loads(res.stdout)  # the whole of stdout is one JSON object


def _ratings(doc: dict) -> list[tuple[str, float, float, int]]:
    return [(r["strategy"], r["mu"], r["sigma"], r["matches"]) for r in doc["ratings"]]


# slow: thirty matches with the default's line play at every seat of ours, ~20-40 s on a
# loaded machine; the resume test keeps the process pool in the default run
@pytest.mark.slow
def test_thirty_matches_rate_adaptive_above_random_on_the_process_pool(tmp_path):
    started = time.perf_counter()
    res = tournament(
        "harvest-watch", *THREE, "--matches", "30", "--json", "--workers", "1",
        "--out", str(tmp_path), "--run", "t30",
    )  # fmt: skip
    wall = time.perf_counter() - started
    assert res.exit_code == 0, res.output
    doc = _json(res)
    print(f"30-match tournament, 1 worker: {wall:.1f} s")  # measured: see the report
    assert [set(r) for r in doc["ratings"]] == [RATING_KEYS] * 3
    by = {r["strategy"]: r for r in doc["ratings"]}
    assert by["adaptive"]["ordinal"] > by["random"]["ordinal"]
    assert [r["strategy"] for r in doc["ratings"]] == ["adaptive", "guard", "random"]
    assert all(r["matches"] == 30 for r in doc["ratings"])
    for r in doc["ratings"]:  # ordinal = mu - 3 sigma
        assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"])
    # the figures docs/guide-tournaments.md shows for this tournament
    shown = [(r["strategy"], round(r["ordinal"], 2), round(r["mu"], 2), round(r["sigma"], 2))
             for r in doc["ratings"]]  # fmt: skip
    assert shown == [("adaptive", 28.87, 43.78, 4.97), ("guard", 18.89, 32.77, 4.63),
                     ("random", -19.99, -2.99, 5.67)]  # fmt: skip
    # two seats each: 4 seat pairs a match between two entrants, 30 matches
    cell = doc["crosstable"]["adaptive"]["random"]
    assert cell["meetings"] == 30 and cell["ahead"] + cell["level"] + cell["behind"] == 120
    assert doc["crosstable"]["random"]["adaptive"]["behind"] == cell["ahead"]
    assert doc["matches"] == {"scheduled": 30, "rated": 30, "errored": 0}
    assert doc["errors"] == [] and doc["run"] == "t30" and doc["game"] == "harvest-watch"
    page = tmp_path / "t30" / "tournament.html"
    assert doc["report"] == str(page) and "<h2>Leaderboard</h2>" in page.read_text()
    assert "30 matches, 0 already stored, 30 to play" in res.stderr
    db = sqlite3.connect(tmp_path / "bench.sqlite")
    rows = db.execute("SELECT seating, lineup, ranks FROM results WHERE run = 't30'").fetchall()
    assert len(rows) == 30 and {r[0] for r in rows} == {"lineup"}
    assert all(len(r[1].split(",")) == len(r[2].split(",")) == 6 for r in rows)


def test_resume_after_an_interruption_and_a_longer_rerun_give_the_same_ratings(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    base = ["harvest-watch", *THREE, "--json", "--out", str(tmp_path)]
    fresh = tournament(*base, "--matches", "12", "--run", "fresh")
    assert fresh.exit_code == 0, fresh.output

    def stop_after_five(jobs, backend, workers, address):
        for i, job in enumerate(jobs):
            if i == 5:
                raise KeyboardInterrupt
            yield run_job(job)

    monkeypatch.setattr(bench_cli, "run_jobs", stop_after_five)
    cut = tournament(*base, "--matches", "12", "--run", "cut")
    assert cut.exit_code == 130 and cut.stdout == ""
    assert "5 of 12 jobs stored" in cut.stderr and "--resume --run cut" in cut.stderr
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    again = tournament(*base, "--matches", "12", "--run", "cut")
    assert again.exit_code == 2 and "already holds 5 matches of this tournament" in again.output
    resumed = tournament(*base, "--matches", "12", "--run", "cut", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "12 matches, 5 already stored, 7 to play" in resumed.stderr
    assert _ratings(_json(resumed)) == _ratings(_json(fresh))
    assert _json(resumed)["crosstable"] == _json(fresh)["crosstable"]
    # six matches, then twelve: the first six draws are the six-match tournament
    assert tournament(*base, "--matches", "6", "--run", "grow").exit_code == 0
    grown = tournament(*base, "--matches", "12", "--run", "grow", "--resume")
    assert "12 matches, 6 already stored, 6 to play" in grown.stderr
    assert _ratings(_json(grown)) == _ratings(_json(fresh))
    # and the twelve-match run rated on six matches is the six-match tournament
    six = tournament(*base, "--matches", "6", "--run", "grow", "--resume")
    assert _json(six)["matches"] == {"scheduled": 6, "rated": 6, "errored": 0}
    assert all(r["matches"] == 6 for r in _json(six)["ratings"])


def test_a_single_player_tournament_ranks_balancer_first(tmp_path):
    res = tournament(
        "naptuft", "-s", "balancer", "-s", "random", "--seeds", "1-4", "--cap", "days=2",
        "--workers", "1", "--json", "--out", str(tmp_path), "--run", "np",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    doc = _json(res)
    scores = {
        name: [run_job(Job("naptuft", name, seed, 2)).score for seed in range(1, 5)]
        for name in ("balancer", "random")
    }
    first, second = doc["ranking"]
    assert (first["strategy"], first["rank"], first["seeds"], first["vsBest"]) == (
        "balancer", 1, 4, None,
    )  # fmt: skip
    assert first["mean"] == statistics.mean(scores["balancer"])
    assert second["strategy"] == "random" and second["mean"] == statistics.mean(scores["random"])
    assert second["vsBest"]["meanDiff"] == pytest.approx(second["mean"] - first["mean"])
    better = sum(b > r for b, r in zip(scores["balancer"], scores["random"], strict=True))
    assert doc["wins"]["balancer"]["random"]["ahead"] == better == 4
    assert doc["runs"] == {"scheduled": 8, "ranked": 8, "errored": 0}
    assert doc["error"] is None and doc["errors"] == []
    page = (tmp_path / "np" / "tournament.html").read_text()
    assert "<h2>Paired ranking</h2>" in page and "Leaderboard" not in page


def test_the_terminal_shows_the_leaderboard_and_the_crosstable(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    res = tournament("harvest-watch", *THREE, "--matches", "3", "--out", str(tmp_path),
                     "--run", "show", "--no-report")  # fmt: skip
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    head = next(ln for ln in lines if "strategy" in ln and "ordinal" in ln)
    cols = [c.strip() for c in head.strip("┃ ").split("┃")]
    assert cols == ["#", "strategy", "mu", "sigma", "ordinal (mu - 3 sigma)", "matches"]
    assert any("row vs column" in ln for ln in lines)
    assert "3 matches rated, 0 errored of 3" in res.stdout
    assert not (tmp_path / "show" / "tournament.html").exists()  # --no-report: no page


CRASH = """
class Bot:
    game = "harvest-watch"

    def __init__(self, rng):
        self.seed = None

    def on_start(self, game, seed):
        self.seed = seed

    def choose(self, data, legal):
        if self.seed % 3 == 0:
            raise ZeroDivisionError("seed " + str(self.seed))
        return {"act": "guard"} if data["phase"] == "action" else legal[0]
"""


def test_errored_matches_are_left_out_counted_and_named(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    bot = tmp_path / "crash.py"
    bot.write_text(CRASH)
    spec = f"{bot}:Bot"
    args = ["harvest-watch", "-s", "guard", "-s", spec, "--matches", "6", "--out", str(tmp_path)]
    res = tournament(*args, "--json", "--run", "err")
    assert res.exit_code == 1
    doc = _json(res)
    # matches 2 and 5 play seeds 3 and 6, where the bot raises on its first choice
    assert doc["matches"] == {"scheduled": 6, "rated": 4, "errored": 2}
    assert [(e["match"], e["seed"]) for e in doc["errors"]] == [(2, 3), (5, 6)]
    for e in doc["errors"]:
        seat = e["lineup"].index(spec)
        assert e["error"] == f"seat {seat} ({spec}): ZeroDivisionError: seed {e['seed']}"
    assert {r["strategy"]: r["matches"] for r in doc["ratings"]} == {"guard": 4, spec: 4}
    assert "2 matches ended on an error and are left out" in res.stderr
    assert "match 2 (seed 3): seat" in res.stderr
    shown = tournament(*args, "--run", "err", "--resume")
    assert shown.exit_code == 1 and "4 matches rated, 2 errored of 6" in shown.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "adaptive", "--matches", "3"], "a tournament needs at least two entrants"),
        (["-s", "adaptive", "-s", "nobody", "--matches", "3"], "unknown strategy 'nobody'"),
        (["-s", "adaptive", "-s", "random", "--matches", "0"], "--matches must be from 1 to"),
        (["-s", "adaptive", "-s", "random"], "missing --matches N"),
        (["-s", "adaptive", "-s", "adaptive", "--matches", "3"], "named more than once"),
        (["-s", "adaptive", "-s", "random", "--matches", "3", "--seeds", "1-3"], "--seeds is"),
        (
            ["-s", "guard", "-s", "random", "--matches", "3", "--seed", str(2**63 - 2)],
            "--seed: the last",
        ),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(tmp_path, args, message):
    res = tournament("harvest-watch", *args, "--out", str(tmp_path / "o"))
    assert res.exit_code == 2
    assert res.stdout == "" and res.stderr.count("\n") == 1, res.output
    assert res.stderr.startswith("error: ") and message in res.stderr
    assert not (tmp_path / "o" / "bench.sqlite").exists()  # nothing written


def test_single_player_usage_errors(tmp_path):
    res = tournament("naptuft", "-s", "balancer", "-s", "random", "--matches", "3")
    assert res.exit_code == 2 and "--matches and --seed are for Harvest Watch" in res.stderr
    res = tournament("naptuft", "-s", "balancer", "-s", "random", "--cap", "voyages=2",
                     "--out", str(tmp_path))  # fmt: skip
    assert res.exit_code == 2 and "use days=N" in res.stderr


def test_a_bench_run_is_not_a_tournament_run(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    out = str(tmp_path)
    bench = runner.invoke(app, ["bench", "harvest-watch", "-s", "guard", "--seeds", "1-2",
                                "--out", out, "--run", "mixed"])  # fmt: skip
    assert bench.exit_code == 0, bench.output
    res = tournament("harvest-watch", *THREE, "--matches", "2", "--out", out, "--run", "mixed")
    assert res.exit_code == 2
    assert "seated 'shuffled', not 'lineup'; choose another --run" in " ".join(res.stderr.split())


def test_listed_in_the_sunbot_help():
    res = runner.invoke(app, ["--help"], env={"COLUMNS": "160"})
    assert res.exit_code == 0 and "tournament" in res.output
    res = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "160"})
    assert res.exit_code == 0 and "--matches" in res.output and "<bool>" not in res.output


def test_an_agent_in_another_process_is_an_entrant(tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    monkeypatch.setattr(bench_cli, "run_jobs", _inline)
    bot = Path(__file__).resolve().parents[2] / "examples" / "bots" / "first_legal.py"
    agent = f"exec:{sys.executable} {bot}"
    res = tournament("harvest-watch", "-s", "guard", "-s", agent, "--matches", "2", "--json",
                     "--out", str(tmp_path), "--run", "agent")  # fmt: skip
    assert res.exit_code == 0, res.output
    doc = _json(res)
    assert {r["strategy"]: r["matches"] for r in doc["ratings"]} == {"guard": 2, agent: 2}
    assert doc["matches"] == {"scheduled": 2, "rated": 2, "errored": 0}
