"""The local server on Naptuft: hidden state behind Fernet tokens (spec naptuft.md §2, §3, §6.1)."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from sunbot.engines import naptuft as nt
from sunbot.server import TokenCodec, create_app

CARE = {"type": "care", "care": "nap"}
ALL_CARES = [{"type": "care", "care": c} for c in ("feed", "play", "brush", "nap")]
ENVELOPE_KEYS = {"ok", "state", "stateToken", "observation", "legalActions", "score", "gameOver"}


@pytest.fixture
def codec():
    return TokenCodec()


@pytest.fixture
async def http(codec):
    transport = httpx.ASGITransport(app=create_app(codec))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c


async def init(http, seed=7):
    r = await http.get("/api/games/naptuft/init", params={"seed": seed})
    assert r.status_code == 200
    return r.json()


async def act(http, carry, action):
    return await http.post("/api/games/naptuft/action", json={**carry, "action": action})


def keys_anywhere(value):
    """Every dict key at any depth of a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


async def test_init_envelope_is_the_observation_and_hides_seed_cursor_version(http):
    body = await init(http)
    assert set(body) == ENVELOPE_KEYS | {"spec"}
    assert body["state"] == body["observation"] == nt.observation(nt.init(7))
    assert list(body["state"]) == list(nt.OBS_KEYS)
    assert not {"seed", "cursor", "version"} & keys_anywhere(body)
    # §4 vectors: the opening wish of seed 7 is [nap, feed], nextWindow is descriptor 3
    assert body["state"]["wish"] == {"actions": ["nap", "feed"], "progress": 0}
    assert body["state"]["nextWindow"] == {
        "wish": ["feed"],
        "pressure": {"food": 0, "joy": 0, "cleanliness": 1, "energy": 0},
    }
    assert body["legalActions"] == [*ALL_CARES, {"type": "end-run"}]
    assert body["score"] == 0 and body["gameOver"] is False
    assert body["spec"]["actionSchema"] == nt.SPEC["actionSchema"]


async def test_a_care_through_the_token_gives_w1s_first_numbers(http):
    body = await init(http)
    r = await act(http, {"stateToken": body["stateToken"]}, CARE)
    nxt = r.json()
    assert r.status_code == 200 and nxt["ok"] is True and set(nxt) == ENVELOPE_KEYS
    # W1: nap restores 30 (clamp), decay 7 each -> 63/63/63/93, comfort +10: score 40
    assert nxt["state"]["needs"] == {"food": 63, "joy": 63, "cleanliness": 63, "energy": 93}
    assert nxt["score"] == nxt["state"]["score"] == 40
    assert nxt["state"]["wish"] == {"actions": ["nap", "feed"], "progress": 1}
    assert nxt["state"] == nxt["observation"]


async def test_plain_state_is_refused_with_400(http):
    body = await init(http)
    r = await act(http, {"state": body["state"]}, CARE)
    assert r.status_code == 400
    assert r.json()["ok"] is False and r.json()["reason"].startswith("badRequest")
    # even a complete engine state with the hidden parts is not accepted in the clear
    r = await act(http, {"state": nt.init(7)}, CARE)
    assert r.status_code == 400


def flip_bit(token: str, byte_index: int) -> str:
    raw = bytearray(base64.urlsafe_b64decode(token))
    raw[byte_index] ^= 0x01
    return base64.urlsafe_b64encode(bytes(raw)).decode("ascii")


@pytest.mark.parametrize("where", [0, 9, 40, -33, -1])
async def test_bit_flipped_token_is_bad_token(http, where):
    token = (await init(http))["stateToken"]
    raw_len = len(base64.urlsafe_b64decode(token))
    r = await act(http, {"stateToken": flip_bit(token, where % raw_len)}, CARE)
    assert r.status_code == 400
    assert set(r.json()) == {"ok", "reason"} and r.json()["ok"] is False
    assert r.json()["reason"].startswith("badToken")


async def test_forged_other_key_and_other_game_tokens_are_bad_token(http, codec):
    forged_state = nt.init(7) | {"needs": dict.fromkeys(nt.NEEDS, 100), "score": 10**6}
    other_key = TokenCodec().encode("naptuft", forged_state)
    other_game = codec.encode("keelhold", nt.init(7))
    for token in (other_key, other_game, "not-a-token", "gAAAAA" + "A" * 100):
        r = await act(http, {"stateToken": token}, CARE)
        assert r.status_code == 400, token
        assert r.json()["reason"].startswith("badToken")


async def test_a_token_of_ours_holding_an_inconsistent_state_is_bad_token(http, codec):
    # e.g. a token from an older format: a forecast that is not the seed's deck (§3, §4)
    bad = nt.init(7)
    bad["forecast"][1] = {"wish": ["feed"], "pressure": dict.fromkeys(nt.NEEDS, 4)}
    r = await act(http, {"stateToken": codec.encode("naptuft", bad)}, CARE)
    assert r.status_code == 400 and r.json()["reason"].startswith("badToken")
    cursor_off = nt.init(7) | {"cursor": 5}
    r = await act(http, {"stateToken": codec.encode("naptuft", cursor_off)}, CARE)
    assert r.status_code == 400 and r.json()["reason"].startswith("badToken")


async def walk_to(http, body, actions):
    for a in actions:
        r = await act(http, {"stateToken": body["stateToken"]}, a)
        body = r.json()
        assert body["ok"] is True, body
    return body


def rotation(n):
    return [{"type": "care", "care": nt.CARES[i % 4]} for i in range(n)]


async def test_refusals_carry_the_pinned_codes_and_the_old_token_stays_valid(http):
    body = await init(http)
    token = body["stateToken"]
    cases = [
        ({"type": "care", "care": "Feed"}, "malformed"),
        ({"type": "END_RUN"}, "malformed"),
        ({"type": "care", "care": "feed", "extra": 1}, "malformed"),
        ({"type": "next-day"}, "notDayBreak"),
    ]
    for action, code in cases:
        r = await act(http, {"stateToken": token}, action)
        assert r.status_code == 200
        refused = r.json()
        assert set(refused) == {"ok", "reason", "legalActions"}
        assert refused["ok"] is False and refused["reason"].startswith(code + ": ")
        assert refused["legalActions"] == body["legalActions"]
    # the refusals spent nothing: the old token still plays W1's first care
    r = await act(http, {"stateToken": token}, CARE)
    assert r.json()["score"] == 40 and r.json()["state"]["moment"] == 1

    day_break = await walk_to(http, body, rotation(12))
    assert day_break["state"]["phase"] == "dayBreak"
    r = await act(http, {"stateToken": day_break["stateToken"]}, CARE)
    assert r.json()["reason"].startswith("dayBreak: ")
    assert r.json()["legalActions"] == [{"type": "next-day"}, {"type": "end-run"}]

    over = await walk_to(http, day_break, [{"type": "end-run"}])
    assert over["gameOver"] is True and over["legalActions"] == []
    assert over["state"]["result"] == "ended" and over["state"]["cause"] == "end-run"
    r = await act(http, {"stateToken": over["stateToken"]}, {"type": "next-day"})
    assert r.status_code == 200 and r.json()["ok"] is False
    assert r.json()["reason"].startswith("gameOver: ") and r.json()["legalActions"] == []


async def test_repeat_care_is_refused_from_day_7(http):
    body = await init(http, seed=3)
    for _ in range(6):  # six days of rotation, each day ends with nap
        body = await walk_to(http, body, [*rotation(12), {"type": "next-day"}])
    assert body["state"]["day"] == 7 and body["state"]["lastCare"] == "nap"
    r = await act(http, {"stateToken": body["stateToken"]}, CARE)
    assert r.json()["reason"].startswith("repeatCare: ")
    assert {"type": "care", "care": "nap"} not in r.json()["legalActions"]
    assert len(r.json()["legalActions"]) == 4


async def test_token_hides_seed_and_deck(http, codec):
    seed = 123456789
    body = await init(http, seed=seed)
    token = body["stateToken"]
    inside = codec.decode("naptuft", token)  # what the server alone can read
    assert inside["seed"] == seed and inside["cursor"] == 0 and inside["version"] == 1
    raw = base64.urlsafe_b64decode(token)
    for plain in (str(seed).encode(), b"seed", b"cursor", b"naptuft", b"feed", b"pressure"):
        assert plain not in raw  # neither in the bytes ...
    for plain in (str(seed), "cursor", "naptuft", "pressure"):
        assert plain not in token  # ... nor in the token's text (only long words: base64)
    # two tokens of the same state differ (fresh IV) but play the same (§2)
    again = await init(http, seed=seed)
    assert again["stateToken"] != token
    a = (await act(http, {"stateToken": token}, CARE)).json()
    b = (await act(http, {"stateToken": again["stateToken"]}, CARE)).json()
    assert json.dumps(a["state"]) == json.dumps(b["state"])
