"""``tile-merge``: slide and merge powers of two on a 4x4 board (rule page: Tile Merge).

A random-spawn game. ``state`` is ``{board, score, won, moves, rng}``: ``board`` four rows
of four numbers (0 for an empty cell), and ``rng`` the 32-bit state of the seeded
generator (mulberry32) that places the next tiles; the observation shows the board (and
its text rows, ``.`` for empty), score, ``won``, moves and the largest tile, but not
``rng``: a client that sends a state forward learns the next spawn, which a player cannot.
Score: the sum of the merged tiles' values, higher is better.

Local choices (the page was cut off in the grammar): two tiles spawn before the first
move; a spawn takes two draws, the first picking among the empty cells in reading order,
the second a 4 when below 0.1, else a 2; legal moves are listed up, down, left, right. A
carried board must hold powers of two from 2 to 2^17 (or 0) and ``won`` must match it.
"""

from __future__ import annotations

from typing import Any

from sunbot.testing.platform.common import (
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_bool,
    as_int,
    as_list,
    as_obj,
    draws,
    need,
)

SLUG = "tile-merge"
SIZE = 4
WIN_TILE = 2048
TILES = {0, *(2**k for k in range(1, 18))}
MASK = 0xFFFFFFFF
SPEC: dict[str, Any] = {
    "goal": "Slide the tiles of a 4x4 board so that equal tiles merge into larger ones: "
    "make a 2048 tile, then keep growing your score.",
    "scoring": "Every merge adds the new tile's value to the score (two 64s make a 128: "
    "+128). Higher is better. Making 2048 sets won but the game goes on.",
    "scoreOrder": "descending",
    "rules": [
        "A move slides every tile as far as it goes in the direction given.",
        "Two equal tiles that meet merge into one of twice the value; a tile made by a "
        "merge does not merge again in the same move.",
        "A move that changes nothing is refused; legalActions lists the directions that "
        "change the board.",
        "After every move one new tile appears on a random empty cell: a 2 nine times in "
        "ten, else a 4. The draws are seeded, so a seed replays the same game.",
        "The game ends when no move can change the board.",
        "The board (0 or . is empty) and the score are always shown.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "move"},
            "direction": {
                "enum": ["up", "down", "left", "right"],
                "description": "Which way every tile slides; only a direction that changes "
                "the board is legal.",
            },
        },
        "required": ["type", "direction"],
    },
}


def mulberry32(state: int) -> tuple[float, int]:
    """One draw of the mulberry32 generator: (a number in [0, 1), the next state)."""
    state = (state + 0x6D2B79F5) & MASK
    t = state
    t = ((t ^ (t >> 15)) * (t | 1)) & MASK
    t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & MASK)) & MASK
    return ((t ^ (t >> 14)) & MASK) / 2**32, state


def slide_row(row: list[int]) -> tuple[list[int], int]:
    """``row`` slid towards its start: (the new row, the points its merges made)."""
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
    """``board`` after a move ``direction``: (the new board, the points made)."""
    cols = direction in ("up", "down")
    lines = [list(col) for col in zip(*board, strict=True)] if cols else [list(r) for r in board]
    flip = direction in ("down", "right")
    moved, points = [], 0
    for line in lines:
        new, got = slide_row(line[::-1] if flip else line)
        moved.append(new[::-1] if flip else new)
        points += got
    out = [list(col) for col in zip(*moved, strict=True)] if cols else moved
    return out, points


def spawn(board: list[list[int]], rng: int) -> tuple[list[list[int]], int]:
    """``board`` with one new tile (see the module docstring), and the generator's state."""
    empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if not board[r][c]]
    if not empty:
        return board, rng
    u, rng = mulberry32(rng)
    r, c = empty[int(u * len(empty))]
    v, rng = mulberry32(rng)
    out = [row[:] for row in board]
    out[r][c] = 4 if v < 0.1 else 2
    return out, rng


class TileMerge(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Tile Merge"
    genre = "puzzle"
    description = "Slide and merge tiles to reach 2048 and beyond."
    goal = SPEC["goal"]
    spec = SPEC
    hidden = ("rng",)

    def new(self, seed: int) -> State:
        rng = draws(self.salt, SLUG, seed).getrandbits(32)
        board = [[0] * SIZE for _ in range(SIZE)]
        board, rng = spawn(board, rng)
        board, rng = spawn(board, rng)
        return {"board": board, "score": 0, "won": False, "moves": 0, "rng": rng}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("board", "score", "won", "moves", "rng"))
        board = []
        for r, row in enumerate(as_list(s["board"], "board", SIZE)):
            cells = [
                as_int(v, 0, 2**17, f"board[{r}][{c}]")
                for c, v in enumerate(as_list(row, f"board[{r}]", SIZE))
            ]
            need(all(v in TILES for v in cells), f"board[{r}]", "0 or powers of two from 2")
            board.append(cells)
        won = as_bool(s["won"], "won")
        need(won == any(v >= WIN_TILE for row in board for v in row), "won", "not the board's")
        return {
            "board": board,
            "score": as_int(s["score"], 0, 10**9, "score"),
            "won": won,
            "moves": as_int(s["moves"], 0, 10**9, "moves"),
            "rng": as_int(s["rng"], 0, MASK, "rng"),
        }

    def legal(self, s: State) -> list[Action]:
        board = s["board"]
        return [
            {"type": "move", "direction": d}
            for d in ("up", "down", "left", "right")
            if slide(board, d)[0] != board
        ]

    def apply(self, s: State, action: Action) -> State:
        direction = action["direction"]
        board, points = slide(s["board"], direction)
        if board == s["board"]:
            ways = ", ".join(a["direction"] for a in self.legal(s)) or "none"
            raise IllegalAction(f"moving {direction} changes nothing; moves that do: {ways}")
        board, rng = spawn(board, s["rng"])
        won = s["won"] or any(v >= WIN_TILE for row in board for v in row)
        return {
            "board": board,
            "score": s["score"] + points,
            "won": won,
            "moves": s["moves"] + 1,
            "rng": rng,
        }

    def observe(self, s: State) -> dict[str, Any]:
        board = s["board"]
        over = self.over(s)
        return {
            "board": board,
            "rows": [" ".join(str(v) if v else "." for v in row) for row in board],
            "score": s["score"],
            "won": s["won"],
            "moves": s["moves"],
            "maxTile": max(v for row in board for v in row),
            "phase": "over" if over else "playing",
        }

    def score(self, s: State) -> int:
        return int(s["score"])

    def over(self, s: State) -> bool:
        return not self.legal(s)
