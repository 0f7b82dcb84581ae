"""Issue 12 case 8: open matches are capped per server; the creator gets a clear 429 with
Retry-After, and a create succeeds again once a match is gone."""

from __future__ import annotations

from sunbot.server.match_state import KEEP_DONE_MS


async def test_creates_past_the_cap_get_429_until_one_expires(http, match_app, clock):
    match_app.state.matches.max_open = 5
    ids = []
    for _ in range(5):
        r = await http.post("/api/matches/harvest-watch", json={"seats": 6, "startMs": 0})
        assert r.status_code == 200
        ids.append(r.json()["matchId"])
    for _ in range(3):
        r = await http.post("/api/matches/harvest-watch", json={})
        assert r.status_code == 429 and r.headers["retry-after"] == "30"
        assert r.json() == {"ok": False, "reason": "too_many_matches"}
    assert len(match_app.state.matches.matches) == 5
    clock.advance(10**9)  # the abandoned matches play out, end and expire
    clock.advance(KEEP_DONE_MS + 1)
    r = await http.post("/api/matches/harvest-watch", json={})
    assert r.status_code == 200 and r.json()["matchId"] not in ids
