"""Bots in other processes that attack from the outside: our model key is not theirs to
read, and what they echo of it is scrubbed; a bot that exits while a child it left behind
holds its output fails at once, not after the silence timeout."""

from __future__ import annotations

import logging
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sunbot._text import safe
from sunbot.agents.clock import BotError
from sunbot.agents.exec import ExecStrategy

KEY = "sk-attack-0123456789abcdef"
LEGAL = [{"k": 1}]


def _script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "bot.py"
    path.write_text("import json, os, sys, time\n" + textwrap.dedent(body))
    return [sys.executable, str(path)]


def test_an_exec_bot_gets_no_model_key_and_its_echo_is_scrubbed(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setattr(safe, "_secrets", set())
    argv = _script(
        tmp_path,
        """
        for line in sys.stdin:
            got = os.environ.get("OPENAI_API_KEY", "none")
            print(got, file=sys.stderr, flush=True)
            print(json.dumps({"k": got}), flush=True)
        """,
    )
    bot = ExecStrategy(argv, game="naptuft")
    with caplog.at_level(logging.INFO, logger="sunbot.agents.exec"):
        assert bot.choose({}, LEGAL) == {"k": "none"}  # not in the bot's environment
        bot.close()
    assert KEY in safe.known()  # and, were it handed over some other way, scrubbed
    assert safe.scrub(f"echo {KEY}") == "echo ***"


def test_an_exec_bot_given_the_key_on_purpose_keeps_it(tmp_path):
    argv = _script(
        tmp_path,
        """
        for line in sys.stdin:
            print(json.dumps({"k": os.environ.get("OPENAI_API_KEY", "none")}), flush=True)
        """,
    )
    bot = ExecStrategy(argv, game="naptuft", env={"OPENAI_API_KEY": "mine", "PATH": "/usr/bin"})
    assert bot.choose({}, LEGAL) == {"k": "mine"}
    bot.close()


@pytest.mark.parametrize("detach", ["", "os.setsid()"])
def test_a_bot_that_exits_while_its_child_holds_stdout_fails_at_once(tmp_path, detach):
    argv = _script(
        tmp_path,
        f"""
        child = os.fork()
        if child == 0:
            {detach}
            time.sleep(30)
            os._exit(0)
        open(sys.argv[1], "w").write(str(child))
        sys.exit(0)
        """,
    )
    pid_file = tmp_path / "child.pid"
    bot = ExecStrategy([*argv, str(pid_file)], game="naptuft", timeout_s=20.0)
    start = time.monotonic()
    with pytest.raises(BotError, match="exited with code 0 at decision 1"):
        bot.choose({}, LEGAL)
    assert time.monotonic() - start < 5.0
    bot.close()
    child = int(pid_file.read_text())
    for _ in range(50):  # the child it left behind, in its group or its own session, is ended
        if _gone(child):
            break
        time.sleep(0.1)
    assert _gone(child)


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"


@pytest.mark.parametrize("answer_id", ["NaN", '"1"', "7", "1.0"])
def test_an_envelope_for_no_decision_we_asked_is_an_error_at_once(tmp_path, answer_id):
    argv = _script(
        tmp_path,
        f"""
        for line in sys.stdin:
            print('{{"id": {answer_id}, "action": {{"k": 1}}}}', flush=True)
        """,
    )
    bot = ExecStrategy(argv, game="naptuft", timeout_s=20.0)
    start = time.monotonic()
    with pytest.raises(BotError, match=r"answered decision \S+ at decision 1$"):
        bot.choose({}, LEGAL)
    assert time.monotonic() - start < 5.0  # not the 20 s silence timeout
    bot.close()
