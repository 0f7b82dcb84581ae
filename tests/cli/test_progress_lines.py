"""Item 2: long work off a terminal says how far along it is (bench and tournament)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from sunbot.bench.jobs import Job
from sunbot.bench.store import Store
from sunbot.cli import bench as cli_bench
from sunbot.cli.progress_lines import ProgressLines, duration


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_duration_words() -> None:
    assert duration(44.6) == "45 s"
    assert duration(725) == "12 min 5 s"
    assert duration(7380) == "2 h 3 min"


def test_lines_every_five_percent_with_an_estimate_after_the_second_wave() -> None:
    clock, out = _Clock(), []
    lines = ProgressLines("run-a", 40, 2, out.append, every_s=1e9, clock=clock)
    clock.now += 10
    lines.advance()  # one of the first wave: nothing yet
    assert out == []
    lines.advance()  # the first wave of 2 took 10 s, start-up included: no estimate yet
    assert out == ["run-a: 2/40 jobs (5%) · 0.20 jobs/s · 10 s elapsed · ETA 3 min 10 s"]
    clock.now += 5
    lines.advance()  # 1 job since the last line: under the 5% stride of 2
    assert len(out) == 1
    lines.advance()  # the second wave took 5 s: 10 s + 38 jobs at 2.5 s = 105 s
    assert out[1:] == [
        "run-a: the first 4 of 40 jobs took 15 s: the whole run should take about 1 min 45 s",
        "run-a: 4/40 jobs (10%) · 0.27 jobs/s · 15 s elapsed · ETA 2 min 15 s",
    ]


def test_no_estimate_when_two_waves_are_the_whole_run() -> None:
    clock, out = _Clock(), []
    lines = ProgressLines("r", 4, 2, out.append, every_s=1e9, step=0.9, clock=clock)
    for _ in range(4):
        clock.now += 1
        lines.advance()
    assert out == ["r: 4/4 jobs (100%) · 1.00 jobs/s · 4 s elapsed · done"]


def test_a_line_every_n_seconds_even_while_no_job_finishes() -> None:
    clock, out = _Clock(), []
    lines = ProgressLines("r", 1000, 4, out.append, every_s=30, clock=clock)
    clock.now += 29
    lines.tick()
    assert out == []
    clock.now += 1
    lines.tick()
    assert out == ["r: 0/1,000 jobs (0%) · 0.00 jobs/s · 30 s elapsed · ETA unknown"]
    clock.now += 5
    lines.advance()
    assert len(out) == 1  # neither 30 s nor 5% since the last line


def test_fast_jobs_write_a_line_at_most_every_few_seconds() -> None:
    clock, out = _Clock(), []
    lines = ProgressLines("r", 40, 2, out.append, every_s=30, min_gap_s=5, clock=clock)
    for _ in range(40):  # a job every 0.2 s: 8 s in all, a 5% stride is 2 jobs
        clock.now += 0.2
        lines.advance()
    assert [line.split(":")[1].split(" jobs")[0].strip() for line in out[1:]] == [
        "25/40",  # the first job 5 s after the start (the estimate came at 4)
        "40/40",  # the last job, always
    ]
    assert out[0].startswith("r: the first 4 of 40 jobs took 1 s")


def test_the_last_job_always_writes_a_line() -> None:
    clock, out = _Clock(), []
    lines = ProgressLines("r", 3, 3, out.append, every_s=1e9, step=0.9, clock=clock)
    for _ in range(3):
        clock.now += 1
        lines.advance()
    assert out == ["r: 3/3 jobs (100%) · 1.00 jobs/s · 3 s elapsed · done"]


def test_bench_execute_off_a_terminal_writes_progress_to_stderr(tmp_path: Path) -> None:
    buf_out, buf_err = io.StringIO(), io.StringIO()
    out = Console(file=buf_out, force_terminal=False, width=100)
    err = Console(file=buf_err, force_terminal=False, width=100)
    saved = cli_bench.err_console
    cli_bench.err_console = err
    try:
        jobs = [Job("naptuft", "rotation", seed, 1) for seed in (1, 2)]
        with Store(tmp_path / "bench.sqlite") as store:
            _, ran, _ = cli_bench.execute(store, "t1", jobs, "local", 1, None, out=out)
    finally:
        cli_bench.err_console = saved
    assert ran == 2
    said = buf_err.getvalue().splitlines()
    assert said[-1].startswith("t1: 2/2 jobs (100%) · ")
    assert said[-1].endswith(" elapsed · done")
    assert buf_out.getvalue() == ""  # stdout keeps the tables only
