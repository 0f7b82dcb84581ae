"""The other server itself: faithful where the rules decide, different where they do not."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import httpx
import pytest

from sunbot.engines import keelhold as kh
from sunbot.engines import naptuft as nt
from sunbot.engines import sunloaf as sl
from sunbot.testing.otherserver import OtherOptions, create_other_app
from sunbot.testing.otherserver import keelhold as okh
from sunbot.testing.otherserver import naptuft as ont
from sunbot.testing.otherserver import sunloaf as osl
from sunbot.testing.otherserver.matches import ROUND_OFFSET, poll_after


def call(app: Any, method: str, url: str, body: Any = None) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://other") as c:
            return await c.request(method, url, json=body)

    return asyncio.run(go())


@pytest.fixture
def other() -> Any:
    return create_other_app(OtherOptions(throttle_every=0))


def test_keelhold_is_served_in_the_state_form_with_a_seal_and_no_cursor(other):
    got = call(other, "GET", "/api/games/keelhold/init?seed=7").json()
    assert "stateToken" not in got and "rng" not in got["state"] and "rng" not in got["observation"]
    assert got["state"]["rev"] == 2 and got["observation"]["tip"] == "keep her level"
    assert got["meta"] == {"server": "other", "served": "v1"}
    assert got["spec"]["actionGrammar"]["oneOf"][0]["properties"]["type"]["const"] == "PLACE"
    bay = got["state"]["safeBays"][0]
    nxt = call(other, "POST", "/api/games/keelhold/action",
               {"state": got["state"], "action": {"type": "PLACE", "bay": bay}}).json()  # fmt: skip
    assert nxt["ok"] is True and nxt["state"]["turn"] == 1 and len(nxt["state"]["queue"]) == 4
    forged = {**got["state"], "score": 999}
    bad = call(other, "POST", "/api/games/keelhold/action",
               {"state": forged, "action": {"type": "PLACE", "bay": bay}})  # fmt: skip
    assert bad.status_code == 400 and "changed" in bad.json()["reason"]
    refused = call(other, "POST", "/api/games/keelhold/action",
                   {"state": got["state"], "action": {"type": "PLACE", "bay": 0}}).json()  # fmt: skip
    assert refused["ok"] is False and refused["legalActions"] == got["legalActions"]


def test_sunloaf_token_is_readable_signed_json_and_tampering_is_refused(other):
    got = call(other, "GET", "/api/games/sunloaf/init?seed=3").json()
    body, _, sig = got["stateToken"].partition(".")
    inside = json.loads(base64.urlsafe_b64decode(body))
    assert inside["game"] == "sunloaf" and inside["state"]["seed"] == 3 and len(sig) == 64
    assert "rng" not in got["state"] and got["state"]["weather"] == {"clouds": "scattered"}
    inside["state"]["score"] = 500
    forged = base64.urlsafe_b64encode(json.dumps(inside).encode()).decode() + "." + sig
    bad = call(other, "POST", "/api/games/sunloaf/action",
               {"stateToken": forged, "action": {"type": "REST"}})  # fmt: skip
    assert bad.status_code == 400


def test_naptuft_token_is_an_id_and_cause_has_other_words(other):
    got = call(other, "GET", "/api/games/naptuft/init?seed=7").json()
    assert got["stateToken"].startswith("pos-") and got["state"]["needs"]["food"] == 80
    assert "seed" not in got["state"] and got["observation"]["catName"] == "Tuft"
    end = call(other, "POST", "/api/games/naptuft/action",
               {"stateToken": got["stateToken"], "action": {"type": "end-run"}}).json()  # fmt: skip
    assert end["state"]["cause"] == "ended by the player" and end["gameOver"] is True
    assert ont.cause_words("zero:food,joy") == "food, joy ran out"


def test_local_choices_differ_from_ours():
    ours, theirs = kh.init(7), okh.init(7)
    assert theirs["params"]["capacity"] == 7 != ours["params"]["capacity"]
    assert len(theirs["queue"]) == 4 and theirs["rng"] is None
    assert osl.init(7)["layout"] != sl.init(7)["layout"]
    assert [ont.descriptor(7, k) for k in range(6)] != [nt.descriptor(7, k) for k in range(6)]


def test_keelhold_ramp_keeps_what_the_text_fixes():
    prev = okh.other_params(1, [], 0)
    assert prev["openBays"] == [1, 2, 3, 4, 5]  # voyage 1: the outer hatches are shut
    draws = okh.HashDraws()
    conds: list[str] = []
    for voyage in range(2, 40):
        p = draws.voyage({"seed": 11}, voyage, conds)
        assert p["openBays"] == list(range(7))
        plain = okh.other_params(voyage, [], 0)
        assert plain["tolerance"] > okh.other_params(voyage - 1, [], 0)["tolerance"]
        assert plain["quota"] > okh.other_params(voyage - 1, [], 0)["quota"]
        assert (voyage >= 21) == bool(p["conditions"]) and not set(p["conditions"]) & set(conds)
        if "shortCrew" in p["conditions"]:
            assert p["queueSize"] == plain["queueSize"] - 1
        if "heavyLot" in p["conditions"]:
            assert p["weightMin"] == plain["weightMin"] + 1
        conds = p["conditions"]


def test_sunloaf_rooms_keep_what_the_text_fixes():
    gen = osl.GENERATION
    for day in (1, 2, 6, 12, 15, 16, 20, 24):
        prm = gen.day_params(day)
        assert prm.band_dwell == (3 if day <= 11 else 2) and prm.lattice == (day >= 16)
        assert prm.dogs == (0 if day < 6 else 1 if day < 20 else 2)
        assert prm.dog_speed == (2 if day >= 24 else 1)
    s = osl.init(5)
    assert len(s["cats"]) == 2 and s["dayQuota"] == (s["dayPar"] * 1000 + 9999) // 10000
    tiles = {c["tile"] for c in s["cats"]} | set(s["layout"]["furniture"])
    assert len(tiles) == 2 + len(s["layout"]["furniture"])


def test_throttle_refuses_every_nth_request_with_and_without_retry_after():
    app = create_other_app(OtherOptions(throttle_every=3))
    answers = [call(app, "GET", "/api/games") for _ in range(12)]
    statuses = [a.status_code for a in answers]
    assert statuses == [200, 200, 429] * 4
    hints = [a.headers.get("retry-after") for a in answers if a.status_code == 429]
    assert hints == ["0", None, "0", None]


def test_match_view_has_other_numbering_pacing_and_words(other):
    made = call(other, "POST", "/api/matches/harvest-watch",
                {"seats": 2, "seed": 4, "startMs": 0}).json()  # fmt: skip
    token = made["seats"][0]["token"]
    view = call(other, "GET", f"/api/matches/{made['matchId']}?token={token}").json()
    data = view["data"]
    assert data["round"] == 1 + ROUND_OFFSET and data["phase"] == "speech1"
    assert data["schema"]["example"] == {"speech": "Good morning, table."}
    assert data["summary"]["lastPublic"].startswith("Bulletin, day 1")
    assert 0 < view["pollAfterMs"] < view["remainMs"] and view["pollAfterMs"] <= 300
    stale = call(other, "POST", f"/api/matches/{made['matchId']}/commands",
                 {"token": token, "round": 1, "actions": []}).json()  # fmt: skip
    assert stale == {"ok": False, "reason": "stale_round", "round": 1 + ROUND_OFFSET}
    stored = call(other, "POST", f"/api/matches/{made['matchId']}/commands",
                  {"token": token, "round": data["round"], "actions": []}).json()  # fmt: skip
    assert stored["ok"] is True and stored["data"]["pending"] == []


def test_poll_after_is_always_shorter_than_the_time_left():
    assert all(poll_after("running", r) < r for r in range(1, 5000))
    assert poll_after("starting", 0) == 50 and poll_after("done", 0) == 0


def test_serving_entry_refuses_an_unknown_bug_and_a_throttle_of_one(capsys):
    from sunbot.testing.otherserver.__main__ import main

    for argv, message in (
        (["--bug", "no-such-bug"], "unknown bug no-such-bug"),
        (["--throttle-every", "1"], "--throttle-every must be 0 or at least 2"),
        (["--port", "0"], "--port must be 1..65535"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2 and message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "keelhold-trim" in capsys.readouterr().out
