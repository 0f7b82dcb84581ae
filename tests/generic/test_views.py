"""The generic terminal view: compact, clipped, and outside text never obeyed."""

from __future__ import annotations

import io

from rich.console import Console

from sunbot.views.generic import MAX_VALUE, render, short


def text_of(renderable: object) -> str:
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_head_action_and_fields():
    obs = {"pile": 4, "taken": [1, 3], "winner": None, "board": {"rows": ["X..", ".O."]}}
    out = text_of(render(obs, score=-1, step=2, action={"type": "take", "count": 1}, legal=3))
    lines = out.splitlines()
    assert lines[0] == "score -1  step 2  legal actions 3"
    assert lines[1] == 'action {"type":"take","count":1}'
    assert lines[2].split() == ["pile", "4"]
    assert lines[3].split() == ["taken", "[1,3]"]
    assert lines[4].split() == ["winner", "null"]
    assert lines[5].split() == ["board", '{"rows":["X..",".O."]}']


def test_long_values_and_many_fields_are_clipped():
    obs = {f"k{i}": i for i in range(30)} | {"long": "y" * 500}
    out = text_of(render(obs, over=True, max_fields=5))
    assert "game over" in out.splitlines()[0]
    assert "26 more fields" in out and "k5" not in out
    assert short("y" * 500) == "y" * (MAX_VALUE - 1) + "…"


def test_outside_text_is_shown_not_obeyed():
    obs = {"\x1b]0;pwned\x07": "[red]not markup[/red]\x1b[2J", "note": "line\nbreak"}
    out = text_of(render(obs, score="\x1b[31m"))
    assert "\x1b" not in out and "\x07" not in out
    assert "[red]not markup[/red]" in out and "\ufffd[2J" in out and "line\ufffdbreak" in out


def test_an_observation_that_is_not_an_object():
    out = text_of(render("X.O|...|..X"))
    assert out.splitlines()[1].split() == ["observation", "X.O|...|..X"]
