"""A forward model of ``dots-and-boxes`` against G-Bot (the platform's Dots and Boxes): a
4x4 lattice of boxes; drawing a box's fourth side claims it and plays again; the score is
your boxes while playing (a win 100 plus the margin, a draw 50), higher is better.

G-Bot replies inside the step, as the server does: it takes every box it can (the first
edge that completes one, in the order the edges are listed), then draws one more edge: a
*safe* one (giving no box its third side) if there is one, else the one that gives away the
fewest boxes. Which safe edge it picks is its server's draw, so the model draws it
(``stochastic = True``): certify checks every other part of the reply exactly and the pick
by shape, and search averages over the picks it could make.
"""

from __future__ import annotations

import random
from typing import Any

N = 4
Edge = tuple[str, int, int]
EDGES: tuple[Edge, ...] = (
    *(("h", r, c) for r in range(N + 1) for c in range(N)),
    *(("v", r, c) for r in range(N) for c in range(N + 1)),
)


def _sides(r: int, c: int) -> tuple[Edge, ...]:
    return (("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1))


def _boxes(edge: Edge) -> list[tuple[int, int]]:
    kind, r, c = edge
    near = [(r - 1, c), (r, c)] if kind == "h" else [(r, c - 1), (r, c)]
    return [(br, bc) for br, bc in near if 0 <= br < N and 0 <= bc < N]


Box = tuple[int, int]
SIDES: dict[Box, tuple[Edge, ...]] = {(r, c): _sides(r, c) for r in range(N) for c in range(N)}
BOXES: dict[Edge, list[Box]] = {e: _boxes(e) for e in EDGES}


def _counts(drawn: frozenset[Edge] | set[Edge]) -> dict[Box, int]:
    """How many of each box's four sides are drawn."""
    return {b: sum(1 for e in sides if e in drawn) for b, sides in SIDES.items()}


def _gift(drawn: frozenset[Edge] | set[Edge], counts: dict[Box, int], edge: Edge) -> int:
    """The boxes the other player can take once ``edge`` is drawn: the box given a third
    side, the next one along the chain, and so on. (Taking a box never makes an edge stop
    completing another, so the order they are taken in does not change the count.)"""
    counts = dict(counts)
    trial = set(drawn)
    todo, taken, first = [edge], 0, True
    while todo:
        e = todo.pop()
        if e in trial:
            continue
        trial.add(e)
        for b in BOXES[e]:
            counts[b] += 1
            if counts[b] == 4 and not first:
                taken += 1
            elif counts[b] == 3:
                todo.extend(x for x in SIDES[b] if x not in trial)
        first = False
    return taken


def _least_gift(drawn: set[Edge], counts: dict[Box, int], free: list[Edge]) -> Edge:
    """The first of ``free`` (none safe, none completing a box) that gives away the fewest
    boxes. Each gives at least one, so the first that gives one ends the look."""
    best, fewest = free[0], len(SIDES) + 1
    for e in free:
        given = _gift(drawn, counts, e)
        if given < fewest:
            best, fewest = e, given
            if given == 1:
                break
    return best


class DotsAndBoxes:
    """A state is ``{seed, drawn (a frozenset of edges), owner ({box: "X"|"O"}),
    bot (G-Bot's last edges)}``."""

    game = "dots-and-boxes"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- the board ------------------------------------------------------------------------

    @staticmethod
    def _draw(
        drawn: set[Edge], counts: dict[Box, int], owner: dict[Box, str], edge: Edge, who: str
    ) -> int:
        """Draw ``edge`` for ``who``; the boxes it completed."""
        drawn.add(edge)
        done = 0
        for box in BOXES[edge]:
            counts[box] += 1
            if counts[box] == 4:
                owner[box] = who
                done += 1
        return done

    @staticmethod
    def _taking(free: list[Edge], counts: dict[Box, int]) -> Edge | None:
        """The first free edge that completes a box (a box with three sides), if any."""
        return next((e for e in free if any(counts[b] == 3 for b in BOXES[e])), None)

    @staticmethod
    def _safe(free: list[Edge], counts: dict[Box, int]) -> list[Edge]:
        """The free edges that give no box its third side."""
        return [e for e in free if all(counts[b] < 2 for b in BOXES[e])]

    def _take_all(
        self, drawn: set[Edge], counts: dict[Box, int], owner: dict[Box, str], who: str
    ) -> int:
        """``who`` takes every box it can, one after another; how many."""
        taken = 0
        while (taking := self._taking([e for e in EDGES if e not in drawn], counts)) is not None:
            taken += self._draw(drawn, counts, owner, taking, who)
        return taken

    def _bot(self, drawn: set[Edge], counts: dict[Box, int], owner: dict[Box, str]) -> list[Edge]:
        """G-Bot's reply: every box it can take, then a safe edge (its draw), else the edge
        giving away the fewest boxes (the first such in order)."""
        played: list[Edge] = []
        while True:
            free = [e for e in EDGES if e not in drawn]
            if not free:
                return played
            taking = self._taking(free, counts)
            if taking is not None:
                self._draw(drawn, counts, owner, taking, "O")
                played.append(taking)
                continue
            safe = self._safe(free, counts)
            pick = self.rng.choice(safe) if safe else _least_gift(drawn, counts, free)
            self._draw(drawn, counts, owner, pick, "O")
            played.append(pick)
            return played

    # -- the contract ---------------------------------------------------------------------

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The drawn edges and the boxes' owners, as the observation shows them."""
        drawn = frozenset(
            e
            for e in EDGES
            if (observation["h"] if e[0] == "h" else observation["v"])[e[1]][e[2]] == "1"
        )
        owner = {
            (r, c): observation["boxes"][r][c]
            for r in range(N)
            for c in range(N)
            if observation["boxes"][r][c] != "."
        }
        bot = [(b["orientation"], b["row"], b["col"]) for b in observation["lastBotLines"]]
        return {"seed": observation["seed"], "drawn": drawn, "owner": owner, "bot": bot}

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """The edges not drawn, horizontal first, each in reading order."""
        if self.is_over(s):
            return []
        return [_json(e) for e in EDGES if e not in s["drawn"]]

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """Your edge, then G-Bot's whole reply when your edge completed nothing."""
        drawn, owner = set(s["drawn"]), dict(s["owner"])
        counts = _counts(drawn)
        edge = (action["orientation"], action["row"], action["col"])
        bot: list[Edge] = []
        if self._draw(drawn, counts, owner, edge, "X") == 0 and len(drawn) < len(EDGES):
            bot = self._bot(drawn, counts, owner)
        return {"seed": s["seed"], "drawn": frozenset(drawn), "owner": owner, "bot": bot}

    def _result(self, s: dict[str, Any]) -> str | None:
        if len(s["owner"]) < N * N:
            return None
        mine = sum(1 for v in s["owner"].values() if v == "X")
        return "win" if mine * 2 > N * N else "loss" if mine * 2 < N * N else "draw"

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """The edges as strings of 0 and 1, the boxes, the result, G-Bot's last edges and
        the counts."""
        drawn, owner = s["drawn"], s["owner"]
        boxes = ["".join(owner.get((r, c), ".") for c in range(N)) for r in range(N)]
        result = self._result(s)
        return {
            "seed": s["seed"],
            "h": [
                "".join("1" if ("h", r, c) in drawn else "0" for c in range(N))
                for r in range(N + 1)
            ],
            "v": [
                "".join("1" if ("v", r, c) in drawn else "0" for c in range(N + 1))
                for r in range(N)
            ],
            "boxes": boxes,
            "result": result,
            "lastBotLines": [_json(e) for e in s["bot"]],
            "you": "X",
            "yourBoxes": "".join(boxes).count("X"),
            "botBoxes": "".join(boxes).count("O"),
            "phase": "over" if result else "your-turn",
        }

    def score(self, s: dict[str, Any]) -> float:
        """Your boxes; a draw 50, a win 100 plus the margin."""
        mine = sum(1 for v in s["owner"].values() if v == "X")
        theirs = len(s["owner"]) - mine
        return {"win": 100 + mine - theirs, "draw": 50}.get(self._result(s) or "", mine)

    def is_over(self, s: dict[str, Any]) -> bool:
        """Every box claimed."""
        return len(s["owner"]) == N * N

    def estimate(self, s: dict[str, Any]) -> float:
        """A guess of the final score from here (your move), reasoned as a player would.

        The game has two halves. While a *safe* edge is left (one giving no box its third
        side), nobody need give anything away: the guess plays that half out with safe
        edges drawn at random on both sides, each side first taking what it is given. Once
        none is left, every edge opens a chain of boxes to the other side, and the boxes
        fall chain by chain: whoever must move opens the chain that gives away the fewest
        (as G-Bot does); G-Bot takes all it is given and must open the next one; you take
        a chain of three or more all but two and hand those two back (the double-cross),
        so G-Bot must open the next chain too, except on the last one, which you take
        whole. Cheap (no search), and right about the part that decides the game: who is
        in control when the chains fall.
        """
        drawn, owner = set(s["drawn"]), dict(s["owner"])
        counts = _counts(drawn)
        mover, other = "X", {"X": "O", "O": "X"}
        self._take_all(drawn, counts, owner, mover)  # what G-Bot gave you
        order = [e for e in EDGES if e not in drawn]
        self.rng.shuffle(order)
        for e in order:  # the safe half: an edge unsafe once stays so, so one pass will do
            if e not in drawn and all(counts[b] < 2 for b in BOXES[e]):
                self._draw(drawn, counts, owner, e, mover)
                mover = other[mover]
        held = {"X": 0, "O": 0}
        for who in owner.values():
            held[who] += 1
        while len(drawn) < len(EDGES):  # the chains, one at a time
            free = [e for e in EDGES if e not in drawn]
            opened = _least_gift(drawn, counts, free)
            self._draw(drawn, counts, owner, opened, mover)
            taker = other[mover]
            chain = self._take_all(drawn, counts, owner, taker)
            if taker == "X" and chain >= 3 and len(owner) < N * N:
                held["X"], held["O"] = held["X"] + chain - 2, held["O"] + 2
                mover = "O"  # G-Bot took the two handed back and must open again
            else:
                held[taker] += chain
                mover = taker
        mine, theirs = held["X"], held["O"]
        return 100 + mine - theirs if mine > theirs else 50 if mine == theirs else mine


def _json(edge: Edge) -> dict[str, Any]:
    return {"type": "line", "orientation": edge[0], "row": edge[1], "col": edge[2]}
