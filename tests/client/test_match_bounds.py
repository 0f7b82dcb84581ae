"""Issue 12 case 3 for matches: a server's ``pollAfterMs`` is clamped to a sane window
(and the seat says so), and a server that stops advancing ends the seat with a clear error
instead of a loop that never ends."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest

from sunbot import strategies
from sunbot.client import MatchClient
from sunbot.client.pacing import (
    POLL_MAX_MS,
    POLL_MIN_MS,
    STALL_GRACE_S,
    STALL_S,
    clamp_poll_ms,
    near_deadline,
)
from sunbot.runs.seat_http import play_match
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from tests.client.test_match_loop import BEATS, fake_sleep
from tests.conftest import FAST_RETRY


def test_clamp_window():
    assert clamp_poll_ms(0) == POLL_MIN_MS == 50
    assert clamp_poll_ms(86_400_000) == POLL_MAX_MS == 5_000
    assert clamp_poll_ms(15) == 50  # a near deadline no longer lowers the floor
    assert clamp_poll_ms(500) == 500
    # our server's min(500, remainMs // 2) near a deadline: raised silently; elsewhere counted
    assert near_deadline(21, 42) and near_deadline(0, 1)
    assert not near_deadline(0, 20_000) and not near_deadline(50, 40)


class ViewRewrite(httpx.AsyncBaseTransport):
    """Our server on a fake clock; every view GET answer goes through ``rewrite``."""

    def __init__(self, app: Any, rewrite: Any) -> None:
        self.inner, self.rewrite = httpx.ASGITransport(app=app), rewrite
        self.frozen: dict[str, Any] | None = None  # once set, every GET answers it

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.frozen is not None and request.method == "GET":
            return httpx.Response(200, json=self.frozen, request=request)
        resp = await self.inner.handle_async_request(request)
        if request.method != "GET" or resp.status_code != 200:
            return resp
        body = self.rewrite(json.loads(await resp.aread()))
        return httpx.Response(200, json=body, request=request)


async def _play(rewrite: Any) -> tuple[list[Any], list[float]]:
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)
    sleeps: list[float] = []
    transport = ViewRewrite(app, rewrite)
    rewrite.transport = transport
    async with MatchClient(transport=transport, policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create("harvest-watch", seats=2, seed=5, beat_ms=BEATS, start_ms=0)
        players = [(t, strategies.create("harvest-watch", "coalition", random.Random(i)))
                   for i, t in enumerate(tickets)]  # fmt: skip
        results = await play_match(mc, mid, players, sleep=fake_sleep(clock, sleeps))
    return results, sleeps


@pytest.mark.parametrize(("value", "expected"), [(86_400_000, 5.0), (0, 0.05)])
async def test_poll_after_is_clamped_and_counted(value, expected, caplog):
    def rewrite(body: dict[str, Any]) -> dict[str, Any]:
        if body["status"] != "done":
            body["pollAfterMs"] = value
        return body

    results, sleeps = await _play(rewrite)
    assert all(r.error is None and r.ranks for r in results)
    assert sum(r.clamped_polls for r in results) > 0
    if value:  # a day's wait became five seconds
        assert max(sleeps) == pytest.approx(expected)
    else:  # no busy polling: never less than 50 ms, near a deadline too
        assert min(sleeps) == pytest.approx(0.05)
    assert f"pollAfterMs {value} clamped" in caplog.text


async def test_a_server_that_stops_advancing_ends_the_seats():
    def rewrite(body: dict[str, Any]) -> dict[str, Any]:
        if body["data"]["round"] >= 3:  # from round 3 on, the same waiting view forever
            body["next"]["rel"] = "poll"
            rewrite.transport.frozen = body  # type: ignore[attr-defined]
        return body

    results, sleeps = await _play(rewrite)
    for r in results:
        assert r.error is not None and "the server stopped advancing: round 3" in r.error
    # the frozen view promised its beat within 400 ms: the seats wait a minute past that,
    # not the 20 minutes a silent server gets, and say how long they really waited
    assert STALL_GRACE_S < sum(sleeps) < 2 * (STALL_GRACE_S + 1) < STALL_S
    waited = [int(re.search(r"after (\d+) s of polling", r.error or "")[1]) for r in results]
    assert all(STALL_GRACE_S <= w <= STALL_GRACE_S + 1 for w in waited)
