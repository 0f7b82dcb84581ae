"""One Ctrl-C while a run waits to retry (a server in a long outage) ends it promptly with
its result line and exit 130, for a single-player run and a match: real ``sunbot serve``
and ``sunbot play`` processes, a real SIGINT."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import serve_process


@pytest.fixture(scope="module")
def outage() -> Iterator[str]:
    """``sunbot serve`` answering every request 503 for its first 10 minutes."""
    with serve_process("--faults", "outage=600") as url:
        yield url


def _interrupt_while_retrying(args: list[str], path: Path) -> tuple[int, str, float]:
    """Start ``sunbot play ARGS``, wait until its transcript has a header (the run is then
    retrying its first call, init or create), Ctrl-C it once; exit code, stderr, and the
    seconds it took to exit after the signal."""
    cmd = [sys.executable, "-m", "sunbot", "play", *args, "--transcript", str(path), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            if path.exists() and path.read_text().count("\n") >= 1:
                break
            time.sleep(0.05)
        time.sleep(1.0)  # well inside a retry wait (jittered, up to 4 s each)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
        return proc.returncode, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()


def test_ctrl_c_in_a_keelhold_retry_wait(outage, tmp_path):
    path = tmp_path / "k.jsonl"
    code, err, took = _interrupt_while_retrying(
        ["keelhold", "--seed", "7", "--server", outage], path
    )
    assert code == 130 and took < 4, err
    assert f"resume with: sunbot play --resume {path}" in " ".join(err.split())
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "result"
    assert lines[-1]["endedBy"] == "interrupted" and lines[-1]["retries"] >= 1


def test_ctrl_c_in_a_match_retry_wait(outage, tmp_path):
    path = tmp_path / "hw.jsonl"
    code, err, took = _interrupt_while_retrying(
        ["harvest-watch", "--seed", "3", "--server", outage], path
    )
    assert code == 130 and took < 4, err
    assert "interrupted" in err
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "result" and last["endedBy"] == "interrupted"
    assert last["gameOver"] is False and last["matchId"] is None
