"""``sunbot.checkbot.check``: each way a bot can be unfit shows in its report, with the
values the runs really had."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import sunbot
from sunbot.bots import load_file
from sunbot.checkbot.check import (
    SHORT_CAP,
    BadCheck,
    check_bot,
    declared_games,
    games_to_check,
    shown_bot,
)
from sunbot.checkbot.report import BotCheck, GameCheck
from sunbot.testing.unseen import create_unseen_app
from tests.conftest import LoopbackServer

BOTS = Path(__file__).with_name("checkbot_bots.py")
EXAMPLES = Path(__file__).parents[2] / "examples" / "bots"


def bot(name: str) -> str:
    return f"{BOTS}:{name}"


def loaded(name: str) -> Any:
    """The class a run builds (the bot file is imported under its own module name)."""
    return load_file(bot(name))


def check(text: str, *games: str, **options: Any) -> BotCheck:
    return asyncio.run(check_bot(text, games, **options))


def test_a_seeded_bot_is_fit_and_its_runs_are_the_runs_play_makes():
    loaded("Good").calls = 0
    report = check(bot("Good"), seeds=2)
    calls = loaded("Good").calls
    assert report.bot == bot("Good") and report.fit
    [game] = report.games
    assert game.game == "naptuft" and game.where == "engine" and game.fit
    assert [(r.seed, r.repeat) for r in game.runs] == [(1, False), (2, False), (1, True)]
    for r in game.runs:  # the same run as sunbot.play on the engine with the short cap
        played = sunbot.play("naptuft", seed=r.seed, strategy=bot("Good"), server="engine",
                             max_days=SHORT_CAP)  # fmt: skip
        assert (r.score, r.steps, r.ended_by, r.error) == (
            played.score,
            played.steps,
            played.ended_by,
            None,
        )
    assert dataclasses.replace(game.runs[2], repeat=False) == game.runs[0]
    assert game.deterministic is True and game.differs_at is None
    assert calls > 0 and len(game.times_ms) == calls  # one time per decision
    assert game.p50_ms is not None
    assert game.p95_ms is not None and game.p50_ms <= game.p95_ms < 1000
    assert game.problems() == [] and game.refused == game.timeouts == 0


def test_a_bot_that_plays_otherwise_the_second_time_is_not_deterministic():
    loaded("Flip").built = 0
    game = check(bot("Flip"), seeds=1).games[0]
    assert [r.seed for r in game.runs] == [1, 1]
    assert game.deterministic is False and game.differs_at == 1 and not game.fit
    assert game.problems() == [
        "not deterministic: seed 1 chose otherwise at decision 1 when played again"
    ]


def test_a_slow_bot_misses_the_deadline():
    game = check(bot("Slow"), seeds=1, move_timeout=0.02).games[0]
    assert game.deadline_s == 0.02 and game.timeouts > 0 and not game.fit
    assert game.p95_ms is not None and game.p95_ms >= 20
    problems = game.problems()
    assert f"{game.timeouts} decisions past the 0.02 s deadline" in problems
    assert any(p.startswith("p95 ") and p.endswith("is not under the 0.02 s deadline")
               for p in problems)  # fmt: skip


def test_illegal_answers_and_exceptions_are_reported_per_run():
    illegal = check(bot("Illegal"), seeds=1).games[0]
    assert [r.refused for r in illegal.runs] == [3, 3] and illegal.refused == 6
    assert all(r.ended_by == "error" and "3 refused actions in a row" in (r.error or "")
               for r in illegal.runs)  # fmt: skip
    assert "6 refused actions (not legal when sent)" in illegal.problems()
    raises = check(bot("Raises"), seeds=1).games[0]
    assert [r.steps for r in raises.runs] == [2, 2]
    assert raises.runs[0].error is not None
    assert raises.runs[0].error.startswith("ValueError: no idea (raised by the strategy")
    assert raises.runs[0].error.endswith("at step 3)")
    assert raises.problems()[0] == f"seed 1: {raises.runs[0].error}"
    broken = check(bot("Broken"), seeds=1).games[0]
    assert broken.runs[0].error == (
        f"the run could not start: BotNotBuilt: {bot('Broken')} could not be built: "
        "RuntimeError: no parts"
    )
    assert not broken.fit


def test_an_exec_bot_and_harvest_watch():
    exec_bot = f"exec:{sys.executable} {EXAMPLES / 'first_legal.py'}"
    report = check(exec_bot, "naptuft", seeds=1)
    assert report.fit and report.games[0].deterministic and len(report.games[0].times_ms) > 0
    hw = check(str(EXAMPLES / "harvest_watch_bot.py"), seeds=3).games
    assert [g.game for g in hw] == ["harvest-watch"]
    assert hw[0].where == "embedded" and [r.seed for r in hw[0].runs] == [1, 1]
    assert hw[0].runs[0].ended_by == "rules" and hw[0].fit, hw[0].problems()


def test_a_game_sunbot_does_not_know_plays_on_the_server_and_the_hooks_pass_through():
    loaded("Hooks").seen = []
    with LoopbackServer(create_unseen_app()) as srv:
        report = check(bot("Hooks"), seeds=1, server=srv.url)
    games = [g.game for g in report.games]
    assert games == ["keelhold", "sunloaf", "naptuft", "harvest-watch", "hidden-number",
                     "take-away", "tic-tac-toe"]  # fmt: skip
    by = {g.game: g for g in report.games}
    assert by["take-away"].where == srv.url and by["keelhold"].where == "engine"
    assert by["take-away"].runs[0].ended_by == "rules"
    starts = [s for kind, s in loaded("Hooks").seen if kind == "start"]
    assert ("take-away", 1, "Take the last stone of the pile.") in starts  # the served spec
    assert loaded("Hooks").seen.count(("close", None)) == sum(len(g.runs) for g in by.values())
    assert ("end", "rules") in loaded("Hooks").seen


def test_which_games_a_bot_declares():
    assert declared_games("planner") == ("keelhold", "sunloaf")
    assert declared_games("random") == ("keelhold", "sunloaf", "naptuft", "harvest-watch", "*")
    assert declared_games("first") == ("*",)
    assert declared_games(bot("Good")) == ("naptuft",)
    assert declared_games("exec:python3 bot.py") is None
    assert declared_games("nosuch") == ()
    plain = [g.game for g in games_to_check("exec:python3 bot.py")]
    assert plain == ["keelhold", "sunloaf", "naptuft", "harvest-watch"]
    listed = games_to_check("first", server="http://x", listed=["keelhold", "go"])
    assert [g.game for g in listed] == ["go"]  # "first" is no keelhold strategy
    skipped = games_to_check(bot("Hooks"))
    assert [(g.game, g.skipped) for g in skipped][:4] == [
        (g, None) for g in ("keelhold", "sunloaf", "naptuft", "harvest-watch")
    ]


@pytest.mark.parametrize(
    ("text", "games", "server", "said"),
    [
        ("nosuch", (), None, "unknown strategy 'nosuch': no game has a strategy of that name"),
        ("planner", ("naptuft",), None, "planner plays keelhold, sunloaf, not naptuft"),
        ("random", ("go",), None, "unknown game 'go'"),
        ("random", ("../x",), "http://x", "'../x' is not a game slug"),
        ("first", (), None, "first plays games sunbot has no engine for: give --server URL"),
        ("exec:no-such-program-here", ("naptuft",), None, "exec: no such executable"),
    ],
)
def test_bad_usage_is_one_clear_error(text, games, server, said):
    with pytest.raises(BadCheck) as got:
        games_to_check(text, games, server=server)
    assert said in str(got.value) and "\n" not in str(got.value)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"seeds": 0}, "seeds must be 1 to 20, got 0"),
        ({"seeds": True}, "seeds must be 1 to 20, got True"),
        ({"move_timeout": 0}, "move timeout must be a positive number of seconds, got 0"),
        ({"server": "engine"}, "server: give an http(s) URL"),
        ({"server": "localhost:8000"}, "did you mean http://localhost:8000"),
    ],
)
def test_bad_options_are_refused_before_any_run(options, said):
    with pytest.raises(BadCheck) as got:
        check("random", "naptuft", **options)
    assert said in str(got.value)


def test_what_a_report_shows_of_a_bot_holds_no_secret():
    assert shown_bot("http://user:hunter2@127.0.0.1:9/move?key=abc#x") == "http://127.0.0.1:9/move"
    assert shown_bot("planner") == "planner"
    skipped = GameCheck("go", skipped="no server")
    assert skipped.problems() == [] and not skipped.fit
    assert skipped.to_dict()["decisions"] == 0 and skipped.to_dict()["p95Ms"] is None


def test_a_language_model_agent_is_checked_like_any_bot():
    from sunbot.testing.llm_endpoint import create_llm_app, running

    key = "sk-test-checkbot-0123456789"
    with running(create_llm_app(api_key=key, slow_s=0.2)) as url:
        options = {"base_url": url, "api_key": key}
        good = check("llm:legal", "naptuft", seeds=1, move_timeout=5, agent_options=options)
        slow = check("llm:slow", "naptuft", seeds=1, move_timeout=0.05, agent_options=options)
    game = good.games[0]
    assert good.fit and game.deterministic and game.refused == 0, game.problems()
    assert len(game.times_ms) >= 2
    assert not slow.fit and slow.games[0].timeouts > 0
    assert key not in json.dumps(good.to_dict()) + json.dumps(slow.to_dict())


def test_a_run_that_takes_too_long_is_cut_and_the_game_stops_there(monkeypatch):
    from sunbot.checkbot import check as checkbot

    monkeypatch.setattr(checkbot, "RUN_BUDGET_MIN_S", 1.0)
    assert checkbot.run_budget(0.01) == 1.0 and checkbot.run_budget(0.5) == 20.0
    started = time.monotonic()
    watch = check(bot("SlowWatch"), move_timeout=0.02).games[0]  # late: each beat held
    monkeypatch.setattr(checkbot, "RUN_BUDGET_DEADLINES", 1)
    hung = check(bot("Hangs"), seeds=3, move_timeout=0.5).games[0]  # 26 decisions of 0.5 s
    assert time.monotonic() - started < 10
    for game in (watch, hung):
        [run] = game.runs  # the rest not played: they would be cut too
        assert run.ended_by == "error" and run.seed == 1
        assert run.error == "stopped after 1 s, the most a run of the check may take"
        assert game.deterministic is None and not game.fit
    assert watch.times_ms and min(watch.times_ms) >= 50  # its decisions, timed all the same
