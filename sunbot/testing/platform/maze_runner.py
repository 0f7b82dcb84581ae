"""``maze-runner``: walk a 15x15 maze from (0,0) to (14,14) (rule page: Maze Runner).

Fully observable: ``state`` is ``{maze, position, moves}``, the observation the same plus
the goal and whether you stand on it. ``maze`` is 15 rows of 15 cells, each ``{top, right,
bottom, left}`` (true: a wall on that side); ``position`` is ``{row, col}``; row 0 is the
top. Score: moves taken, lower is better; the run ends on the goal.

Local choices: the maze is perfect (one path between any two cells), carved by a seeded
depth-first search from (0,0); legal moves are listed up, down, left, right. A carried maze
must be closed at its border and each wall the same seen from both sides.
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.testing.platform.common import (
    DIRECTIONS,
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

SLUG = "maze-runner"
SIZE = 15
GOAL = (SIZE - 1, SIZE - 1)
SIDES = ("top", "right", "bottom", "left")
#: The wall a direction crosses, and the neighbour's wall that faces it.
CROSSES = {
    "up": ("top", "bottom"),
    "down": ("bottom", "top"),
    "left": ("left", "right"),
    "right": ("right", "left"),
}
SPEC: dict[str, Any] = {
    "goal": "Walk from the start cell (row 0, col 0) to the goal cell (row 14, col 14) of "
    "a 15x15 maze.",
    "scoring": "The number of moves you took to reach the goal. Fewer is better.",
    "scoreOrder": "ascending",
    "rules": [
        "Each action moves you one cell up, down, left or right.",
        "Every cell lists its walls as top/right/bottom/left flags; true means a wall "
        "blocks that side. You can step only where no wall stands between the two cells.",
        "A move into a wall or off the board is refused with the reason.",
        "The whole maze is in the observation: plan a path if you like.",
        "You win, and the game ends, the moment you reach the goal; there is no time or "
        "move limit and no way to lose.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "move"},
            "direction": {"enum": ["up", "down", "left", "right"]},
        },
        "required": ["type", "direction"],
    },
}


def carve(rng: random.Random) -> list[list[dict[str, bool]]]:
    """A perfect 15x15 maze carved by a depth-first search from (0,0) drawing from ``rng``."""
    maze = [[dict.fromkeys(SIDES, True) for _ in range(SIZE)] for _ in range(SIZE)]
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        r, c = stack[-1]
        options = []
        for name, (dr, dc) in DIRECTIONS.items():
            nr, nc = r + dr, c + dc
            if 0 <= nr < SIZE and 0 <= nc < SIZE and (nr, nc) not in seen:
                options.append((name, nr, nc))
        if not options:
            stack.pop()
            continue
        name, nr, nc = options[rng.randrange(len(options))]
        mine, theirs = CROSSES[name]
        maze[r][c][mine] = False
        maze[nr][nc][theirs] = False
        seen.add((nr, nc))
        stack.append((nr, nc))
    return maze


class MazeRunner(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Maze Runner"
    genre = "puzzle"
    description = "Find your way through the maze in as few moves as you can."
    goal = SPEC["goal"]
    spec = SPEC

    def new(self, seed: int) -> State:
        return {
            "maze": carve(draws(self.salt, SLUG, seed)),
            "position": {"row": 0, "col": 0},
            "moves": 0,
        }

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("maze", "position", "moves"))
        maze: list[list[dict[str, bool]]] = []
        for r, row in enumerate(as_list(s["maze"], "maze", SIZE)):
            cells = []
            for c, cell in enumerate(as_list(row, f"maze[{r}]", SIZE)):
                where = f"maze[{r}][{c}]"
                got = as_obj(cell, where, SIDES)
                cells.append({k: as_bool(got[k], f"{where}.{k}") for k in SIDES})
            maze.append(cells)
        for r in range(SIZE):
            need(maze[r][0]["left"] and maze[r][SIZE - 1]["right"], f"maze[{r}]", "open border")
            for c in range(SIZE):
                need(maze[0][c]["top"] and maze[SIZE - 1][c]["bottom"], "maze", "open border")
                if c + 1 < SIZE:
                    need(
                        maze[r][c]["right"] == maze[r][c + 1]["left"],
                        f"maze[{r}][{c}]",
                        "its right wall and its neighbour's left wall disagree",
                    )
                if r + 1 < SIZE:
                    need(
                        maze[r][c]["bottom"] == maze[r + 1][c]["top"],
                        f"maze[{r}][{c}]",
                        "its bottom wall and its neighbour's top wall disagree",
                    )
        pos = as_obj(s["position"], "position", ("row", "col"))
        position = {k: as_int(pos[k], 0, SIZE - 1, f"position.{k}") for k in ("row", "col")}
        return {"maze": maze, "position": position, "moves": as_int(s["moves"], 0, 10**9, "moves")}

    def legal(self, s: State) -> list[Action]:
        r, c = s["position"]["row"], s["position"]["col"]
        cell = s["maze"][r][c]
        return [{"type": "move", "direction": d} for d in DIRECTIONS if not cell[CROSSES[d][0]]]

    def apply(self, s: State, action: Action) -> State:
        direction = action["direction"]
        r, c = s["position"]["row"], s["position"]["col"]
        dr, dc = DIRECTIONS[direction]
        if not (0 <= r + dr < SIZE and 0 <= c + dc < SIZE):
            raise IllegalAction(f"moving {direction} from ({r},{c}) leaves the maze")
        if s["maze"][r][c][CROSSES[direction][0]]:
            open_ = ", ".join(a["direction"] for a in self.legal(s))
            raise IllegalAction(f"a wall blocks {direction} at ({r},{c}); open ways: {open_}")
        return {**s, "position": {"row": r + dr, "col": c + dc}, "moves": s["moves"] + 1}

    def observe(self, s: State) -> dict[str, Any]:
        at_goal = self.over(s)
        return {
            **s,
            "goal": {"row": GOAL[0], "col": GOAL[1]},
            "size": SIZE,
            "won": at_goal,
            "phase": "won" if at_goal else "playing",
        }

    def score(self, s: State) -> int:
        return int(s["moves"])

    def over(self, s: State) -> bool:
        return (s["position"]["row"], s["position"]["col"]) == GOAL
