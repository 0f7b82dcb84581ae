"""`sunbot bench` and `sunbot tournament` leave no process behind: once the command has
exited (normally or on SIGTERM, with 1 or 2 workers) its process group is empty: no worker,
no resource tracker, no child (issue 39; the resource tracker used to outlive the command)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _group(pgid: int) -> list[str]:
    """The live (not zombie) processes of group ``pgid``: ``"pid cmdline"``."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(f"{entry.name} {cmdline[:120]}")
    return out


def _run(args: list[str], stop_after_workers: bool = False) -> tuple[int, list[str]]:
    """Run ``sunbot ARGS`` in a group of its own; SIGTERM it once its workers run when
    ``stop_after_workers``. Returns the exit code and the group's processes right after."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sunbot", *args],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        if stop_after_workers:
            deadline = time.monotonic() + 60
            while len(_group(proc.pid)) < 3 and time.monotonic() < deadline:  # parent + 2
                time.sleep(0.05)
            time.sleep(0.5)  # the workers are running jobs
            os.killpg(proc.pid, signal.SIGTERM)  # as `timeout` and a terminal send it
        code = proc.wait(120)
        return code, _group(proc.pid)
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


def _bench_runs(tmp_path: Path, workers: str, attempts: int) -> None:
    args = ["bench", "keelhold", "-s", "first-safe", "--seeds", "1-20", "--workers", workers]
    for attempt in range(attempts):  # the tracker's late exit was a race: try it again
        code, left = _run([*args, "--out", str(tmp_path / f"o{attempt}")])
        assert code == 0
        assert left == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_bench_leaves_no_process(tmp_path):
    _bench_runs(tmp_path, "2", 1)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_bench_leaves_no_process_run_after_run(tmp_path, workers):
    _bench_runs(tmp_path, workers, 4)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_bench_stopped_by_sigterm_leaves_no_process(tmp_path):
    args = ["bench", "keelhold", "-s", "first-safe", "--seeds", "1-100000", "--workers", "2"]
    code, left = _run([*args, "--out", str(tmp_path / "o")], stop_after_workers=True)
    assert code == 128 + signal.SIGTERM
    assert left == []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_tournament_leaves_no_process(tmp_path):
    args = ["tournament", "naptuft", "-s", "balancer", "-s", "random", "--seeds", "1-6"]
    for attempt in range(3):
        code, left = _run(
            [*args, "--cap", "days=5", "--workers", "2", "--out", str(tmp_path / f"t{attempt}")]
        )
        assert code == 0
        assert left == []
