"""A request head over 80 KiB is refused (431) as the README says, also under `sunbot serve`
where h11 alone let a 90 KB head through when it arrived whole; a JSON body repeating a key
is refused (400) instead of silently keeping the last copy."""

from __future__ import annotations

import socket

import httpx
import pytest

from sunbot.server import TokenCodec, create_app
from sunbot.server.limits import MAX_HEAD_BYTES, head_bytes, json_problem
from sunbot.server.serving import serve_config
from tests.conftest import LoopbackServer


def test_the_cap_is_80_kib_and_head_bytes_counts_what_is_sent():
    assert MAX_HEAD_BYTES == 80 * 1024
    scope = {"method": "GET", "raw_path": b"/api/games", "query_string": b"a=1",
             "headers": [(b"host", b"t"), (b"x-pad", b"12345")]}  # fmt: skip
    sent = b"GET /api/games?a=1 HTTP/1.1\r\nhost: t\r\nx-pad: 12345\r\n\r\n"
    assert head_bytes(scope) == len(sent)


async def test_head_cap_in_process(http):
    ok = await http.get("/api/games", headers={"x-pad": "a" * 70_000})
    assert ok.status_code == 200
    r = await http.get("/api/games", headers={"x-pad": "a" * 90_000})
    assert r.status_code == 431
    assert r.json() == {
        "ok": False,
        "reason": f"badRequest: request head (line and headers) over {MAX_HEAD_BYTES} bytes",
    }
    many = [(f"x-h{i}", "c" * 900) for i in range(100)]  # 100 headers of 900 bytes
    r = await http.get("/api/games", headers=many)
    assert r.status_code == 431


def _raw_status(port: int, head: bytes) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1])


def test_head_cap_under_sunbot_serve_settings():
    app = create_app(TokenCodec())
    config = lambda port: serve_config(app, host="127.0.0.1", port=port, log_level="error")  # noqa: E731
    with LoopbackServer(app, config) as srv:
        for pad, status in [(70_000, 200), (90_000, 431), (79_000, 200)]:
            head = f"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Pad: {'a' * pad}\r\n"
            head += "Connection: close\r\n\r\n"
            assert _raw_status(srv.port, head.encode()) == status, pad
        with httpx.Client(base_url=srv.url) as client:
            assert client.get("/api/games", headers={"x-pad": "b" * 90_000}).status_code == 431


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (b'{"seed": 1, "seed": 2}', "seed"),
        (b'{"a": {"x": 1, "x": 1}}', "x"),
        (b'[{"act": "farm", "act": "steal"}]', "act"),
    ],
)
def test_json_problem_names_a_repeated_key(body, key):
    assert json_problem(body) == f"duplicate key {key!r} in a JSON object"


async def test_repeated_keys_are_400_on_every_post_route(http):
    create = await http.post("/api/matches/harvest-watch", json={"seed": 3, "startMs": 0})
    mid, token = create.json()["matchId"], create.json()["seats"][0]["token"]
    init = (await http.get("/api/games/keelhold/init", params={"seed": 1})).json()
    tok = init["stateToken"]
    for path, body in [
        ("/api/matches/harvest-watch", b'{"seed": 1, "seed": 2}'),
        ("/api/games/keelhold/action",
         b'{"stateToken": "' + tok.encode() + b'", "action": {"type": "PLACE", "bay": 2, "bay": 3}}'),
        (f"/api/matches/{mid}/commands",
         b'{"token": "' + token.encode() + b'", "round": 1, "round": 2, "actions": []}'),
    ]:  # fmt: skip
        r = await http.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, (path, r.text)
        assert r.json()["ok"] is False and "duplicate key" in r.json()["reason"]
    # the same bodies without the repeat are accepted
    r = await http.post(
        "/api/games/keelhold/action",
        json={"stateToken": tok, "action": {"type": "PLACE", "bay": 3}},
    )
    assert r.status_code == 200 and r.json()["ok"] is True
