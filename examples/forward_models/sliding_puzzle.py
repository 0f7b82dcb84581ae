"""A forward model of ``sliding-puzzle`` (the platform's Sliding Puzzle, the fifteen puzzle):
slide tiles into the empty square until they read 1 to 15; the score is the slides used,
fewer is better. Nothing is hidden or drawn: the model is deterministic.

Its ``estimate`` is what makes a board of fifty-odd slides searchable: the slides used plus
twice the tiles' Manhattan distance to their places (the distance is a lower bound of the
slides left; twice it, a fair guess of what a search that is no optimal solver will need).
"""

from __future__ import annotations

from typing import Any

SIZE = 4
SOLVED = tuple([*range(1, SIZE * SIZE), 0])


def _neighbours(i: int) -> list[int]:
    r, c = divmod(i, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            out.append((r + dr) * SIZE + c + dc)
    return out


def _distance(board: tuple[int, ...]) -> int:
    total = 0
    for i, tile in enumerate(board):
        if tile:
            r, c = divmod(i, SIZE)
            gr, gc = divmod(tile - 1, SIZE)
            total += abs(r - gr) + abs(c - gc)
    return total


class SlidingPuzzle:
    """A state is ``(board, slides)``: the sixteen cells in reading order (0: empty) and the
    slides used."""

    game = "sliding-puzzle"

    def from_observation(self, observation: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        """The board (``null`` is the empty square) and the slides."""
        cells = tuple(v or 0 for row in observation["board"] for v in row)
        return cells, observation["slides"]

    def legal_actions(self, s: tuple[tuple[int, ...], int]) -> list[dict[str, Any]]:
        """The tiles next to the empty square, by value (none once solved)."""
        board = s[0]
        if board == SOLVED:
            return []
        tiles = sorted(board[n] for n in _neighbours(board.index(0)))
        return [{"type": "slide", "tile": t} for t in tiles]

    def step(
        self, s: tuple[tuple[int, ...], int], action: dict[str, Any]
    ) -> tuple[tuple[int, ...], int]:
        """The tile into the empty square."""
        board = list(s[0])
        empty, at = board.index(0), board.index(action["tile"])
        board[empty], board[at] = board[at], 0
        return tuple(board), s[1] + 1

    def observation(self, s: tuple[tuple[int, ...], int]) -> dict[str, Any]:
        """What the server shows: the board, its text rows, the empty square, the tiles in
        place, the Manhattan distance, the slides, and whether it is solved."""
        board, slides = s
        rows = [list(board[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
        shown = [[v or None for v in row] for row in rows]
        r, c = divmod(board.index(0), SIZE)
        solved = board == SOLVED
        return {
            "board": shown,
            "rows": [" ".join("__" if v is None else f"{v:2d}" for v in row) for row in shown],
            "empty": {"row": r, "col": c},
            "tilesInPlace": sum(1 for i, v in enumerate(board) if v == i + 1),
            "manhattan": _distance(board),
            "slides": slides,
            "solved": solved,
            "phase": "solved" if solved else "playing",
        }

    def score(self, s: tuple[tuple[int, ...], int]) -> float:
        """The slides used."""
        return s[1]

    def is_over(self, s: tuple[tuple[int, ...], int]) -> bool:
        """Solved."""
        return s[0] == SOLVED

    def estimate(self, s: tuple[tuple[int, ...], int]) -> float:
        """The slides used plus twice the Manhattan distance left."""
        return s[1] + 2 * _distance(s[0])

    def key(self, s: tuple[tuple[int, ...], int]) -> str:
        """The board alone (the slides aside)."""
        return ",".join(map(str, s[0]))
