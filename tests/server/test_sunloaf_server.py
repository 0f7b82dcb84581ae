"""Sunloaf on the local server: the generic routes with the engine, tokens and plain states
(the platform protocol's "The local server"; Sunloaf §3 envelope, §6 refusals)."""

from __future__ import annotations

import json

import httpx
import pytest

from sunbot.engines import sunloaf as sl

URL = "/api/games/sunloaf"
REST = {"type": "REST"}
NEXT = {"type": "NEXT_DAY"}
END = {"type": "END_RUN"}


@pytest.fixture
async def http(app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        yield c


async def act(http, action, token=None, state=None):
    body = {"action": action}
    body.update({"stateToken": token} if token is not None else {"state": state})
    return await http.post(f"{URL}/action", json=body)


async def test_index_and_spec_routes(http):
    body = (await http.get("/api/games")).json()
    row = next(g for g in body["games"] if g["slug"] == "sunloaf")
    assert (row["initUrl"], row["actionUrl"]) == (f"{URL}/init", f"{URL}/action")
    assert row["name"] == "Sunloaf" and row["goal"] == sl.SPEC["goal"]
    spec = (await http.get(f"{URL}/spec")).json()
    assert spec["ok"] is True and spec["spec"] == sl.SPEC


async def test_init_is_the_engines_golden_day_one(http):
    r = await http.get(f"{URL}/init", params={"seed": 7})
    body = r.json()
    assert r.status_code == 200 and body["ok"] is True
    assert body["state"] == sl.init(7) == body["observation"]
    assert body["spec"] == sl.SPEC and body["score"] == 0 and body["gameOver"] is False
    assert body["legalActions"] == sl.legal_actions(sl.init(7))
    s = body["state"]  # §11.13
    assert (s["rng"], s["dayPar"], s["dayQuota"]) == (3599190436, 1370, 137)
    assert s["layout"]["furniture"] == [3, 33, 47] and s["layout"]["hearth"] == 24


async def test_token_and_plain_state_give_the_same_bytes(http):
    a = (await http.get(f"{URL}/init", params={"seed": 11})).json()
    move = next(x for x in a["legalActions"] if x["type"] == "MOVE")
    for action in (move, REST, {"type": "DOZE"}):
        ra = (await act(http, action, token=a["stateToken"])).json()
        rb = (await act(http, action, state=a["state"])).json()
        want = sl.step(sl.init(11), action)
        assert json.dumps(ra["state"]) == json.dumps(rb["state"]) == json.dumps(want)
        assert ra["legalActions"] == sl.legal_actions(want) and ra["score"] == want["score"]


@pytest.mark.parametrize(
    "action",
    [
        NEXT,  # only at sunset
        {"type": "MOVE", "cat": 0, "tile": 3},  # furniture on seed 7
        {"type": "MOVE", "cat": True, "tile": 20},  # a JSON boolean is not a cat id
        {"type": "MOVE", "cat": 4, "tile": 20},  # cat 4 joins on day 8
        {"type": "REST", "extra": 1},
        {"type": "NAP"},
    ],
)
async def test_illegal_actions_are_200_refusals_that_change_nothing(http, action):
    init = (await http.get(f"{URL}/init", params={"seed": 7})).json()
    r = await act(http, action, token=init["stateToken"])
    body = r.json()
    assert r.status_code == 200 and body["ok"] is False and body["reason"]
    assert body["legalActions"] == init["legalActions"] and "stateToken" not in body
    again = (await act(http, REST, token=init["stateToken"])).json()
    assert again["state"]["turn"] == 1


async def test_a_whole_day_to_sunset_then_next_day_and_end_run(http):
    body = (await http.get(f"{URL}/init", params={"seed": 7})).json()
    s = sl.init(7)
    while s["phase"] == "day":
        a = sl.reference_action(s)
        body = (await act(http, a, token=body["stateToken"])).json()
        s = sl.step(s, a)
        assert body["state"] == s
    assert body["legalActions"] == [NEXT, END] and body["score"] == 1370 + 100
    plain = (await act(http, NEXT, state=body["state"])).json()
    body = (await act(http, NEXT, token=body["stateToken"])).json()
    assert body["state"] == plain["state"] == sl.step(s, NEXT)
    assert body["state"]["day"] == 2 and body["state"]["mult"] == 135
    body = (await act(http, END, token=body["stateToken"])).json()
    assert body["gameOver"] is True and body["state"]["result"] == "goodGame"
    assert body["legalActions"] == []
    refused = (await act(http, REST, token=body["stateToken"])).json()
    assert refused["ok"] is False and refused["legalActions"] == []


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s["cats"][1].update(tile=s["cats"][0]["tile"]),  # two cats on a tile
        lambda s: s.update(dayQuota=s["dayQuota"] + 1),  # quota not from dayPar
        lambda s: s.update(mult=250),  # mult of another day
        lambda s: s["cats"][0].update(tile=True),  # a boolean tile
        lambda s: s.pop("layout"),
        lambda s: s.update(dayPar=s["dayPar"] + 10),  # par not replayed by the room
    ],
)
async def test_inconsistent_plain_states_are_400_bad_state(http, edit):
    s = sl.init(7)
    edit(s)
    r = await act(http, REST, state=s)
    assert r.status_code == 400 and r.json()["reason"].startswith("badState")
