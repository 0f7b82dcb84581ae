"""A bot whose constructor raises: one line naming the bot and the exception, no traceback
(issue 26 case 11); ``-v`` still shows the traceback."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from sunbot import bots
from sunbot.cli import app

runner = CliRunner()

BOT = """
class Bot:
    def __init__(self, rng):
        raise RuntimeError("no config file found\\nsecond line")

    def choose(self, observation, legal_actions):
        return legal_actions[0]
"""
SAID = "bot.py:Bot could not be built: RuntimeError: no config file found second line"


@pytest.fixture
def in_bot_dir(tmp_path, monkeypatch):
    (tmp_path / "bot.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_from_object_says_one_line_and_keeps_the_cause(in_bot_dir):
    with pytest.raises(bots.BotNotBuilt) as err:
        bots.create_from_file("keelhold", "bot.py:Bot", random.Random(1))
    assert str(err.value) == SAID
    assert isinstance(err.value.__cause__, RuntimeError)


@pytest.mark.parametrize("game", ["keelhold", "harvest-watch"])
def test_play_prints_one_line_and_writes_nothing(in_bot_dir, game):
    result = runner.invoke(app, ["play", game, "--strategy", "bot.py:Bot", "--seed", "1"])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {SAID}"
    assert not (in_bot_dir / "transcripts").exists()


def test_play_verbose_shows_the_traceback(in_bot_dir):
    result = runner.invoke(app, ["play", "keelhold", "--strategy", "bot.py:Bot", "-v"])
    assert result.exit_code == 2
    assert "Traceback" in result.output and 'raise RuntimeError("no config' in result.output
    assert result.output.strip().endswith(f"error: {SAID}")


def test_check_bot_names_the_bot_and_the_exception(in_bot_dir):
    result = runner.invoke(app, ["check-bot", "bot.py:Bot", "keelhold", "--seeds", "1"])
    assert result.exit_code == 1
    assert SAID in result.output and "Traceback" not in result.output
