"""``sunbot.bench(...)`` and ``sunbot.tournament(...)`` return typed results with the
command line's statistics, from a plain script without a main guard too."""

from __future__ import annotations

import gc
import multiprocessing
import statistics
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import sunbot
from sunbot.bench.analysis import analyse, summary_rows
from sunbot.bench.backends import run_jobs, start_method
from sunbot.bench.jobs import Job
from sunbot.bench.verdict import bench_verdict


@pytest.fixture(scope="module")
def naptuft() -> sunbot.BenchResult:
    return sunbot.bench("naptuft", ["rotation", "balancer"], seeds=[1, 2, 3], cap=2, workers=1)


def test_the_result_is_the_rows_and_their_statistics(naptuft: sunbot.BenchResult) -> None:
    r = naptuft
    assert len(r) == 6 and list(r) == r.rows and r[0] is r.rows[0] and r[:2] == r.rows[:2]
    assert [(x.strategy, x.seed) for x in r][:2] == [("rotation", 1), ("balancer", 1)]
    rotation, balancer = r.strategies
    assert (rotation.strategy, balancer.strategy) == ("rotation", "balancer")
    scores = [x.score for x in r if x.strategy == "balancer"]
    assert balancer.runs == 3 and balancer.mean == pytest.approx(statistics.mean(scores))
    assert balancer.median == statistics.median(scores) and balancer.capped == 3
    assert balancer.ci_low <= balancer.mean <= balancer.ci_high
    (pair,) = r.pairs
    assert (pair.a, pair.b, pair.seeds) == ("rotation", "balancer", 3)
    assert pair.wins + pair.losses + pair.ties == 3
    by_seed = {x.seed: x.score for x in r if x.strategy == "rotation"}
    other = {x.seed: x.score for x in r if x.strategy == "balancer"}
    assert pair.mean_diff == pytest.approx(statistics.mean(by_seed[s] - other[s] for s in other))
    assert pair.ratio == pytest.approx(statistics.mean(by_seed.values()) / statistics.mean(scores))
    # the same statistics and verdict as the command line's
    a = analyse("naptuft", r.rows, ["rotation", "balancer"])
    assert r.verdict == bench_verdict(a) and "balancer" in r.verdict
    assert summary_rows(a) == summary_rows(r.analysis)
    assert r.cap == 2 and r.game == "naptuft"


def test_the_result_converts_to_pandas_and_shows_in_a_notebook(naptuft: sunbot.BenchResult) -> None:
    pd = pytest.importorskip("pandas")
    frame = naptuft.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["strategy"]) == ["rotation", "balancer"]
    assert frame.loc[1, "mean"] == naptuft.strategies[1].mean
    assert naptuft.to_dataframe("pairs").loc[0, "verdict"] == naptuft.pairs[0].verdict
    rows = naptuft.to_pandas("rows")
    assert len(rows) == 6 and list(rows["seed"][:2]) == [1, 1]
    with pytest.raises(ValueError, match="what must be"):
        naptuft.to_pandas("nope")
    page = naptuft._repr_html_()
    assert page.count("<table>") == 2 and "balancer" in page
    text = str(naptuft)
    assert text.startswith(f"naptuft: {naptuft.verdict}\n") and "mean score" in text


def test_a_tournament_returns_standings_with_intervals_and_a_verdict() -> None:
    t = sunbot.tournament("harvest-watch", ["adaptive", "random"], matches=3, workers=1)
    assert [r.strategy for r in t.ratings] == ["adaptive", "random"]
    for r in t.ratings:
        assert (r.low, r.high) == pytest.approx((r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma))
        assert r.matches == 3
    assert len(t.rows) == 3 and t.errors == []
    assert t.verdict.startswith("adaptive leads: mu ")
    assert "95% interval" in t._repr_html_() and "<table>" in t._repr_html_()
    single = sunbot.tournament("naptuft", ["rotation", "balancer"], seeds=[1, 2], cap=1, workers=1)
    assert [r.strategy for r in single.ranking] == ["balancer", "rotation"]
    assert single.verdict.startswith("no clear difference: balancer scores ")  # 2 seeds
    assert single.ratings == [] and len(single.rows) == 4


def test_a_harvest_watch_bench_groups_each_strategy_at_its_table() -> None:
    r = sunbot.bench("harvest-watch", ["guard", "farmer"], seeds=[1, 2], workers=1)
    assert [s.strategy for s in r.strategies] == ["guard vs 5 house", "farmer vs 5 house"]
    assert [s.runs for s in r.strategies] == [2, 2]
    assert all(s.rank1_rate is not None for s in r.strategies)
    assert (r.pairs[0].a, r.pairs[0].b, r.pairs[0].seeds) == (
        "guard vs 5 house", "farmer vs 5 house", 2)  # fmt: skip


def test_tournament_refuses_bad_input_in_one_line() -> None:
    with pytest.raises(ValueError, match="at least two entrants"):
        sunbot.tournament("naptuft", ["balancer"])
    with pytest.raises(ValueError, match="more than once"):
        sunbot.tournament("naptuft", ["balancer", "balancer"])
    with pytest.raises(ValueError, match=r"matches must be 1\.\.100,000"):
        sunbot.tournament("harvest-watch", ["adaptive", "guard"], matches=0)


def test_the_pool_forks_only_without_other_threads() -> None:
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    helper.start()
    try:
        assert start_method() == "spawn"  # another thread: a fork could copy a held lock
    finally:
        stop.set()
        helper.join()


def test_the_pool_starts_when_asked_and_stops_when_dropped_unread() -> None:
    jobs = [Job("naptuft", "rotation", s, 1) for s in (1, 2, 3)]
    results = run_jobs(jobs, "local", 2)
    assert len(multiprocessing.active_children()) == 2  # started before the first next()
    del results
    gc.collect()
    assert multiprocessing.active_children() == []


def test_a_plain_script_with_a_bare_bench_call_works(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        textwrap.dedent(
            """
            import sunbot
            from sunbot.bench.backends import start_method

            print("start method", start_method())
            result = sunbot.bench("naptuft", ["rotation", "balancer"], seeds=range(1, 7),
                                  cap=1, workers=2)
            print("rows", len(result), [s.runs for s in result.strategies])
            print("verdict", result.verdict)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # the script ran once: the workers were forked, never started by importing it again
    assert lines[0] == "start method fork" and len(lines) == 3, done.stdout
    assert lines[1] == "rows 12 [6, 6]"
    assert lines[2].startswith("verdict balancer scores ")
    assert "Traceback" not in done.stderr
