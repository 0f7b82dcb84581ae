"""Novelty: atoms of the paths that change, step counters left out, rarer counts more."""

from __future__ import annotations

import pytest

from sunbot.search.novelty import Novelty


def obs(row: int, col: int, moves: int) -> dict:
    return {"walls": [[True, False]], "position": {"row": row, "col": col}, "moves": moves}


def test_a_cell_never_stood_on_counts_most_and_counters_do_not_count() -> None:
    n = Novelty()
    n.visit(obs(0, 0, 0))
    assert n.count(obs(5, 5, 9)) == 0.0  # nothing has changed yet: nothing to tell
    for row, col, moves in ((1, 0, 1), (1, 1, 2), (0, 1, 3)):
        n.visit(obs(row, col, moves))
    assert n.counters[("moves",)] is True  # up by one at every step: a counter
    assert not n.counters[("position", "row")]
    assert ("walls", 0, 0) not in n.changing  # a wall never changes
    # once row and col are known to change (from the third position on), the run stood on
    # col=1 twice, row=1 and row=0 once, the pairs (1, 1) and (0, 1) once
    assert n.count(obs(1, 1, 7)) == pytest.approx(1 / 3 + 1 / 2 + 1 / 2)
    assert n.count(obs(0, 0, 7)) == pytest.approx(1 + 1 / 2 + 1)
    assert n.count(obs(2, 1, 7)) == pytest.approx(1 / 3 + 1 + 1)
