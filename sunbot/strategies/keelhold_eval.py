"""Keelhold leaf evaluation for the lookahead planner: what the hold it leaves is worth.

Values are in points at multiplier 1 (the planner divides the points it is paid by M, so a
crate late in the run does not outweigh the hold that keeps the run alive). Everything read
here is published (spec "State"): the hold, the trim, the terms, the jams.
"""

from __future__ import annotations

from dataclasses import dataclass

from sunbot.engines.keelhold_fast import KEEL, FastState, Hatch


@dataclass(frozen=True)
class Weights:
    """Points-equivalent (at M = 1) per unit of each feature of the hold left behind.

    ``pair``/``single``: per group of two/one crates of a cargo that can still complete its
    lot in its hatch; ``dead``: per crate of a group that no longer fits in its hatch;
    ``stuck``: per crate in a hatch where no lot can complete any more (its slots are lost);
    ``mixed``: per cargo type beyond the first in a hatch; ``split``: per extra hatch holding
    an unfinished group of the same cargo; ``ballast``: per ballast crate (it leaves only
    with a lot from its hatch); ``aboard``: per crate aboard; ``keel``: per free keel slot;
    ``margin``: per unit of trim room inside the tolerance (up to ``margin_cap``);
    ``listing``: ending listing; ``unsafe``: the share of the next crate's possible weights
    that would find no safe bay; ``rush``: per rush crate aboard that still has a pair.
    """

    pair: float = 8.0
    single: float = 2.0
    dead: float = 10.0
    stuck: float = 30.0
    mixed: float = 6.0
    split: float = 3.0
    ballast: float = 4.0
    aboard: float = 1.0
    keel: float = 3.0
    margin: float = 1.0
    margin_cap: int = 8
    listing: float = 40.0
    unsafe: float = 400.0


DEFAULT_WEIGHTS = Weights()


class Evaluator:
    """Scores positions with :class:`Weights`; caches each hatch's value (holds repeat)."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        self._hatch: dict[tuple[Hatch, int, int], tuple[float, tuple[int, ...]]] = {}

    def clear(self) -> None:
        """Drop the hatch cache (call between decisions to bound memory)."""
        self._hatch.clear()

    def hatch(self, h: Hatch, cap: int, manifest: int) -> tuple[float, tuple[int, ...]]:
        """``(value, unfinished cargo types)`` of one hatch holding ``h``."""
        key = (h, cap, manifest)
        got = self._hatch.get(key)
        if got is not None:
            return got
        w = self.w
        counts: dict[int, int] = {}
        ballast = 0
        for c in h:
            if c[1] < 0:
                ballast += 1
            else:
                counts[c[1]] = counts.get(c[1], 0) + 1
        free = cap - len(h)
        value = -w.aboard * len(h) - w.ballast * ballast
        live = free >= manifest
        for k in counts.values():
            if manifest - k > free:
                value -= w.dead * k
            else:
                live = True
                value += w.pair if k == manifest - 1 else w.single
        if not live:
            value -= w.stuck * len(h)
        if len(counts) > 1:
            value -= w.mixed * (len(counts) - 1)
        got = (value, tuple(counts))
        self._hatch[key] = got
        return got

    def value(self, s: FastState) -> float:
        """The worth of position ``s`` (at M = 1), without the points already paid."""
        w = self.w
        v = s.voyage
        total = 0.0
        seen: dict[int, int] = {}
        for h in s.hold:
            if h:
                hv, kinds = self.hatch(h, v.cap, v.manifest)
                total += hv
                for k in kinds:
                    seen[k] = seen.get(k, 0) + 1
        for n in seen.values():
            if n > 1:
                total -= w.split * (n - 1)
        keel_free = v.cap - len(s.hold[KEEL])
        total += w.keel * keel_free
        a = abs(s.trim)
        total += w.margin * min(v.tol - a, w.margin_cap)
        if s.listing:
            total -= w.listing
        total -= w.unsafe * unsafe_share(s)
        return total


def unsafe_share(s: FastState) -> float:
    """Share of the next (unseen) crate's weights with no safe bay if it ships nothing.

    A crate that ships nothing is safe where it ends inside the tolerance (spec "Safety");
    the squall due on the next turn is applied. 0.0 when the keel is open and she is level.
    """
    v = s.voyage
    t = s.turn
    trim = s.trim
    if v.squall and t > v.start and (t - v.start) % v.squall == 0:
        trim -= 2 * s.wind
    tol = v.tol
    arms = v.arms
    bays = [arms[b] for b in v.open if t >= s.jam[b] and len(s.hold[b]) < v.cap]
    if not bays:
        return 1.0
    if 0 in bays and -tol <= trim <= tol:
        return 0.0
    bad = 0
    for weight in range(v.wmin, v.wmax + 1):
        if not any(-tol <= trim + weight * arm <= tol for arm in bays):
            bad += 1
    return bad / (v.wmax - v.wmin + 1)
