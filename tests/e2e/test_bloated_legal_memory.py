"""A server whose ``legalActions`` carries 50,000 bogus entries on every answer: ``sunbot
play --no-transcript`` stays under 200 MB over 60 steps (issue 38; it reached 953 MB when
each divergence held the server's whole list). Slow: the hostile answers are 2 MB each."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sunbot.server.app import create_app
from tests.conftest import LoopbackServer

BOGUS = 50_000
STEPS = 60
LIMIT_MB = 200


class BloatLegal:
    """ASGI middleware: every single-player answer's ``legalActions`` gets 50,000 bogus
    entries appended (the position itself stays honest)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope["path"].startswith("/api/games/"):
            await self.app(scope, receive, send)
            return
        start, chunks = {}, []

        async def capture(message):
            if message["type"] == "http.response.start":
                start.update(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(chunks)
            try:
                answer = json.loads(body)
            except ValueError:
                answer = None
            if isinstance(answer, dict) and isinstance(answer.get("legalActions"), list):
                bogus = [{"type": "PLACE", "bay": 100 + i} for i in range(BOGUS)]
                answer["legalActions"] += bogus
                body = json.dumps(answer).encode()
            headers = [(k, v) for k, v in start["headers"] if k != b"content-length"]
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, capture)


@pytest.mark.slow
def test_bloated_legal_actions_keep_memory_flat():
    with LoopbackServer(BloatLegal(create_app())) as srv:
        args = [
            "play", "keelhold", "--seed", "5", "--server", srv.url, "--no-transcript",
            "--max-steps", str(STEPS),
        ]  # fmt: skip
        proc = subprocess.run(
            [sys.executable, "-c", _MEASURED, *args],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "NO_COLOR": "1"},
        )
    out = proc.stdout + proc.stderr
    peak_mb = int(out.rsplit("PEAK_KB=", 1)[1].split()[0]) / 1024
    assert "divergence" in out, out[-2000:]
    assert peak_mb < LIMIT_MB, f"peak {peak_mb:.0f} MB"
    print(f"peak {peak_mb:.0f} MB")


#: Runs the sunbot command with the arguments given, then prints its own peak memory.
_MEASURED = """
import resource, runpy, sys
sys.argv = ["sunbot", *sys.argv[1:]]
try:
    runpy.run_module("sunbot", run_name="__main__")
finally:
    print("PEAK_KB=%d" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""
