"""The seat loop against a view envelope dressed another faithful way (the rule text's
Platform and State sections): ``next`` names only ``rel: act`` or some other GET form, with
no ``href``; the finished status word is not ``done`` and ``next`` is left out then;
``data.phase`` (our copy of ``summary.phase``) is not sent. Every seat must still play the
whole match to its ranks, strategies reading the phase from the summary."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from sunbot import strategies
from sunbot.client import MatchClient
from sunbot.client.matches import MatchView, observation_of
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.observations.harvest_watch import legal_actions
from sunbot.runs.seat_http import play_match
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from tests.client.test_match_loop import BEATS, fake_sleep, mirrored
from tests.conftest import FAST_RETRY


def redress(view: dict[str, Any]) -> dict[str, Any]:
    """Our view as another server might send it."""
    data = view.get("data")
    if not isinstance(data, dict) or "status" not in view:
        return view
    data.pop("phase", None)
    nxt = view.pop("next", None)
    if view["status"] == "done":
        view["status"] = "finished"
    elif isinstance(nxt, dict) and nxt.get("rel") == "act":
        view["next"] = {"rel": "act"}
    else:
        view["next"] = {"rel": "wait", "method": "GET"}
    return view


class Redressing(httpx.AsyncBaseTransport):
    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.finished_seen = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        resp = await self.inner.handle_async_request(request)
        if "/api/matches/" not in request.url.path or request.url.path.endswith("/join"):
            return resp
        body = json.loads(await resp.aread())
        if isinstance(body, dict):
            body = redress(body)
            self.finished_seen += body.get("status") == "finished"
        return httpx.Response(resp.status_code, json=body)


@pytest.mark.parametrize("name", ["coalition", "adaptive", "house"])
async def test_another_envelope_plays_to_the_end(name: str) -> None:
    clock = FakeClock()
    transport = Redressing(create_app(TokenCodec(), clock=clock))
    mirrors: dict[int, MatchMirror] = {}
    async with MatchClient(transport=transport, policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create(
            "harvest-watch", seats=3, seed=21, beat_ms=BEATS, start_ms=300
        )
        players = [(t, strategies.create("harvest-watch", name, random.Random(i)))
                   for i, t in enumerate(tickets)]  # fmt: skip
        results = await play_match(
            mc, mid, players, on_event=mirrored(mirrors), sleep=fake_sleep(clock, [])
        )
    assert [r.error for r in results] == [None, None, None]
    ranks = results[0].ranks
    assert ranks is not None and len(ranks) == 6 and min(ranks) == 1
    assert all(r.ranks == ranks for r in results)
    assert transport.finished_seen >= 3  # each seat ended on the other status word
    assert sum(r.commands for r in results) > 15  # the default wins seed 21 on night 6
    assert sum(r.refusals.total() for r in results) == 0
    assert all(m.divergences == [] for m in mirrors.values())


def test_the_phase_comes_from_the_summary() -> None:
    data = {"round": 13, "summary": {"phase": "vote", "you": 1, "aliveSeats": [0, 1, 2]}}
    obs = observation_of(data)
    assert obs["phase"] == "vote" and "phase" not in data  # the raw data is left alone
    # a server's data.phase of its own meaning does not override the text's field
    assert observation_of({**data, "phase": "ballot"})["phase"] == "vote"
    ballots = legal_actions({**data, "phase": "ballot", "schema": {"example": {"punish": None}}})
    assert ballots[:3] == [{"punish": None}, {"punish": 0, "giveTo": 2}, {"punish": 1, "giveTo": 0}]
    assert len(ballots) == 1 + 3 * 2 - 2  # N any of 3; M living, not N, not the voter


def test_the_end_is_read_from_the_summary_whatever_the_status_word() -> None:
    base = {"remainMs": 0, "pollAfterMs": 0, "data": {"round": 24, "summary": {}}}
    done = {**base, "status": "over", "data": {"round": 24, "summary": {"phase": "done"}}}
    assert MatchView.model_validate(done).finished
    running = {**base, "status": "running", "data": {"round": 24, "summary": {"phase": "diary"}}}
    assert not MatchView.model_validate(running).finished
    assert MatchView.model_validate({**base, "status": "done"}).finished
