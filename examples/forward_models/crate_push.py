"""A forward model of ``crate-push`` (the platform's Crate Push: Sokoban, level after level):
walk the grid, push every crate onto a target; a level whose targets are all covered gives
way to the next, and the run ends with the last one. The score is the moves made, fewer is
better; ``undo`` takes the last move back and ``reset`` puts the level back as it opened,
and the server counts the moves they take back off the score.

Nothing is hidden and nothing is drawn, so the model is deterministic. The current level is
read from the observation (its board text, the crates, where you stand, the moves this
level that ``undo`` can take back). The one thing the observation cannot tell is the
*next* level's board: the model knows the opening boards a server served it (``OPENINGS``:
the test server's five, which the seed does not change) and predicts the next level from
them when the level on the board is the one it knows; on a board it does not know, the
position after the level's last push is one whose layout it does not know (no legal
actions, nothing predicted of the board). The levels are independent, so knowing the next
one changes what certify can check, not how a level is played.

Its ``estimate`` is a Sokoban player's reasoning, in moves: the moves made, plus, for each
crate, the pushes it needs to reach a target (each crate matched to its own target, the
cheapest matching; a push distance walks around walls but not around the other crates),
counted twice (a push is seldom alone: the walk to get behind the crate comes with it),
plus the walk to the nearest crate not yet on a target; a crate that can never reach a
target (a dead corner, along a wall with no target) or four crates-or-walls in a square
with a crate off target make the level unsolvable, worth :data:`STUCK`. Where the level on
the board is one of :data:`OPENINGS`, the levels still to come add what the same reasoning
gives at their openings (the same for every position of a level, so it only keeps a
level's last push from looking worse than the moves before it).
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Any

#: The moves in the order the server lists them, and their steps (row, col).
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
LETTERS = {"up": "u", "down": "d", "left": "l", "right": "r"}
BY_LETTER = {v: k for k, v in LETTERS.items()}
#: ``undo`` remembers this many moves of a level (older ones drop off the history).
UNDO_MEMORY = 1_000
#: The estimate of a position that can no longer be solved (a crate stuck off a target).
STUCK = 1_000_000.0
#: Each push the matching says is needed counts this many moves.
PUSH_WEIGHT = 2
#: The opening boards of the levels, as the project's test server serves them (recorded
#: from its observations at each level's first answer; the seed does not change them).
OPENINGS: tuple[tuple[str, ...], ...] = (
    ("#######", "#P.C.T#", "#######"),
    ("#######", "#.....#", "#.C.C.#", "#.T.T.#", "#..P..#", "#######"),
    ("########", "#T..#..#", "#.C....#", "#..##C.#", "#.P...T#", "########"),
    ("########", "#......#", "#.#CC#.#", "#.T..T.#", "#.#..#.#", "#...P..#", "########"),
    ("#########", "#...#...#", "#.C.#.C.#", "#...C...#", "##T.T.T##", "#...P...#", "#########"),
)
#: The number of levels the run has (the rule page's five).
LEVELS = 5

Cell = tuple[int, int]


@dataclass(eq=False)
class Layout:
    """A level's fixed part: its rows as walls (``#``), floor (``.``) and targets (``T``),
    with what the estimate reads from them, computed once per layout."""

    rows: tuple[str, ...]
    targets: tuple[Cell, ...] = ()
    #: For each target, the fewest pushes that bring a crate from each cell onto it
    #: (the other crates left out); a cell missing cannot reach that target.
    pushes: tuple[dict[Cell, int], ...] = ()
    #: Cells from which no crate reaches any target.
    dead: frozenset[Cell] = frozenset()
    #: The rows with crates and you shown, for the board text.
    chars: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.targets = tuple(
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == "T"
        )
        self.pushes = tuple(self._pulls(t) for t in self.targets)
        floor = [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch != "#"]
        self.dead = frozenset(cell for cell in floor if not any(cell in d for d in self.pushes))

    def wall(self, cell: Cell) -> bool:
        """Whether ``cell`` is a wall or off the board."""
        r, c = cell
        return not (0 <= r < len(self.rows) and 0 <= c < len(self.rows[r])) or (
            self.rows[r][c] == "#"
        )

    def _pulls(self, target: Cell) -> dict[Cell, int]:
        """Pushes from each cell onto ``target``: a breadth-first search pulling the crate
        back from the target (a pull needs two free cells on the crate's far side)."""
        out = {target: 0}
        todo = deque([target])
        while todo:
            cell = todo.popleft()
            for dr, dc in DIRECTIONS.values():
                before = (cell[0] - dr, cell[1] - dc)  # where the crate came from
                behind = (cell[0] - 2 * dr, cell[1] - 2 * dc)  # where the pusher stood
                if before not in out and not self.wall(before) and not self.wall(behind):
                    out[before] = out[cell] + 1
                    todo.append(before)
        return out


_LAYOUTS: dict[tuple[str, ...], Layout] = {}


def layout_of(board: list[str] | tuple[str, ...]) -> Layout:
    """The :class:`Layout` of a board text (crates and you read as the floor or target
    under them), shared by every state of that level."""
    rows = tuple(
        "".join("#" if ch == "#" else "T" if ch in "T*+" else "." for ch in row) for row in board
    )
    got = _LAYOUTS.get(rows)
    if got is None:
        got = _LAYOUTS[rows] = Layout(rows)
    return got


def _opening(board: tuple[str, ...]) -> tuple[Cell, tuple[Cell, ...]]:
    """Where you stand and the crates on an opening board."""
    player = next((r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "P+")
    crates = tuple((r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "C*")
    return player, crates


def _pushes_needed(lay: Layout, crates: tuple[Cell, ...]) -> float:
    """The fewest pushes of the cheapest matching of crates to targets, or :data:`STUCK`."""
    if any(c in lay.dead for c in crates):
        return STUCK
    best = STUCK
    for order in itertools.permutations(range(len(lay.targets)), len(crates)):
        total = 0
        for crate, t in zip(crates, order, strict=True):
            d = lay.pushes[t].get(crate)
            if d is None:
                break
            total += d
        else:
            best = min(best, total)
    return best


def _frozen(lay: Layout, crates: tuple[Cell, ...]) -> bool:
    """A square of four cells, each a wall or a crate, with a crate off a target: none of
    them can ever move again."""
    held = set(crates)
    targets = set(lay.targets)
    for r, c in crates:
        if (r, c) in targets:
            continue
        for dr, dc in ((-1, -1), (-1, 0), (0, -1), (0, 0)):
            square = [(r + dr + i, c + dc + j) for i in (0, 1) for j in (0, 1)]
            if all(lay.wall(x) or x in held for x in square):
                return True
    return False


def level_estimate(lay: Layout, player: Cell, crates: tuple[Cell, ...]) -> float:
    """The moves a level still needs from this position, as the module doc reasons."""
    pushes = _pushes_needed(lay, crates)
    if pushes >= STUCK or _frozen(lay, crates):
        return STUCK
    loose = [c for c in crates if c not in lay.targets]
    if not loose:
        return 0.0
    walk = min(abs(player[0] - r) + abs(player[1] - c) for r, c in loose) - 1
    return PUSH_WEIGHT * pushes + walk


def _catalogued(s: dict[str, Any]) -> bool:
    """Whether the level on the board is the one :data:`OPENINGS` has at its index."""
    level = s["level"]
    return bool(s["known"] and level < len(OPENINGS) and layout_of(OPENINGS[level]) is s["lay"])


@functools.cache
def _to_come(first: int) -> float:
    """What the levels from ``first`` on need from their openings (those the model knows)."""
    total = 0.0
    for board in OPENINGS[first:LEVELS]:
        player, crates = _opening(board)
        total += level_estimate(layout_of(board), player, crates)
    return total


def _cells(cells: list[Cell] | tuple[Cell, ...]) -> list[dict[str, int]]:
    return [{"row": r, "col": c} for r, c in sorted(cells)]


class CratePush:
    """A state is a dict: ``lay`` (the level's :class:`Layout`, shared), ``level``,
    ``player`` (row, col), ``crates`` (sorted cells), ``history`` (the moves ``undo`` can
    take back, ``udlr``, upper case for a push), ``levelMoves``, ``moves``, ``solved`` and
    ``known`` (false after the last push of a level whose successor the model does not
    know)."""

    game = "crate-push"

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The position as the observation shows it."""
        player = observation["player"]
        return {
            "lay": layout_of(observation["board"]),
            "level": observation["level"],
            "player": (player["row"], player["col"]),
            "crates": tuple(sorted((c["row"], c["col"]) for c in observation["crates"])),
            "history": observation["history"],
            "levelMoves": observation["levelMoves"],
            "moves": observation["moves"],
            "solved": observation["solved"],
            "known": True,
        }

    # the rules

    def _can(self, s: dict[str, Any], direction: str) -> bool:
        lay: Layout = s["lay"]
        dr, dc = DIRECTIONS[direction]
        r, c = s["player"]
        nxt = (r + dr, c + dc)
        if lay.wall(nxt):
            return False
        beyond = (r + 2 * dr, c + 2 * dc)
        return nxt not in s["crates"] or not (lay.wall(beyond) or beyond in s["crates"])

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """The moves a wall or a blocked crate does not stop (up, down, left, right), then
        ``undo`` while the history holds a move, then ``reset`` while the level has moves;
        none once the run is over (or on a level the model does not know)."""
        if self.is_over(s) or not s["known"]:
            return []
        out: list[dict[str, Any]] = [
            {"type": "move", "dir": d} for d in DIRECTIONS if self._can(s, d)
        ]
        if s["history"]:
            out.append({"type": "undo"})
        if s["levelMoves"]:
            out.append({"type": "reset"})
        return out

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """A move (a push when it walks into a crate; the next level when it covers the
        last target), an undo, or a reset.

        Raises:
            ValueError: an action the rules refuse here.
        """
        kind = action["type"]
        if kind == "undo":
            return self._undo(s)
        if kind == "reset":
            if not s["levelMoves"]:
                raise ValueError("nothing to reset")
            return self._reset(s)
        direction = action["dir"]
        if not self._can(s, direction):
            raise ValueError(f"cannot move {direction}")
        dr, dc = DIRECTIONS[direction]
        r, c = s["player"]
        nxt = (r + dr, c + dc)
        letter = LETTERS[direction]
        crates = s["crates"]
        if nxt in crates:
            crates = tuple(sorted([*(x for x in crates if x != nxt), (r + 2 * dr, c + 2 * dc)]))
            letter = letter.upper()
        out = {
            **s,
            "player": nxt,
            "crates": crates,
            "history": (s["history"] + letter)[-UNDO_MEMORY:],
            "levelMoves": s["levelMoves"] + 1,
            "moves": s["moves"] + 1,
        }
        lay: Layout = s["lay"]
        if set(crates) != set(lay.targets):
            return out
        if s["level"] + 1 >= LEVELS:
            return {**out, "solved": LEVELS}
        return self._next_level(out)

    def _next_level(self, s: dict[str, Any]) -> dict[str, Any]:
        level = s["level"]
        known = _catalogued(s) and level + 1 < len(OPENINGS)
        base = {
            **s,
            "level": level + 1,
            "history": "",
            "levelMoves": 0,
            "solved": s["solved"] + 1,
        }
        if not known:
            return {**base, "known": False}
        board = OPENINGS[level + 1]
        player, crates = _opening(board)
        return {**base, "lay": layout_of(board), "player": player, "crates": tuple(sorted(crates))}

    def _undo(self, s: dict[str, Any]) -> dict[str, Any]:
        if not s["history"]:
            raise ValueError("nothing to undo")
        letter = s["history"][-1]
        dr, dc = DIRECTIONS[BY_LETTER[letter.lower()]]
        r, c = s["player"]
        crates = s["crates"]
        if letter.isupper():
            crates = tuple(sorted([*(x for x in crates if x != (r + dr, c + dc)), (r, c)]))
        return {
            **s,
            "player": (r - dr, c - dc),
            "crates": crates,
            "history": s["history"][:-1],
            "levelMoves": s["levelMoves"] - 1,
            "moves": s["moves"] - 1,
        }

    def _reset(self, s: dict[str, Any]) -> dict[str, Any]:
        """The level as it opened: the whole history taken back (or, where it no longer
        holds every move, the opening board the model knows)."""
        start = s["moves"] - s["levelMoves"]
        if len(s["history"]) < s["levelMoves"]:
            lay: Layout = s["lay"]
            board = next(b for b in OPENINGS if layout_of(b) is lay)  # StopIteration: unknown
            player, crates = _opening(board)
            return {**s, "player": player, "crates": tuple(sorted(crates)), "history": "",
                    "levelMoves": 0, "moves": start}  # fmt: skip
        out = s
        while out["history"]:
            out = self._undo(out)
        return out

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """What the server shows: the state's fields, the board text (``#`` wall, ``.``
        floor, ``T`` target, ``C`` crate, ``*`` crate on a target, ``P`` you, ``+`` you
        on a target), the targets and the phase; of a level the model does not know, the
        counts alone."""
        phase = "complete" if self.is_over(s) else "playing"
        out: dict[str, Any] = {
            "level": s["level"],
            "history": s["history"],
            "levelMoves": s["levelMoves"],
            "moves": s["moves"],
            "solved": s["solved"],
            "phase": phase,
        }
        if not s["known"]:
            return out
        lay: Layout = s["lay"]
        rows = [list(row) for row in lay.rows]
        for r, c in s["crates"]:
            rows[r][c] = "*" if rows[r][c] == "T" else "C"
        r, c = s["player"]
        rows[r][c] = "+" if rows[r][c] == "T" else "P"
        out.update(
            player={"row": r, "col": c},
            crates=_cells(s["crates"]),
            board=["".join(row) for row in rows],
            targets=_cells(lay.targets),
        )
        return out

    def score(self, s: dict[str, Any]) -> float:
        """The moves made (those taken back by undo or reset counted off)."""
        return float(s["moves"])

    def is_over(self, s: dict[str, Any]) -> bool:
        """Every level solved."""
        return bool(s["solved"] >= LEVELS)

    # optional hooks: what makes the search fast

    def estimate(self, s: dict[str, Any]) -> float:
        """The moves the run ends with, as the module doc reasons: those made, what this
        level still needs, and what each level to come needs from its opening (where the
        model knows them)."""
        if self.is_over(s):
            return float(s["moves"])
        total = float(s["moves"])
        if s["known"]:
            total += level_estimate(s["lay"], s["player"], s["crates"])
        return total + (_to_come(s["level"] + 1) if _catalogued(s) else 0.0)

    def key(self, s: dict[str, Any]) -> str:
        """The level, where you stand and the crates (the moves and the history aside)."""
        return f"{s['level']}:{s['player']}:{s['crates']}:{s['known']}"
