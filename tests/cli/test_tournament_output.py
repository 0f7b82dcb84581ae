"""What ``sunbot tournament`` and ``sunbot bench`` print is safe for the terminal: an
entrant's name (a bot file's path) and a bot's error text are shown, never obeyed.

Found by an attacker: a bot raising ``RuntimeError("\\x1b[2Jboom")`` cleared the screen of
the user running the tournament, and a bot file named with an ESC sequence coloured the
leaderboard."""

from __future__ import annotations

import io

from rich.console import Console

from sunbot.bench.tournament_standings import Errored, Standings
from sunbot.cli.bench_output import text_table
from sunbot.cli.tournament_output import show_errors

HOSTILE = "x\x1b[31m<img>[bold red]red[/]\x07.py:Bot"


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None, force_terminal=False), out


def test_a_bots_error_text_reaches_the_terminal_without_its_controls():
    console, out = _console()
    error = "RuntimeError: \x1b[2J\x1b]0;title\x07boom [bold]b[/bold]"
    s = Standings(game="harvest-watch", kind="match", meta={}, scheduled=1, played=1)
    s.errors.append(Errored(5, error, match=0, lineup=(HOSTILE,)))
    show_errors(console, s)
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert (
        "match 0 (seed 5): RuntimeError: \ufffd[2J\ufffd]0;title\ufffdboom [bold]b[/bold]" in text
    )


def test_a_table_cell_naming_a_hostile_bot_file_is_shown_not_obeyed():
    console, out = _console()
    console.print(text_table("t", ["strategy", "mu"], [[HOSTILE, "1.0"]]))
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "x\ufffd[31m<img>[bold red]red[/]\ufffd.py:Bot" in text
