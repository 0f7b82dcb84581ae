"""`--help` shows no `<bool>`/`<int>` placeholder for flags and counters, and the root help
lists `-v` (which also works before the command)."""

from __future__ import annotations

import logging

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app

runner = CliRunner()
COMMANDS = ["serve", "games", "play", "rules", "replay", "export", "bench", "probe", "check-bot"]


def _help(*args: str) -> str:
    res = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_no_placeholder_for_flags(command):
    text = _help(*([command] if command else []))
    assert "<bool>" not in text
    line = next(ln for ln in text.splitlines() if "--help" in ln)
    assert "<" not in line  # --help itself shows no type
    if command == "play":  # a value option keeps its type, a flag shows none
        strict = next(ln for ln in text.splitlines() if "--strict" in ln)
        seats = next(ln for ln in text.splitlines() if "--seats" in ln)
        assert "<" not in strict and "<int" in seats


def test_root_help_lists_verbose_and_it_works_before_the_command():
    text = _help()
    assert "--verbose" in text and "-v" in text and "--log-level" in text
    assert runner.invoke(app, ["-v", "games"]).exit_code == 0
    assert logging.getLogger("sunbot").level == logging.INFO
    assert runner.invoke(app, ["-v", "games", "-v"]).exit_code == 0  # counts add up
    assert logging.getLogger("sunbot").level == logging.DEBUG
    assert runner.invoke(app, ["games"]).exit_code == 0  # nothing leaks to the next run
    assert logging.getLogger("sunbot").level == logging.WARNING
    assert runner.invoke(app, ["--log-level", "error", "games", "-v"]).exit_code == 0
    assert logging.getLogger("sunbot").level == logging.ERROR  # --log-level wins over -v


def test_games_marks_each_default_strategy():
    res = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    rows = {line.split("│")[1].strip(): line.split("│")[4] for line in res.output.splitlines()
            if line.count("│") == 5 and line.split("│")[1].strip()}  # fmt: skip
    assert rows["keelhold"].strip().startswith("planner (default), safe-greedy")
    assert rows["naptuft"].strip().startswith("balancer (default), rotation")
    assert rows["harvest-watch"].strip().startswith("adaptive (default), coalition")
    assert sum("(default)" in r for r in rows.values()) == len(rows) == 4


def test_play_help_says_a_capped_run_exits_0_and_states_the_default_caps():
    text = " ".join(_help("play").split())
    assert "Exit 0 when the run ended by the rules or at its cap" in text
    assert "END_RUN at port after voyage N (default 30)" in text
    assert "end after day N (default 40 / 10)" in text


def test_play_help_fits_80_columns_without_cutting_a_default():
    res = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "…" not in res.output  # rich cuts a word too long for the column with "…"
    text = " ".join(t.strip("│ ") for t in res.output.splitlines())
    assert "a new file in transcripts/ named for the game, seed, strategy and UTC time" in " ".join(
        text.split()
    )


def test_replay_help_says_which_runs_are_re_played_by_default():
    text = " ".join(_help("replay").replace("│", " ").split())
    assert "any other server's run, loopback or not, is mirrored only" in text
    assert "loopback one" not in text
