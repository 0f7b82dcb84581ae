"""A long run's health (issue 38): bench keeps OUT/RUN/status.json, ``sunbot status``
renders it and tells a crashed run (its process gone, the machine rebooted) from a going
one, ``--auto-resume`` starts or resumes a run (a service that restarts), and
``--on-cap wait`` goes on when the day turns."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

import sunbot.cli.bench as bench_cli
from sunbot.bench.status import RunStatus, liveness, read_status
from sunbot.cli.main import app
from sunbot.cli.spend_options import OnCap, next_day

runner = CliRunner()
BENCH = ["bench", "naptuft", "-s", "balancer", "--seeds", "1-3", "--cap", "days=1",
         "--workers", "1"]  # fmt: skip


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(done.stdout)


def test_bench_keeps_a_status_file_that_status_renders(tmp_path):
    out = tmp_path / "o"
    res = runner.invoke(app, [*BENCH, "--out", str(out), "--run", "r"])
    assert res.exit_code == 0, res.output
    s = read_status(out / "r" / "status.json")
    assert (s.command, s.run, s.game, s.state) == ("bench", "r", "naptuft", "done")
    assert (s.jobs, s.stored, s.ran, s.errors) == (3, 3, 3, 0)
    assert s.pid == os.getpid() and s.rate_per_hour and s.rate_per_hour > 0
    shown = runner.invoke(app, ["status", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "3 of 3" in shown.output and "done" in shown.output
    rows = json.loads(runner.invoke(app, ["status", str(out / "r"), "--json"]).output)
    assert rows[0]["liveness"] == "ended" and rows[0]["refusals"] == 0


def test_a_run_whose_process_is_gone_is_said_to_have_crashed(tmp_path):
    run = tmp_path / "o" / "long"
    run.mkdir(parents=True)
    status = RunStatus("bench", "long", "keelhold", 500, 120, state="running",
                       pid=_dead_pid(), resume="the same command plus --resume --run long")  # fmt: skip
    (run / "status.json").write_text(json.dumps(status.to_json()))
    assert liveness(status) == "gone"
    res = runner.invoke(app, ["status", str(tmp_path / "o")])
    assert res.exit_code == 1, res.output
    text = " ".join(res.output.split())
    assert (
        "process gone" in text and "continue with the same command plus --resume --run long" in text
    )


def test_liveness_after_a_reboot_and_on_another_machine():
    me = RunStatus("bench", "r", "naptuft", 1, 0, pid=os.getpid())
    assert liveness(me) == "alive"
    assert liveness(RunStatus("bench", "r", "naptuft", 1, 0, pid=os.getpid(), boot="old")) in (
        "gone",  # Linux: another boot; the pid says nothing of this one's processes
        "alive",  # no boot id where the machine does not give one
    )
    old = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    far = RunStatus("bench", "r", "naptuft", 1, 0, host=socket.gethostname() + "-other",
                    updated=old)  # fmt: skip
    assert liveness(far) == "stale"
    far.state = "waiting"  # waits for the day to turn: it writes then, not before
    assert liveness(far) == "alive"
    far.state = "done"
    assert liveness(far) == "ended"


def test_auto_resume_starts_a_run_then_resumes_it(tmp_path):
    out = tmp_path / "o"
    args = [*BENCH, "--out", str(out), "--run", "svc", "--auto-resume"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "3 jobs, 0 already stored, 3 to run" in " ".join(first.output.split())
    again = runner.invoke(app, args)  # as a container restarted after a crash
    assert again.exit_code == 0, again.output
    assert "3 jobs, 3 already stored, 0 to run" in " ".join(again.output.split())
    bad = runner.invoke(app, [*BENCH, "--out", str(out), "--auto-resume"])
    assert bad.exit_code == 2 and "--auto-resume needs --run" in bad.output


class _Store:
    """What run_to_the_caps asks of the store: the keys stored."""

    def done(self, label):
        return set()


@pytest.mark.parametrize(
    ("days", "waits", "stopped"),
    [
        # a cap reached twice, then the jobs finish on the third day
        ([(2, "cap"), (2, "cap"), (1, None)], 2, None),
        # a cap too small for one job: the first day turning stores nothing, so it gives up
        ([(0, "cap"), (0, "cap")], 1, "cap"),
    ],
)
def test_on_cap_wait_goes_on_when_the_day_turns(monkeypatch, days, waits, stopped):
    slept = []
    monkeypatch.setattr(bench_cli, "wait_for_next_day", lambda: slept.append(1))
    script = iter(days)

    def run(todo):
        done, why = next(script)
        return bench_cli.Executed(1.0, done, why)

    got = bench_cli.run_to_the_caps(_Store(), "r", [], run, OnCap.wait, None, bench_cli.err_console)
    assert len(slept) == waits and got.stopped == stopped
    assert got.done == sum(d for d, _ in days) and got.elapsed == len(days)
    once = bench_cli.run_to_the_caps(
        _Store(), "r", [], lambda todo: bench_cli.Executed(1.0, 3, "cap"), OnCap.stop, None,
        bench_cli.err_console,
    )  # fmt: skip
    assert once == (1.0, 3, "cap") and len(slept) == waits  # stop: no wait


def test_the_day_turns_at_midnight_utc():
    assert next_day(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == datetime(2027, 1, 1, tzinfo=UTC)
