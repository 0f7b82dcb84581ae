"""Help and replay text fit the reader's width: help paragraphs reflow at whole words
(they are not broken where the docstring's lines end), and ``replay --show | less`` draws
its step rules 100 columns wide instead of the pipe's 1,000."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from sunbot.cli.main import app

GOLDEN = Path(__file__).parents[2] / "transcripts" / "golden-naptuft-seed7.jsonl"


def test_play_help_reflows_its_paragraphs_to_the_terminal() -> None:
    res = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "100"})
    assert res.exit_code == 0
    lines = [ln.strip() for ln in res.output.splitlines()]
    # the docstring breaks after "or the"; reflowed, the sentence goes on to "game's"
    assert any("(--max-voyages, --max-days or the game's" in ln for ln in lines), res.output


def test_replay_show_rules_are_100_columns_when_piped() -> None:
    res = CliRunner().invoke(app, ["replay", str(GOLDEN), "--show"], env={"COLUMNS": "1000"})
    assert res.exit_code == 0, res.output
    rules = [ln for ln in res.output.splitlines() if " step " in ln and "─" in ln]
    assert rules and all(len(ln.rstrip()) <= 100 for ln in rules)
