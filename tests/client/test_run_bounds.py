"""Issue 12 cases 3 and 10: a run against a server that stops advancing, never says
gameOver, or answers for another game ends with one line naming what the server did
wrong and a result line in the transcript, instead of looping forever or a traceback."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import httpx
import pytest

from sunbot import strategies
from sunbot.client import GameboardClient
from sunbot.runs.loop import MAX_SAME_POSITION
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter
from tests.conftest import FAST_RETRY


class Rewriting(httpx.AsyncBaseTransport):
    """Our server, with every action answer replaced by ``rewrite(n, init_answer, real)``."""

    def __init__(self, rewrite: Any, init_slug: str | None = None) -> None:
        self.inner = httpx.ASGITransport(app=create_app(TokenCodec()))
        self.rewrite, self.init_slug = rewrite, init_slug
        self.first: dict[str, Any] | None = None
        self.actions = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.init_slug and request.url.path.endswith("/init"):
            url = request.url.copy_with(path=f"/api/games/{self.init_slug}/init")
            request = httpx.Request("GET", url)
        resp = await self.inner.handle_async_request(request)
        body = json.loads(await resp.aread())
        if request.url.path.endswith("/init"):
            self.first = body
        elif self.first is not None:
            self.actions += 1
            body = self.rewrite(self.actions, copy.deepcopy(self.first), body)
        return httpx.Response(200, json=body, request=request)


async def _run(transport: Rewriting, tmp_path, **kw: Any):
    bot = strategies.create("keelhold", "first-safe", random.Random(7))
    path = tmp_path / "run.jsonl"
    with TranscriptWriter(path) as writer:
        async with GameboardClient(transport=transport, policy=FAST_RETRY) as client:
            summary = await play_run(client, "keelhold", 7, bot, transcript=writer, **kw)
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "result" and last["endedBy"] == "error" == summary.ended_by
    assert last["error"] == summary.error and "\n" not in summary.error
    return summary


async def test_the_same_position_again_and_again_stops_the_run(tmp_path):
    stuck = Rewriting(lambda n, first, real: first)
    s = await _run(stuck, tmp_path)
    assert s.error is not None and s.error.startswith("ServerMisbehaved: the server answered")
    assert "not advancing" in s.error and s.steps == MAX_SAME_POSITION == stuck.actions


async def test_a_run_that_never_ends_stops_at_the_step_cap(tmp_path):
    def endless(n: int, first: dict[str, Any], real: dict[str, Any]) -> dict[str, Any]:
        first["observation"]["tick"] = n  # advancing, never over
        first["state"]["tick"] = n
        return first

    s = await _run(Rewriting(endless), tmp_path, max_steps=40)
    assert s.error == "ServerMisbehaved: no end after 40 steps (gameOver never true)"
    assert s.steps == 40


async def test_game_over_never_true_with_no_legal_actions(tmp_path):
    def never_over(n: int, first: dict[str, Any], real: dict[str, Any]) -> dict[str, Any]:
        real["gameOver"] = False
        return real

    s = await _run(Rewriting(never_over), tmp_path)
    assert s.error is not None and s.error.endswith("no legal actions, yet gameOver is false")


@pytest.mark.parametrize("other", ["sunloaf", "naptuft"])
async def test_an_answer_of_another_game_is_named(tmp_path, other):
    s = await _run(Rewriting(lambda n, first, real: real, init_slug=other), tmp_path)
    assert s.error is not None
    assert s.error.startswith("ServerMisbehaved: step 1: the server's answer has no hold, queue")
    assert s.error.endswith("is it an answer of keelhold?")


class Broken:
    """A bot with a bug of its own: it reads a field no game has."""

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        return legal[0][observation["nope"]]


async def test_a_strategy_bug_is_the_strategy_s_error_not_the_server_s(tmp_path):
    path = tmp_path / "run.jsonl"
    with TranscriptWriter(path) as writer:
        async with GameboardClient(
            transport=httpx.ASGITransport(app=create_app(TokenCodec())), policy=FAST_RETRY
        ) as client:
            s = await play_run(
                client, "keelhold", 7, Broken(), strategy_name="bot.py:Broken", transcript=writer
            )
    assert s.ended_by == "error" and s.steps == 0
    assert s.error == "KeyError: 'nope' (raised by the strategy bot.py:Broken at step 1)"
    assert s.error_traceback is not None and 'observation["nope"]' in s.error_traceback
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["error"] == s.error
