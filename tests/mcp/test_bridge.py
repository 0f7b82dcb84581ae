"""The seat an MCP client plays through (:mod:`sunbot.mcp.bridge`) and which of its actions
are sent (:mod:`sunbot.mcp.legal`)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from sunbot.agents.clock import Decider, DecisionTimeout
from sunbot.mcp import McpOptions
from sunbot.mcp.bridge import AgentSeat, Stopped, Turn
from sunbot.mcp.legal import MAX_ACTION_BYTES, grammar_of, refusal
from sunbot.mcp.server import create_server
from sunbot.testing.unseen import create_unseen_app
from sunbot.testing.unseen.take_away import SPEC as TAKE_AWAY
from tests.conftest import LoopbackServer
from tests.mcp.helpers import position_of

LEGAL = [{"type": "care", "care": c} for c in ("feed", "play")] + [{"type": "end-run"}]


def seat(idle_s: float = 5.0) -> tuple[AgentSeat, list[Turn], list[str]]:
    turns: list[Turn] = []
    idled: list[str] = []
    return AgentSeat("t", turns.append, lambda: idled.append("idle"), idle_s), turns, idled


def test_a_decision_returns_the_answer_to_its_own_number() -> None:
    bridge, turns, _ = seat()
    got: list[Any] = []
    worker = threading.Thread(target=lambda: got.append(bridge.choose({"a": 1}, LEGAL)))
    worker.start()
    while not turns:
        time.sleep(0.001)
    assert turns[0].number == 1 and turns[0].legal_actions == LEGAL and turns[0].deadline is None
    bridge.answer(7, LEGAL[2])  # a stale or foreign number: dropped
    bridge.answer(1, LEGAL[1])
    worker.join(5)
    assert got == [LEGAL[1]]
    assert bridge.totals() == {"kind": "mcp", "agent": "t", "answered": 1, "missed": 0}
    assert bridge.last_decision() == {"via": "mcp", "decision": 1}


def test_a_beat_past_its_deadline_and_an_idle_client_end_the_wait() -> None:
    bridge, _, idled = seat(idle_s=0.05)
    with pytest.raises(DecisionTimeout):
        bridge.choose_by({}, LEGAL, time.monotonic() + 0.02)
    assert bridge.missed == 1 and idled == []
    started = time.monotonic()
    with pytest.raises(Stopped, match=r"no action in 0\.05 s"):
        bridge.choose_by({}, LEGAL, None)
    assert idled == ["idle"] and time.monotonic() - started < 2


def test_stop_wakes_a_waiting_decision_and_refuses_later_ones() -> None:
    bridge, turns, _ = seat()
    errors: list[BaseException] = []

    def wait() -> None:
        try:
            bridge.choose({}, LEGAL)
        except Stopped as exc:
            errors.append(exc)

    worker = threading.Thread(target=wait)
    worker.start()
    while not turns:
        time.sleep(0.001)
    bridge.stop()
    worker.join(5)
    assert len(errors) == 1
    with pytest.raises(Stopped):
        bridge.choose({}, LEGAL)
    assert len(turns) == 1  # no decision announced after the stop


async def test_the_move_clock_runs_the_seat_on_its_worker_and_plays_the_fallback_late() -> None:
    bridge, _, _ = seat()
    decider = Decider(bridge)
    assert decider.blocking
    decision = await decider.decide({}, LEGAL, budget_s=0.05, fallback=lambda: "fallback")
    assert decision.timed_out and decision.action == "fallback"
    decider.close_worker()


def test_what_is_sent_of_a_known_game() -> None:
    assert refusal("rules", {}, LEGAL, {"care": "feed", "type": "care"}) is None  # key order
    assert refusal("rules", {}, LEGAL, {"type": "care", "care": "dance"}) == (
        "not one of the legal actions"
    )
    assert refusal("rules", {}, LEGAL, {"type": "care", "care": float("nan")}) == (
        "the action is not plain JSON"
    )
    big = {"type": "x" * MAX_ACTION_BYTES}
    assert refusal("rules", {}, LEGAL, big) == (
        f"the action is {MAX_ACTION_BYTES + 12:,} bytes of JSON, more than the 16,384 sent"
    )


def test_what_is_sent_on_each_harvest_watch_beat() -> None:
    def beat(phase: str) -> dict[str, Any]:
        return {"summary": {"phase": phase, "you": 0, "aliveSeats": [0, 1, 2]}}

    speech = [{"speech": "\u2026"}]
    assert refusal("match", beat("speech1"), speech, {"speech": "x" * 200}) is None
    assert refusal("match", beat("speech2"), speech, {"speech": "x" * 201}) == (
        "speech must be a text of 1 to 200 characters"
    )
    assert refusal("match", beat("speech1"), speech, {"speech": ""}) is not None
    assert refusal("match", beat("speech1"), speech, {"diary": "x"}) == (
        'the speech1 beat takes exactly {"speech": text}'
    )
    assert refusal("match", beat("speech1"), speech, {"speech": "\ud800"}) == (
        "speech must be Unicode text (no lone surrogates)"
    )
    diary = [{"diary": "\u2026"}]
    assert refusal("match", beat("diary"), diary, {"diary": "y" * 80}) is None
    assert refusal("match", beat("diary"), diary, {"diary": "y" * 81}) is not None
    ballots = [{"punish": None}, {"punish": 1, "giveTo": 2}]
    assert refusal("match", beat("vote"), ballots, {"punish": 1, "giveTo": 2}) is None
    assert refusal("match", beat("vote"), ballots, {"punish": 1, "giveTo": 1}) == (
        "not one of the vote's legal actions"
    )


def test_what_is_sent_of_a_game_without_an_engine() -> None:
    grammar = grammar_of(TAKE_AWAY)
    assert grammar is not None and grammar_of({"goal": "no grammar"}) is None
    legal = [{"type": "take", "count": 1}]
    assert refusal("generic", {}, legal, {"type": "take", "count": 3}, grammar) is None
    why = refusal("generic", {}, legal, {"type": "take", "count": 4}, grammar)
    assert why is not None and why.startswith("not one of the legal actions, nor what the")
    assert refusal("generic", {}, legal, {"type": "take", "count": 3}) == (
        "not one of the legal actions"
    )


async def test_an_action_the_grammar_allows_and_the_server_refuses_is_answered_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    with LoopbackServer(create_unseen_app()) as unseen:
        options = McpOptions(transcripts=tmp_path / "t", servers=(unseen.url,))
        async with create_connected_server_and_client_session(create_server(options)) as client:
            start = {"game": "tic-tac-toe", "seed": 1, "server": unseen.url}
            pos = position_of(await client.call_tool("start_game", start))
            taken = {"type": "mark", "cell": 4}
            pos = position_of(await client.call_tool("act", {"game": pos["game"], "action": taken}))
            again = await client.call_tool("act", {"game": pos["game"], "action": taken})
            out = again.structuredContent
            assert out is not None and (out["sent"], out["accepted"]) == (True, False)
            assert out["refused"] == "the server refused it: mark an empty cell, 0 to 8"
            assert out["position"]["status"] == "your-turn" and out["position"]["step"] == 2
            assert taken not in out["position"]["legalActions"]
