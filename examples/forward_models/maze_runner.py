"""A forward model of ``maze-runner`` (the platform's Maze Runner): walk a 15x15 maze from
the top left corner to the bottom right one; the score is the moves taken, fewer is better.

The whole maze is in the observation, so nothing is hidden and nothing is drawn: the model
is deterministic. It is the worked example of ``docs/guide-forward-models.md``:

    sunbot certify maze-runner --engine examples/forward_models/maze_runner.py --server URL
    sunbot play maze-runner --strategy search --engine examples/forward_models/maze_runner.py \\
        --server URL
"""

from __future__ import annotations

from typing import Any

#: Where each move goes, and the wall of the cell it crosses.
MOVES = {"up": (-1, 0, "top"), "down": (1, 0, "bottom"), "left": (0, -1, "left"),
         "right": (0, 1, "right")}  # fmt: skip


class MazeRunner:
    """The maze and where you stand. A state is ``{maze, row, col, moves, goal, size}``;
    the maze is shared between states (it never changes), so a step copies four numbers."""

    game = "maze-runner"

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The position as the observation shows it."""
        goal = observation["goal"]
        return {
            "maze": observation["maze"],
            "row": observation["position"]["row"],
            "col": observation["position"]["col"],
            "moves": observation["moves"],
            "goal": (goal["row"], goal["col"]),
            "size": observation["size"],
        }

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """The moves no wall blocks (none once on the goal), up, down, left, right."""
        if self.is_over(s):
            return []
        cell = s["maze"][s["row"]][s["col"]]
        return [
            {"type": "move", "direction": d} for d, (_, _, wall) in MOVES.items() if not cell[wall]
        ]

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """One cell in the action's direction."""
        dr, dc, _ = MOVES[action["direction"]]
        return {**s, "row": s["row"] + dr, "col": s["col"] + dc, "moves": s["moves"] + 1}

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """What the server shows: the maze, where you are, the moves, the goal."""
        won = self.is_over(s)
        return {
            "maze": s["maze"],
            "position": {"row": s["row"], "col": s["col"]},
            "moves": s["moves"],
            "goal": {"row": s["goal"][0], "col": s["goal"][1]},
            "size": s["size"],
            "won": won,
            "phase": "won" if won else "playing",
        }

    def score(self, s: dict[str, Any]) -> float:
        """The moves taken."""
        return s["moves"]

    def is_over(self, s: dict[str, Any]) -> bool:
        """On the goal."""
        return (s["row"], s["col"]) == s["goal"]

    # optional hooks: what makes the search fast

    def estimate(self, s: dict[str, Any]) -> float:
        """The fewest moves the run can end with from here: those taken plus the distance
        to the goal as the crow walks (walls only make it longer)."""
        return s["moves"] + abs(s["goal"][0] - s["row"]) + abs(s["goal"][1] - s["col"])

    def key(self, s: dict[str, Any]) -> str:
        """Where you stand: a cell reached again is the same position (the moves aside)."""
        return f"{s['row']},{s['col']}"
