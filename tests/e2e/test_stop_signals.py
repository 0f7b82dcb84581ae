"""SIGTERM stops ``sunbot play`` and ``sunbot bench`` as Ctrl-C does (result line written,
finished jobs stored, exit 143), a background ``sunbot bench`` started with SIGINT ignored
still stops on SIGINT, and ``kill -9`` of a bench takes its workers with it: real
``sunbot`` processes, real signals (docs/decisions.md, "Signals")."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from sunbot.transcripts.jsonl import read_transcript
from tests.conftest import free_port

SUNBOT = [sys.executable, "-m", "sunbot"]


def _start(args: list[str], *, ignore_sigint: bool = False) -> subprocess.Popen[str]:
    """``sunbot ARGS`` in a process; ``ignore_sigint``: started as a non-interactive shell
    starts a background job (``cmd &``), with SIGINT ignored."""

    def ignore() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    return subprocess.Popen(
        [*SUNBOT, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ignore if ignore_sigint else None,
    )


def _until(ready: Callable[[], bool], proc: subprocess.Popen[str], limit_s: float = 60) -> None:
    """Wait until ``ready()`` (fails if ``proc`` ends first or ``limit_s`` passes)."""
    deadline = time.monotonic() + limit_s
    while not ready():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "never became ready"
        time.sleep(0.05)


def _stop(proc: subprocess.Popen[str], sig: int) -> tuple[int, str]:
    """Send ``sig`` and wait for the exit (at most 30 s): exit code and stderr."""
    try:
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
        return proc.returncode, err
    finally:
        if proc.poll() is None:
            proc.kill()


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def test_sigterm_stops_a_keelhold_run_with_its_result_line_and_it_resumes(tmp_path):
    path = tmp_path / "k.jsonl"
    args = ["play", "keelhold", "--seed", "3", "--max-voyages", "200", "--quiet"]
    proc = _start([*args, "--transcript", str(path)])
    _until(lambda: _lines(path) >= 20, proc)
    code, err = _stop(proc, signal.SIGTERM)
    assert code == 143, err
    assert f"resume with: sunbot play --resume {path}" in " ".join(err.split())
    cut = read_transcript(path)
    assert cut.error is None and cut.result["endedBy"] == "interrupted"
    steps = cut.result["steps"]
    assert steps == len(cut.steps) >= 19
    proc = _start(["play", "--resume", str(path), "--quiet"])  # continues, and stops again
    _until(lambda: _lines(path) >= steps + 40, proc)
    code, err = _stop(proc, signal.SIGTERM)
    again = read_transcript(path)
    assert code == 143 and again.result["endedBy"] == "interrupted", err
    assert again.result["steps"] == len(again.steps) > steps


def test_sigterm_stops_a_match_with_its_result_line_and_serve_shuts_down(tmp_path):
    """A Harvest Watch match waiting for players on a real ``sunbot serve``: SIGTERM writes
    the result line (exit 143); SIGTERM to the server shuts it down gracefully (uvicorn
    finishes, then re-raises the signal: the process ends as killed by SIGTERM)."""
    port = free_port()
    server = subprocess.Popen(
        [*SUNBOT, "serve", "--port", str(port), "--log-level", "info"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        try:
            return httpx.get(f"{url}/api/games", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    try:
        _until(answers, server)
        path = tmp_path / "hw.jsonl"
        args = ["play", "harvest-watch", "--seed", "3", "--server", url, "--wait", "60"]
        proc = _start([*args, "--quiet", "--transcript", str(path)])
        _until(lambda: _lines(path) >= 1, proc)
        time.sleep(1.0)  # the match is created and waiting for others
        code, err = _stop(proc, signal.SIGTERM)
        assert code == 143 and "interrupted" in err, err
        last = json.loads(path.read_text().splitlines()[-1])
        assert last["type"] == "result" and last["endedBy"] == "interrupted"
        assert last["gameOver"] is False and last["matchId"]
        code, err = _stop(server, signal.SIGTERM)
        assert code == -signal.SIGTERM and "Finished server process" in err, err
    finally:
        if server.poll() is None:
            server.kill()


def _stored(store: Path) -> int:
    """Rows in a bench store (0 before it exists)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store) as db:
            return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not there yet
        return 0


def _bench_stops(tmp_path: Path, sig: int, *, ignore_sigint: bool) -> tuple[int, str, int]:
    """Start a bench of many short keelhold jobs, send ``sig`` once some are stored: exit
    code, stderr and the rows stored."""
    store = tmp_path / "bench.sqlite"
    args = ["bench", "keelhold", "--seeds", "1-20000", "--workers", "2", "--cap", "voyages=2"]
    args += ["--strategy", "first-safe", "--out", str(tmp_path)]
    proc = _start([*args, "--run", "r"], ignore_sigint=ignore_sigint)
    _until(lambda: _stored(store) >= 2, proc)
    code, err = _stop(proc, sig)
    return code, err, _stored(store)


def test_sigterm_stops_a_bench_keeping_finished_jobs(tmp_path):
    code, err, rows = _bench_stops(tmp_path, signal.SIGTERM, ignore_sigint=False)
    assert code == 143, err
    assert 2 <= rows < 20000
    assert f"{rows:,} of 20,000 jobs stored" in " ".join(err.split())
    assert "--resume --run r" in " ".join(err.split())


def test_sigint_stops_a_background_bench_started_with_sigint_ignored(tmp_path):
    """``sunbot bench ... & kill -INT $!`` from a script: stops as ``sunbot play`` does."""
    code, err, rows = _bench_stops(tmp_path, signal.SIGINT, ignore_sigint=True)
    assert code == 130, err
    assert 2 <= rows < 20000 and "interrupted" in err


def _children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _playing_workers(proc: subprocess.Popen[str]) -> set[int]:
    """The bench's children (its two workers, forked: no resource tracker beside them)
    once its workers have been playing their jobs for a moment."""
    _until(lambda: len(_children(proc.pid)) >= 2, proc)
    time.sleep(1.5)
    return _children(proc.pid)


def _still_alive(pids: set[int], wait: float = 5) -> list[int]:
    """``pids`` still alive after up to ``wait`` s (the resource tracker ends once it sees
    the bench's exit)."""
    deadline = time.monotonic() + wait
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def test_kill_9_of_a_bench_takes_its_workers_with_it(tmp_path):
    """Jobs of ~15 s each (200 voyages): without the parent-death signal the two workers
    would run on for that long, re-parented to init."""
    args = ["bench", "keelhold", "--seeds", "1-4", "--cap", "voyages=200", "--workers", "2"]
    proc = _start([*args, "--out", str(tmp_path)])
    try:
        workers = _playing_workers(proc)
        proc.kill()
        proc.wait(timeout=10)
        assert not _still_alive(workers)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_sigterm_stops_a_bench_of_long_jobs_at_once_and_its_workers(tmp_path):
    """Jobs of a minute or more (a whole uncapped Keelhold planner run): SIGTERM ends the
    bench within seconds (exit 143), its running jobs not stored and its workers gone; the
    workers ignore SIGTERM, so before they were waited for, for the jobs' whole length."""
    store = tmp_path / "bench.sqlite"
    args = ["bench", "keelhold", "--seeds", "1-2", "--cap", "voyages=20000", "--workers", "2"]
    proc = _start([*args, "--out", str(tmp_path), "--run", "long"])
    try:
        workers = _playing_workers(proc)
        sent = time.monotonic()
        code, err = _stop(proc, signal.SIGTERM)
        assert time.monotonic() - sent < 15, "waited for the running jobs"
        assert code == 143, err
        assert "0 of 2 jobs stored" in " ".join(err.split()) and "Traceback" not in err
        assert _stored(store) == 0
        assert not _still_alive(workers)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_sigterm_stops_a_run_stuck_in_a_model_call_within_its_grace(tmp_path):
    # the model's step never returns: the run's model check waits on it in the main thread,
    # so "stop after this step" would wait forever; SIGTERM stops it at once after a grace
    from sunbot.cli.play import TERM_GRACE_S
    from sunbot.testing.unseen import create_unseen_app
    from tests.conftest import LoopbackServer

    models = Path(__file__).parents[1] / "forward" / "models.py"
    path = tmp_path / "h.jsonl"
    with LoopbackServer(create_unseen_app()) as srv:
        proc = _start([
            "play", "take-away", "--server", srv.url, "--strategy", "search", "--seed", "1",
            "--engine", f"{models}:HangingTakeAway", "--move-timeout", "1", "--quiet",
            "--transcript", str(path),
        ])  # fmt: skip
        _until(lambda: _lines(path) >= 2, proc)
        time.sleep(1.5)  # into the stuck call
        sent = time.monotonic()
        code, err = _stop(proc, signal.SIGTERM)
    assert code == 143, err
    assert time.monotonic() - sent < TERM_GRACE_S + 5
    cut = read_transcript(path)
    assert cut.error is None and cut.result["endedBy"] == "interrupted"


def test_sigint_stops_a_certify_stuck_in_a_model_call(tmp_path):
    # started as a background job (SIGINT ignored), the model's step never returning
    from sunbot.testing.unseen import create_unseen_app
    from tests.conftest import LoopbackServer

    models = Path(__file__).parents[1] / "forward" / "models.py"
    with LoopbackServer(create_unseen_app()) as srv:
        proc = _start(
            ["certify", "take-away", "--server", srv.url, "--seeds", "1",
             "--engine", f"{models}:HangingTakeAway"],
            ignore_sigint=True,
        )  # fmt: skip
        time.sleep(3)  # loaded, and into the stuck call
        assert proc.poll() is None, proc.communicate()[1]
        sent = time.monotonic()
        code, err = _stop(proc, signal.SIGINT)
    assert code == 130, err
    assert time.monotonic() - sent < 5
    assert "interrupted; nothing certified" in err


def _swallowing_run(path: Path, url: str, resume: bool = False) -> subprocess.Popen[str]:
    models = Path(__file__).parents[1] / "forward" / "models.py"
    engine = f"{models}:SwallowingTakeAway"
    if resume:
        return _start(
            ["play", "--resume", str(path), "--server", url, "--engine", engine, "--quiet"]
        )
    return _start([
        "play", "take-away", "--server", url, "--strategy", "search", "--seed", "1",
        "--engine", engine, "--quiet", "--transcript", str(path),
    ])  # fmt: skip


def test_a_model_that_swallows_the_stop_is_ended_at_once_and_its_run_resumes(tmp_path):
    """The model catches every KeyboardInterrupt in its first step: SIGTERM's grace ends in an
    interrupt it swallows, so the process is ended hard (exit 143) a bound later, its
    transcript whole lines without a result line; replay reads it, --resume continues it
    (into the same stuck step, where a double Ctrl-C ends it the same way: exit 130)."""
    from sunbot.cli.play import TERM_GRACE_S
    from sunbot.cli.signals import HARD_STOP_S
    from sunbot.testing.unseen import create_unseen_app
    from tests.conftest import LoopbackServer

    path = tmp_path / "s.jsonl"
    with LoopbackServer(create_unseen_app()) as srv:
        proc = _swallowing_run(path, srv.url)
        _until(lambda: _lines(path) >= 2, proc)
        time.sleep(1.0)  # into the stuck step
        sent = time.monotonic()
        code, err = _stop(proc, signal.SIGTERM)
        assert code == 143, err
        assert time.monotonic() - sent < TERM_GRACE_S + HARD_STOP_S + 4
        assert "stopped at once" in err and f"--resume {path}" in " ".join(err.split())
        text = path.read_text()
        assert text.endswith("\n")
        cut = read_transcript(path)
        assert cut.result is None and [json.loads(t)["type"] for t in text.splitlines()] == [
            "header",
            "init",
        ]
        replay = subprocess.run(
            [*SUNBOT, "replay", str(path)], capture_output=True, text=True, timeout=60
        )
        assert replay.returncode == 0 and "no result line" in replay.stdout, replay.stderr
        proc = _swallowing_run(path, srv.url, resume=True)
        _until(lambda: _lines(path) >= 3, proc)  # the resume line: into the stuck step again
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)  # stop after this step...
        time.sleep(0.5)
        code, err = _stop(proc, signal.SIGINT)  # ...no: at once (swallowed: ended hard)
    assert code == 130, err
    assert "stopped at once" in err
    again = path.read_text()
    assert again.startswith(text) and again.endswith("\n")
    assert json.loads(again.splitlines()[-1])["type"] == "resume"


def test_a_certify_whose_model_swallows_the_stop_is_ended_at_once(tmp_path):
    from sunbot.cli.signals import HARD_STOP_S
    from sunbot.testing.unseen import create_unseen_app
    from tests.conftest import LoopbackServer

    models = Path(__file__).parents[1] / "forward" / "models.py"
    with LoopbackServer(create_unseen_app()) as srv:
        proc = _start(
            ["certify", "take-away", "--server", srv.url, "--seeds", "1",
             "--engine", f"{models}:SwallowingTakeAway"],
        )  # fmt: skip
        time.sleep(3)  # loaded, and into the stuck call
        assert proc.poll() is None, proc.communicate()[1]
        sent = time.monotonic()
        code, err = _stop(proc, signal.SIGTERM)
    assert code == 143, err
    assert time.monotonic() - sent < HARD_STOP_S + 3
    assert "nothing certified (stopped at once" in " ".join(err.split())
