"""``pixel-puzzle``: five nonograms in a fixed order (rule page: Pixel Puzzle).

Fully observable, and the seed has no effect. ``state`` is ``{puzzle, board, solved,
clicks}``: ``puzzle`` the index (0-4) of the puzzle on the board, ``board`` its rows as
text (``.`` empty, ``#`` filled, ``X`` marked), ``solved`` the puzzles solved, ``clicks``
the fill and mark actions taken. The observation shows the same, the puzzle's name and
size, and the row and column clues (runs of filled cells, ``[0]`` for an empty line), and
``phase`` (``playing``, ``complete``). Score: clicks, lower is better; the run ends when
the fifth puzzle is solved (its board stays shown).

The pictures (Heart and Plus 5x5, Smiley and House 8x8, Mushroom 10x10) are ours, each with
exactly one solution to its clues, as the page promises a picture the clues determine.
The solution is fixed by the puzzle's index, so the state carries nothing hidden.

Local choices (the page was cut off in the grammar): ``fill`` and ``mark`` both take
``row`` and ``col`` (0-9); ``fill`` turns an empty or marked cell filled and a filled cell
empty; ``mark`` turns an empty or filled cell marked and a marked cell empty; a cell off the
current puzzle is refused; legal actions are every fill, then every mark, in reading order.
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
    as_str,
    field_int,
    need,
)

SLUG = "pixel-puzzle"
PICTURES: tuple[tuple[str, str], ...] = (
    ("Heart", ".#.#. ##### ##### .###. ..#.."),
    ("Plus", "..#.. ..#.. ##### ..#.. ..#.."),
    ("Smiley", "..####.. .#....#. #.#..#.# #......# #.#..#.# #..##..# .#....#. ..####.."),
    ("House", "...##... ..####.. .######. ######## .#....#. .#.##.#. .#.##.#. .######."),
    (
        "Mushroom",
        "...####... ..######.. .##.##.##. ########## ###.##.### .########. "
        "...#..#... ...#..#... ...#..#... ...####...",
    ),
)
_CELL = {
    "row": {"type": "integer", "minimum": 0, "maximum": 9},
    "col": {"type": "integer", "minimum": 0, "maximum": 9},
}
SPEC: dict[str, Any] = {
    "goal": "Solve five nonograms in order: Heart (5x5), Plus (5x5), Smiley (8x8), House "
    "(8x8), Mushroom (10x10). Each line's numbers tell which of its cells to fill; a "
    "puzzle is solved when the filled cells are exactly its picture, and the next one "
    "follows at once.",
    "scoring": "The number of cell actions (fill and mark) over the whole run. Lower is better.",
    "scoreOrder": "ascending",
    "rules": [
        "Cells are . empty, # filled, X marked; rows and columns count from 0 at the top left.",
        "A clue lists the lengths of the runs of filled cells in its line, in order ('2 3': "
        "two, a gap, then three); [0] means the line is empty.",
        "fill turns a cell filled, or a filled cell empty again. mark turns a cell into an "
        "X note, or an X back to empty. Marks are only notes: the solve check ignores them.",
        "The puzzle is solved the moment its filled cells equal the picture: no cell "
        "missing, no cell too many.",
        "Solving the fifth puzzle completes the run (phase complete). No move limit, no way "
        "to lose; the puzzles and their order never change (the seed has no effect), and "
        "everything is visible.",
    ],
    "actionGrammar": {
        "oneOf": [
            {
                "type": "object",
                "properties": {"type": {"const": "fill"}, **_CELL},
                "required": ["type", "row", "col"],
            },
            {
                "type": "object",
                "properties": {"type": {"const": "mark"}, **_CELL},
                "required": ["type", "row", "col"],
            },
        ]
    },
}


def picture(index: int) -> list[str]:
    """The solution rows of puzzle ``index``."""
    return PICTURES[index][1].split()


def runs(line: str) -> list[int]:
    """The clue of a line of a picture: its runs of ``#``, ``[0]`` for none."""
    return [len(part) for part in line.split(".") if part] or [0]


def _filled(board: list[str]) -> list[str]:
    return [row.replace("X", ".") for row in board]


class PixelPuzzle(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Pixel Puzzle"
    genre = "puzzle"
    description = "Fill cells from the number clues to reveal a picture."
    goal = SPEC["goal"]
    spec = SPEC
    seeded = False

    def new(self, seed: int) -> State:
        return self._start(0, 0, 0)

    @staticmethod
    def _start(index: int, solved: int, clicks: int) -> State:
        size = len(picture(index))
        return {"puzzle": index, "board": ["." * size] * size, "solved": solved, "clicks": clicks}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("puzzle", "board", "solved", "clicks"))
        index = as_int(s["puzzle"], 0, len(PICTURES) - 1, "puzzle")
        size = len(picture(index))
        board = [
            as_str(row, f"board[{r}]", size, ".#X")
            for r, row in enumerate(as_list(s["board"], "board", size))
        ]
        need(all(len(row) == size for row in board), "board", f"{size} rows of {size}")
        solved = as_int(s["solved"], 0, len(PICTURES), "solved")
        done = solved == len(PICTURES)
        need(
            solved == index or (done and index == len(PICTURES) - 1),
            "solved",
            "not the puzzles before this one",
        )
        need(done == (_filled(board) == picture(index)), "board", "a solved board not moved on")
        return {
            "puzzle": index,
            "board": board,
            "solved": solved,
            "clicks": as_int(s["clicks"], 0, 10**7, "clicks"),
        }

    def legal(self, s: State) -> list[Action]:
        size = len(s["board"])
        return [
            {"type": kind, "row": r, "col": c}
            for kind in ("fill", "mark")
            for r in range(size)
            for c in range(size)
        ]

    def apply(self, s: State, action: Action) -> State:
        r, c, size = field_int(action, "row"), field_int(action, "col"), len(s["board"])
        if r >= size or c >= size:
            raise IllegalAction(
                f"({r},{c}) is off this {size}x{size} puzzle: rows and columns run 0 to {size - 1}"
            )
        mark = "#" if action["type"] == "fill" else "X"
        board = s["board"][:]
        cell = board[r][c]
        board[r] = board[r][:c] + ("." if cell == mark else mark) + board[r][c + 1 :]
        clicks = s["clicks"] + 1
        if _filled(board) != picture(s["puzzle"]):
            return {**s, "board": board, "clicks": clicks}
        if s["puzzle"] + 1 == len(PICTURES):
            return {**s, "board": board, "solved": len(PICTURES), "clicks": clicks}
        return self._start(s["puzzle"] + 1, s["solved"] + 1, clicks)

    def observe(self, s: State) -> dict[str, Any]:
        solution = picture(s["puzzle"])
        size = len(solution)
        return {
            **s,
            "name": PICTURES[s["puzzle"]][0],
            "size": size,
            "rowClues": [runs(row) for row in solution],
            "colClues": [runs("".join(row[c] for row in solution)) for c in range(size)],
            "phase": "complete" if self.over(s) else "playing",
        }

    def score(self, s: State) -> int:
        return int(s["clicks"])

    def over(self, s: State) -> bool:
        return bool(s["solved"] == len(PICTURES))
