"""``pipe-connect``: rotate pipes until the source reaches the drain (rule page: Pipe
Connect).

Fully observable. ``state`` is ``{grid, rotations}``: ``grid`` six rows of six opening
masks (north 1, east 2, south 4, west 8); the observation shows the same grid, its text
rows (box-drawing characters), the source and drain cells, the cells joined to the source,
``rotations`` and ``phase`` (``playing``, ``solved``). Score: clockwise rotations made,
lower is better; the run ends when a chain of mutual openings joins the source (row 0,
col 1, open south) to the drain (row 5, col 4, open north).

Local choices: a board is a seeded random path of straights and elbows from the source to
the drain, the other cells seeded ends, straights, elbows and tees, every movable cell
then turned a seeded 0-3 times (and once more along the path if that left it solved);
legal rotations are listed in reading order. A carried grid must keep the source and the
drain as they are and hold a pipe (mask 1-14) in every other cell.
"""

from __future__ import annotations

import random
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

SLUG = "pipe-connect"
N = 6
SOURCE, DRAIN = (0, 1), (5, 4)
NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
#: Each side's bit, step, and the bit of the side facing it.
SIDES = ((NORTH, -1, 0, SOUTH), (EAST, 0, 1, WEST), (SOUTH, 1, 0, NORTH), (WEST, 0, -1, EAST))
SHAPES = (NORTH, NORTH | SOUTH, NORTH | EAST, NORTH | EAST | SOUTH)  # end, straight, elbow, tee
GLYPHS = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"
SPEC: dict[str, Any] = {
    "goal": "Turn the pipes of a 6x6 board until one unbroken pipe joins the SOURCE (row 0, "
    "col 1, open to the south) to the DRAIN (row 5, col 4, open to the north).",
    "scoring": "The number of clockwise turns you made. Lower is better.",
    "scoreOrder": "ascending",
    "rules": [
        "Each cell's pipe opens to some of north, east, south, west, written as a mask: "
        "N=1, E=2, S=4, W=8.",
        "Two neighbouring cells are joined only when each opens toward the other.",
        "Rows and columns count from 0 at the top left.",
        "rotate turns one pipe a quarter turn clockwise (N to E, E to S, S to W, W to N); "
        "it is the only action.",
        "The source and the drain are fixed: turning them, or a cell off the board, is "
        "refused, and legalActions never lists them.",
        "No move limit and no way to lose; the game is solved (and over) once the source "
        "is joined to the drain. Everything is visible; the seed fixes the board.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "rotate"},
            "row": {
                "type": "integer",
                "minimum": 0,
                "maximum": 5,
                "description": "The tile's row (0 = top).",
            },
            "col": {
                "type": "integer",
                "minimum": 0,
                "maximum": 5,
                "description": "The tile's column (0 = left).",
            },
        },
        "required": ["type", "row", "col"],
    },
}


def turn(mask: int, times: int = 1) -> int:
    """``mask`` turned ``times`` quarter turns clockwise."""
    for _ in range(times % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def joined(grid: list[list[int]]) -> set[tuple[int, int]]:
    """The cells joined to the source by mutual openings (the source included)."""
    seen, todo = {SOURCE}, [SOURCE]
    while todo:
        r, c = todo.pop()
        for bit, dr, dc, back in SIDES:
            nr, nc = r + dr, c + dc
            if (
                grid[r][c] & bit
                and 0 <= nr < N
                and 0 <= nc < N
                and grid[nr][nc] & back
                and (nr, nc) not in seen
            ):
                seen.add((nr, nc))
                todo.append((nr, nc))
    return seen


def _path(rng: random.Random) -> list[tuple[int, int]]:
    """A seeded simple path from below the source to above the drain."""
    start, goal = (SOURCE[0] + 1, SOURCE[1]), (DRAIN[0] - 1, DRAIN[1])
    stack, seen = [start], {start, SOURCE, DRAIN}
    options: dict[tuple[int, int], list[tuple[int, int]]] = {}
    while stack[-1] != goal:
        r, c = stack[-1]
        if (r, c) not in options:
            near = [
                (r + dr, c + dc) for _, dr, dc, _ in SIDES if 0 <= r + dr < N and 0 <= c + dc < N
            ]
            rng.shuffle(near)
            options[(r, c)] = near
        nxt = next((p for p in options[(r, c)] if p not in seen), None)
        if nxt is None:
            stack.pop()  # a dead end: back up (the cell stays visited, as in a DFS)
            continue
        seen.add(nxt)
        stack.append(nxt)
    return stack


def _bit_toward(a: tuple[int, int], b: tuple[int, int]) -> int:
    return next(bit for bit, dr, dc, _ in SIDES if (a[0] + dr, a[1] + dc) == b)


def board(rng: random.Random) -> list[list[int]]:
    """A seeded, scrambled, solvable board (see the module docstring)."""
    path = _path(rng)
    grid = [
        [turn(SHAPES[rng.randrange(len(SHAPES))], rng.randrange(4)) for _ in range(N)]
        for _ in range(N)
    ]
    grid[SOURCE[0]][SOURCE[1]], grid[DRAIN[0]][DRAIN[1]] = SOUTH, NORTH
    chain = [SOURCE, *path, DRAIN]
    for i in range(1, len(chain) - 1):
        here = chain[i]
        grid[here[0]][here[1]] = _bit_toward(here, chain[i - 1]) | _bit_toward(here, chain[i + 1])
    for r in range(N):
        for c in range(N):
            if (r, c) not in (SOURCE, DRAIN):
                grid[r][c] = turn(grid[r][c], rng.randrange(4))
    while DRAIN in joined(grid):
        r, c = path[rng.randrange(len(path))]
        grid[r][c] = turn(grid[r][c])
    return grid


class PipeConnect(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Pipe Connect"
    genre = "puzzle"
    description = "Turn the pipes to join the source to the drain."
    goal = SPEC["goal"]
    spec = SPEC

    def new(self, seed: int) -> State:
        return {"grid": board(draws(self.salt, SLUG, seed)), "rotations": 0}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("grid", "rotations"))
        grid = [
            [
                as_int(v, 1, 14, f"grid[{r}][{c}]")
                for c, v in enumerate(as_list(row, f"grid[{r}]", N))
            ]
            for r, row in enumerate(as_list(s["grid"], "grid", N))
        ]
        need(grid[SOURCE[0]][SOURCE[1]] == SOUTH, "grid[0][1]", "the source opens south (4)")
        need(grid[DRAIN[0]][DRAIN[1]] == NORTH, "grid[5][4]", "the drain opens north (1)")
        return {"grid": grid, "rotations": as_int(s["rotations"], 0, 10**7, "rotations")}

    def legal(self, s: State) -> list[Action]:
        return [
            {"type": "rotate", "row": r, "col": c}
            for r in range(N)
            for c in range(N)
            if (r, c) not in (SOURCE, DRAIN)
        ]

    def apply(self, s: State, action: Action) -> State:
        r, c = field_int(action, "row"), field_int(action, "col")
        if (r, c) in (SOURCE, DRAIN):
            what = "source" if (r, c) == SOURCE else "drain"
            raise IllegalAction(f"({r},{c}) is the {what}, which is fixed: turn another tile")
        grid = [row[:] for row in s["grid"]]
        grid[r][c] = turn(grid[r][c])
        return {"grid": grid, "rotations": s["rotations"] + 1}

    def observe(self, s: State) -> dict[str, Any]:
        reach = joined(s["grid"])
        solved = DRAIN in reach
        return {
            **s,
            "rows": ["".join(GLYPHS[v] for v in row) for row in s["grid"]],
            "source": {"row": SOURCE[0], "col": SOURCE[1]},
            "drain": {"row": DRAIN[0], "col": DRAIN[1]},
            "connected": [{"row": r, "col": c} for r, c in sorted(reach)],
            "phase": "solved" if solved else "playing",
        }

    def score(self, s: State) -> int:
        return int(s["rotations"])

    def over(self, s: State) -> bool:
        return DRAIN in joined(s["grid"])
