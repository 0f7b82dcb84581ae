"""Keelhold ``clairvoyant``: a reference point, **local server only, not a playable player**.

It reads the local server's random cursor (``rng``, which no rule publishes and which the
observation leaves out) to learn the crate that will be handed after the visible queue, then
plans like :class:`~sunbot.strategies.keelhold_planner.Planner` and drops every line that
would leave that known crate without a safe bay. The cursor comes from a whole local state
when it is handed one, else from a shadow run of our engine from the seed ``on_start`` gives,
stepped with its own actions and checked against each observation. It exists so the
benchmark can show how far the default planner is from a player that knows one crate more;
against any server whose draws are not ours it refuses to play (a one-line ``ValueError``).
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.engines import IllegalAction
from sunbot.engines import keelhold as kh
from sunbot.engines import keelhold_fast as kf

from . import Action, Observation
from .keelhold_planner import DEAD, Planner

_OPEN = 10**6
#: Fields a shadow run must share with the observation it stands behind.
_SAME = ("turn", "voyage", "phase", "score", "trim", "queue", "hold", "jammedUntil")


def future_crates(state: dict[str, Any], count: int) -> list[kf.Crate]:
    """The next ``count`` crates the local server will draw (voyage terms as now).

    Plays ``count`` placements on a copy whose hold never fills and whose voyage never ends
    (capacity, tolerance and quota set out of reach), so the draws happen in the engine's
    order (jams, then the queue) and the copy's new queue tail is the future. Raises
    ``ValueError`` when ``rng`` is missing (not the local server).
    """
    if not isinstance(state.get("rng"), list):
        raise ValueError("clairvoyant reads the local server's rng cursor: local server only")
    probe = dict(state)
    probe["params"] = {**state["params"], "capacity": _OPEN, "tolerance": _OPEN, "quota": _OPEN}
    probe["phase"], probe["lotsShipped"] = "loading", 0
    out: list[kf.Crate] = []
    for _ in range(count):
        probe = kh.step(probe, {"type": "PLACE", "bay": kh.KEEL})
        out.append(kf.crate_of(probe["queue"][-1]))
    return out


class Clairvoyant(Planner):
    """The default planner plus one future crate read from the local cursor (see module)."""

    game = "keelhold"

    def __init__(self, rng: random.Random, depth: int = 3) -> None:
        super().__init__(rng, depth=depth)
        self._shadow: dict[str, Any] | None = None
        self._last: Action | None = None

    def on_start(self, game: str, seed: int | None) -> None:
        """Start the shadow run of the local engine from ``seed`` (none when unknown)."""
        self._shadow = kh.init(seed) if game == self.game and seed is not None else None
        self._last = None

    def _local_state(self, observation: Observation) -> dict[str, Any]:
        """The whole local state behind ``observation``: itself when it carries our cursor,
        else the shadow run stepped with the last action chosen.

        Raises:
            ValueError: no seed was given, or the shadow does not match ``observation``
                (not the local server, or an action this strategy did not choose).
        """
        if isinstance(observation.get("rng"), list):
            return observation
        shadow, last = self._shadow, self._last
        if shadow is not None and last is not None and not kh.is_over(shadow):
            try:
                shadow = kh.step(shadow, last)
            except IllegalAction:
                shadow = None
        self._shadow = shadow
        if shadow is None or any(observation.get(k) != shadow[k] for k in _SAME):
            raise ValueError("clairvoyant reads the local server's rng cursor: local server only")
        return shadow

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """As :meth:`Planner.choose`, seeing the crate drawn after the visible queue."""
        local = self._local_state(observation)
        if observation["phase"] != "loading":
            action = super().choose(observation, legal_actions)
        else:
            state, queue = kf.from_observation(observation)
            queue += future_crates(local, max(1, self.depth + 1 - len(queue)))
            best, _ = self.best_bay(state, queue)
            action = legal_actions[0] if best is None else {"type": "PLACE", "bay": best}
        self._last = action
        return action

    def _leaf(self, s: kf.FastState, queue: list[kf.Crate], index: int) -> float:
        if index < len(queue):
            crate = queue[index]
            if not any(kf.place(s, crate, b).safe for b in kf.legal(s)):
                return DEAD
        return self.eval.value(s)
