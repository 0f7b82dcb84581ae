"""A Harvest Watch match reports its agents as a single-player run does: each seat's totals
(a model's calls and tokens, the clock's counters) in the result line, ``--json`` and the
summary, each decision's record on its command line, and each timed-out decision marked."""

from __future__ import annotations

import asyncio
import io
import re
import time
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console

from sunbot.cli.match_report import print_summary
from sunbot.runs.match import out_night_bounds, run_match
from sunbot.runs.summary import merge_agent_totals
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript
from sunbot.transcripts.replay import replay


class Modelish:
    """A model-like agent: ``legal[0]`` at once, ``tokens`` prompt tokens a call;
    ``slow_on`` (a phase): sleeps ``slow_s`` on the first decision of that phase. Not
    ``blocking`` (a match of blocking seats gets long beats: seconds per test)."""

    def __init__(self, tokens: int, slow_on: str | None = None, slow_s: float = 0.0) -> None:
        self.tokens, self.calls = tokens, 0
        self.slow_on, self.slow_s = slow_on, slow_s

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        self.calls += 1
        if self.slow_on is not None and observation.get("phase") == self.slow_on:
            self.slow_on = None
            time.sleep(self.slow_s)
        return legal[0]

    def last_decision(self) -> dict[str, Any]:
        return {"model": "m", "promptTokens": self.tokens}

    def totals(self) -> dict[str, Any]:
        return {
            "kind": "llm", "model": "m", "calls": self.calls, "decisions": self.calls,
            "promptTokens": self.tokens * self.calls, "completionTokens": 2 * self.calls,
            "reasks": 0, "fallbacks": 0, "late": 0, "errors": 0, "structured": True,
        }  # fmt: skip


def embedded() -> httpx.ASGITransport:
    return httpx.ASGITransport(app=create_app(TokenCodec()))


def play(tmp_path: Path, bots: list[Modelish], **kw: Any) -> tuple[dict[str, Any], Any]:
    made = iter(bots)
    path = tmp_path / "m.jsonl"
    with TranscriptWriter(path) as w:
        match = run_match(
            game="harvest-watch", seed=7, strategy="modelish", server=None,
            match_id=None, seats=len(bots), writer=w, strict=False,
            make=lambda rng: next(made), transport=embedded(), **kw,
        )  # fmt: skip
        result = asyncio.run(match)
    return result, read_transcript(path)


def summary_text(result: dict[str, Any]) -> str:
    out = io.StringIO()
    print_summary(Console(file=out, width=200), result, 7, "modelish")
    return out.getvalue()


def test_each_seat_reports_its_model_counts_and_the_match_their_sum(tmp_path):
    result, t = play(tmp_path, [Modelish(10), Modelish(20)])
    assert result["endedBy"] == "rules"
    seats = result["seats"]
    for seat in seats:
        agent = seat["agent"]
        assert agent["kind"] == "llm" and agent["model"] == "m"
        assert seat["refusals"] == {} and "timeouts" not in seat
        assert agent["calls"] == agent["clock"]["decisions"] == seat["commands"] > 0
    calls = [s["agent"]["calls"] for s in seats]
    top = result["agent"]
    assert top["calls"] == sum(calls) and top["clock"]["decisions"] == sum(calls)
    assert top["promptTokens"] == 10 * calls[0] + 20 * calls[1]
    assert top["completionTokens"] == 2 * sum(calls)
    assert top["clock"]["maxMs"] == max(s["agent"]["clock"]["maxMs"] for s in seats)
    assert top["structured"] is True and top["kind"] == "llm"
    assert t.result is not None and t.result["agent"] == top
    assert [s["agent"] for s in t.result["seats"]] == [s["agent"] for s in seats]
    commands = [r for r in t.other if r["type"] == "command"]
    assert len(commands) == sum(calls)
    for r in commands:  # each decision's own record, as on a single-player step
        own = 10 if r["seat"] == seats[0]["seat"] else 20
        assert r["agent"]["model"] == "m" and r["agent"]["promptTokens"] == own
        assert r["agent"]["ms"] >= 0
    text = summary_text(result)
    assert f"m · {sum(calls)} calls · {10 * calls[0] + 20 * calls[1]:,} in" in text
    assert "0 re-asked · 0 fallbacks · 0 late · 0 errors" in text
    for seat, n in zip(seats, calls, strict=True):  # the seats differ: one row each
        assert f"model, seat {seat['seat']}" in text and f"m · {n} calls" in text


def test_one_seat_reports_exactly_what_a_single_player_run_would():
    one = {"kind": "llm", "model": "m", "calls": 3, "clock": {"decisions": 3, "p50Ms": 1.5}}
    assert merge_agent_totals([one]) == one
    assert merge_agent_totals([]) == {}
    assert merge_agent_totals([{}, {}]) == {}


def test_merged_totals_sum_counts_keep_maxima_and_drop_unpoolable_percentiles():
    a = {"kind": "exec", "command": "python3 bot.py", "decisions": 4, "maxMs": 9.5,
         "clock": {"decisions": 4, "timeouts": 1, "errors": 0, "maxMs": 12.0,
                   "p50Ms": 1.0, "p95Ms": 8.0}, "costUsd": 0.25}  # fmt: skip
    b = {"kind": "exec", "command": "python3 bot.py", "decisions": 6, "maxMs": 3.0,
         "clock": {"decisions": 6, "timeouts": 0, "errors": 2, "maxMs": 4.0,
                   "p50Ms": 2.0, "p95Ms": 3.0}, "costUsd": 0.5}  # fmt: skip
    assert merge_agent_totals([a, b]) == {
        "kind": "exec", "command": "python3 bot.py", "decisions": 10, "maxMs": 9.5,
        "clock": {"decisions": 10, "timeouts": 1, "errors": 2, "maxMs": 12.0,
                  "p50Ms": None, "p95Ms": None}, "costUsd": 0.75,
    }  # fmt: skip
    same = {"kind": "exec", "clock": {"p50Ms": 2.0}}
    assert merge_agent_totals([same, same])["clock"]["p50Ms"] == 2.0  # equal: still true
    mixed = merge_agent_totals(
        [{"model": "a", "structured": True}, {"model": "b", "structured": False}]
    )
    assert mixed == {"model": None, "structured": False}  # differing words are not one value


def test_a_timed_out_decision_is_counted_in_the_summary_and_marked_in_the_transcript(tmp_path):
    bot = Modelish(10, slow_on="speech1", slow_s=0.6)  # the first beat misses its deadline
    beats = {"speech": 1500, "vote": 1500, "action": 1500, "diary": 1500}  # not 20 s
    result, t = play(tmp_path, [bot], move_timeout=0.2, beat_ms=beats)
    assert result["timeouts"] == 1 and result["seats"][0]["timeouts"] == 1
    assert result["agent"]["clock"]["timeouts"] == 1
    marks = [r for r in t.other if r["type"] == "timeout"]
    assert len(marks) == 1
    mark = marks[0]
    assert mark["seat"] == result["seats"][0]["seat"] and mark["round"] == 1
    assert mark["agent"]["timedOut"] is True and mark["agent"]["ms"] >= 150
    assert re.search(r"│ timeouts\s+│ 1\s+│", summary_text(result))
    assert replay(t).ok  # the mark is no command: replay's count of them still agrees


def test_no_timeout_no_timeouts_row(tmp_path):
    result, _ = play(tmp_path, [Modelish(1)])
    assert "timeouts" not in result
    assert "timeouts" not in summary_text(result)


def test_out_night_bounds_from_a_seats_own_views():
    # alive on the action beat of day 3, out in the next view seen: the diary of day 3
    assert out_night_bounds((3, "action"), (3, "diary")) == (3, 3)
    assert out_night_bounds((3, "diary"), (5, "done")) == (4, 5)  # survived night 3
    assert out_night_bounds((3, "action"), (4, "speech1")) == (3, 3)
    assert out_night_bounds((3, "action"), (5, "done")) == (3, 5)  # beats resolved unseen
    assert out_night_bounds(None, (2, "speech1")) == (1, 1)  # out before its first view
    assert out_night_bounds((3, "action"), None) is None  # never seen out
    assert out_night_bounds((4, "speech1"), (3, "diary")) is None  # a server's nonsense


def test_a_seat_out_before_the_views_it_saw_gets_its_night_from_the_record(tmp_path):
    # seed 7, legal[0] (farm every night): seat 2's last command (night 3's action) is
    # answered with the finished match (day 5), the house bots resolving every beat after
    # it went out at once, so no mirror saw its night: its own views bound it (3 to 5)
    result, t = play(tmp_path, [Modelish(1)])
    seat = result["seats"][0]
    assert seat["seat"] == 2 and seat["alive"] is False
    assert seat["outNight"] is None and seat["outNightBetween"] == [3, 5]
    assert t.result is not None and t.result["seats"][0]["outNightBetween"] == [3, 5]
    assert "out on a night from 3 to 5" in summary_text(result)


def test_sunbot_play_of_a_match_returns_the_agent_totals_too():
    import sunbot

    bot = Modelish(5)
    s = sunbot.play("harvest-watch", seed=7, strategy=bot)
    assert s.agent["kind"] == "llm" and s.agent["calls"] == bot.calls > 0
    assert s.agent["promptTokens"] == 5 * bot.calls


class SlowTalker(Modelish):
    """Late on every speech1 beat (``slow_s`` each time); counts its calls per round."""

    def __init__(self, slow_s: float) -> None:
        super().__init__(10)
        self.slow_s = slow_s
        self.rounds: list[int] = []

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        self.calls += 1
        self.rounds.append(observation["round"])
        if observation.get("phase") == "speech1":
            time.sleep(self.slow_s)
        return legal[0]


def test_a_late_decision_is_not_asked_again_in_the_same_beat(tmp_path):
    bot = SlowTalker(0.3)  # a 1.5 s speech beat, a 0.1 s clock: ~14 polls in which to re-ask
    beats = {"speech": 1500, "vote": 1500, "action": 1500, "diary": 1500}
    result, t = play(tmp_path, [bot], move_timeout=0.1, beat_ms=beats)
    marks = [r["round"] for r in t.other if r["type"] == "timeout"]
    assert marks and len(marks) == len(set(marks)) == result["timeouts"]
    assert len(bot.rounds) == len(set(bot.rounds))  # one call a round, late or not
