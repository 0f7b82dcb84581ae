"""``sudoku``: fill a 9x9 grid so every row, column and box holds 1-9 (rule page: Sudoku).

Fully observable. ``state`` is ``{grid, givens, moves}``: ``grid`` nine rows of nine digits
(0 for empty), ``givens`` nine strings of nine (``1`` marks a clue); the observation shows
the same, the rows as text (``.`` for empty), the empty cells left, and ``phase``
(``playing``, ``solved``). Score: placements plus erasures, lower is better; the run ends
when the grid is full (every placement is conflict-free, so a full grid is solved).

Local choices (the page was cut off at its last line): a puzzle is a seeded random
solution with cells emptied in a seeded order as long as the solution stays unique, down
to 36 clues (the same seed, the same puzzle, cached); legal actions list every accepted
placement by cell in reading order and digit, then every erasure in reading order. A
carried grid must keep its clues filled and repeat no digit in a row, column or box.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from sunbot.testing.platform.common import (
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_int,
    as_list,
    as_obj,
    as_str,
    draws,
    field_int,
    need,
)

SLUG = "sudoku"
N = 9
CLUES = 36
_CELL = {
    "row": {"type": "integer", "minimum": 0, "maximum": 8},
    "col": {"type": "integer", "minimum": 0, "maximum": 8},
}
SPEC: dict[str, Any] = {
    "goal": "Fill the 9x9 grid so that each row, each column and each 3x3 box holds the "
    "digits 1 to 9 once. It is done once no cell is empty and nothing clashes.",
    "scoring": "Moves taken, placements and erasures together. Fewer is better: a clean "
    "solve places each empty cell once and erases nothing.",
    "scoreOrder": "ascending",
    "rules": [
        "Rows and columns count from 0 at the top left. Clues (the digits given at the "
        "start) never change.",
        "place writes a digit 1-9 into an empty cell that is not a clue; only a digit not "
        "yet in that cell's row, column or box is accepted.",
        "erase empties a filled cell that is not a clue, to back out of a dead end.",
        "A clashing digit, a clue, or a filled cell is refused with the reason and the "
        "legal actions.",
        "No time limit and no way to lose: keep going until the grid is full.",
    ],
    "actionGrammar": {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "place"},
                    **_CELL,
                    "value": {"type": "integer", "minimum": 1, "maximum": 9},
                },
                "required": ["type", "row", "col", "value"],
            },
            {
                "type": "object",
                "properties": {"type": {"const": "erase"}, **_CELL},
                "required": ["type", "row", "col"],
            },
        ]
    },
}


def _box(r: int, c: int) -> int:
    return (r // 3) * 3 + c // 3


def candidates(grid: list[int], cell: int) -> list[int]:
    """The digits ``cell`` (``row * 9 + col``) may take on a flat ``grid`` (0: empty)."""
    r, c = divmod(cell, N)
    used = set()
    for i in range(N * N):
        rr, cc = divmod(i, N)
        if rr == r or cc == c or _box(rr, cc) == _box(r, c):
            used.add(grid[i])
    return [v for v in range(1, 10) if v not in used]


def solutions(grid: list[int], limit: int = 2, rng: random.Random | None = None) -> list[list[int]]:
    """Up to ``limit`` completions of a flat ``grid`` (a backtracking search on bit masks,
    the cell with the fewest candidates first; ``rng`` shuffles the digits tried)."""
    work = grid[:]
    rows, cols, boxes = [0] * N, [0] * N, [0] * N
    for i, v in enumerate(work):
        if v:
            r, c = divmod(i, N)
            bit = 1 << v
            rows[r] |= bit
            cols[c] |= bit
            boxes[_box(r, c)] |= bit
    empty = [i for i, v in enumerate(work) if not v]
    found: list[list[int]] = []

    def go() -> None:
        best, best_free, best_count = -1, 0, 10
        for i in empty:
            if work[i]:
                continue
            r, c = divmod(i, N)
            free = ~(rows[r] | cols[c] | boxes[_box(r, c)]) & 0x3FE
            count = free.bit_count()
            if count < best_count:
                best, best_free, best_count = i, free, count
                if count <= 1:
                    break
        if best < 0:
            found.append(work[:])
            return
        options = [v for v in range(1, 10) if best_free >> v & 1]
        if rng is not None:
            rng.shuffle(options)
        r, c = divmod(best, N)
        b = _box(r, c)
        for v in options:
            bit = 1 << v
            work[best] = v
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            go()
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            work[best] = 0
            if len(found) >= limit:
                return

    go()
    return found


@lru_cache(maxsize=256)
def puzzle(salt: str, seed: int) -> tuple[int, ...]:
    """The flat clue grid of ``seed`` (0: empty), unique in its solution."""
    rng = draws(salt, SLUG, seed)
    grid = solutions([0] * (N * N), 1, rng)[0]
    order = list(range(N * N))
    rng.shuffle(order)
    filled = N * N
    for cell in order:
        if filled <= CLUES:
            break
        keep = grid[cell]
        grid[cell] = 0
        if len(solutions(grid, 2)) == 1:
            filled -= 1
        else:
            grid[cell] = keep
    return tuple(grid)


def clash(grid: list[list[int]], r: int, c: int, v: int) -> str | None:
    """Where ``v`` already stands among (r, c)'s row, column and box, or ``None``."""
    if v in grid[r]:
        return f"row {r}"
    if any(grid[i][c] == v for i in range(N)):
        return f"column {c}"
    br, bc = r // 3 * 3, c // 3 * 3
    if any(grid[i][j] == v for i in range(br, br + 3) for j in range(bc, bc + 3)):
        return f"the box of ({r},{c})"
    return None


class Sudoku(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Sudoku"
    genre = "puzzle"
    description = "Fill the grid so every row, column and box holds 1 to 9."
    goal = SPEC["goal"]
    spec = SPEC

    def new(self, seed: int) -> State:
        flat = puzzle(self.salt, seed)
        grid = [list(flat[r * N : (r + 1) * N]) for r in range(N)]
        givens = ["".join("1" if v else "0" for v in row) for row in grid]
        return {"grid": grid, "givens": givens, "moves": 0}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("grid", "givens", "moves"))
        grid = [
            [
                as_int(v, 0, 9, f"grid[{r}][{c}]")
                for c, v in enumerate(as_list(row, f"grid[{r}]", N))
            ]
            for r, row in enumerate(as_list(s["grid"], "grid", N))
        ]
        givens = [
            as_str(g, f"givens[{r}]", N, "01")
            for r, g in enumerate(as_list(s["givens"], "givens", N))
        ]
        for r in range(N):
            need(len(givens[r]) == N, f"givens[{r}]", "nine flags")
            for c in range(N):
                need(givens[r][c] == "0" or grid[r][c] > 0, f"grid[{r}][{c}]", "an empty clue")
                v, grid[r][c] = grid[r][c], 0
                need(
                    not v or clash(grid, r, c, v) is None,
                    f"grid[{r}][{c}]",
                    f"{v} clashes with another {v}",
                )
                grid[r][c] = v
        return {"grid": grid, "givens": givens, "moves": as_int(s["moves"], 0, 10**7, "moves")}

    def legal(self, s: State) -> list[Action]:
        grid = s["grid"]
        flat = [v for row in grid for v in row]
        places = [
            {"type": "place", "row": i // N, "col": i % N, "value": v}
            for i in range(N * N)
            if not flat[i]
            for v in candidates(flat, i)
        ]
        erases = [
            {"type": "erase", "row": r, "col": c}
            for r in range(N)
            for c in range(N)
            if grid[r][c] and s["givens"][r][c] == "0"
        ]
        return places + erases

    def apply(self, s: State, action: Action) -> State:
        r, c = field_int(action, "row"), field_int(action, "col")
        grid = [row[:] for row in s["grid"]]
        if s["givens"][r][c] == "1":
            raise IllegalAction(f"({r},{c}) is a clue ({grid[r][c]}) and cannot change")
        if action["type"] == "erase":
            if not grid[r][c]:
                raise IllegalAction(f"({r},{c}) is empty: nothing to erase")
            grid[r][c] = 0
        else:
            v = field_int(action, "value")
            if grid[r][c]:
                raise IllegalAction(f"({r},{c}) holds {grid[r][c]} already: erase it first")
            where = clash(grid, r, c, v)
            if where is not None:
                fits = candidates([x for row in grid for x in row], r * N + c)
                raise IllegalAction(
                    f"{v} is already in {where}; ({r},{c}) can take: "
                    f"{', '.join(map(str, fits)) or 'nothing (erase a cell)'}"
                )
            grid[r][c] = v
        return {**s, "grid": grid, "moves": s["moves"] + 1}

    def observe(self, s: State) -> dict[str, Any]:
        empty = sum(1 for row in s["grid"] for v in row if not v)
        return {
            **s,
            "rows": ["".join(str(v) if v else "." for v in row) for row in s["grid"]],
            "emptyCells": empty,
            "phase": "playing" if empty else "solved",
        }

    def score(self, s: State) -> int:
        return int(s["moves"])

    def over(self, s: State) -> bool:
        return all(v for row in s["grid"] for v in row)
