"""The local server's protocol (the platform protocol, "The local server")."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from sunbot.engines import keelhold as kh
from sunbot.engines import sunloaf as sl
from sunbot.server import TokenCodec


@pytest.fixture
async def http(app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        yield c


async def test_index_lists_keelhold_with_urls(http):
    body = (await http.get("/api/games")).json()
    assert body["count"] == len(body["games"])
    row = next(g for g in body["games"] if g["slug"] == "keelhold")
    assert row["initUrl"] == "/api/games/keelhold/init"
    assert row["actionUrl"] == "/api/games/keelhold/action"
    assert row["name"] == "Keelhold" and row["goal"]


async def test_init_envelope_matches_engine(http):
    r = await http.get("/api/games/keelhold/init", params={"seed": 7})
    body = r.json()
    assert r.status_code == 200
    assert set(body) == {
        "ok",
        "state",
        "stateToken",
        "observation",
        "legalActions",
        "score",
        "gameOver",
        "spec",
    }
    assert body["ok"] is True and body["state"] == kh.init(7)
    # the whole state, and the observation without the cursor (spec README)
    assert body["observation"] == {k: v for k, v in body["state"].items() if k != "rng"}
    assert body["legalActions"] == kh.legal_actions(kh.init(7))
    assert body["score"] == 0 and body["gameOver"] is False
    assert body["spec"]["actionSchema"]["oneOf"][0]["properties"]["type"]["const"] == "PLACE"


async def test_token_round_trip_and_same_states_byte_for_byte(http):
    a = (await http.get("/api/games/keelhold/init", params={"seed": 11})).json()
    b = (await http.get("/api/games/keelhold/init", params={"seed": 11})).json()
    assert json.dumps(a["state"]) == json.dumps(b["state"])
    assert a["stateToken"] != b["stateToken"]  # fresh IV each time
    act = {"type": "PLACE", "bay": a["state"]["safeBays"][0]}
    ra = (
        await http.post(
            "/api/games/keelhold/action", json={"stateToken": a["stateToken"], "action": act}
        )
    ).json()
    rb = (
        await http.post("/api/games/keelhold/action", json={"state": b["state"], "action": act})
    ).json()
    assert ra["ok"] and rb["ok"]
    assert (
        json.dumps(ra["state"]) == json.dumps(rb["state"]) == json.dumps(kh.step(kh.init(11), act))
    )


async def test_illegal_action_is_200_refusal_and_changes_nothing(http):
    init = (await http.get("/api/games/keelhold/init", params={"seed": 7})).json()
    r = await http.post(
        "/api/games/keelhold/action",
        json={"stateToken": init["stateToken"], "action": {"type": "PLACE", "bay": 0}},
    )
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is False and "shut" in body["reason"]
    assert body["legalActions"] == init["legalActions"]
    assert "stateToken" not in body
    # the old token is still good
    ok = await http.post(
        "/api/games/keelhold/action",
        json={"stateToken": init["stateToken"], "action": {"type": "PLACE", "bay": 3}},
    )
    assert ok.json()["state"]["turn"] == 1


@pytest.mark.parametrize(
    ("kwargs", "status", "needle"),
    [
        ({"content": b"{not json"}, 400, "badRequest"),
        ({"json": {"action": {"type": "PLACE", "bay": 3}}}, 400, "stateToken"),
        ({"json": {"stateToken": "abc"}}, 400, "action"),
        ({"json": {"stateToken": "abc", "action": {"type": "PLACE", "bay": 3}}}, 400, "badToken"),
        ({"json": {"stateToken": 5, "action": {}}}, 400, "badRequest"),
        ({"json": [1, 2]}, 400, "badRequest"),
    ],
)
async def test_malformed_requests_are_4xx_with_reason(http, kwargs, status, needle):
    r = await http.post("/api/games/keelhold/action", **kwargs)
    assert r.status_code == status
    assert r.json()["ok"] is False and needle in r.json()["reason"]


async def test_tampered_token_refused(http):
    init = (await http.get("/api/games/keelhold/init", params={"seed": 7})).json()
    raw = bytearray(base64.urlsafe_b64decode(init["stateToken"]))
    raw[40] ^= 0x01
    forged = base64.urlsafe_b64encode(bytes(raw)).decode()
    r = await http.post(
        "/api/games/keelhold/action",
        json={"stateToken": forged, "action": {"type": "PLACE", "bay": 3}},
    )
    assert r.status_code == 400 and r.json()["reason"].startswith("badToken")


async def test_token_from_another_server_or_game_refused(http):
    other = TokenCodec()
    foreign = other.encode("keelhold", kh.init(7))
    r = await http.post(
        "/api/games/keelhold/action",
        json={"stateToken": foreign, "action": {"type": "PLACE", "bay": 3}},
    )
    assert r.status_code == 400 and r.json()["reason"].startswith("badToken")


def test_token_for_another_game_refused():
    codec = TokenCodec()
    tok = codec.encode("sunloaf", {"x": 1})
    with pytest.raises(ValueError, match="another game"):
        codec.decode("keelhold", tok)
    assert codec.decode("sunloaf", tok) == {"x": 1}


async def test_inconsistent_plain_state_is_400(http):
    s = kh.init(7)
    s["trim"] += 2
    r = await http.post(
        "/api/games/keelhold/action", json={"state": s, "action": {"type": "PLACE", "bay": 3}}
    )
    assert r.status_code == 400 and r.json()["reason"].startswith("badState")


async def test_a_plain_state_with_a_fabricated_score_is_400(http):
    """The server must not sign a client's made-up score into a token (its token would then
    vouch for it): the same plain state is played with its real score, refused with 10^9."""
    s = kh.init(7)
    action = {"type": "PLACE", "bay": s["safeBays"][0]}
    ok = await http.post("/api/games/keelhold/action", json={"state": s, "action": action})
    assert ok.status_code == 200 and ok.json()["score"] == kh.step(s, action)["score"]
    s["score"] = 10**9
    r = await http.post("/api/games/keelhold/action", json={"state": s, "action": action})
    assert r.status_code == 400
    assert r.json()["reason"].startswith("badState") and "score 1000000000" in r.json()["reason"]


async def test_a_plain_sunloaf_state_with_a_fabricated_score_is_400(http):
    """The same for Sunloaf (sunloaf_history): a day-2 state is played with its real score,
    refused with 10^9 and with less than day 1's bonus (a day is only reached by clearing
    the one before)."""
    s = sl.init(7)
    while s["day"] == 1:
        s = sl.step(s, sl.reference_action(s))
    ok = await http.post("/api/games/sunloaf/action", json={"state": s, "action": {"type": "REST"}})
    assert ok.status_code == 200 and ok.json()["score"] >= s["score"] >= 100
    for score in (10**9, 99):
        s.update(score=score, chain=0)
        body = {"state": s, "action": {"type": "REST"}}
        r = await http.post("/api/games/sunloaf/action", json=body)
        assert r.status_code == 400 and r.json()["reason"].startswith(f"badState: score {score}")


async def test_unknown_game_and_bad_seed(http):
    assert (await http.get("/api/games/nope/init")).status_code == 404
    r = await http.get("/api/games/keelhold/init", params={"seed": "seven"})
    assert r.status_code == 400 and r.json()["ok"] is False
    r = await http.get("/api/games/keelhold/init", params={"seed": str(2**70)})
    assert r.status_code == 400


async def test_missing_seed_draws_one(http):
    body = (await http.get("/api/games/keelhold/init")).json()
    assert isinstance(body["state"]["seed"], int)


def test_server_keys_rotate():
    from cryptography.fernet import Fernet

    k1, k2 = Fernet.generate_key(), Fernet.generate_key()
    tok = TokenCodec([k1]).encode("keelhold", {"a": 1})
    assert TokenCodec([k2, k1]).decode("keelhold", tok) == {"a": 1}  # old key still reads
    with pytest.raises(ValueError, match="badToken"):
        TokenCodec([k2]).decode("keelhold", tok)  # a retired key's tokens are refused


async def test_oversized_bodies_are_413_before_parsing(http):
    big = b'{"action": {"type": "PLACE", "bay": 3}, "stateToken": "' + b"a" * (1024 * 1024) + b'"}'
    r = await http.post(
        "/api/games/keelhold/action", content=big, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["ok"] is False

    async def chunks():
        for _ in range(20):
            yield b"x" * 100_000

    r = await http.post(
        "/api/games/keelhold/action", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413


async def test_a_huge_queue_in_a_plain_state_is_refused_fast(http):
    import time

    s = kh.init(7)
    s["params"]["queueSize"] = 3_000_000
    t0 = time.perf_counter()
    r = await http.post(
        "/api/games/keelhold/action", json={"state": s, "action": {"type": "PLACE", "bay": 3}}
    )
    assert r.status_code == 400 and "queueSize" in r.json()["reason"]
    assert time.perf_counter() - t0 < 1.0
