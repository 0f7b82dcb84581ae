"""``dots-and-boxes``: claim more of 16 boxes than G-Bot (rule page: Dots and Boxes).

An opponent game, fully observable. ``state`` is ``{seed, h, v, boxes, result,
lastBotLines}``: ``h`` five strings of four (``1`` drawn, ``0`` not) for the horizontal
edges (row 0-4, col 0-3), ``v`` four strings of five for the vertical ones (row 0-3,
col 0-4), ``boxes`` four strings of four (``X`` yours, ``O`` G-Bot's, ``.`` open),
``result`` ``null``, ``win``, ``loss`` or ``draw``, ``lastBotLines`` the edges G-Bot drew
in reply to your last edge (none when that edge kept the turn). The observation shows all
of it (the seed too) and both box counts.
Score: your boxes while playing or after a loss, 50 for a draw, 100 plus the margin for a
win; higher is better.

G-Bot (not described by the page; a local choice): it takes every box it can complete,
first edge first (edges in the order of the legal actions), then draws a safe edge (one
that gives no box a third side) picked by a draw seeded from the seed, the salt and the
drawn edges; with no safe edge left it gives away the fewest boxes (the first such edge).
So its reply is a function of the position and the seed. Legal edges are listed
horizontal first, then vertical, each in reading order.
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
    draws,
    field_int,
    need,
    one_of,
)

SLUG = "dots-and-boxes"
BOXES = 4
Edge = tuple[str, int, int]
#: Every edge, in the order legal actions are listed.
EDGES: tuple[Edge, ...] = (
    *(("h", r, c) for r in range(BOXES + 1) for c in range(BOXES)),
    *(("v", r, c) for r in range(BOXES) for c in range(BOXES + 1)),
)
SPEC: dict[str, Any] = {
    "goal": "End with more boxes than G-Bot. Twenty-five dots in a 5x5 square frame 16 "
    "boxes; each turn draws one new edge between neighbouring dots, and the player who "
    "closes a box's fourth side takes the box.",
    "scoring": "While playing, or after a loss: the boxes you hold. A draw scores 50, a "
    "win 100 plus your margin (9-7 scores 102). Higher is better: a win beats a draw "
    "beats a loss.",
    "scoreOrder": "descending",
    "rules": [
        "Your boxes are X and you start; G-Bot's are O.",
        "An edge is {orientation, row, col}: horizontal (h) edges have row 0-4 and col "
        "0-3, vertical (v) edges row 0-3 and col 0-4.",
        "Drawing the fourth side of a box claims it; one edge can complete two boxes.",
        "Completing a box gives you another turn: the answer is your turn again. An edge "
        "that completes nothing passes the turn, and G-Bot plays its whole reply (it too "
        "goes on while it completes boxes) before you move again.",
        "Once no box is open the game is over: the larger share wins, an even split draws.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "line"},
            "orientation": {
                "enum": ["h", "v"],
                "description": "h: a horizontal edge, v: a vertical edge",
            },
            "row": {"type": "integer", "minimum": 0, "maximum": 4},
            "col": {"type": "integer", "minimum": 0, "maximum": 4},
        },
        "required": ["type", "orientation", "row", "col"],
    },
}


def _sides(r: int, c: int) -> tuple[Edge, ...]:
    return (("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1))


def _boxes_of(edge: Edge) -> list[tuple[int, int]]:
    kind, r, c = edge
    near = [(r - 1, c), (r, c)] if kind == "h" else [(r, c - 1), (r, c)]
    return [(br, bc) for br, bc in near if 0 <= br < BOXES and 0 <= bc < BOXES]


class _Board:
    """Drawn edges and claimed boxes, as sets (the working form of a state)."""

    def __init__(self, drawn: set[Edge], owner: dict[tuple[int, int], str]) -> None:
        self.drawn, self.owner = drawn, owner

    def count(self, r: int, c: int) -> int:
        return sum(1 for e in _sides(r, c) if e in self.drawn)

    def draw(self, edge: Edge, who: str) -> int:
        """Draw ``edge`` for ``who``; the boxes it completes."""
        self.drawn.add(edge)
        done = 0
        for box in _boxes_of(edge):
            if self.count(*box) == 4:
                self.owner[box] = who
                done += 1
        return done

    def free(self) -> list[Edge]:
        return [e for e in EDGES if e not in self.drawn]

    def completes(self, edge: Edge) -> bool:
        return any(self.count(*b) == 3 for b in _boxes_of(edge))

    def safe(self, edge: Edge) -> bool:
        return all(self.count(*b) < 2 for b in _boxes_of(edge))

    def gift(self, edge: Edge) -> int:
        """Boxes the other side can take in a row after ``edge`` is drawn."""
        trial = _Board(set(self.drawn), dict(self.owner))
        trial.drawn.add(edge)
        taken = 0
        while True:
            edge_next = next((e for e in trial.free() if trial.completes(e)), None)
            if edge_next is None:
                return taken
            taken += trial.draw(edge_next, "?")


def bot_reply(board: _Board, salt: str, seed: int) -> list[Edge]:
    """G-Bot's whole reply on ``board`` (mutated): the edges it drew, in order."""
    drawn: list[Edge] = []
    while board.free():
        edges = board.free()
        taking = next((e for e in edges if board.completes(e)), None)
        if taking is not None:
            board.draw(taking, "O")
            drawn.append(taking)
            continue
        safe = [e for e in edges if board.safe(e)]
        if safe:
            key = ",".join(f"{k}{r}{c}" for k, r, c in sorted(board.drawn))
            pick = safe[draws(salt, SLUG, seed, key).randrange(len(safe))]
        else:
            pick = min(edges, key=board.gift)
        board.draw(pick, "O")
        drawn.append(pick)
        break
    return drawn


def _edge_json(edge: Edge) -> dict[str, Any]:
    return {"type": "line", "orientation": edge[0], "row": edge[1], "col": edge[2]}


class DotsAndBoxes(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Dots and Boxes"
    genre = "board"
    description = "Join the dots to claim boxes; take more than G-Bot."
    goal = SPEC["goal"]
    spec = SPEC

    def new(self, seed: int) -> State:
        return self._state(seed, _Board(set(), {}), [])

    def _state(self, seed: int, board: _Board, bot: list[Edge]) -> State:
        h = [
            "".join("1" if ("h", r, c) in board.drawn else "0" for c in range(BOXES))
            for r in range(BOXES + 1)
        ]
        v = [
            "".join("1" if ("v", r, c) in board.drawn else "0" for c in range(BOXES + 1))
            for r in range(BOXES)
        ]
        boxes = ["".join(board.owner.get((r, c), ".") for c in range(BOXES)) for r in range(BOXES)]
        return {
            "seed": seed,
            "h": h,
            "v": v,
            "boxes": boxes,
            "result": self._result(boxes),
            "lastBotLines": [_edge_json(e) for e in bot],
        }

    @staticmethod
    def _result(boxes: list[str]) -> str | None:
        flat = "".join(boxes)
        if "." in flat:
            return None
        mine, theirs = flat.count("X"), flat.count("O")
        return "win" if mine > theirs else "loss" if mine < theirs else "draw"

    @staticmethod
    def _board(s: State) -> _Board:
        drawn = {e for e in EDGES if (s["h"] if e[0] == "h" else s["v"])[e[1]][e[2]] == "1"}
        owner = {
            (r, c): s["boxes"][r][c]
            for r in range(BOXES)
            for c in range(BOXES)
            if s["boxes"][r][c] != "."
        }
        return _Board(drawn, owner)

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("seed", "h", "v", "boxes", "result", "lastBotLines"))
        seed = as_int(s["seed"], -(2**63), 2**63 - 1, "seed")
        h = [as_str(x, f"h[{i}]", BOXES, "01") for i, x in enumerate(as_list(s["h"], "h", 5))]
        v = [
            as_str(x, f"v[{i}]", BOXES + 1, "01") for i, x in enumerate(as_list(s["v"], "v", BOXES))
        ]
        boxes = [
            as_str(x, f"boxes[{i}]", BOXES, ".XO")
            for i, x in enumerate(as_list(s["boxes"], "boxes", BOXES))
        ]
        need(
            all(len(x) == BOXES for x in h + boxes) and all(len(x) == 5 for x in v),
            "h",
            "rows of the lattice's length",
        )
        got = {"seed": seed, "h": h, "v": v, "boxes": boxes}
        board = self._board(got)
        for r in range(BOXES):
            for c in range(BOXES):
                closed = board.count(r, c) == 4
                need(closed == (boxes[r][c] != "."), f"boxes[{r}]", f"box {c} and its sides")
        result = one_of(s["result"], (None, "win", "loss", "draw"), "result")
        need(result == self._result(boxes), "result", "not what the boxes show")
        bot = []
        for i, item in enumerate(as_list(s["lastBotLines"], "lastBotLines", max_size=40)):
            e = as_obj(item, f"lastBotLines[{i}]", ("orientation", "row", "col"))
            bot.append(
                (
                    one_of(e["orientation"], ("h", "v"), f"lastBotLines[{i}]"),
                    as_int(e["row"], 0, 4, f"lastBotLines[{i}]"),
                    as_int(e["col"], 0, 4, f"lastBotLines[{i}]"),
                )
            )
        need(all(e in board.drawn for e in bot), "lastBotLines", "edges not drawn")
        return self._state(seed, board, bot)

    def legal(self, s: State) -> list[Action]:
        return [_edge_json(e) for e in self._board(s).free()]

    def apply(self, s: State, action: Action) -> State:
        kind = action["orientation"]
        r, c = field_int(action, "row"), field_int(action, "col")
        rows, cols = (BOXES + 1, BOXES) if kind == "h" else (BOXES, BOXES + 1)
        if r >= rows or c >= cols:
            shape = (
                "horizontal edges have row 0-4, col 0-3"
                if kind == "h"
                else ("vertical edges have row 0-3, col 0-4")
            )
            raise IllegalAction(f"no edge {kind} row {r} col {c}: {shape}")
        board = self._board(s)
        if (kind, r, c) in board.drawn:
            raise IllegalAction(f"edge {kind} row {r} col {c} is drawn already")
        bot: list[Edge] = []
        if board.draw((kind, r, c), "X") == 0 and board.free():
            bot = bot_reply(board, self.salt, s["seed"])
        return self._state(s["seed"], board, bot)

    def observe(self, s: State) -> dict[str, Any]:
        flat = "".join(s["boxes"])
        return {
            **s,
            "you": "X",
            "yourBoxes": flat.count("X"),
            "botBoxes": flat.count("O"),
            "phase": "over" if s["result"] else "your-turn",
        }

    def score(self, s: State) -> int:
        flat = "".join(s["boxes"])
        mine, theirs = flat.count("X"), flat.count("O")
        return {"win": 100 + mine - theirs, "draw": 50}.get(s["result"], mine)

    def over(self, s: State) -> bool:
        return s["result"] is not None
