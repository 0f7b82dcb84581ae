"""A forward model of ``pixel-puzzle`` (the platform's Pixel Puzzle): five nonograms in a
fixed order (Heart and Plus 5x5, Smiley and House 8x8, Mushroom 10x10); each line's clue
lists the runs of filled cells it holds, and a puzzle is solved when the filled cells are
exactly its picture. The score counts the cell actions (fill and mark), fewer is better.
Nothing is drawn: the model is deterministic.

The rules as the model keeps them: ``fill`` toggles a cell between filled and empty (a
marked cell becomes filled), ``mark`` toggles an X note (a filled cell becomes marked);
marks are notes the solve check ignores. Solving a puzzle puts the next one, empty, on the
board at once; solving the fifth ends the run with its board left shown. The legal actions
are every fill, then every mark, in reading order, as the server lists them.

What the model cannot know: the clues of the puzzles to come (the observation shows the
current puzzle's alone). Past a solve the model knows the next puzzle's name and size from
the rules but not its clues, so its observation leaves the clues out there (certify lists
them as not predicted) and no later position is ever "solved" in it.

Its ``estimate`` solves the current puzzle from its clues (line solving: every arrangement
of a line's runs that fits what is known, the cells all of them agree on fixed; then a
guess on an open cell where the lines stall) and counts the clicks left: one per cell that
differs from the picture (a cell to fill, or a filled one to clear), plus a guess for the
puzzles still to come (half their cells). Its ``key`` is the puzzle and that distance: two
boards the same number of clicks from the picture need the same clicks, so the search
keeps one of each and its frontier empties within a hundred expansions.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

#: The five puzzles in order, their names and sizes (from the rules).
PUZZLES = (("Heart", 5), ("Plus", 5), ("Smiley", 8), ("House", 8), ("Mushroom", 10))
#: How much more a click still to make weighs in the estimate than a click made (ties
#: only: toward the position nearer the picture).
TIE = 1.001

Clue = tuple[int, ...]
Clues = tuple[Clue, ...]


def runs(line: str) -> list[int]:
    """The clue of a line (``#`` filled, anything else not): its runs of filled cells, in
    order, ``[0]`` for none."""
    return [len(part) for part in "".join("#" if ch == "#" else "." for ch in line).split(".")
            if part] or [0]  # fmt: skip


@cache
def arrangements(clue: Clue, n: int) -> tuple[int, ...]:
    """Every way the runs of ``clue`` fit a line of ``n`` cells, as bit masks (bit ``i``:
    cell ``i`` filled)."""
    if sum(clue) == 0:
        return (0,)
    out: list[int] = []

    def place(k: int, start: int, mask: int) -> None:
        if k == len(clue):
            out.append(mask)
            return
        length = clue[k]
        rest = sum(clue[k + 1 :]) + len(clue) - k - 1
        for at in range(start, n - length - rest + 1):
            place(k + 1, at + length + 1, mask | ((1 << length) - 1) << at)

    place(0, 0, 0)
    return tuple(out)


def _settle(clue: Clue, n: int, filled: int, empty: int) -> tuple[int, int] | None:
    """The cells of a line every arrangement that fits the known ``filled`` and ``empty``
    cells agrees on (masks), or ``None`` when none fits."""
    full = (1 << n) - 1
    must_fill, must_empty, any_fit = full, full, False
    for a in arrangements(clue, n):
        if a & empty or a & filled != filled:
            continue
        any_fit = True
        must_fill &= a
        must_empty &= ~a & full
    if not any_fit:
        return None
    return filled | must_fill, empty | must_empty


@lru_cache(maxsize=64)
def solutions(rows: Clues, cols: Clues, limit: int = 2) -> tuple[tuple[str, ...], ...]:
    """Up to ``limit`` pictures (rows of ``#`` and ``.``) the row and column clues allow:
    line solving to a fixed point, then each value of the first open cell in turn."""
    n = len(rows)
    found: list[tuple[str, ...]] = []

    def go(filled: list[int], empty: list[int]) -> None:
        changed = True
        while changed:
            changed = False
            for r in range(n):
                got = _settle(rows[r], n, filled[r], empty[r])
                if got is None:
                    return
                if got != (filled[r], empty[r]):
                    filled[r], empty[r] = got
                    changed = True
            for c in range(n):
                cf = sum(1 << r for r in range(n) if filled[r] >> c & 1)
                ce = sum(1 << r for r in range(n) if empty[r] >> c & 1)
                got = _settle(cols[c], n, cf, ce)
                if got is None:
                    return
                if got != (cf, ce):
                    for r in range(n):
                        filled[r] |= (got[0] >> r & 1) << c
                        empty[r] |= (got[1] >> r & 1) << c
                    changed = True
        full = (1 << n) - 1
        for r in range(n):
            open_cells = full & ~(filled[r] | empty[r])
            if open_cells:
                c = (open_cells & -open_cells).bit_length() - 1
                for side in (filled, empty):
                    if len(found) >= limit:
                        return
                    f, e = filled[:], empty[:]
                    (f if side is filled else e)[r] |= 1 << c
                    go(f, e)
                return
        found.append(tuple("".join("#" if m >> c & 1 else "." for c in range(n)) for m in filled))

    go([0] * n, [0] * n)
    return tuple(found)


class PixelPuzzle:
    """A state is ``{puzzle, board, solved, clicks, rowClues, colClues, picture,
    distance}``: the puzzle's index (0-4), its rows as text (``.`` empty, ``#`` filled,
    ``X`` marked) as a tuple, the puzzles solved, the clicks taken, the current puzzle's
    clues as tuples, the picture they allow (rows of ``#`` and ``.``) and the cells the
    board's filled cells differ from it in. Past a solve the clues, picture and distance
    are ``None`` (the next puzzle's clues are not shown yet), as the picture and distance
    are where the clues allow no picture or more than one."""

    game = "pixel-puzzle"

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The position as the observation shows it (its picture solved from its clues)."""
        rows = tuple(tuple(c) for c in observation["rowClues"])
        cols = tuple(tuple(c) for c in observation["colClues"])
        board = tuple(observation["board"])
        found = solutions(rows, cols)
        picture = found[0] if len(found) == 1 else None
        return {
            "puzzle": observation["puzzle"],
            "board": board,
            "solved": observation["solved"],
            "clicks": observation["clicks"],
            "rowClues": rows,
            "colClues": cols,
            "picture": picture,
            "distance": None if picture is None else _distance(board, picture),
        }

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """Every fill, then every mark, in reading order (none once the run is over)."""
        if self.is_over(s):
            return []
        size = len(s["board"])
        return [
            {"type": kind, "row": r, "col": c}
            for kind in ("fill", "mark")
            for r in range(size)
            for c in range(size)
        ]

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """The cell toggled, one click more; a solved puzzle gives way to the next, empty
        (the fifth stays on the board).

        Raises:
            ValueError: a cell off the board.
        """
        r, c, size = action["row"], action["col"], len(s["board"])
        if not (0 <= r < size and 0 <= c < size):
            raise ValueError(f"({r},{c}) is off the {size}x{size} board")
        mark = "#" if action["type"] == "fill" else "X"
        board = list(s["board"])
        was = board[r][c]
        now = "." if was == mark else mark
        board[r] = board[r][:c] + now + board[r][c + 1 :]
        after = {**s, "board": tuple(board), "clicks": s["clicks"] + 1}
        picture, distance = s["picture"], s["distance"]
        if picture is not None:
            want = picture[r][c] == "#"
            distance += ((now == "#") != want) - ((was == "#") != want)
            after["distance"] = distance
            solved = distance == 0
        else:
            solved = s["rowClues"] is not None and _fits(after["board"], s["rowClues"],
                                                         s["colClues"])  # fmt: skip
        if not solved:
            return after
        if s["puzzle"] + 1 == len(PUZZLES):
            return {**after, "solved": len(PUZZLES)}
        index = s["puzzle"] + 1
        n = PUZZLES[index][1]
        return {
            "puzzle": index,
            "board": ("." * n,) * n,
            "solved": s["solved"] + 1,
            "clicks": after["clicks"],
            "rowClues": None,
            "colClues": None,
            "picture": None,
            "distance": None,
        }

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """What the server shows: the puzzle, its name and size, the board, the puzzles
        solved, the clicks, the phase, and the clues where the model knows them."""
        out: dict[str, Any] = {
            "puzzle": s["puzzle"],
            "board": list(s["board"]),
            "solved": s["solved"],
            "clicks": s["clicks"],
            "name": PUZZLES[s["puzzle"]][0],
            "size": len(s["board"]),
            "phase": "complete" if self.is_over(s) else "playing",
        }
        if s["rowClues"] is not None:
            out["rowClues"] = [list(c) for c in s["rowClues"]]
            out["colClues"] = [list(c) for c in s["colClues"]]
        return out

    def score(self, s: dict[str, Any]) -> float:
        """The clicks taken."""
        return float(s["clicks"])

    def is_over(self, s: dict[str, Any]) -> bool:
        """All five puzzles solved."""
        return bool(s["solved"] == len(PUZZLES))

    # optional hooks: what makes the search fast

    def estimate(self, s: dict[str, Any]) -> float:
        """The clicks the run ends with from here: those taken, the cells that differ from
        the current picture (weighed :data:`TIE`), and half the cells of each puzzle still
        to come (a guess: their clues are not shown yet; half the cells of the current one
        too where its picture is not known)."""
        if self.is_over(s):
            return float(s["clicks"])
        later = sum(n * n // 2 for _, n in PUZZLES[s["puzzle"] + 1 :])
        if s["distance"] is None:
            return float(s["clicks"] + len(s["board"]) ** 2 // 2 + later)
        return float(s["clicks"] + TIE * s["distance"] + later)

    def key(self, s: dict[str, Any]) -> str:
        """The puzzle and the clicks between its board and its picture (boards equally far
        from the picture are as good as each other); the board itself where the picture is
        not known, and the puzzle alone past a solve (nothing tells one board of a puzzle
        whose clues are not shown from another)."""
        if s["distance"] is not None:
            return f"{s['puzzle']}:{s['distance']}"
        if s["rowClues"] is None:
            return f"{s['puzzle']}:?"
        return f"{s['puzzle']}:" + "/".join(s["board"])


def _distance(board: tuple[str, ...], picture: tuple[str, ...]) -> int:
    """The cells whose filling differs between ``board`` and ``picture``."""
    return sum(
        1
        for row, want in zip(board, picture, strict=True)
        for a, b in zip(row, want, strict=True)
        if (a == "#") != (b == "#")
    )


def _fits(board: tuple[str, ...], rows: Clues, cols: Clues) -> bool:
    """Whether the filled cells of ``board`` fit every clue."""
    n = len(board)
    lines = [*board, *("".join(row[c] for row in board) for c in range(n))]
    return [runs(line) for line in lines] == [list(c) for c in (*rows, *cols)]
