"""``sunbot serve``'s protocol bounds a request head still arriving: past 80 KiB without
its end it answers 431 and closes, so a slow client cannot make the server buffer an
endless head; a head under the bound that arrives in pieces is served as usual."""

from __future__ import annotations

import json
import socket
import time

import uvicorn

from sunbot.server import TokenCodec, create_app, serving
from sunbot.server.limits import MAX_HEAD_BYTES
from tests.conftest import LoopbackServer


def _served() -> LoopbackServer:
    app = create_app(TokenCodec())

    def config(port: int) -> uvicorn.Config:
        cfg = serving.serve_config(app, host="127.0.0.1", port=port, log_level="error")
        cfg.lifespan = "off"
        return cfg

    return LoopbackServer(None, config)


def _send_in_pieces(port: int, head: bytes, piece: int = 8192) -> bytes:
    """Send ``head`` in pieces a little apart (each its own read), then read until closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        for at in range(0, len(head), piece):
            try:
                s.sendall(head[at : at + piece])
            except OSError:  # closed by the server part way: what it sent is the answer
                break
            time.sleep(0.01)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_a_head_growing_past_the_bound_is_431_and_closed():
    endless = b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-Pad: " + b"a" * (MAX_HEAD_BYTES + 20_000)
    with _served() as srv:
        got = _send_in_pieces(srv.port, endless)
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 ")
    assert b"connection: close" in head.lower()
    assert json.loads(body) == {
        "ok": False,
        "reason": f"badRequest: request head (line and headers) over {MAX_HEAD_BYTES} bytes",
    }


def test_a_head_under_the_bound_in_pieces_is_served():
    head = b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-Pad: " + b"a" * 60_000
    head += b"\r\nConnection: close\r\n\r\n"
    with _served() as srv:
        got = _send_in_pieces(srv.port, head)
    assert got.startswith(b"HTTP/1.1 200 ")
    assert json.loads(got.partition(b"\r\n\r\n")[2])["service"] == "sunbot-local"
