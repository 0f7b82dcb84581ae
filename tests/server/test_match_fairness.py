"""Issue 12 case 8, per client: one client (one peer address) cannot fill the server's
match cap: past its own limit of live matches it gets a clear 429, while others still
create; its finished matches do not count; a full server makes room by dropping the
finished match that ended first (fake clock, in process)."""

from __future__ import annotations

import httpx
import pytest

from sunbot.server.match_registry import MAX_LIVE_PER_CLIENT, MAX_OPEN_MATCHES
from tests.server.matchkit import BEATS

CLIENT_FULL = {"ok": False, "reason": "too_many_matches_from_client"}


@pytest.fixture
async def other(match_app):
    """A second client, from another address."""
    transport = httpx.ASGITransport(app=match_app, client=("10.0.0.2", 4321))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c


async def _create(http, **body):
    return await http.post("/api/matches/harvest-watch", json={"seats": 6, **body})


async def test_one_client_cannot_take_every_match(http, other, match_app):
    reg = match_app.state.matches
    assert (reg.max_open, reg.max_live_per_client) == (MAX_OPEN_MATCHES, MAX_LIVE_PER_CLIENT)
    reg.max_open, reg.max_live_per_client = 10, 3
    for _ in range(3):
        assert (await _create(http)).status_code == 200
    for _ in range(2):
        r = await _create(http)
        assert r.status_code == 429 and r.json() == CLIENT_FULL
        assert r.headers["retry-after"] == "30"
    for _ in range(3):  # another address still creates, up to its own limit
        assert (await _create(other)).status_code == 200
    assert (await _create(other)).json() == CLIENT_FULL
    assert (
        len(reg.matches) == 6
        and sorted(reg.owners.values()) == ["10.0.0.2"] * 3 + ["127.0.0.1"] * 3
    )


async def test_finished_matches_do_not_count_against_their_creator(http, match_app, clock):
    reg = match_app.state.matches
    reg.max_live_per_client = 2
    for _ in range(2):
        assert (await _create(http, startMs=0, beatMs=BEATS)).status_code == 200
    assert (await _create(http)).json() == CLIENT_FULL
    clock.advance(120_000)  # the idle seats guard out, the house bots finish (kept 10 min)
    r = await _create(http)
    assert r.status_code == 200 and len(reg.matches) == 3  # the two are kept, not counted
    assert sum(m.status == "done" for m in reg.matches.values()) == 2


async def test_a_full_server_drops_the_match_that_ended_first(http, other, match_app, clock):
    reg = match_app.state.matches
    reg.max_open = 3
    ids = []
    for delay in (0, 5_000, 10_000):  # the same match, started 5 s apart: ends in that order
        r = await _create(http, startMs=delay, beatMs=BEATS, seed=3)
        ids.append(r.json()["matchId"])
    r = await _create(other)
    assert r.status_code == 429 and r.json()["reason"] == "too_many_matches"  # all live
    clock.advance(120_000)  # all three end, well inside their 10 minutes of keeping
    reg.sweep(clock.now_ms())
    ended = [reg.matches[i].finished_at for i in ids]
    assert None not in ended and ended == sorted(ended) and ended[0] < ended[1]
    r = await _create(other)
    assert r.status_code == 200 and list(reg.matches) == [*ids[1:], r.json()["matchId"]]
    seat0 = await http.get(f"/api/matches/{ids[0]}", params={"token": "x"})
    assert seat0.status_code == 404 and seat0.json()["reason"] == "no_such_match"
