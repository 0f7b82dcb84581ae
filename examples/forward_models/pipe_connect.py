"""A forward model of ``pipe-connect`` (the platform's Pipe Connect): turn the pipes of a
6x6 board, a quarter turn clockwise at a time, until a chain of pipes open toward each
other joins the source (row 0, col 1, open to the south) to the drain (row 5, col 4, open
to the north). The score is the turns made, fewer is better. The whole board is shown and
nothing is drawn: the model is deterministic.

A pipe is a mask of its openings (north 1, east 2, south 4, west 8); a clockwise quarter
turn moves each opening one side on (north to east, ..., west to north).

Its ``estimate`` is the fewest turns that join the source to the drain from here, found
the way a player reasons: a chain is a simple path of cells from below the source to above
the drain, and passing through a cell costs the quarter turns that open its pipe both on
the side entered and on the side left (a straight cannot bend, an elbow cannot go
straight, an end passes nothing). A shortest path that may pass a cell twice (Dijkstra
over cell and side entered, from the drain back) bounds every chain from below, and a
branch and bound over simple chains under that bound finds the cheapest one, so the
estimate is exact (but on a board where :data:`CHAINS` tries do not settle it, the bound)
and the search walks straight down one cheapest chain.
"""

from __future__ import annotations

import heapq
from typing import Any

SIZE = 6
SOURCE, DRAIN = (0, 1), (5, 4)
NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
#: Each side's bit, its step (row, col), and the bit of the side facing it.
SIDES = ((NORTH, -1, 0, SOUTH), (EAST, 0, 1, WEST), (SOUTH, 1, 0, NORTH), (WEST, 0, -1, EAST))
#: The board text's character of each mask: the box-drawing piece with those openings.
GLYPHS = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"
#: The estimate where no turns can join the source to the drain (never, on a served board).
APART = 1_000.0


def turn(mask: int, times: int = 1) -> int:
    """``mask`` turned ``times`` quarter turns clockwise."""
    for _ in range(times % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def _costs() -> list[dict[tuple[int, int], int]]:
    """For each mask, the fewest quarter turns after which it opens on both of two sides."""
    out: list[dict[tuple[int, int], int]] = []
    for mask in range(16):
        costs: dict[tuple[int, int], int] = {}
        for k in range(4):
            turned = turn(mask, k)
            for a, *_ in SIDES:
                for b, *_ in SIDES:
                    if a != b and turned & a and turned & b and (a, b) not in costs:
                        costs[(a, b)] = k
        out.append(costs)
    return out


#: ``PASS[mask][(side in, side out)]``: the turns that open ``mask`` on both sides.
PASS = _costs()


def joined(grid: tuple[tuple[int, ...], ...]) -> set[tuple[int, int]]:
    """The cells a chain of mutual openings joins to the source (the source included)."""
    seen, todo = {SOURCE}, [SOURCE]
    while todo:
        r, c = todo.pop()
        for bit, dr, dc, back in SIDES:
            nr, nc = r + dr, c + dc
            if (
                grid[r][c] & bit
                and 0 <= nr < SIZE
                and 0 <= nc < SIZE
                and grid[nr][nc] & back
                and (nr, nc) not in seen
            ):
                seen.add((nr, nc))
                todo.append((nr, nc))
    return seen


Grid = tuple[tuple[int, ...], ...]
Node = tuple[int, int, int]  # a cell and the side a chain enters it by
#: The cell below the source, entered by its north side: where every chain begins.
START: Node = (SOURCE[0] + 1, SOURCE[1], NORTH)
#: The cell above the drain, left by its south side: where every chain ends.
LAST = (DRAIN[0] - 1, DRAIN[1])
#: The weight of the turns still needed in :meth:`PipeConnect.estimate`: a hundredth of a
#: turn more each, which never adds up to a whole turn while fewer than 100 are needed.
TIE_BREAK = 1.01
#: The chains the exact search tries before it settles for the bound (a board of 36 cells
#: has few cheap ones; this only stops a pathological board).
CHAINS = 20_000


def _to_drain(grid: Grid) -> dict[Node, int]:
    """For each cell and side entered, the fewest turns from there to the drain when the
    chain may pass a cell twice (a lower bound): Dijkstra from the drain backwards."""
    best: dict[Node, int] = {}
    todo: list[tuple[int, Node]] = []
    for side_in, *_ in SIDES:
        need = PASS[grid[LAST[0]][LAST[1]]].get((side_in, SOUTH))
        if need is not None:
            heapq.heappush(todo, (need, (*LAST, side_in)))
    while todo:
        cost, node = heapq.heappop(todo)
        if node in best:
            continue
        best[node] = cost
        r, c, side_in = node
        # the cell the chain came from lies beyond the side it entered by
        for bit, dr, dc, back in SIDES:
            if bit != side_in:
                continue
            pr, pc = r + dr, c + dc
            if not (0 <= pr < SIZE and 0 <= pc < SIZE) or (pr, pc) in (SOURCE, DRAIN):
                continue
            for entered, *_ in SIDES:
                need = PASS[grid[pr][pc]].get((entered, back))
                if need is not None and (pr, pc, entered) not in best:
                    heapq.heappush(todo, (cost + need, (pr, pc, entered)))
    return best


def turns_needed(grid: Grid) -> float:
    """The fewest quarter turns that join the source to the drain (module doc):
    branch and bound over simple chains, bounded below by :func:`_to_drain`;
    :data:`APART` where no chain can."""
    bound = _to_drain(grid)
    if START not in bound:
        return APART
    best = [APART]
    tried = [0]
    on_chain = {START[:2]}

    def extend(node: Node, cost: int) -> None:
        tried[0] += 1
        if tried[0] > CHAINS:
            return
        r, c, side_in = node
        if (r, c) == LAST:
            need = PASS[grid[r][c]].get((side_in, SOUTH))
            if need is not None and cost + need < best[0]:
                best[0] = cost + need
        options = []
        for bit, dr, dc, back in SIDES:
            need = PASS[grid[r][c]].get((side_in, bit))
            nr, nc = r + dr, c + dc
            nxt = (nr, nc, back)
            if need is None or nxt not in bound or (nr, nc) in on_chain:
                continue
            options.append((cost + need + bound[nxt], cost + need, nxt))
        for low, spent, nxt in sorted(options):
            if low >= best[0]:
                break
            on_chain.add(nxt[:2])
            extend(nxt, spent)
            on_chain.discard(nxt[:2])

    extend(START, 0)
    if best[0] >= APART:  # no simple chain found within the tries: the bound
        return float(bound[START])
    return float(best[0])


class PipeConnect:
    """A state is ``(grid, rotations)``: six rows of six masks, and the turns made."""

    game = "pipe-connect"

    def from_observation(self, observation: dict[str, Any]) -> tuple[Grid, int]:
        """The grid and the turns made."""
        grid = tuple(tuple(row) for row in observation["grid"])
        return grid, observation["rotations"]

    def legal_actions(self, s: tuple[Grid, int]) -> list[dict[str, Any]]:
        """Every cell but the source and the drain, in reading order (none once solved)."""
        if self.is_over(s):
            return []
        return [
            {"type": "rotate", "row": r, "col": c}
            for r in range(SIZE)
            for c in range(SIZE)
            if (r, c) not in (SOURCE, DRAIN)
        ]

    def step(self, s: tuple[Grid, int], action: dict[str, Any]) -> tuple[Grid, int]:
        """The cell's pipe a quarter turn clockwise.

        Raises:
            ValueError: the source, the drain, or a cell off the board.
        """
        r, c = action["row"], action["col"]
        if (r, c) in (SOURCE, DRAIN) or not (0 <= r < SIZE and 0 <= c < SIZE):
            raise ValueError(f"({r},{c}) cannot be turned")
        grid, rotations = s
        row = list(grid[r])
        row[c] = turn(row[c])
        return (*grid[:r], tuple(row), *grid[r + 1 :]), rotations + 1

    def observation(self, s: tuple[Grid, int]) -> dict[str, Any]:
        """What the server shows: the grid, its text rows, the source and the drain, the
        cells joined to the source, the turns made and the phase."""
        grid, rotations = s
        reach = joined(grid)
        return {
            "grid": [list(row) for row in grid],
            "rotations": rotations,
            "rows": ["".join(GLYPHS[v] for v in row) for row in grid],
            "source": {"row": SOURCE[0], "col": SOURCE[1]},
            "drain": {"row": DRAIN[0], "col": DRAIN[1]},
            "connected": [{"row": r, "col": c} for r, c in sorted(reach)],
            "phase": "solved" if DRAIN in reach else "playing",
        }

    def score(self, s: tuple[Grid, int]) -> float:
        """The turns made."""
        return float(s[1])

    def is_over(self, s: tuple[Grid, int]) -> bool:
        """The drain joined to the source."""
        return DRAIN in joined(s[0])

    # optional hooks: what makes the search fast

    def estimate(self, s: tuple[Grid, int]) -> float:
        """The turns made plus the fewest a chain still needs (module doc), the latter
        weighted a hair above one (:data:`TIE_BREAK`): of two positions the search would
        value alike, the one with fewer turns left, so that it follows one chain to its end
        instead of trying every order of the same turns."""
        return s[1] + TIE_BREAK * turns_needed(s[0])

    def key(self, s: tuple[Grid, int]) -> str:
        """The grid alone (the turns aside)."""
        return ",".join(str(v) for row in s[0] for v in row)
