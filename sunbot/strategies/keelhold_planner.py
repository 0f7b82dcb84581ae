"""Keelhold ``planner`` (the default): a lookahead over the visible queue, through port calls.

For the crate in hand it tries every safe bay, then every safe bay for each next crate the
player can see (``queue[1]``, ``queue[2]``: depth up to the queue's length), on the fast form
(:mod:`sunbot.engines.keelhold_fast`). When a line of play meets the quota it casts off under
the shown ``next`` terms and goes on placing the visible crates in the next voyage, so a port
call is valued by the hold it carries, not as a flat bonus. A line where a crate finds no
safe bay ends the run and is worth :data:`DEAD`. Each line is worth the points it pays
(divided by the multiplier M at the time) plus :class:`~strategies.keelhold_eval.Evaluator`'s
value of the hold it leaves.

It reads only what the rules publish (spec "State"): never ``rng``, so it plays the same
against any server. Unseen crates and jams are not guessed; the leaf evaluation measures how
many of the next crate's possible weights would find a safe bay.
"""

from __future__ import annotations

import random

from sunbot.engines import keelhold_fast as kf

from . import Action, Observation
from .keelhold_eval import DEFAULT_WEIGHTS, Evaluator, Weights

CAST_OFF: Action = {"type": "CAST_OFF"}
END_RUN: Action = {"type": "END_RUN"}
#: Worth of a line that ends the run (far below any hold's value).
DEAD = -1e6


class Planner:
    """Depth-limited search over the visible queue that keeps going through port calls.

    ``depth``: how many visible crates to place (capped by the queue's length);
    ``weights``: the leaf evaluation's weights.
    """

    game = "keelhold"

    def __init__(
        self, rng: random.Random, depth: int = 3, weights: Weights = DEFAULT_WEIGHTS
    ) -> None:
        self.rng = rng
        self.depth = depth
        self.eval = Evaluator(weights)

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """At port: CAST_OFF when the crate in hand has a safe bay after it, else END_RUN.

        Loading: the safe PLACE with the best line (ties to the lowest bay); the first legal
        action when no bay is safe (the run is then over anyway).
        """
        state, queue = kf.from_observation(observation)
        if observation["phase"] == "port":
            after = kf.cast_off(state)
            ok = after is not None and bool(kf.safe_bays(after, queue[0]))
            return CAST_OFF if ok else END_RUN
        best, _ = self.best_bay(state, queue)
        if best is None:
            return legal_actions[0]
        return {"type": "PLACE", "bay": best}

    def best_bay(self, state: kf.FastState, queue: list[kf.Crate]) -> tuple[int | None, float]:
        """``(bay, value)`` of the best safe placement of ``queue[0]``; ``(None, DEAD)``."""
        self.eval.clear()
        depth = min(self.depth, len(queue))
        best: int | None = None
        best_value = DEAD - 1.0
        for bay in kf.legal(state):
            placed = kf.place(state, queue[0], bay)
            if not placed.safe:
                continue
            value = self._after(state, placed, queue, 1, depth)
            if value > best_value:
                best, best_value = bay, value
        return best, best_value

    def _after(
        self,
        before: kf.FastState,
        placed: kf.Placed,
        queue: list[kf.Crate],
        index: int,
        depth: int,
    ) -> float:
        """Worth of a line after ``placed``: its points, then the rest of the search."""
        gained = placed.award / before.voyage.mult
        s = placed.state
        if placed.port:
            after = kf.cast_off(s)  # clears any jam drawn on the way in
            if after is None:
                return gained + self._leaf(s, queue, index)
            return gained + self._search(after, queue, index, depth, ())
        return gained + self._search(s, queue, index, depth, kf.jam_candidates(s))

    def _search(
        self,
        s: kf.FastState,
        queue: list[kf.Crate],
        index: int,
        depth: int,
        jam: tuple[int, ...],
    ) -> float:
        """Best worth over the safe placements of ``queue[index]`` (leaf value at depth).

        ``jam``: the hatches one of which jams before this crate is placed (the draw is
        unseen): the worth is then the mean, over those hatches, of the best line that
        avoids the jammed one.
        """
        if index >= depth:
            return self._leaf(s, queue, index)
        crate = queue[index]
        values: dict[int, float] = {}
        for bay in kf.legal(s):
            placed = kf.place(s, crate, bay)
            if placed.safe:
                values[bay] = self._after(s, placed, queue, index + 1, depth)
        if not jam:
            return max(values.values(), default=DEAD)
        total = 0.0
        for hit in jam:
            total += max((v for b, v in values.items() if b != hit), default=DEAD)
        return total / len(jam)

    def _leaf(self, s: kf.FastState, queue: list[kf.Crate], index: int) -> float:
        """Worth of a line's last position; ``queue[index:]`` are crates it did not place."""
        return self.eval.value(s)
