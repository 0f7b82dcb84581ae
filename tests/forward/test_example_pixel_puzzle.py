"""The example pixel-puzzle model (``examples/forward_models/pixel_puzzle.py``): its steps on
the opening Heart, a solve that moves on to a puzzle whose clues it cannot know, the run's
end, its line solver and estimate, certify against the platform test server (and a broken
copy flagged at its first divergence)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sunbot
from sunbot.certify.check import certify
from sunbot.forward.load import load_model
from sunbot.testing.platform import create_platform_app
from tests.conftest import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples/forward_models/pixel_puzzle.py"

#: The opening as the platform test server shows it (a heart: its clues by hand).
HEART = [".#.#.", "#####", "#####", ".###.", "..#.."]
OPENING = {
    "puzzle": 0, "board": ["....."] * 5, "solved": 0, "clicks": 0, "name": "Heart", "size": 5,
    "rowClues": [[1, 1], [5], [5], [3], [1]], "colClues": [[2], [4], [4], [4], [2]],
    "phase": "playing",
}  # fmt: skip
#: The clicks the estimate guesses for the puzzles after the Heart: half their cells.
LATER = 25 // 2 + 64 // 2 + 64 // 2 + 100 // 2


@pytest.fixture(scope="module")
def model() -> Any:
    return load_model(f"{MODEL}:PixelPuzzle", "pixel-puzzle").build(random.Random(0))


@pytest.fixture(scope="module")
def platform() -> Iterator[str]:
    with LoopbackServer(create_platform_app()) as srv:
        yield srv.url


def _fill(model: Any, s: Any, cells: list[tuple[int, int]]) -> Any:
    for r, c in cells:
        s = model.step(s, {"type": "fill", "row": r, "col": c})
    return s


def test_fill_and_mark_toggle_and_the_estimate_counts_clicks_left(model: Any) -> None:
    s = model.from_observation(OPENING)
    legal = model.legal_actions(s)
    assert len(legal) == 50
    assert legal[0] == {"type": "fill", "row": 0, "col": 0}
    assert legal[25] == {"type": "mark", "row": 0, "col": 0}
    # 16 cells of the heart to fill
    assert model.estimate(s) == pytest.approx(16 * 1.001 + LATER)
    assert model.key(s) == "0:16"
    one = model.step(s, {"type": "fill", "row": 0, "col": 1})
    assert model.observation(one)["board"][0] == ".#..."
    assert model.score(one) == 1 and model.key(one) == "0:15"
    marked = model.step(one, {"type": "mark", "row": 0, "col": 1})  # a filled cell marked
    assert model.observation(marked)["board"][0] == ".X..."
    assert model.key(marked) == "0:16" and model.estimate(marked) == pytest.approx(
        2 + 16 * 1.001 + LATER
    )
    refilled = model.step(marked, {"type": "fill", "row": 0, "col": 1})
    assert model.observation(refilled)["board"][0] == ".#..."
    wrong = model.step(s, {"type": "fill", "row": 0, "col": 0})  # not in the heart
    assert model.key(wrong) == "0:17"
    cleared = model.step(wrong, {"type": "fill", "row": 0, "col": 0})
    assert model.observation(cleared)["board"][0] == "....." and model.score(cleared) == 2
    assert model.observation(s)["board"][0] == "....."  # the state did not change


def test_a_solve_moves_on_to_a_puzzle_whose_clues_are_not_known(model: Any) -> None:
    s = model.from_observation(OPENING)
    cells = [(r, c) for r in range(5) for c in range(5) if HEART[r][c] == "#"]
    almost = _fill(model, s, cells[:-1])
    assert model.observation(almost)["board"] == [".#.#.", "#####", "#####", ".###.", "....."]
    after = _fill(model, almost, cells[-1:])
    seen = model.observation(after)
    assert seen == {
        "puzzle": 1,
        "board": ["....."] * 5,
        "solved": 1,
        "clicks": 16,
        "name": "Plus",
        "size": 5,
        "phase": "playing",
    }  # fmt: skip  (no clues: they are not shown before the puzzle is)
    assert not model.is_over(after) and len(model.legal_actions(after)) == 50
    assert model.estimate(after) == pytest.approx(16 + LATER)
    # past the solve one board is as good as another: the search keeps one
    assert model.key(after) == model.key(_fill(model, after, [(2, 2)])) == "1:?"


def test_the_fifth_solve_ends_the_run_with_its_board_shown(model: Any) -> None:
    # the last puzzle, its picture made up for the test: two cells of the top row
    last = {
        "puzzle": 4, "board": ["#........."] + [".........."] * 9, "solved": 4, "clicks": 120,
        "name": "Mushroom", "size": 10,
        "rowClues": [[2]] + [[0]] * 9, "colClues": [[1], [1]] + [[0]] * 8, "phase": "playing",
    }  # fmt: skip
    s = model.from_observation(last)
    assert model.estimate(s) == pytest.approx(120 + 1.001)
    done = _fill(model, s, [(0, 1)])
    assert model.is_over(done) and model.legal_actions(done) == []
    assert model.observation(done)["board"][0] == "##........"
    assert (model.observation(done)["phase"], model.score(done)) == ("complete", 121)
    assert model.estimate(done) == 121


def test_the_line_solver_reads_the_heart_from_its_clues() -> None:
    factory = load_model(f"{MODEL}:PixelPuzzle", "pixel-puzzle").factory
    solve = sys.modules[factory.__module__].solutions
    rows = ((1, 1), (5,), (5,), (3,), (1,))
    cols = ((2,), (4,), (4,), (4,), (2,))
    assert solve(rows, cols) == (tuple(HEART),)
    # a 2x2 with one run a line has two pictures (the diagonals)
    assert len(solve(((1,), (1,)), ((1,), (1,)))) == 2


def test_the_model_certifies_and_a_broken_copy_is_flagged(platform: str, tmp_path: Path) -> None:
    good = certify("pixel-puzzle", f"{MODEL}:PixelPuzzle", server=platform, seeds=[1, 2],
                   max_steps=8)  # fmt: skip
    assert good.passed, [str(f) for f in good.first[:3]]
    assert (good.trajectories, good.divergences, good.errors) == (4, 0, [])
    # a copy whose mark writes no X note (it empties the cell instead)
    broken = tmp_path / "broken_pixel_puzzle.py"
    text = MODEL.read_text()
    old = 'mark = "#" if action["type"] == "fill" else "X"'
    assert old in text
    broken.write_text(text.replace(old, 'mark = "#" if action["type"] == "fill" else "."'))
    bad = certify("pixel-puzzle", f"{broken}:PixelPuzzle", server=platform, seeds=[1],
                  policies=["random"], max_steps=20)  # fmt: skip
    assert not bad.passed
    first = bad.first[0].divergence
    assert first.path.startswith("observation.board[")


def test_search_solves_the_opening_heart_in_its_sixteen_clicks(
    platform: str, tmp_path: Path
) -> None:
    summary = sunbot.play("pixel-puzzle", server=platform, strategy="search",
                          engine=f"{MODEL}:PixelPuzzle", seed=1, max_steps=16,
                          transcript=tmp_path / "t.jsonl")  # fmt: skip
    assert summary.score == 16
    assert summary.final_state is not None
    assert summary.final_state["puzzle"] == 1  # the Heart solved, the Plus next


def test_where_the_clues_allow_two_pictures_a_board_that_fits_them_solves(model: Any) -> None:
    # a 2x2 with one run a line: either diagonal fits, so the model checks the clues
    two = {"puzzle": 4, "board": ["..", ".."], "solved": 4, "clicks": 0, "name": "Mushroom",
           "size": 2, "rowClues": [[1], [1]], "colClues": [[1], [1]], "phase": "playing"}  # fmt: skip
    s = model.from_observation(two)
    assert model.key(s) == "4:../.."  # no one picture: the board is the key
    half = _fill(model, s, [(0, 1)])
    assert not model.is_over(half)
    assert model.is_over(_fill(model, half, [(1, 0)]))
