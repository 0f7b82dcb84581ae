"""Issue 12 case 1: a seat sending text that cannot be encoded (a lone surrogate is valid
JSON) is refused, and every other seat keeps playing to the end of the match."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx

from sunbot import strategies
from sunbot.client import MatchClient
from sunbot.runs.seat_http import play_match
from sunbot.runs.seats import fallback_command
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from sunbot.server.responses import SafeJSONResponse
from tests.client.test_match_loop import fake_sleep
from tests.conftest import FAST_RETRY
from tests.server.matchkit import create

HOSTILE = ["\ud800", "a\udfffb", "\udbff\udc00\ud800"]


async def test_lone_surrogate_speech_is_refused_and_views_still_answer(http, clock):
    mid, tokens = await create(http, seats=6, seed=3, startMs=0)
    raw = json.dumps({"token": tokens[0], "round": 1, "actions": [{"speech": "\ud800"}]})
    r = await http.post(
        f"/api/matches/{mid}/commands",
        content=raw.encode(),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 200
    assert r.json() == {"ok": False, "reason": "illegal_command", "round": 1}
    for seat in range(1, 6):  # the others store and resolve the beat; every view answers
        r = await http.post(
            f"/api/matches/{mid}/commands",
            json={"token": tokens[seat], "round": 1, "actions": [{"speech": "hi \u2603"}]},
        )
        assert r.status_code == 200 and r.json()["ok"] is True
    clock.advance(60_000)
    for seat in range(6):
        r = await http.get(f"/api/matches/{mid}", params={"token": tokens[seat]})
        assert r.status_code == 200, r.text
        assert r.json()["data"]["round"] >= 2


class Hostile:
    """Speaks, votes and writes diaries with lone surrogates; acts legally."""

    def __init__(self) -> None:
        self.n = 0

    def choose(self, data: dict[str, Any], legal: list[Any]) -> Any:
        self.n += 1
        text = HOSTILE[self.n % len(HOSTILE)]
        if data["phase"].startswith("speech"):
            return {"speech": text}
        if data["phase"] == "diary":
            return {"diary": text}
        return fallback_command(data)


async def test_a_hostile_seat_does_not_stop_the_others():
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)
    beats = {"speech": 400, "vote": 400, "action": 400, "diary": 400}
    async with MatchClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create("harvest-watch", seats=6, seed=11, beat_ms=beats, start_ms=0)
        players: list[tuple[Any, Any]] = [(tickets[0], Hostile())]
        players += [
            (t, strategies.create("harvest-watch", "coalition", random.Random(i)))
            for i, t in enumerate(tickets[1:])
        ]
        results = await play_match(mc, mid, players, sleep=fake_sleep(clock, []))
    assert all(r.error is None for r in results), [r.error for r in results]
    assert all(r.ranks is not None for r in results)
    assert results[0].refusals["illegal_command"] >= 1


def test_an_answer_holding_unencodable_text_still_encodes():
    body = SafeJSONResponse({"speech": "a\ud800", "snow": "\u2603"}).body
    assert json.loads(body) == {"speech": "a\ud800", "snow": "\u2603"}
    assert SafeJSONResponse({"snow": "\u2603"}).body == '{"snow":"\u2603"}'.encode()
