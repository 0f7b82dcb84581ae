"""Keelhold strategies: ``safe-greedy`` (default), and the baseline ``first-safe``.

Both only ever place into ``safeBays`` when one exists (they exist whenever the run is
still loading), and at port cast off while ``castOffSafe`` and end the run otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sunbot.engines import keelhold as kh

from . import Action, Observation

CAST_OFF: Action = {"type": "CAST_OFF"}
END_RUN: Action = {"type": "END_RUN"}


class _NoDraws:
    """Lookahead draws: the unseen crate is a weightless ballast crate and no jam happens,
    so a lookahead uses only what the player can see (the queue)."""

    def crate(
        self, state: dict[str, Any], params: dict[str, Any], ballast: bool
    ) -> tuple[None, int]:
        return None, 0

    def jam(self, state: dict[str, Any], candidates: list[int]) -> None:
        return None

    def voyage(self, state: dict[str, Any], voyage: int, prev: list[str]) -> dict[str, Any]:
        return dict(state["next"])


NO_DRAWS = _NoDraws()


def _port_action(observation: Observation) -> Action:
    return CAST_OFF if observation.get("castOffSafe") else END_RUN


class FirstSafe:
    """Baseline: the lowest safe hatch; at port CAST_OFF while ``castOffSafe``."""

    game = "keelhold"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """The lowest bay of ``safeBays`` (the first legal PLACE if none is safe)."""
        if observation["phase"] == "port":
            return _port_action(observation)
        safe = observation["safeBays"]
        return {"type": "PLACE", "bay": safe[0]} if safe else legal_actions[0]


@dataclass(frozen=True)
class Weights:
    """Weights of :class:`SafeGreedy`'s evaluation (points-equivalent per unit).

    ``options``: per safe bay left for the next crate (up to 3); ``margin``: per unit of
    trim room inside the tolerance; ``pair``/``single``: per hatch holding two/one crates of
    a cargo (lots in the making); ``mixed``: per cargo type beyond the first in a hatch;
    ``keel``: per free keel slot (the keel is always level-safe); ``listing``: ending listing.
    """

    options: float = 40.0
    margin: float = 6.0
    pair: float = 30.0
    single: float = 4.0
    mixed: float = 25.0
    keel: float = 12.0
    listing: float = 150.0
    aboard: float = 3.0
    dead: float = 40.0
    ballast: float = 15.0


class SafeGreedy:
    """One-ply lookahead over the engine, restricted to ``safeBays``.

    For each safe bay it plays the placement on the engine (drawing nothing unseen) and
    values the result: the points it pays, the options left for the next visible crate, the
    trim room, lots in the making, mixed hatches that block lots, and the free keel space.
    At port: CAST_OFF while ``castOffSafe``, else END_RUN.
    """

    game = "keelhold"

    def __init__(self, rng: random.Random, weights: Weights | None = None) -> None:
        self.rng = rng
        self.w = weights or Weights()

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        """The best safe PLACE by :meth:`value`; the first legal action if none is safe."""
        if observation["phase"] == "port":
            return _port_action(observation)
        safe = observation["safeBays"]
        if not safe:
            return legal_actions[0]
        state = kh.planning_state(observation)  # works without our server's cursor
        best = max(safe, key=lambda bay: (self.value(state, bay), -bay))
        return {"type": "PLACE", "bay": best}

    def value(self, state: dict[str, Any], bay: int) -> float:
        """Points-equivalent value of placing the crate in hand into ``bay``."""
        after = kh.step_with_draws(state, {"type": "PLACE", "bay": bay}, NO_DRAWS)
        gained = float(after["score"] - state["score"])
        if after["phase"] == "over":
            return gained - 1e6
        if after["phase"] == "port":
            # Making port is worth it only if the voyage after it can start.
            return gained + (1e5 if after["castOffSafe"] else -5e5)
        w = self.w
        p = after["params"]
        value = gained
        value += w.options * min(len(after["safeBays"]), 3)
        value += w.margin * float(p["tolerance"] - abs(after["trim"]))
        if after["listing"]:
            value -= w.listing
        value += w.keel * float(p["capacity"] - len(after["hold"][kh.KEEL]))
        need = p["manifestSize"]
        for hatch in after["hold"]:
            counts: dict[int, int] = {}
            ballast = 0
            for c in hatch:
                if c["cargo"] is None:
                    ballast += 1
                else:
                    counts[c["cargo"]] = counts.get(c["cargo"], 0) + 1
            free = p["capacity"] - len(hatch)
            value -= w.aboard * len(hatch)
            for k in counts.values():
                if need - k > free:
                    value -= w.dead * k  # this lot can no longer complete here
                else:
                    value += w.pair if k >= 2 else w.single
            value -= w.mixed * max(0, len(counts) - 1)
            if ballast and not any(k >= 2 for k in counts.values()):
                value -= w.ballast * ballast  # ballast leaves only with a lot from its hatch
        return value
