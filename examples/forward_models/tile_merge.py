"""A forward model of ``tile-merge`` (the platform's Tile Merge, after 2048): slide every
tile one way, equal tiles merge, the merges' values add to the score (higher is better);
after each move a tile spawns on a random empty cell, a 2 nine times in ten, else a 4.

The spawn is the server's draw from a cursor the player never sees, so the model draws it
(``stochastic = True``): certify compares the slide and the score exactly and the new tile
by shape, and search averages over where it may fall. A lookahead through the server would
see the spawn itself: the peek guard refuses it (``state.rng``).
"""

from __future__ import annotations

import random
from typing import Any

SIZE = 4
WIN = 2048


def slide_row(row: list[int]) -> tuple[list[int], int]:
    """``row`` slid toward its start: the new row and the points its merges made."""
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
    return out + [0] * (len(row) - len(out)), points


def slide(board: list[list[int]], direction: str) -> tuple[list[list[int]], int]:
    """``board`` after a move: the new board and the points."""
    cols = direction in ("up", "down")
    lines = [list(c) for c in zip(*board, strict=True)] if cols else [list(r) for r in board]
    flip = direction in ("down", "right")
    moved, points = [], 0
    for line in lines:
        new, got = slide_row(line[::-1] if flip else line)
        moved.append(new[::-1] if flip else new)
        points += got
    return ([list(c) for c in zip(*moved, strict=True)] if cols else moved), points


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
        """No move changes the board."""
        return not self.legal_actions(s)
