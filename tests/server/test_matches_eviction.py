"""Finished matches are freed: kept KEEP_DONE_MS after they end, then 404 (fake clock)."""

from __future__ import annotations

import pytest

from sunbot.server.clock import FakeClock
from sunbot.server.match_registry import MatchRegistry
from sunbot.server.match_state import KEEP_DONE_MS, SWEEP_EVERY_MS
from tests.server.matchkit import BEATS, create

GONE = {"ok": False, "reason": "no_such_match"}


@pytest.fixture
def clock():
    return FakeClock(50_000)


async def finished(http, clock, match_app):
    """A match whose only guest seat idles: it guards out on night 5, house bots finish."""
    mid, seats = await create(http, seed=3, startMs=0, beatMs=BEATS)
    (token,) = seats.values()
    clock.advance(120_000)  # far past the end: the next request catches the match up
    r = await http.get(f"/api/matches/{mid}", params={"token": token})
    assert r.status_code == 200 and r.json()["status"] == "done"
    match = match_app.state.matches.get(mid)
    return mid, token, match


async def test_a_finished_match_stays_readable_for_ten_minutes_then_answers_404(
    http, clock, match_app
):
    mid, token, match = await finished(http, clock, match_app)
    end = match.finished_at
    # it ended at a deadline while nobody was asking, not when the request noticed it
    assert end is not None and end < clock.now_ms() and end == match.deadline
    final = (await http.get(f"/api/matches/{mid}", params={"token": token})).json()
    clock.advance(end + KEEP_DONE_MS - 1 - clock.now_ms())
    late = await http.get(f"/api/matches/{mid}", params={"token": token})
    assert late.status_code == 200 and late.json() == final  # the final view, unchanged
    assert late.json()["data"]["result"]["ranks"] == match.state["result"]["ranks"]
    clock.advance(1)
    r = await http.get(f"/api/matches/{mid}", params={"token": token})
    assert (r.status_code, r.json()) == (404, GONE)
    assert match_app.state.matches.get(mid) is None  # dropped, not just hidden
    for path, body in ((f"/api/matches/{mid}/commands", {"token": token, "round": 1,
                                                         "actions": []}),
                       (f"/api/matches/{mid}/join", None)):  # fmt: skip
        r = await http.post(path, json=body)
        assert (r.status_code, r.json()) == (404, GONE)


async def test_an_expired_match_is_404_before_the_body_or_token_is_checked(http, clock, match_app):
    mid, _token, match = await finished(http, clock, match_app)
    clock.advance(match.finished_at + KEEP_DONE_MS - clock.now_ms())
    r = await http.post(f"/api/matches/{mid}/commands", content=b"{not json")
    assert (r.status_code, r.json()) == (404, GONE)
    r = await http.get(f"/api/matches/{mid}", params={"token": "x" * 43})
    assert (r.status_code, r.json()) == (404, GONE)


async def test_the_sweep_drops_matches_nobody_asks_about(http, clock, match_app):
    reg: MatchRegistry = match_app.state.matches
    abandoned, _ = await create(http, seed=4, startMs=0, beatMs=BEATS)
    never_started, _ = await create(http, seed=5, startMs=5_000, beatMs=BEATS)
    long_beats = {k: 600_000 for k in BEATS}
    running, seats = await create(http, seed=6, startMs=0, beatMs=long_beats)
    clock.advance(KEEP_DONE_MS + 200_000)
    assert set(reg.matches) == {abandoned, never_started, running}  # no request yet
    fresh, _ = await create(http, seed=7, startMs=0, beatMs=BEATS)  # any route sweeps
    assert set(reg.matches) == {running, fresh}  # a running match is never dropped
    r = await http.get(f"/api/matches/{running}", params={"token": seats[min(seats)]})
    assert r.status_code == 200 and r.json()["status"] == "running"
    for mid in (abandoned, never_started):
        r = await http.post(f"/api/matches/{mid}/join")
        assert (r.status_code, r.json()) == (404, GONE)


async def test_sweep_catches_up_exactly_as_a_request_would_and_is_throttled(http, clock, match_app):
    reg: MatchRegistry = match_app.state.matches
    a, _ = await create(http, seed=8, startMs=0, beatMs=BEATS)
    b, seats_b = await create(http, seed=8, startMs=0, beatMs=BEATS)
    clock.advance(120_000)
    assert reg.sweep(clock.now_ms()) == []  # both ended, neither expired yet
    ma, mb = reg.get(a), reg.get(b)
    assert ma.status == "done" and ma.finished_at is not None
    r = await http.get(f"/api/matches/{b}", params={"token": next(iter(seats_b.values()))})
    assert r.json()["status"] == "done"
    # the same seed: catching up in the sweep or in a request ends at the same deadline
    assert (ma.finished_at, ma.state["result"]) == (mb.finished_at, mb.state["result"])
    expiry = ma.finished_at + KEEP_DONE_MS
    assert reg.sweep(expiry - 1) == []  # a sweep runs: neither has expired yet
    assert reg.sweep(expiry) == []  # both expired, but within a second of the last sweep
    assert set(reg.sweep(expiry - 1 + SWEEP_EVERY_MS)) == {a, b}
    assert reg.matches == {}


def test_registry_keep_is_configurable_and_drop_is_idempotent():
    reg = MatchRegistry(keep_ms=5)
    assert reg.keep_ms == 5 and reg.sweep(0) == [] and reg.get("x") is None
    reg.drop("x")
