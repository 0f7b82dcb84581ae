"""Slow and idle clients (issue 12 case 8): a connection that never finishes its request is
closed at ``sunbot serve``'s request deadline and does not stall other clients.

The first test runs a real ``sunbot serve`` process; the others run the same uvicorn
configuration in this process with a short deadline."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from sunbot.server import TokenCodec, create_app, serving
from tests.conftest import LoopbackServer, serve_process, timed_keelhold_run

HALF_HEAD = b"GET /api/games HTTP/1.1\r\nHost: sunbot\r\nAccept: "
SLOW_SOCKETS = 300
DEADLINE_S = 8.0


@pytest.fixture
def served() -> Iterator[str]:
    """``sunbot serve`` in its own process, its request deadline at :data:`DEADLINE_S`."""
    with serve_process("--request-deadline", str(DEADLINE_S)) as url:
        yield url


async def _until_closed(reader: asyncio.StreamReader, opened: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and the seconds since ``opened``."""
    got = await reader.read()
    return got, time.monotonic() - opened


async def _trickle(writer: asyncio.StreamWriter) -> int:
    """Send a request head one byte a second until the server closes; bytes sent."""
    sent = 0
    for byte in (HALF_HEAD * 10)[:60]:
        try:
            writer.write(bytes([byte]))
            await writer.drain()
        except ConnectionError:
            break
        sent += 1
        await asyncio.sleep(1.0)
    return sent


async def test_slow_clients_are_closed_and_do_not_stall_a_run(served):
    """300 half-sent heads, one idle socket and a 1 byte/s trickle are held open while a
    normal client plays a Keelhold run to its cap; then the server closes every one of
    them at the deadline (408), the trickle included although it keeps sending."""
    host, port = served.removeprefix("http://").split(":")
    conns = []
    for i in range(SLOW_SOCKETS + 2):
        reader, writer = await asyncio.open_connection(host, int(port))
        if i < SLOW_SOCKETS:
            writer.write(HALF_HEAD)
        conns.append((reader, writer, time.monotonic()))
    closing = [asyncio.create_task(_until_closed(r, t)) for r, _, t in conns]
    trickle = asyncio.create_task(_trickle(conns[-1][1]))

    run, took = await timed_keelhold_run(served)
    assert run.error is None and run.ended_by == "cap" and run.steps > 30
    assert run.divergences == []
    # the run did not wait for the deadline: every slow socket was still open when it ended
    assert took < DEADLINE_S - 1 and not any(task.done() for task in closing)

    closed = await asyncio.wait_for(asyncio.gather(*closing), timeout=DEADLINE_S + 20)
    for got, after in closed:
        assert got.startswith(b"HTTP/1.1 408 ")
        # the server starts its clock on accept, a little before open_connection returns here
        assert DEADLINE_S - 1.5 <= after <= DEADLINE_S + 15
    sent = await asyncio.wait_for(trickle, timeout=5)
    assert DEADLINE_S - 2 <= sent <= DEADLINE_S + 15  # it kept sending until it was closed
    for _, writer, _ in conns:
        writer.close()
    httpx.get(f"{served}/api/games", timeout=5).raise_for_status()  # and the server serves on


async def _open_slow_sockets(url: str, n: int) -> list[tuple[asyncio.StreamWriter, asyncio.Task]]:
    host, port = url.removeprefix("http://").split(":")
    out = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(HALF_HEAD)
        out.append((writer, asyncio.create_task(_until_closed(reader, time.monotonic()))))
    return out


async def test_waiting_sockets_cannot_use_up_the_servers_open_files():
    """``sunbot serve`` allowed 256 open files (issue 12's case: 300 idle sockets then
    stalled everyone until they went): past its connection budget (112 with 256 files:
    :func:`~sunbot.server.serving.connection_budget`) each new connection closes the one
    that has waited longest (all are 127.0.0.1's), so a run plays at once; the rest are
    closed at the deadline."""
    with serve_process("--request-deadline", str(DEADLINE_S), files=256) as url:
        slow = await _open_slow_sockets(url, SLOW_SOCKETS)
        run, took = await timed_keelhold_run(url)
        shed = [task for _, task in slow if task.done()]
        assert run.error is None and run.ended_by == "cap" and took < DEADLINE_S - 1
        assert len(shed) >= SLOW_SOCKETS - 112  # the oldest, closed without an answer
        assert all(task.result()[0] == b"" for task in shed)
        closed = await asyncio.wait_for(asyncio.gather(*(t for _, t in slow)), timeout=30)
        assert sum(got.startswith(b"HTTP/1.1 408 ") for got, _ in closed) > 100  # the newest
        for writer, _ in slow:
            writer.close()


class _SlowApp:
    """An ASGI app that reads the body, then answers after ``delay`` seconds."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.bodies: list[bytes] = []
        self.disconnects = 0

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnects += 1
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies.append(body)
        await asyncio.sleep(self.delay)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})


def _loopback(app: object, deadline: float) -> LoopbackServer:
    def config(port: int) -> uvicorn.Config:
        cfg = serving.serve_config(
            app, host="127.0.0.1", port=port, log_level="error", request_deadline_s=deadline
        )
        cfg.lifespan = "off"
        return cfg

    return LoopbackServer(None, config)


def _read_all(sock: socket.socket) -> tuple[bytes, float]:
    t0 = time.monotonic()
    chunks = []
    while chunk := sock.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks), time.monotonic() - t0


def test_the_deadline_does_not_cut_a_slow_answer():
    """The deadline counts receiving the request only: an answer that takes three
    deadlines to compute still arrives."""
    app = _SlowApp(delay=1.5)
    with _loopback(app, 0.5) as srv:
        got = httpx.post(f"{srv.url}/x", content=b"abc", timeout=10)
    assert got.status_code == 200 and got.text == "done" and app.bodies == [b"abc"]


def test_a_trickled_body_is_cut_at_the_deadline():
    """A head that promises 10 body bytes and sends 2: closed at the deadline (the app
    sees a disconnect), not held for ever; no answer was begun, none is sent."""
    app = _SlowApp(delay=0)
    with _loopback(app, 0.5) as srv, socket.create_connection(("127.0.0.1", srv.port)) as s:
        s.settimeout(10)
        s.sendall(b"POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nab")
        got, after = _read_all(s)
    assert got == b"" and 0.4 <= after <= 5 and app.bodies == [] and app.disconnects == 1


def test_the_deadline_starts_again_for_each_request_on_a_kept_connection():
    """After a whole request and its answer the connection is idle (keep-alive, 5 s);
    half of a second request is then cut at the deadline with a 408."""
    app = create_app(TokenCodec())
    with _loopback(app, 0.5) as srv, socket.create_connection(("127.0.0.1", srv.port)) as s:
        s.settimeout(10)
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n")
        first = s.recv(65536)
        time.sleep(0.8)  # longer than the deadline: idle time between requests is keep-alive's
        s.sendall(HALF_HEAD)
        got, after = _read_all(s)
    answers = (first + got).split(b"HTTP/1.1 ")
    assert [a[:4] for a in answers] == [b"", b"200 ", b"408 "] and 0.4 <= after <= 5


def test_the_deadline_must_be_positive():
    with pytest.raises(ValueError, match="above 0"):
        serving.with_request_deadline(0)
    assert serving.with_request_deadline(2.5).deadline_s == 2.5


class _EchoClient:
    """An ASGI app that answers the client address it was given."""

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": scope["client"][0].encode()})


def test_a_forwarded_for_header_does_not_change_who_the_client_is():
    """The per-client match limit keys on the socket's peer: a local client naming
    another address in X-Forwarded-For is still 127.0.0.1."""
    with _loopback(_EchoClient(), 5.0) as srv:
        got = httpx.get(srv.url, headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
    assert got.text == "127.0.0.1"
