"""Start ``sunbot serve`` as a separate process on a free loopback port (benchmarks only)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx


def start_serve(
    extra: list[str] | None = None, log_level: str = "error"
) -> tuple[subprocess.Popen[bytes], str]:
    """Run ``sunbot serve`` with ``extra`` options; returns ``(process, base URL)`` once it
    answers. The caller terminates the process.

    Raises:
        RuntimeError: the server did not answer within 10 s.
    """
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "sunbot", "serve", "--port", str(port), "--log-level", log_level]
    proc = subprocess.Popen(
        [*cmd, *(extra or [])], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            httpx.get(f"{url}/api/games", timeout=1)
            return proc, url
        except httpx.TransportError:
            time.sleep(0.05)
    proc.terminate()
    raise RuntimeError("sunbot serve did not start")
