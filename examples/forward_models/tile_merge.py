"""A forward model of ``tile-merge`` (the platform's Tile Merge, after 2048): slide every
tile one way, equal tiles merge, the merges' values add to the score (higher is better);
after each move a tile spawns on a random empty cell, a 2 nine times in ten, else a 4.

The spawn is the server's draw from a cursor the player never sees, so the model draws it
(``stochastic = True``): certify compares the slide and the score exactly and the new tile
by shape, and search averages over where it may fall. A lookahead through the server would
see the spawn itself: the peek guard refuses it (``state.rng``).
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

SIZE = 4
WIN = 2048


@cache
def slide_row(row: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """``row`` slid toward its start: the new row and the points its merges made. (Cached:
    a game meets the same few hundred rows again and again, and search steps a lot.)"""
    tiles = [v for v in row if v]
    out: list[int] = []
    points, i = 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] * 2)
            points += tiles[i] * 2
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return tuple(out + [0] * (len(row) - len(out))), points


def slide(board: list[list[int]], direction: str) -> tuple[list[list[int]], int]:
    """``board`` after a move: the new board and the points."""
    cols = direction in ("up", "down")
    lines = zip(*board, strict=True) if cols else map(tuple, board)
    flip = direction in ("down", "right")
    moved, points = [], 0
    for line in lines:
        new, got = slide_row(line[::-1] if flip else line)
        moved.append(new[::-1] if flip else new)
        points += got
    return [list(r) for r in (zip(*moved, strict=True) if cols else moved)], points


@cache
def _against_grain(line: tuple[int, ...]) -> int:
    """How far ``line`` is from running one way: the smaller of its total rises and its
    total falls (0 for a line that only rises or only falls)."""
    steps = list(itertools.pairwise(line))
    return min(sum(max(b - a, 0) for a, b in steps), sum(max(a - b, 0) for a, b in steps))


class TileMerge:
    """A state is ``{board (rows of numbers, 0 empty), score, won, moves}``."""

    game = "tile-merge"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The board, score, milestone and moves shown."""
        return {
            "board": [list(r) for r in observation["board"]],
            "score": observation["score"],
            "won": observation["won"],
            "moves": observation["moves"],
        }

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """The directions that change the board, up, down, left, right."""
        b = s["board"]
        return [
            {"type": "move", "direction": d}
            for d in ("up", "down", "left", "right")
            if slide(b, d)[0] != b
        ]

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """The slide, its points, then a drawn spawn."""
        board, points = slide(s["board"], action["direction"])
        empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if not board[r][c]]
        if empty:
            r, c = empty[self.rng.randrange(len(empty))]
            board[r][c] = 4 if self.rng.random() < 0.1 else 2
        won = s["won"] or any(v >= WIN for row in board for v in row)
        return {"board": board, "score": s["score"] + points, "won": won, "moves": s["moves"] + 1}

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """The board, its text rows, score, milestone, moves, largest tile, phase."""
        b = s["board"]
        return {
            "board": b,
            "rows": [" ".join(str(v) if v else "." for v in row) for row in b],
            "score": s["score"],
            "won": s["won"],
            "moves": s["moves"],
            "maxTile": max(v for row in b for v in row),
            "phase": "over" if self.is_over(s) else "playing",
        }

    def score(self, s: dict[str, Any]) -> float:
        """The merges' points."""
        return s["score"]

    def is_over(self, s: dict[str, Any]) -> bool:
        """No move changes the board: it is full, and no two neighbours are equal (with an
        empty cell some line holds a gap and a tile, so some move changes it)."""
        b = s["board"]
        if any(not v for row in b for v in row):
            return False
        return not any(
            (c + 1 < SIZE and b[r][c] == b[r][c + 1]) or (r + 1 < SIZE and b[r][c] == b[r + 1][c])
            for r in range(SIZE)
            for c in range(SIZE)
        )

    def estimate(self, s: dict[str, Any]) -> float:
        """A guess of the final score from here: the points so far plus what the board
        promises. Room to move keeps a game going (each empty cell is worth a small
        merge's points, scaled by the largest tile), and a board whose rows and columns
        run in one direction keeps its large tiles together, so a step against the
        grain costs the difference. Cheap (no look ahead): search does the looking."""
        b = s["board"]
        empty = sum(1 for row in b for v in row if not v)
        top = max(max(row) for row in b)
        lines = [*map(tuple, b), *zip(*b, strict=True)]
        rough = sum(map(_against_grain, lines))
        return s["score"] + empty * top / 4 - rough
