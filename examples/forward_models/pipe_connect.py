"""A forward model of ``pipe-connect`` (the platform's Pipe Connect): turn the pipes of a
6x6 board, a quarter turn clockwise at a time, until a chain of pipes open toward each
other joins the source (row 0, col 1, open to the south) to the drain (row 5, col 4, open
to the north). The score is the turns made, fewer is better. The whole board is shown and
nothing is drawn: the model is deterministic.

A pipe is a mask of its openings (north 1, east 2, south 4, west 8); a clockwise quarter
turn moves each opening one side on (north to east, ..., west to north).

Its ``estimate`` is the fewest turns that could still join the source to the drain: a
shortest path over (cell, side entered) in which passing through a cell costs the quarter
turns that make its pipe open both on the side entered and on the side left (a straight
cannot bend, an elbow cannot go straight, an end passes nothing). It may count a cell
twice, so it is a lower bound; it is exact where the cheapest way is a simple path, so the
search walks straight down it.
"""

from __future__ import annotations

import heapq
from typing import Any

SIZE = 6
SOURCE, DRAIN = (0, 1), (5, 4)
NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
#: Each side's bit, its step (row, col), and the bit of the side facing it.
SIDES = ((NORTH, -1, 0, SOUTH), (EAST, 0, 1, WEST), (SOUTH, 1, 0, NORTH), (WEST, 0, -1, EAST))
#: The board text's character of each mask: the box-drawing piece with those openings.
GLYPHS = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"
#: The estimate where no turns can join the source to the drain (never, on a served board).
APART = 1_000.0


def turn(mask: int, times: int = 1) -> int:
    """``mask`` turned ``times`` quarter turns clockwise."""
    for _ in range(times % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def _costs() -> list[dict[tuple[int, int], int]]:
    """For each mask, the fewest quarter turns after which it opens on both of two sides."""
    out: list[dict[tuple[int, int], int]] = []
    for mask in range(16):
        costs: dict[tuple[int, int], int] = {}
        for k in range(4):
            turned = turn(mask, k)
            for a, *_ in SIDES:
                for b, *_ in SIDES:
                    if a != b and turned & a and turned & b and (a, b) not in costs:
                        costs[(a, b)] = k
        out.append(costs)
    return out


#: ``PASS[mask][(side in, side out)]``: the turns that open ``mask`` on both sides.
PASS = _costs()


def joined(grid: tuple[tuple[int, ...], ...]) -> set[tuple[int, int]]:
    """The cells a chain of mutual openings joins to the source (the source included)."""
    seen, todo = {SOURCE}, [SOURCE]
    while todo:
        r, c = todo.pop()
        for bit, dr, dc, back in SIDES:
            nr, nc = r + dr, c + dc
            if (
                grid[r][c] & bit
                and 0 <= nr < SIZE
                and 0 <= nc < SIZE
                and grid[nr][nc] & back
                and (nr, nc) not in seen
            ):
                seen.add((nr, nc))
                todo.append((nr, nc))
    return seen


def turns_needed(grid: tuple[tuple[int, ...], ...]) -> float:
    """The fewest quarter turns a chain from the source to the drain could take (see the
    module doc), :data:`APART` where none can."""
    # the source opens south into the cell below it, entered from its north side
    start = (SOURCE[0] + 1, SOURCE[1], NORTH)
    best: dict[tuple[int, int, int], int] = {start: 0}
    todo = [(0, start)]
    while todo:
        cost, (r, c, side_in) = heapq.heappop(todo)
        if cost > best.get((r, c, side_in), APART):
            continue
        for bit, dr, dc, back in SIDES:
            if bit == side_in:
                continue
            need = PASS[grid[r][c]].get((side_in, bit))
            if need is None:
                continue
            nr, nc = r + dr, c + dc
            if (nr, nc) == DRAIN:
                if back == NORTH:  # the drain opens north only
                    return float(cost + need)
                continue
            if not (0 <= nr < SIZE and 0 <= nc < SIZE) or (nr, nc) == SOURCE:
                continue
            there = (nr, nc, back)
            if cost + need < best.get(there, APART):
                best[there] = cost + need
                heapq.heappush(todo, (cost + need, there))
    return APART


Grid = tuple[tuple[int, ...], ...]


class PipeConnect:
    """A state is ``(grid, rotations)``: six rows of six masks, and the turns made."""

    game = "pipe-connect"

    def from_observation(self, observation: dict[str, Any]) -> tuple[Grid, int]:
        """The grid and the turns made."""
        grid = tuple(tuple(row) for row in observation["grid"])
        return grid, observation["rotations"]

    def legal_actions(self, s: tuple[Grid, int]) -> list[dict[str, Any]]:
        """Every cell but the source and the drain, in reading order (none once solved)."""
        if self.is_over(s):
            return []
        return [
            {"type": "rotate", "row": r, "col": c}
            for r in range(SIZE)
            for c in range(SIZE)
            if (r, c) not in (SOURCE, DRAIN)
        ]

    def step(self, s: tuple[Grid, int], action: dict[str, Any]) -> tuple[Grid, int]:
        """The cell's pipe a quarter turn clockwise.

        Raises:
            ValueError: the source, the drain, or a cell off the board.
        """
        r, c = action["row"], action["col"]
        if (r, c) in (SOURCE, DRAIN) or not (0 <= r < SIZE and 0 <= c < SIZE):
            raise ValueError(f"({r},{c}) cannot be turned")
        grid, rotations = s
        row = list(grid[r])
        row[c] = turn(row[c])
        return (*grid[:r], tuple(row), *grid[r + 1 :]), rotations + 1

    def observation(self, s: tuple[Grid, int]) -> dict[str, Any]:
        """What the server shows: the grid, its text rows, the source and the drain, the
        cells joined to the source, the turns made and the phase."""
        grid, rotations = s
        reach = joined(grid)
        return {
            "grid": [list(row) for row in grid],
            "rotations": rotations,
            "rows": ["".join(GLYPHS[v] for v in row) for row in grid],
            "source": {"row": SOURCE[0], "col": SOURCE[1]},
            "drain": {"row": DRAIN[0], "col": DRAIN[1]},
            "connected": [{"row": r, "col": c} for r, c in sorted(reach)],
            "phase": "solved" if DRAIN in reach else "playing",
        }

    def score(self, s: tuple[Grid, int]) -> float:
        """The turns made."""
        return float(s[1])

    def is_over(self, s: tuple[Grid, int]) -> bool:
        """The drain joined to the source."""
        return DRAIN in joined(s[0])

    # optional hooks: what makes the search fast

    def estimate(self, s: tuple[Grid, int]) -> float:
        """The turns made plus the fewest a chain could still take (module doc)."""
        return s[1] + turns_needed(s[0])

    def key(self, s: tuple[Grid, int]) -> str:
        """The grid alone (the turns aside)."""
        return ",".join(str(v) for row in s[0] for v in row)
