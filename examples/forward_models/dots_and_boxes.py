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


class DotsAndBoxes:
    """A state is ``{seed, drawn (a frozenset of edges), owner ({box: "X"|"O"}),
    bot (G-Bot's last edges)}``."""

    game = "dots-and-boxes"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- the board ------------------------------------------------------------------------

    @staticmethod
    def _count(drawn: frozenset[Edge] | set[Edge], r: int, c: int) -> int:
        return sum(1 for e in _sides(r, c) if e in drawn)

    def _draw(
        self, drawn: set[Edge], owner: dict[tuple[int, int], str], edge: Edge, who: str
    ) -> int:
        drawn.add(edge)
        done = 0
        for box in _boxes(edge):
            if self._count(drawn, *box) == 4:
                owner[box] = who
                done += 1
        return done

    def _completes(self, drawn: set[Edge], edge: Edge) -> bool:
        return any(self._count(drawn, *b) == 3 for b in _boxes(edge))

    def _gift(self, drawn: set[Edge], edge: Edge) -> int:
        trial = set(drawn) | {edge}
        taken = 0
        while True:
            nxt = next((e for e in EDGES if e not in trial and self._completes(trial, e)), None)
            if nxt is None:
                return taken
            trial.add(nxt)
            taken += sum(1 for b in _boxes(nxt) if self._count(trial, *b) == 4)

    def _bot(self, drawn: set[Edge], owner: dict[tuple[int, int], str]) -> list[Edge]:
        played: list[Edge] = []
        while True:
            free = [e for e in EDGES if e not in drawn]
            if not free:
                return played
            taking = next((e for e in free if self._completes(drawn, e)), None)
            if taking is not None:
                self._draw(drawn, owner, taking, "O")
                played.append(taking)
                continue
            safe = [e for e in free if all(self._count(drawn, *b) < 2 for b in _boxes(e))]
            pick = self.rng.choice(safe) if safe else min(free, key=lambda e: self._gift(drawn, e))
            self._draw(drawn, owner, pick, "O")
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
        edge = (action["orientation"], action["row"], action["col"])
        bot: list[Edge] = []
        if self._draw(drawn, owner, edge, "X") == 0 and len(drawn) < len(EDGES):
            bot = self._bot(drawn, owner)
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
        """A guess of the final score from here: the game played out with G-Bot's own
        policy on both sides (take what completes a box, else a safe edge, else the edge
        giving away fewest), its safe picks the first in order."""
        drawn, owner = set(s["drawn"]), dict(s["owner"])
        mover = "X"
        while len(drawn) < len(EDGES):
            free = [e for e in EDGES if e not in drawn]
            taking = next((e for e in free if self._completes(drawn, e)), None)
            if taking is not None:
                self._draw(drawn, owner, taking, mover)
                continue
            safe = [e for e in free if all(self._count(drawn, *b) < 2 for b in _boxes(e))]
            pick = safe[0] if safe else min(free, key=lambda e: self._gift(drawn, e))
            self._draw(drawn, owner, pick, mover)
            mover = "O" if mover == "X" else "X"
        return self.score({"seed": s["seed"], "drawn": frozenset(drawn), "owner": owner, "bot": []})


def _json(edge: Edge) -> dict[str, Any]:
    return {"type": "line", "orientation": edge[0], "row": edge[1], "col": edge[2]}
