"""A forward model of ``sudoku`` (the platform's Sudoku): write digits into a 9x9 grid until
every row, column and 3x3 box holds 1 to 9 once; the score counts the moves (placements and
erasures), fewer is better. Nothing is hidden or drawn: the model is deterministic.

The rules as the model keeps them: a placement goes into an empty cell that is not a clue,
with a digit its row, column and box do not hold yet; an erasure empties a filled cell that
is not a clue; the run ends when no cell is empty. The legal actions are listed as the
server lists them (every placement by cell in reading order and digit, then every erasure
in reading order), and the observation carries what the server shows beside the grid (the
rows as text, the empty cells left, the phase): certify's divergences taught those.

Its ``estimate`` is what makes the grid searchable: the model solves the puzzle (constraint
propagation by bit masks, then a search on the cell with the fewest candidates) and counts
the moves the run still needs: one placement per empty cell, and an erasure and a placement
for a digit of the player's that the solution does not have. A tiny weight on the moves
left (a thousandth of a move each) breaks ties toward the position nearer the end, so
best-first search walks down one line instead of across the orders the same placements can
be made in.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

N = 9
CELLS = N * N
ALL = 0x3FE  # the bits of the digits 1-9
#: How much more a move still to make weighs in the estimate than a move made (ties only).
TIE = 1.001


def _box(cell: int) -> int:
    r, c = divmod(cell, N)
    return (r // 3) * 3 + c // 3


#: The row, column and box of each cell.
UNITS = tuple((i // N, i % N, _box(i)) for i in range(CELLS))


def _masks(grid: tuple[int, ...]) -> tuple[list[int], list[int], list[int]]:
    rows, cols, boxes = [0] * N, [0] * N, [0] * N
    for i, v in enumerate(grid):
        if v:
            r, c, b = UNITS[i]
            rows[r] |= 1 << v
            cols[c] |= 1 << v
            boxes[b] |= 1 << v
    return rows, cols, boxes


def candidates(grid: tuple[int, ...], cell: int) -> list[int]:
    """The digits an empty ``cell`` (``row * 9 + col``) of the flat ``grid`` (81 digits, 0
    for empty) may take: those its row, column and box do not hold."""
    r, c, b = UNITS[cell]
    used = 0
    for i, v in enumerate(grid):
        if v and (UNITS[i][0] == r or UNITS[i][1] == c or UNITS[i][2] == b):
            used |= 1 << v
    return [v for v in range(1, 10) if not used >> v & 1]


@lru_cache(maxsize=64)
def solutions(grid: tuple[int, ...], limit: int = 2) -> tuple[tuple[int, ...], ...]:
    """Up to ``limit`` completions of the flat ``grid`` (81 digits, 0 for empty): the cells
    with one candidate left filled first (propagation), then each candidate of the cell with
    the fewest in turn. Empty when the grid clashes or cannot be completed."""
    work = list(grid)
    rows, cols, boxes = [0] * N, [0] * N, [0] * N
    for i, v in enumerate(grid):
        if v:
            r, c, b = UNITS[i]
            bit = 1 << v
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return ()  # a digit twice in a unit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
    empty = [i for i, v in enumerate(work) if not v]
    found: list[tuple[int, ...]] = []

    def put(i: int, v: int) -> None:
        r, c, b = UNITS[i]
        bit = 1 << v
        rows[r] ^= bit
        cols[c] ^= bit
        boxes[b] ^= bit
        work[i] = v

    def go() -> None:
        placed: list[int] = []
        best, best_free = -1, 0
        progress = True
        while progress:  # propagation: fill every cell left a single candidate
            progress, best, best_count = False, -1, 10
            for i in empty:
                if work[i]:
                    continue
                r, c, b = UNITS[i]
                free = ~(rows[r] | cols[c] | boxes[b]) & ALL
                count = free.bit_count()
                if count == 0:  # a dead end
                    best = -2
                    progress = False
                    break
                if count == 1:
                    put(i, free.bit_length() - 1)
                    placed.append(i)
                    progress = True
                elif count < best_count:
                    best, best_free, best_count = i, free, count
        if best == -1 and not progress and all(work):
            found.append(tuple(work))
        elif best >= 0:
            for v in range(1, 10):
                if best_free >> v & 1 and len(found) < limit:
                    put(best, v)
                    go()
                    put(best, v)  # the same bits again: taken back
                    work[best] = 0
        for i in reversed(placed):
            put(i, work[i])
            work[i] = 0

    go()
    return tuple(found)


class Sudoku:
    """A state is ``{grid, givens, moves}``: ``grid`` the 81 digits in reading order (0 for
    empty) as a tuple, ``givens`` 81 characters (``1`` marks a clue), ``moves`` the moves
    taken."""

    game = "sudoku"

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The grid, its clues and the moves as the observation shows them."""
        return {
            "grid": tuple(v for row in observation["grid"] for v in row),
            "givens": "".join(observation["givens"]),
            "moves": observation["moves"],
        }

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """Every placement that clashes with nothing (by cell in reading order, then digit),
        then every erasure of a filled cell that is not a clue (reading order); none once
        the grid is full."""
        grid, givens = s["grid"], s["givens"]
        if all(grid):
            return []
        rows, cols, boxes = _masks(grid)
        places: list[dict[str, Any]] = []
        for i in range(CELLS):
            if grid[i]:
                continue
            r, c, b = UNITS[i]
            free = ~(rows[r] | cols[c] | boxes[b]) & ALL
            places.extend(
                {"type": "place", "row": r, "col": c, "value": v}
                for v in range(1, 10)
                if free >> v & 1
            )
        erases = [
            {"type": "erase", "row": i // N, "col": i % N}
            for i in range(CELLS)
            if grid[i] and givens[i] == "0"
        ]
        return places + erases

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """The digit written (``place``) or the cell emptied (``erase``), one move more.

        Raises:
            ValueError: an action the rules refuse (a clue, a filled cell, a clash, an
                empty cell to erase).
        """
        i = action["row"] * N + action["col"]
        grid = list(s["grid"])
        if s["givens"][i] == "1":
            raise ValueError("a clue cannot change")
        if action["type"] == "erase":
            if not grid[i]:
                raise ValueError("nothing to erase")
            grid[i] = 0
        else:
            v = action["value"]
            if grid[i] or v not in candidates(s["grid"], i):
                raise ValueError(f"{v} cannot go there")
            grid[i] = v
        return {**s, "grid": tuple(grid), "moves": s["moves"] + 1}

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """What the server shows: the grid, its clues, the moves, the rows as text (``.``
        for empty), the empty cells left and the phase (``playing``, ``solved``)."""
        grid = s["grid"]
        rows = [list(grid[r * N : (r + 1) * N]) for r in range(N)]
        empty = grid.count(0)
        return {
            "grid": rows,
            "givens": [s["givens"][r * N : (r + 1) * N] for r in range(N)],
            "moves": s["moves"],
            "rows": ["".join(str(v) if v else "." for v in row) for row in rows],
            "emptyCells": empty,
            "phase": "playing" if empty else "solved",
        }

    def score(self, s: dict[str, Any]) -> float:
        """The moves taken."""
        return float(s["moves"])

    def is_over(self, s: dict[str, Any]) -> bool:
        """No cell is empty (every placement clashed with nothing, so the grid is solved)."""
        return all(s["grid"])

    # optional hooks: what makes the search fast

    def estimate(self, s: dict[str, Any]) -> float:
        """The moves the run ends with from here: those taken, one placement per empty
        cell, and an erasure and a placement per digit of the player's that the solution
        does not have (the moves left weighed :data:`TIE` to break ties toward the end).

        Where the clues allow more than one solution, the grid as it stands is solved
        instead; a grid that cannot be completed then counts against the nearest of two
        solutions of the clues."""
        grid, givens = s["grid"], s["givens"]
        clues = tuple(v if g == "1" else 0 for v, g in zip(grid, givens, strict=True))
        known = solutions(clues)
        empty = grid.count(0)
        if len(known) == 1:
            solution = known[0]
            wrong = sum(1 for v, w in zip(grid, solution, strict=True) if v and v != w)
        elif solutions(grid, 1):
            wrong = 0
        else:
            wrong = min(
                (sum(1 for v, w in zip(grid, sol, strict=True) if v and v != w) for sol in known),
                default=CELLS - empty - givens.count("1"),
            )
        return float(s["moves"] + TIE * (empty + 2 * wrong))

    def key(self, s: dict[str, Any]) -> str:
        """The grid alone (the moves aside)."""
        return "".join(map(str, s["grid"]))
