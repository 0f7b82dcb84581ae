"""``crate-push``: five Sokoban levels (rule page: Crate Push).

Fully observable, and the seed has no effect. ``state`` is ``{level, player, crates,
history, levelMoves, moves, solved}``: ``level`` the index (0-4) of the level on the
board, ``player`` and ``crates`` cells ``{row, col}`` (crates in reading order),
``history`` the moves of this level that ``undo`` can take back (``u d l r``, upper case
when the move pushed a crate; the last 1,000), ``levelMoves`` this level's moves,
``moves`` the run's, ``solved`` the levels done. The observation shows the same, the
board as text (``#`` wall, ``.`` floor, ``T`` target, ``C`` crate, ``*`` crate on a
target, ``P`` you, ``+`` you on a target), the targets and ``phase`` (``playing``,
``complete``). Score: moves over the run, lower is better.

The levels are ours (solvable in 3, 9, 17, 21 and 30 moves). Local choices the page leaves
open: ``undo`` takes the last move back and counts it off (the score is the moves of the
lines you kept), ``reset`` puts the level back as it was loaded and counts its moves off;
``undo`` is legal while the history holds a move, ``reset`` while the level has moves;
legal actions are the moves up, down, left, right that are possible, then ``undo``, then
``reset``. A carried position must be one the history leads back from.
"""

from __future__ import annotations

from typing import Any

from sunbot.testing.platform.common import (
    DIRECTIONS,
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_int,
    as_list,
    as_obj,
    as_str,
    need,
)

SLUG = "crate-push"
UNDO_MEMORY = 1_000
LEVELS: tuple[tuple[str, ...], ...] = (
    ("#######", "#P.C.T#", "#######"),
    ("#######", "#.....#", "#.C.C.#", "#.T.T.#", "#..P..#", "#######"),
    ("########", "#T..#..#", "#.C....#", "#..##C.#", "#.P...T#", "########"),
    ("########", "#......#", "#.#CC#.#", "#.T..T.#", "#.#..#.#", "#...P..#", "########"),
    ("#########", "#...#...#", "#.C.#.C.#", "#...C...#", "##T.T.T##", "#...P...#", "#########"),
)
LETTER = {"up": "u", "down": "d", "left": "l", "right": "r"}
BY_LETTER = {v: k for k, v in LETTER.items()}
Cell = tuple[int, int]
SPEC: dict[str, Any] = {
    "goal": "Clear five Sokoban levels by getting each crate (C) onto a target (T). Once every "
    "target holds a crate the next level loads; the fifth one ends the run.",
    "scoring": "Moves over all levels. Fewer is better.",
    "scoreOrder": "ascending",
    "rules": [
        "Move up, down, left or right. Walking into a crate pushes it, if the cell behind "
        "it is floor or a target; you cannot pull.",
        "undo takes back your last move; reset puts the current level back as it was "
        "loaded (useful when a crate is stuck in a corner). Both count those moves off.",
        "No time limit and no way to lose.",
        "Board: # wall, . floor, T target, C crate, * crate on a target, P you, + you on a "
        "target; rows and columns count from 0 at the top left.",
    ],
    "actionGrammar": {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "move"},
                    "dir": {"enum": ["up", "down", "left", "right"]},
                },
                "required": ["type", "dir"],
            },
            {
                "type": "object",
                "properties": {"type": {"const": "undo"}},
                "required": ["type"],
            },
            {
                "type": "object",
                "properties": {"type": {"const": "reset"}},
                "required": ["type"],
            },
        ]
    },
}


def _find(level: int, chars: str) -> list[Cell]:
    return [
        (r, c) for r, row in enumerate(LEVELS[level]) for c, ch in enumerate(row) if ch in chars
    ]


def targets(level: int) -> list[Cell]:
    """The target cells of ``level``."""
    return _find(level, "T*+")


def _wall(level: int, cell: Cell) -> bool:
    rows = LEVELS[level]
    r, c = cell
    return not (0 <= r < len(rows) and 0 <= c < len(rows[r])) or rows[r][c] == "#"


def _cells(items: list[Cell]) -> list[dict[str, int]]:
    return [{"row": r, "col": c} for r, c in sorted(items)]


def _step(cell: Cell, direction: str, times: int = 1) -> Cell:
    dr, dc = DIRECTIONS[direction]
    return cell[0] + dr * times, cell[1] + dc * times


class CratePush(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Crate Push"
    genre = "puzzle"
    description = "Push every crate onto a target, level by level."
    goal = SPEC["goal"]
    spec = SPEC
    seeded = False

    def new(self, seed: int) -> State:
        return self._load(0, 0, 0)

    @staticmethod
    def _load(level: int, moves: int, solved: int) -> State:
        return {
            "level": level,
            "player": _cells(_find(level, "P+"))[0],
            "crates": _cells(_find(level, "C*")),
            "history": "",
            "levelMoves": 0,
            "moves": moves,
            "solved": solved,
        }

    @staticmethod
    def _at(s: State) -> tuple[Cell, set[Cell]]:
        return (s["player"]["row"], s["player"]["col"]), {(c["row"], c["col"]) for c in s["crates"]}

    def read(self, state: Any) -> State:
        s = as_obj(
            state, "", ("level", "player", "crates", "history", "levelMoves", "moves", "solved")
        )
        level = as_int(s["level"], 0, len(LEVELS) - 1, "level")
        height = len(LEVELS[level])

        def cell(value: Any, where: str) -> Cell:
            got = as_obj(value, where, ("row", "col"))
            return (
                as_int(got["row"], 0, height - 1, f"{where}.row"),
                as_int(got["col"], 0, len(LEVELS[level][0]) - 1, f"{where}.col"),
            )

        player = cell(s["player"], "player")
        crates = [
            cell(v, f"crates[{i}]")
            for i, v in enumerate(as_list(s["crates"], "crates", len(targets(level))))
        ]
        need(
            len(set(crates)) == len(crates) and player not in crates,
            "crates",
            "distinct cells that you do not stand on",
        )
        need(not any(_wall(level, x) for x in [player, *crates]), "player", "inside a wall")
        history = as_str(s["history"], "history", UNDO_MEMORY, "udlrUDLR")
        level_moves = as_int(s["levelMoves"], len(history), 10**7, "levelMoves")
        moves = as_int(s["moves"], level_moves, 10**8, "moves")
        solved = as_int(s["solved"], 0, len(LEVELS), "solved")
        done = set(crates) == set(targets(level))
        need(
            solved == level + (1 if done else 0) and (not done or solved == len(LEVELS)),
            "solved",
            "not the levels before this one",
        )
        out = {
            "level": level,
            "player": _cells([player])[0],
            "crates": _cells(crates),
            "history": history,
            "levelMoves": level_moves,
            "moves": moves,
            "solved": solved,
        }
        back = out
        for k in range(len(history)):
            try:
                back = self._undo(back)
            except IllegalAction:
                need(False, "history", f"move {len(history) - k} cannot be taken back here")
        return out

    def legal(self, s: State) -> list[Action]:
        out: list[Action] = [{"type": "move", "dir": d} for d in DIRECTIONS if self._can(s, d)]
        if s["history"]:
            out.append({"type": "undo"})
        if s["levelMoves"]:
            out.append({"type": "reset"})
        return out

    def _can(self, s: State, direction: str) -> bool:
        player, crates = self._at(s)
        nxt = _step(player, direction)
        if _wall(s["level"], nxt):
            return False
        beyond = _step(player, direction, 2)
        return nxt not in crates or not (_wall(s["level"], beyond) or beyond in crates)

    def _undo(self, s: State) -> State:
        if not s["history"]:
            raise IllegalAction("nothing to undo on this level")
        letter = s["history"][-1]
        direction = BY_LETTER[letter.lower()]
        player, crates = self._at(s)
        back = _step(player, direction, -1)
        if _wall(s["level"], back) or back in crates:
            raise IllegalAction("the last move cannot be taken back")
        if letter.isupper():
            crate = _step(player, direction)
            if crate not in crates:
                raise IllegalAction("the last push cannot be taken back")
            crates = (crates - {crate}) | {player}
        return {
            **s,
            "player": _cells([back])[0],
            "crates": _cells(list(crates)),
            "history": s["history"][:-1],
            "levelMoves": s["levelMoves"] - 1,
            "moves": s["moves"] - 1,
        }

    def apply(self, s: State, action: Action) -> State:
        kind = action["type"]
        if kind == "undo":
            return self._undo(s)
        if kind == "reset":
            if not s["levelMoves"]:
                raise IllegalAction("the level is as it was loaded: nothing to reset")
            return self._load(s["level"], s["moves"] - s["levelMoves"], s["solved"])
        direction = action["dir"]
        if not self._can(s, direction):
            open_ = ", ".join(a["dir"] for a in self.legal(s) if a["type"] == "move")
            raise IllegalAction(
                f"you cannot move {direction}: a wall, or a crate that cannot "
                f"move; possible moves: {open_ or 'none (undo or reset)'}"
            )
        player, crates = self._at(s)
        nxt = _step(player, direction)
        letter = LETTER[direction]
        if nxt in crates:
            crates = (crates - {nxt}) | {_step(player, direction, 2)}
            letter = letter.upper()
        out = {
            **s,
            "player": _cells([nxt])[0],
            "crates": _cells(list(crates)),
            "history": (s["history"] + letter)[-UNDO_MEMORY:],
            "levelMoves": s["levelMoves"] + 1,
            "moves": s["moves"] + 1,
        }
        if crates != set(targets(s["level"])):
            return out
        if s["level"] + 1 < len(LEVELS):
            return self._load(s["level"] + 1, out["moves"], s["solved"] + 1)
        return {**out, "solved": len(LEVELS)}

    def observe(self, s: State) -> dict[str, Any]:
        player, crates = self._at(s)
        rows = []
        for r, row in enumerate(LEVELS[s["level"]]):
            text = ""
            for c, ch in enumerate(row):
                goal = ch in "T*+"
                if (r, c) == player:
                    text += "+" if goal else "P"
                elif (r, c) in crates:
                    text += "*" if goal else "C"
                else:
                    text += "#" if ch == "#" else "T" if goal else "."
            rows.append(text)
        return {
            **s,
            "board": rows,
            "targets": _cells(targets(s["level"])),
            "phase": "complete" if self.over(s) else "playing",
        }

    def score(self, s: State) -> int:
        return int(s["moves"])

    def over(self, s: State) -> bool:
        return bool(s["solved"] == len(LEVELS))
