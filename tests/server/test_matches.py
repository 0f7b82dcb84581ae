"""The match routes (Harvest Watch §2) through HTTP, on a fake clock."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from sunbot.engines import harvest_watch as hw
from tests.server.matchkit import BEATS, create


async def view(http, mid, token):
    r = await http.get(f"/api/matches/{mid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()


async def post(http, mid, token, rnd, actions):
    r = await http.post(
        f"/api/matches/{mid}/commands", json={"token": token, "round": rnd, "actions": actions}
    )
    assert r.status_code == 200, r.text
    return r.json()


async def test_create_defaults_countdown_and_seat_draw(http):
    mid, seats = await create(http, seed=11, seats=2)
    assert sorted(seats) == sorted(random.Random(11).sample(range(6), 2))
    assert all(len(t) >= 43 for t in seats.values())  # 32 random bytes = 256 bits
    v = await view(http, mid, seats[min(seats)])
    assert v["status"] == "starting" and v["remainMs"] == 3000 and v["pollAfterMs"] == 500
    assert v["next"]["rel"] == "poll" and v["next"]["method"] == "GET"
    assert v["next"]["href"] == f"/api/matches/{mid}?token={seats[min(seats)]}"
    assert v["data"]["round"] == 1 and v["data"]["phase"] == "speech1"
    assert "pending" not in v["data"] and "schema" not in v["data"]
    assert v["data"]["summary"]["foods"] == [5.0] * 6


@pytest.mark.parametrize(
    "body",
    [
        {"seats": 0},
        {"seats": 7},
        {"seats": "2"},
        {"seats": True},
        {"beatMs": {"speech": 9}},
        {"beatMs": {"vote": 600_001}},
        {"beatMs": {"nap": 100}},
        {"startMs": -1},
        {"startMs": 1.5},
        {"seed": "x"},
        {"beatMS": {}},
        [],
    ],
)
async def test_create_bad_fields_are_400(http, body):
    r = await http.post("/api/matches/harvest-watch", json=body)
    assert (r.status_code, r.json()) == (400, {"ok": False, "reason": "bad_request"})


async def test_create_not_json_unknown_game(http):
    r = await http.post("/api/matches/harvest-watch", content=b"{nope")
    assert r.status_code == 400 and r.json()["reason"] == "bad_request"
    r = await http.post("/api/matches/keelhold", json={})
    assert r.status_code == 404


async def test_join_lowest_free_then_full_once_started(http, clock):
    mid, seats = await create(http, seed=3, seats=5, startMs=500)
    free = ({0, 1, 2, 3, 4, 5} - set(seats)).pop()
    r = await http.post(f"/api/matches/{mid}/join")
    assert r.status_code == 200 and r.json()["seat"] == free
    r = await http.post(f"/api/matches/{mid}/join")
    assert (r.status_code, r.json()) == (409, {"ok": False, "reason": "full"})
    mid2, _ = await create(http, seed=3, startMs=500)
    clock.advance(500)
    r = await http.post(f"/api/matches/{mid2}/join")
    assert r.status_code == 409  # started: house bots took every free seat
    r = await http.post("/api/matches/nope/join")
    assert (r.status_code, r.json()) == (404, {"ok": False, "reason": "no_such_match"})


async def test_view_bad_token_and_unknown_match(http):
    mid, seats = await create(http, seed=1)
    for params in ({"token": "x" * 43}, {}):
        r = await http.get(f"/api/matches/{mid}", params=params)
        assert (r.status_code, r.json()) == (403, {"ok": False, "reason": "bad_token"})
    r = await http.get("/api/matches/unknown", params={"token": next(iter(seats.values()))})
    assert r.status_code == 404
    r = await http.post(
        f"/api/matches/{mid}/commands", json={"token": "no", "round": 1, "actions": []}
    )
    assert r.status_code == 403


async def test_start_zero_house_bots_fill_before_the_answer(http, match_app):
    mid, seats = await create(http, seed=5, startMs=0, beatMs=BEATS)
    ((seat, token),) = seats.items()
    match = match_app.state.matches.get(mid)
    assert match.status == "running" and sorted(match.house) == sorted(set(range(6)) - {seat})
    assert set(match.stored) == set(match.house)  # house bots stored as the beat opened
    v = await view(http, mid, token)
    assert v["status"] == "running" and v["remainMs"] == 1000 and v["pollAfterMs"] == 500
    assert v["next"] == {"rel": "act", "method": "POST", "href": f"/api/matches/{mid}/commands"}
    assert v["data"]["schema"] == {"example": {"speech": "…"}} and "legal" not in v["data"]


async def test_refusals_in_pinned_order(http, clock):
    mid, seats = await create(http, seed=2, seats=6, startMs=100, beatMs=BEATS)
    t0 = seats[0]
    assert await post(http, mid, t0, 1, []) == {"ok": False, "reason": "not_running", "round": 1}
    clock.advance(100)
    assert (await post(http, mid, t0, 2, []))["reason"] == "stale_round"
    assert (await post(http, mid, t0, 0, []))["reason"] == "stale_round"
    assert (await post(http, mid, t0, 1, [{"speech": "a"}] * 11))["reason"] == "too_many_commands"
    bad = [{"speech": "fine"}, {"diary": "not on a speech beat"}]
    assert await post(http, mid, t0, 1, bad) == {
        "ok": False,
        "reason": "illegal_command",
        "round": 1,
    }
    ok = await post(http, mid, t0, 1, [{"speech": "hello"}, {"speech": "ignored"}])
    assert ok["ok"] is True  # the whole list is stored and shown; only its first applies
    assert ok["data"]["pending"] == [{"speech": "hello"}, {"speech": "ignored"}]
    assert ok["next"]["rel"] == "poll" and "schema" not in ok["data"]
    assert (await post(http, mid, t0, 1, [{"speech": "again"}]))["reason"] == "already_stored"
    for body in ({"round": 1, "actions": []}, {"token": t0, "actions": []},
                 {"token": t0, "round": 1, "actions": {}}, {"token": t0, "round": "1", "actions": []}):  # fmt: skip
        r = await http.post(f"/api/matches/{mid}/commands", json=body)
        assert (r.status_code, r.json()["reason"]) == (400, "bad_request")


async def test_early_resolution_when_every_living_seat_stored(http, match_app, clock):
    mid, seats = await create(http, seed=4, seats=6, startMs=0, beatMs=BEATS)
    match = match_app.state.matches.get(mid)
    for seat in range(5):
        r = await post(http, mid, seats[seat], 1, [{"speech": f"s{seat}"}])
        assert r["data"]["round"] == 1 and r["data"]["pending"] == [{"speech": f"s{seat}"}]
    clock.advance(300)
    last = await post(http, mid, seats[5], 1, [])  # a stored [] counts (hold = default)
    assert last["ok"] is True and last["data"]["round"] == 2 and "pending" not in last["data"]
    assert last["next"]["rel"] == "act" and last["remainMs"] == 1000  # opened at the store
    assert last["data"]["summary"]["speeches1"] == {**{str(s): f"s{s}" for s in range(5)}, "5": "…"}
    assert match.resolutions == 1 and match.opened_at == 10_300


async def test_missed_beats_default_and_catch_up_in_a_chain(http, match_app, clock):
    mid, seats = await create(http, seed=9, seats=6, startMs=0, beatMs=BEATS)
    await post(http, mid, seats[3], 1, [{"speech": "only me"}])
    clock.advance(1000 + 1000 + 800 + 1200 + 100)  # speech1, speech2, vote, action overdue
    v = await view(http, mid, seats[0])
    assert v["data"]["round"] == 5 and v["data"]["phase"] == "diary"
    assert v["remainMs"] == 400  # the diary opened at the action deadline, not at the request
    s = v["data"]["summary"]
    assert s["speeches1"] == {**{str(i): "…" for i in range(6)}, "3": "only me"}
    assert s["votes"] == {str(i): {"punish": None} for i in range(6)}
    assert s["foods"] == [4.0] * 6  # everyone guarded by default: 5.0 - 1.0
    assert match_app.state.matches.get(mid).resolutions == 4


async def test_hand_computed_day_fine_theft_guard_and_an_out(http):
    """Day 1 by hand: 0,1,2,3 fine seat 5 (4 > 6/2): F = 2.0, giveTo 1 twice and 0 twice
    -> 1.0 each. Acts: 0<->1 mutual coop (6.0+2.5-3 = 5.5), 2 one-sided coop (5.0+2-3),
    3 steals 2 (S[2] = 7.0 >= 2.0: 3 -> 5+2-3 = 4.0, 2 -> 7-2-3 = 2.0), 4 guards (4.0),
    5 steals from guard 4: blocked, 3.0-3 = 0.0, out (§3.5.6)."""
    mid, seats = await create(http, seed=1, seats=6, startMs=0, beatMs=BEATS)
    for rnd in (1, 2):
        for s in range(6):
            await post(http, mid, seats[s], rnd, [{"speech": f"{s}:{rnd}"}])
    ballots = [{"punish": 5, "giveTo": 1}, {"punish": 5, "giveTo": 0}, {"punish": 5, "giveTo": 0},
               {"punish": 5, "giveTo": 1}, {"punish": None}, {"punish": 0, "giveTo": 1}]  # fmt: skip
    for s, b in enumerate(ballots):
        r = await post(http, mid, seats[s], 3, [b])
    s4 = r["data"]["summary"]
    assert r["data"]["phase"] == "action" and s4["foods"] == [6.0, 6.0, 5.0, 5.0, 5.0, 3.0]
    assert s4["punishResult"] == {"punished": 5, "fine": 2.0, "shares": {"0": 1.0, "1": 1.0}}
    assert s4["lastPublic"] == "Day 1: seat 5 fined 2.0."
    acts = [{"act": "farm_coop", "with": 1}, {"act": "farm_coop", "with": 0},
            {"act": "farm_coop", "with": 0}, {"act": "steal", "target": 2}, {"act": "guard"},
            {"act": "steal", "target": 4}]  # fmt: skip
    views = [await view(http, mid, seats[s]) for s in range(6)]
    assert all(len(v["data"]["legal"]) == 17 for v in views)
    for s, a in enumerate(acts):
        r = await post(http, mid, seats[s], 4, [a])
    out = {s: (await view(http, mid, seats[s]))["data"] for s in range(6)}
    assert out[0]["round"] == 5 and out[0]["summary"]["foods"] == [5.5, 5.5, 2.0, 4.0, 4.0, 0.0]
    assert out[0]["summary"]["aliveSeats"] == [0, 1, 2, 3, 4]
    assert out[0]["summary"]["lastPublic"] == "Night 1: seat 5 out."
    assert out[4]["summary"]["caught"] == [5] and out[5]["summary"]["collided"] == []
    assert out[3]["summary"]["caught"] == [] and out[0]["summary"]["caught"] == []
    assert out[5]["pending"] == [] and "schema" not in out[5]  # an out seat holds []
    assert (await post(http, mid, seats[5], 5, [{"diary": "x"}]))["reason"] == "seat_out"


async def test_one_resolution_per_beat_under_concurrent_commands(http, match_app):
    mid, seats = await create(http, seed=8, seats=6, startMs=0, beatMs=BEATS)
    match = match_app.state.matches.get(mid)
    for rnd in (1, 2, 3):
        cmd = {"punish": None} if rnd == 3 else {"speech": "x"}
        bodies = [(seats[s], [cmd]) for s in range(6) for _ in range(4)]
        random.Random(rnd).shuffle(bodies)
        answers = await asyncio.gather(*(post(http, mid, t, rnd, a) for t, a in bodies))
        assert sum(a["ok"] is True for a in answers) == 6
        assert {a["reason"] for a in answers if a["ok"] is False} <= {
            "already_stored",
            "stale_round",
        }
        assert match.resolutions == rnd and match.state["round"] == rnd + 1
    assert [e["round"] for e in match.state["log"]] == [1, 2, 3]


async def test_poll_after_is_below_remain_through_a_whole_match(http, clock):
    mid, seats = await create(http, seed=6, startMs=700, beatMs=BEATS)
    (token,) = seats.values()
    rng = random.Random(6)
    while True:
        v = await view(http, mid, token)
        if v["status"] == "done":
            assert v["pollAfterMs"] == 0 and v["next"] is None and v["remainMs"] == 0
            break
        assert 0 < v["pollAfterMs"] < v["remainMs"]
        assert v["pollAfterMs"] == min(500, v["remainMs"] // 2)
        clock.advance(rng.randint(1, 900))
    ranks = v["data"]["result"]["ranks"]
    assert len(ranks) == 6 and min(ranks) == 1
    assert v["data"]["round"] == hw.round_of(v["data"]["summary"]["day"], "action")


async def test_no_secret_reaches_another_seat(http, match_app):
    mid, seats = await create(http, seed=12, seats=6, startMs=0, beatMs=BEATS)
    secret = "my-very-private-diary"
    for rnd, cmd in ((1, {"speech": "a"}), (2, {"speech": "b"}), (3, {"punish": None})):
        for s in range(6):
            await post(http, mid, seats[s], rnd, [cmd])
    await post(http, mid, seats[0], 4, [{"act": "steal", "target": 1}])
    await post(http, mid, seats[1], 4, [{"act": "guard"}])
    v2 = await view(http, mid, seats[2])
    assert set(v2["data"]) == {"round", "phase", "legal", "summary"}  # no one else's pending
    assert "caught" not in v2["data"]["summary"] and "collided" not in v2["data"]["summary"]
    for s in range(2, 6):
        await post(http, mid, seats[s], 4, [{"act": "farm"}])
    await post(http, mid, seats[0], 5, [{"diary": secret}])
    mine = await view(http, mid, seats[0])
    assert mine["data"]["pending"] == [{"diary": secret}]
    for s in range(1, 6):
        text = json.dumps(await view(http, mid, seats[s]))
        assert secret not in text and "steal" not in text
        assert not any(seats[o] in text for o in range(6) if o != s)
    caught = [(await view(http, mid, seats[s]))["data"]["summary"]["caught"] for s in range(6)]
    assert caught == [[], [0], [], [], [], []]  # only the guard sees its thief
    for s in range(1, 6):
        await post(http, mid, seats[s], 5, [])
    after = json.dumps(await view(http, mid, seats[0]))
    assert secret not in after  # diaries stay in the server's log, even for their author
