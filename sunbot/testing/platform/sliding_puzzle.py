"""``sliding-puzzle``: the fifteen puzzle on a 4x4 board (rule page: Sliding Puzzle).

Fully observable: ``state`` is ``{board, moves}`` (``board``: four rows of four, the tiles
1-15 and ``null`` for the empty square); the observation shows the same board, its text
rows (``__`` for the empty square), the empty square, the tiles in place, the total
Manhattan distance, and the count of slides as ``slides`` (the state calls it ``moves``).
Score: slides used, lower is better; the run ends, won, when the tiles are in order.

Local choices (the page was cut off in the grammar): legal slides are listed by tile
value; a board is the solved one scrambled by 100 seeded slides, none undoing the one
before (so every board is solvable); a carried board must be a solvable arrangement.
"""

from __future__ import annotations

from typing import Any

from sunbot.testing.platform.common import (
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_int,
    as_list,
    as_obj,
    draws,
    field_int,
    need,
)

SLUG = "sliding-puzzle"
SIZE = 4
#: Seeded slides that scramble the solved board.
SCRAMBLE = 100
SOLVED: tuple[int | None, ...] = (*range(1, SIZE * SIZE), None)
SPEC: dict[str, Any] = {
    "goal": "Put the tiles 1 to 15 in reading order on the 4x4 board, the empty square "
    "last (bottom right).",
    "scoring": "The number of slides you used. Lower is better.",
    "scoreOrder": "ascending",
    "rules": [
        "Rows and columns count from 0 at the top left; tile T belongs at index T-1.",
        "A slide names a tile that touches the empty square across an edge (not a corner); "
        "that tile moves into the empty square.",
        "Sliding the tile you just slid moves it back.",
        "legalActions lists the tiles that can slide now, by value (two to four).",
        "The game is won, and over, as soon as the tiles are in order. No move limit, no "
        "way to lose; nothing is hidden.",
        "Every board can be solved.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "slide"},
            "tile": {
                "type": "integer",
                "minimum": 1,
                "maximum": 15,
                "description": "The tile to slide; it must touch the empty square.",
            },
        },
        "required": ["type", "tile"],
    },
}


def _flat(board: list[list[int | None]]) -> list[int | None]:
    return [v for row in board for v in row]


def _rows(flat: list[int | None]) -> list[list[int | None]]:
    return [flat[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def neighbours(index: int) -> list[int]:
    """The board indexes next to ``index`` across an edge."""
    r, c = divmod(index, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            out.append((r + dr) * SIZE + c + dc)
    return out


def solvable(flat: list[int | None]) -> bool:
    """Whether a 4x4 arrangement can reach the solved board: the inversions among the
    tiles plus the empty square's row counted from the bottom (1-based) is odd."""
    tiles = [v for v in flat if v is not None]
    inversions = sum(1 for i, a in enumerate(tiles) for b in tiles[i + 1 :] if a > b)
    row_from_bottom = SIZE - flat.index(None) // SIZE
    return (inversions + row_from_bottom) % 2 == 1


def manhattan(flat: list[int | None]) -> int:
    """The sum over tiles of their row and column distances to their goal cells."""
    total = 0
    for i, v in enumerate(flat):
        if v is not None:
            r, c = divmod(i, SIZE)
            gr, gc = divmod(v - 1, SIZE)
            total += abs(r - gr) + abs(c - gc)
    return total


class SlidingPuzzle(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Sliding Puzzle"
    genre = "puzzle"
    description = "Slide the numbered tiles back into order."
    goal = SPEC["goal"]
    spec = SPEC

    def new(self, seed: int) -> State:
        rng = draws(self.salt, SLUG, seed)
        flat = list(SOLVED)
        empty, last = flat.index(None), -1
        slides = 0
        while slides < SCRAMBLE or flat == list(SOLVED):
            options = [n for n in neighbours(empty) if n != last]
            pick = options[rng.randrange(len(options))]
            flat[empty], flat[pick] = flat[pick], None
            last, empty = empty, pick
            slides += 1
        return {"board": _rows(flat), "moves": 0}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("board", "moves"))
        rows = as_list(s["board"], "board", SIZE)
        flat: list[int | None] = []
        for r, row in enumerate(rows):
            for c, v in enumerate(as_list(row, f"board[{r}]", SIZE)):
                flat.append(None if v is None else as_int(v, 1, 15, f"board[{r}][{c}]"))
        need(
            sorted(flat, key=lambda v: v or 0) == [None, *range(1, 16)],
            "board",
            "the tiles 1 to 15 once each and one null",
        )
        need(solvable(flat), "board", "this arrangement cannot be solved")
        return {"board": _rows(flat), "moves": as_int(s["moves"], 0, 10**9, "moves")}

    def legal(self, s: State) -> list[Action]:
        flat = _flat(s["board"])
        tiles = sorted(v for n in neighbours(flat.index(None)) if (v := flat[n]) is not None)
        return [{"type": "slide", "tile": t} for t in tiles]

    def apply(self, s: State, action: Action) -> State:
        flat = _flat(s["board"])
        tile, empty = field_int(action, "tile"), flat.index(None)
        at = flat.index(tile)
        if at not in neighbours(empty):
            can = ", ".join(str(a["tile"]) for a in self.legal(s))
            r, c = divmod(empty, SIZE)
            raise IllegalAction(
                f"tile {tile} does not touch the empty square (row {r}, col {c}); "
                f"tiles that can slide: {can}"
            )
        flat[empty], flat[at] = tile, None
        return {"board": _rows(flat), "moves": s["moves"] + 1}

    def observe(self, s: State) -> dict[str, Any]:
        flat = _flat(s["board"])
        r, c = divmod(flat.index(None), SIZE)
        solved = flat == list(SOLVED)
        return {
            "board": s["board"],
            "rows": [" ".join("__" if v is None else f"{v:2d}" for v in row) for row in s["board"]],
            "empty": {"row": r, "col": c},
            "tilesInPlace": sum(1 for i, v in enumerate(flat) if v == i + 1),
            "manhattan": manhattan(flat),
            "slides": s["moves"],
            "solved": solved,
            "phase": "solved" if solved else "playing",
        }

    def score(self, s: State) -> int:
        return int(s["moves"])

    def over(self, s: State) -> bool:
        return _flat(s["board"]) == list(SOLVED)
