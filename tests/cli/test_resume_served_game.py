"""``sunbot play --resume`` of a run of a game the server lists (no engine of ours): it goes
on from the recorded answer; a run that searched through a forward model asks for that
model's file again before running its code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli import app
from sunbot.testing.platform.app import create_platform_app
from tests.conftest import LoopbackServer

runner = CliRunner()
MODEL = "examples/forward_models/maze_runner.py:MazeRunner"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with LoopbackServer(create_platform_app()) as srv:
        yield srv.url


def _cut(path: Path, steps: int) -> None:
    """Leave the header, the opening and ``steps`` steps: a run killed there."""
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: 2 + steps]))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_served_game_resumes_where_it_was_cut(url: str, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    args = ["play", "sliding-puzzle", "--server", url, "--strategy", "random", "--seed", "4"]
    first = runner.invoke(app, [*args, "--max-steps", "6", "--transcript", str(path), "--quiet"])
    assert first.exit_code == 0, first.output
    _cut(path, 3)
    res = runner.invoke(app, ["play", "--resume", str(path), "--server", url, "--quiet"])
    assert res.exit_code == 0, res.output
    lines = _lines(path)
    assert [r["type"] for r in lines[2:6]] == ["step", "step", "step", "resume"]
    assert lines[5]["fromStep"] == 3 and lines[6]["index"] == 4  # on from the cut
    assert lines[-1]["type"] == "result" and lines[-1]["steps"] > 3


def test_a_search_run_through_a_model_resumes_with_that_model_only(
    url: str, tmp_path: Path
) -> None:
    path = tmp_path / "s.jsonl"
    args = ["play", "maze-runner", "--server", url, "--strategy", "search", "--seed", "1"]
    first = runner.invoke(
        app, [*args, "--engine", MODEL, "--max-steps", "8", "--transcript", str(path), "--quiet"]
    )
    assert first.exit_code == 0, first.output
    _cut(path, 4)
    resume = ["play", "--resume", str(path), "--server", url, "--quiet"]
    bare = runner.invoke(app, resume)
    assert bare.exit_code == 2 and f"add --engine '{MODEL}' to confirm" in bare.output
    other = runner.invoke(app, [*resume, "--engine", "tests/forward/models.py:TakeAway"])
    assert other.exit_code == 2 and "is not the model this run was recorded with" in other.output
    res = runner.invoke(app, [*resume, "--engine", MODEL])
    assert res.exit_code == 0, res.output
    result = _lines(path)[-1]
    assert result["type"] == "result" and result["gameOver"] and result["divergences"] == 0
