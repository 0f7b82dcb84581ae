"""The example sudoku model (``examples/forward_models/sudoku.py``): its steps and legal
actions on hand-made grids, its estimate, certify against the platform test server (and a
broken copy flagged at its first divergence), and search solving a seed flawlessly."""

from __future__ import annotations

import random
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
MODEL = ROOT / "examples/forward_models/sudoku.py"

#: A solved grid (a classic), by rows.
SOLVED = [
    "534678912", "672195348", "198342567", "859761423", "426853791", "713924856",
    "961537284", "287419635", "345286179",
]  # fmt: skip


def _observation(
    rows: list[str], givens: list[str] | None = None, moves: int = 0
) -> dict[str, Any]:
    """The observation the server shows of ``rows`` (``.`` empty); every filled cell a clue
    unless ``givens`` says otherwise."""
    grid = [[0 if ch == "." else int(ch) for ch in row] for row in rows]
    if givens is None:
        givens = ["".join("0" if ch == "." else "1" for ch in row) for row in rows]
    empty = sum(row.count(".") for row in rows)
    return {
        "grid": grid, "givens": givens, "moves": moves, "rows": rows, "emptyCells": empty,
        "phase": "playing" if empty else "solved",
    }  # fmt: skip


def _blank(rows: list[str], *cells: tuple[int, int]) -> list[str]:
    out = [list(row) for row in rows]
    for r, c in cells:
        out[r][c] = "."
    return ["".join(row) for row in out]


@pytest.fixture(scope="module")
def model() -> Any:
    return load_model(f"{MODEL}:Sudoku", "sudoku").build(random.Random(0))


@pytest.fixture(scope="module")
def platform() -> Iterator[str]:
    with LoopbackServer(create_platform_app()) as srv:
        yield srv.url


def test_four_forced_cells_and_one_placement(model: Any) -> None:
    # (0,0): its row lacks 3 and 5, its column only 5 -> 5; (0,1): its column lacks only 3;
    # (4,4) and (8,8): their rows lack only 5 and 9. (8,7) is the player's: erasable.
    rows = _blank(SOLVED, (0, 0), (0, 1), (4, 4), (8, 8))
    givens = ["".join("0" if ch == "." else "1" for ch in row) for row in rows]
    givens[8] = givens[8][:7] + "00"
    s = model.from_observation(_observation(rows, givens, moves=3))
    assert sorted(map(str, model.legal_actions(s))) == sorted(map(str, [
        {"type": "place", "row": 0, "col": 0, "value": 5},
        {"type": "place", "row": 0, "col": 1, "value": 3},
        {"type": "place", "row": 4, "col": 4, "value": 5},
        {"type": "place", "row": 8, "col": 8, "value": 9},
        {"type": "erase", "row": 8, "col": 7},
    ]))  # fmt: skip
    # four empty cells, nothing wrong: four moves left (a thousandth more each for ties)
    assert model.estimate(s) == pytest.approx(3 + 4 * 1.001)
    after = model.step(s, {"type": "place", "row": 0, "col": 0, "value": 5})
    seen = model.observation(after)
    assert seen["rows"][0] == "5.4678912"
    assert (seen["moves"], seen["emptyCells"], seen["phase"]) == (4, 3, "playing")
    assert model.score(after) == 4 and not model.is_over(after)
    assert model.observation(s)["rows"][0] == "..4678912"  # the state did not change
    erased = model.step(after, {"type": "erase", "row": 8, "col": 7})
    assert model.observation(erased)["rows"][8] == "3452861.."
    assert model.estimate(erased) == pytest.approx(5 + 4 * 1.001)
    with pytest.raises(ValueError):
        model.step(s, {"type": "place", "row": 0, "col": 0, "value": 3})  # 3 is in row 0
    with pytest.raises(ValueError):
        model.step(s, {"type": "erase", "row": 0, "col": 2})  # a clue


def test_a_dead_end_leaves_only_the_erasure(model: Any) -> None:
    # the player put 3 into (0,0) (the solution's 5): (0,1) now has no digit left (its
    # column lacks only 3), so the only legal action is to erase (0,0)
    rows = _blank(SOLVED, (0, 1))
    rows[0] = "3" + rows[0][1:]
    givens = ["1" * 9 for _ in range(9)]
    givens[0] = "00" + "1" * 7
    s = model.from_observation(_observation(rows, givens, moves=1))
    assert model.legal_actions(s) == [{"type": "erase", "row": 0, "col": 0}]
    # one empty cell, one wrong digit (an erasure and a placement): three moves left
    assert model.estimate(s) == pytest.approx(1 + 3 * 1.001)
    back = model.step(s, {"type": "erase", "row": 0, "col": 0})
    assert model.estimate(back) == pytest.approx(2 + 2 * 1.001)
    done = model.step(
        model.step(back, {"type": "place", "row": 0, "col": 0, "value": 5}),
        {"type": "place", "row": 0, "col": 1, "value": 3},
    )
    assert model.is_over(done) and model.legal_actions(done) == []
    assert model.observation(done)["phase"] == "solved" and model.score(done) == 4


def test_the_model_certifies_and_a_broken_copy_is_flagged(platform: str, tmp_path: Path) -> None:
    good = certify("sudoku", f"{MODEL}:Sudoku", server=platform, seeds=[1, 2], max_steps=8)
    assert good.passed, [str(f) for f in good.first[:3]]
    assert (good.trajectories, good.divergences, good.errors) == (4, 0, [])
    assert good.predictions == good.steps + 4 == 4 * 8 + 4
    # a copy that lets clues be erased is wrong from the opening's legal actions on
    broken = tmp_path / "broken_sudoku.py"
    text = MODEL.read_text()
    assert 'if grid[i] and givens[i] == "0"' in text
    broken.write_text(text.replace('if grid[i] and givens[i] == "0"', "if grid[i]"))
    bad = certify("sudoku", f"{broken}:Sudoku", server=platform, seeds=[1], policies=["first"],
                  max_steps=2)  # fmt: skip
    assert not bad.passed
    first = bad.first[0]
    assert (first.seed, first.divergence.step, first.divergence.path) == (1, 0, "legalActions")


def test_search_places_each_empty_cell_once(platform: str, tmp_path: Path) -> None:
    summary = sunbot.play("sudoku", server=platform, strategy="search", engine=f"{MODEL}:Sudoku",
                          seed=3, transcript=tmp_path / "t.jsonl")  # fmt: skip
    # 36 clues: 45 empty cells, 45 placements, no erasure
    assert (summary.score, summary.steps) == (45, 45)
