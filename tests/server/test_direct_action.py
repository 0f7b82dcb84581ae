"""The action route's direct path (:class:`sunbot.server.actions.DirectAction`) answers
exactly as the FastAPI route does: the same status and bytes (the token aside, whose IV is
fresh each time, compared by the state it carries), for good and bad requests alike.

A body sent as ``application/json; charset=utf-8`` is not the direct path's to answer, so
the route answers it: the same request both ways, side by side."""

from __future__ import annotations

import json
import zlib
from typing import Any

import httpx
import pytest

import sunbot.server.app as app_module
from sunbot.games import get_game
from sunbot.server import TokenCodec, create_app
from sunbot.server.actions import envelope

DIRECT = "application/json"
ROUTE = "application/json; charset=utf-8"


@pytest.fixture
def codec() -> TokenCodec:
    return TokenCodec()


@pytest.fixture
async def http(codec: TokenCodec):  # type: ignore[no-untyped-def]
    transport = httpx.ASGITransport(app=create_app(codec))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        yield client


def _comparable(codec: TokenCodec, text: bytes) -> Any:
    """The answer with its token replaced by the payload it carries."""
    try:
        answer = json.loads(text)
    except ValueError:
        return text
    if isinstance(answer, dict) and isinstance(answer.get("stateToken"), str):
        blob = codec._fernet.decrypt(answer.pop("stateToken").encode())
        answer["token payload"] = json.loads(zlib.decompress(blob))
    return answer


def _bodies(codec: TokenCodec) -> list[tuple[str, Any]]:
    keelhold, naptuft = get_game("keelhold"), get_game("naptuft")
    k0 = keelhold.engine.init(5)
    n0 = naptuft.engine.init(3)
    k, n = envelope(keelhold, k0, codec), envelope(naptuft, n0, codec)
    token, legal = k["stateToken"], k["legalActions"]
    return [
        ("keelhold", {"stateToken": token, "action": legal[0]}),
        ("keelhold", {"stateToken": token, "action": legal[-1], "note": [1, 2]}),
        ("keelhold", {"stateToken": token, "action": {"type": "NOPE"}}),
        ("keelhold", {"stateToken": token, "action": None}),
        ("keelhold", {"stateToken": token}),
        ("keelhold", {"stateToken": token + "A", "action": legal[0]}),
        ("keelhold", {"stateToken": "é", "action": legal[0]}),
        ("keelhold", {"stateToken": 5, "action": legal[0]}),
        ("keelhold", {"stateToken": "", "action": legal[0]}),
        ("keelhold", {"stateToken": None, "action": legal[0]}),
        ("keelhold", {"state": k0, "action": legal[0]}),
        ("keelhold", {"state": [1], "stateToken": token, "action": legal[0]}),
        ("keelhold", {"state": {"x": 1}, "action": legal[0]}),
        ("keelhold", {"action": legal[0]}),
        ("keelhold", [1, 2]),
        ("keelhold", None),
        ("keelhold", {"stateToken": n["stateToken"], "action": legal[0]}),
        ("naptuft", {"stateToken": n["stateToken"], "action": n["legalActions"][0]}),
        ("naptuft", {"state": n0, "action": n["legalActions"][0]}),
        ("no-such-game", {"stateToken": token, "action": legal[0]}),
    ]


async def test_direct_answers_are_the_routes(http, codec, monkeypatch):
    routed = []
    real = app_module.apply_action

    def counted(*args: Any) -> Any:
        routed.append(args[0].slug)
        return real(*args)

    monkeypatch.setattr(app_module, "apply_action", counted)
    for slug, body in _bodies(codec):
        sent = json.dumps(body).encode()
        answers = []
        for content_type in (DIRECT, ROUTE):
            r = await http.post(
                f"/api/games/{slug}/action", content=sent, headers={"content-type": content_type}
            )
            answers.append((r.status_code, r.headers["content-type"], r.content))
        (s1, t1, b1), (s2, t2, b2) = answers
        assert (s1, t1) == (s2, t2), (slug, body, b1, b2)
        assert _comparable(codec, b1) == _comparable(codec, b2), (slug, body)
    # the route ran apply_action only for the requests sent as ROUTE
    routed_direct = len(routed)
    await http.post(
        "/api/games/keelhold/action",
        content=json.dumps(_bodies(codec)[0][1]).encode(),
        headers={"content-type": DIRECT},
    )
    assert routed_direct > 0 and len(routed) == routed_direct


async def test_the_direct_path_plays_a_run_to_its_end(http):
    r = await http.get("/api/games/keelhold/init?seed=9")
    pos = r.json()
    steps = 0
    while not pos["gameOver"] and steps < 60:
        r = await http.post(
            "/api/games/keelhold/action",
            json={"stateToken": pos["stateToken"], "action": pos["legalActions"][0]},
        )
        assert r.status_code == 200
        pos = r.json()
        assert pos["ok"] is True
        steps += 1
    assert steps > 0
