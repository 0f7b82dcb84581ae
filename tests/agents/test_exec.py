"""Bots in other processes (sunbot.agents.exec): whole runs through the example bots, the
protocol's late-answer rules, and every way a bot can fail, each a one-line error, with no
process left behind."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sys
import textwrap
import time
from pathlib import Path

import pytest

import sunbot
from sunbot.agents._process import STDERR_LINES_PER_S
from sunbot.agents.clock import BotError, Decider, ms_left
from sunbot.agents.exec import MAX_LINE_BYTES, ExecStrategy
from sunbot.agents.spec import agent_kind, create_agent

EXAMPLES = Path(__file__).parents[2] / "examples" / "bots"
PY = sys.executable


def gone(pid: int) -> bool:
    """No such process, or only its zombie (reaped by whoever is its parent now)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"


def script(tmp_path: Path, body: str, name: str = "bot.py") -> Path:
    path = tmp_path / name
    path.write_text("import json, os, sys, time\n" + textwrap.dedent(body))
    return path


def legal(k: int) -> list[dict[str, int]]:
    return [{"k": k}]


class Counting:
    """The in-process twin of a bot: ``choose`` is ``fn``, calls counted."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def choose(self, observation, legal_actions):
        self.calls += 1
        return self.fn(observation, legal_actions)


def first_legal(observation, legal_actions):
    return legal_actions[0]


def _needs(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} is not installed")


@pytest.mark.parametrize(
    ("argv", "game", "cap", "twin"),
    [
        pytest.param([PY, "first_legal.py"], "keelhold", {"max_voyages": 2}, first_legal, id="py-keelhold"),
        pytest.param([PY, "first_legal.py"], "naptuft", {"max_days": 1}, first_legal, id="py-naptuft"),
        pytest.param(["node", "first_legal.mjs"], "naptuft", {"max_days": 1}, first_legal, id="node-naptuft", marks=_needs("node")),
        pytest.param(["sh", "keelhold_first.sh"], "keelhold", {"max_voyages": 2}, "first-safe", id="sh-jq-keelhold", marks=_needs("jq")),
    ],
)  # fmt: skip
def test_an_example_bot_plays_a_whole_run_as_its_in_process_twin(argv, game, cap, twin):
    bot = ExecStrategy(argv, game=game, cwd=EXAMPLES)
    try:
        summary = sunbot.play(game, seed=5, strategy=bot, **cap)
    finally:
        bot.close()
    if twin == "first-safe":
        from sunbot.strategies.keelhold import FirstSafe

        twin = FirstSafe(None).choose
    ref_bot = Counting(twin)
    ref = sunbot.play(game, seed=5, strategy=ref_bot, **cap)
    assert summary.error is None and summary.divergences == [] and summary.refused == 0
    assert (summary.score, summary.steps, summary.ended_by) == (ref.score, ref.steps, ref.ended_by)
    totals = bot.totals()
    assert totals["decisions"] == ref_bot.calls > 0 and totals["late"] == totals["discarded"] == 0
    assert gone(bot.pid)


def run_until_error(bot: ExecStrategy, decisions: int = 10) -> BotError:
    try:
        for k in range(1, decisions + 1):
            assert bot.choose({}, legal(k)) == {"k": k}
    except BotError as exc:
        return exc
    finally:
        bot.close()
    raise AssertionError("the bot did not fail")


def test_a_crash_names_the_exit_code_and_the_decision_and_keeps_the_last_stderr(tmp_path):
    path = script(tmp_path, """
        for n, line in enumerate(sys.stdin, 1):
            if n == 5:
                print("about to fail", file=sys.stderr)
                sys.exit(3)
            print(json.dumps(json.loads(line)["legalActions"][0]))
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="keelhold")
    err = run_until_error(bot)
    assert str(err) == "exec bot python bot.py: exited with code 3 at decision 5".replace(
        "python", os.path.basename(PY)
    )
    assert err.stderr_tail == ("about to fail",)
    # the bot is failed for good: the next decision says so at once
    with pytest.raises(BotError, match="exited with code 3 at decision 5"):
        bot.choose({}, legal(6))


def test_a_crash_mid_run_ends_the_run_with_one_line(tmp_path):
    path = script(tmp_path, """
        for n, line in enumerate(sys.stdin, 1):
            if n == 4:
                os.kill(os.getpid(), 9)
            print(json.dumps(json.loads(line)["legalActions"][0]))
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="naptuft")
    summary = sunbot.play("naptuft", seed=2, strategy=bot, max_days=1)
    bot.close()
    assert summary.ended_by == "error" and summary.steps == 3 and "\n" not in summary.error
    assert "was killed by signal 9 (SIGKILL) at decision 4" in summary.error


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('print("hello, world")', "answered a line that is not JSON at decision 1: 'hello, world'"),
        ('print("[" * 100000)', "answered a line that is not JSON at decision 1: '[[[["),
        (f'sys.stdout.write("7" * {MAX_LINE_BYTES + 10} + "\\n")',
         f"answered a line over {MAX_LINE_BYTES} bytes at decision 1"),
        ('os.close(1); time.sleep(30)', "closed its output at decision 1"),
        ("pass", "exited with code 0 at decision 1"),
    ],
    ids=["garbage", "nested", "over-long", "closes-stdout", "exits"],
)  # fmt: skip
def test_garbage_and_silence_are_the_bots_error(tmp_path, body, expected):
    path = script(tmp_path, f"sys.stdin.readline()\n{body}\n")
    bot = ExecStrategy([PY, str(path)], game="keelhold", grace_s=0.2)
    err = run_until_error(bot)
    assert expected in str(err) and "\n" not in str(err)
    assert gone(bot.pid)


def test_a_bot_that_never_answers_is_dead_after_timeout_s_without_a_clock(tmp_path):
    path = script(tmp_path, "sys.stdin.readline()\ntime.sleep(30)\n")
    bot = ExecStrategy([PY, str(path)], game="keelhold", timeout_s=0.3, grace_s=0.2)
    t0 = time.monotonic()
    err = run_until_error(bot)
    assert "no answer within 0.3 s at decision 1 (does it flush" in str(err)
    assert time.monotonic() - t0 < 3 and gone(bot.pid)


async def test_a_silent_bot_under_the_move_clock_gets_the_fallback_every_time(tmp_path):
    path = script(tmp_path, "for line in sys.stdin:\n    pass\n")
    bot = ExecStrategy([PY, str(path)], game="keelhold")
    bot.on_start("keelhold", 1)
    d = Decider(bot, move_timeout_s=0.2)
    decisions = [await d.decide({}, legal(k), fallback=lambda: "fallback") for k in (1, 2, 3)]
    assert [x.action for x in decisions] == ["fallback"] * 3 and all(x.timed_out for x in decisions)
    await asyncio.sleep(0.1)  # the worker's own wait ends at the same deadline
    assert d.counters()["timeouts"] == 3 and bot.totals()["late"] == 3
    t0 = time.monotonic()
    d.close()  # stdin closed: the bot's loop ends and it exits within the grace
    assert time.monotonic() - t0 < 2 and gone(bot.pid)


LATE = """
    for n, line in enumerate(sys.stdin, 1):
        request = json.loads(line)
        if n == 2:
            time.sleep(0.6)
        action = request["legalActions"][0]
        print(json.dumps({ECHO}))
"""


@pytest.mark.parametrize("echo", ["action", '{"id": request["id"], "action": action}'])
async def test_a_late_answer_is_not_taken_for_the_next_decision(tmp_path, echo):
    bot = ExecStrategy([PY, str(script(tmp_path, LATE.replace("{ECHO}", echo)))], game="keelhold")
    bot.on_start("keelhold", 1)
    d = Decider(bot, move_timeout_s=0.3)
    first = await d.decide({}, legal(1), fallback=lambda: "fallback")
    second = await d.decide({}, legal(2), fallback=lambda: "fallback")
    await asyncio.sleep(0.6)  # the answer to 2 is now waiting in the pipe
    third = await d.decide({}, legal(3), fallback=lambda: "fallback")
    assert (first.action, second.action, third.action) == ({"k": 1}, "fallback", {"k": 3})
    assert second.timed_out and not third.timed_out
    assert bot.totals()["discarded"] == 1 and bot.last_decision()["discarded"] == 1
    d.close()


def test_a_stderr_flood_is_logged_bounded_and_does_not_stall_the_bot(tmp_path, caplog):
    path = script(tmp_path, """
        for line in sys.stdin:
            for i in range(3000):
                print(f"debug {i} " + "x" * 1000, file=sys.stderr)
            print(json.dumps(json.loads(line)["legalActions"][0]))
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="keelhold")
    caplog.set_level(logging.INFO, logger="sunbot.agents.exec")
    started = time.monotonic()
    for k in (1, 2):
        assert bot.choose({}, legal(k)) == {"k": k}
    bot.close()
    bot._stderr_thread.join(timeout=5)
    elapsed = time.monotonic() - started
    records = [r.getMessage() for r in caplog.records if r.name == "sunbot.agents.exec"]
    lines = [m for m in records if "debug" in m]
    # 6,000 lines written; logged at the bounded rate (a burst, then so many a second)
    assert 0 < len(lines) <= 2 * STDERR_LINES_PER_S + STDERR_LINES_PER_S * (elapsed + 1)
    assert len(lines) < 1000
    assert all(len(m) < 400 and "more characters" in m for m in lines)
    assert any(m.endswith("stderr lines not logged") for m in records)
    assert bot.totals()["stderrLines"] == 6000


def test_close_ends_the_bot_and_what_it_started_even_when_it_ignores_sigterm(tmp_path):
    path = script(tmp_path, """
        import signal, subprocess
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen(["sleep", "60"])
        print(child.pid, file=sys.stderr, flush=True)
        for line in sys.stdin:
            print(json.dumps(json.loads(line)["legalActions"][0]))
        time.sleep(60)  # ignores the closed stdin too
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="keelhold", grace_s=0.3)
    assert bot.choose({}, legal(1)) == {"k": 1}
    waited = time.monotonic() + 5  # stderr has its own reader thread: the pid may lag stdout
    while not bot._stderr.tail() and time.monotonic() < waited:
        time.sleep(0.01)
    grandchild = int(bot._stderr.tail()[0])
    t0 = time.monotonic()
    bot.close()
    assert time.monotonic() - t0 < 3
    deadline = time.monotonic() + 3
    while not (gone(bot.pid) and gone(grandchild)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(bot.pid) and gone(grandchild)


def test_the_label_names_the_command_and_its_script_never_its_other_arguments(tmp_path):
    path = script(tmp_path, "sys.stdin.readline()\nsys.exit(1)\n")
    bot = ExecStrategy([PY, str(path), "--api-key=sk-very-secret-123"], game="keelhold")
    err = run_until_error(bot)
    assert "sk-very-secret" not in str(err) + repr(bot) + str(bot.totals())
    assert bot.label == f"{os.path.basename(PY)} bot.py"


def test_the_request_line_has_the_documented_fields(tmp_path):
    path = script(tmp_path, """
        request = json.loads(sys.stdin.readline())
        print(json.dumps({"keys": sorted(request), "id": request["id"], "game": request["game"]}))
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="sunloaf")
    answer = bot.choose({"day": 1}, [{"type": "REST"}])
    bot.close()
    assert answer == {
        "keys": ["game", "id", "legalActions", "observation"],
        "id": 1,
        "game": "sunloaf",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("exec:", "exec: give a command to run"),
        ("exec:   ", "exec: give a command to run"),
        ("exec:python3 'unbalanced", "exec: cannot split the command"),
        ("exec:no-such-command-sunbot-xyz --flag", "exec: no command 'no-such-command-sunbot-xyz' on PATH"),
        ("exec:./examples/bots/first_legal.md", "is not an executable file"),
    ],
)  # fmt: skip
def test_malformed_exec_texts_are_one_line_value_errors(text, message):
    with pytest.raises(ValueError, match=message):
        create_agent("keelhold", text, rng=None)


def test_agent_kinds_and_an_exec_agent_from_its_text():
    assert [agent_kind(t) for t in ("exec:bot", "http://h/m", "HTTPS://h/m", "llm:gpt-4o", "safe-greedy", "b.py:Bot")] == [
        "exec", "http", "http", "llm", None, None,
    ]  # fmt: skip
    bot = create_agent("naptuft", f"exec:{PY} {EXAMPLES / 'first_legal.py'}", rng=None, grace_s=0.5)
    assert isinstance(bot, ExecStrategy) and bot.game == "naptuft" and bot.grace_s == 0.5
    assert bot.argv == [PY, str(EXAMPLES / "first_legal.py")] and bot.pid is None  # not started


def test_a_clocked_request_tells_the_bot_its_deadline_in_whole_ms(tmp_path):
    path = script(tmp_path, """
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps({"id": request["id"], "action": request.get("deadlineMs", "none")}))
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="sunloaf")
    try:
        bot.on_start("sunloaf", 1)
        told = bot.choose_by({"day": 1}, [{"type": "REST"}], time.monotonic() + 1.5)
        unclocked = bot.choose_by({"day": 1}, [{"type": "REST"}], None)
    finally:
        bot.close()
    assert type(told) is int and 1400 <= told <= 1500  # measured as the line is written
    assert unclocked == "none"  # no clock: no field


def test_the_deadline_sent_is_whole_ms_left_never_negative():
    assert ms_left(None, 5.0) is None
    assert ms_left(6.2345, 5.0) == 1234  # floored: the bot is never promised time it lacks
    assert ms_left(4.0, 5.0) == 0


def test_the_deadline_sent_is_the_bots_own_timeout_when_that_comes_first(tmp_path):
    # a clock longer than the bot's timeout_s: the line says the time the bot really has
    path = script(tmp_path, """
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps({"id": request["id"], "action": request.get("deadlineMs", "none")}))
    """)  # fmt: skip
    bot = ExecStrategy([PY, str(path)], game="sunloaf", timeout_s=5.0)
    try:
        bot.on_start("sunloaf", 1)
        told = bot.choose_by({"day": 1}, [{"type": "REST"}], time.monotonic() + 90.0)
    finally:
        bot.close()
    assert type(told) is int and 4000 <= told <= 5000
