"""Keelhold hold management over many voyages: what a hatch will still ship, what never will.

A crate leaves the hull only in a lot (rules: THE TURN), and iron ballast only with a lot
from its own hatch; a rush crate that misses its due turn turns into ballast where it lies
(THE QUEUE). So a hatch in which no cargo can gather a manifest any more (too few free slots
for every group it holds) keeps its crates for the rest of the run. Runs end ``holdFull``
when enough hatches are lost that way; it happens over tens of voyages, far beyond what a
search over the visible queue sees. This module values a hold by those long-run facts:

- :func:`hatch_need`: the fewest crates that can still ship a lot from a hatch, or ``None``
  when none can ever leave (a *dead* hatch);
- :func:`rush_odds`: the chance that a rush crate's lot completes before its due turn, from
  the published terms only (the share of each cargo among draws);
- :class:`HoldEvaluator`: a leaf evaluation like :class:`~sunbot.strategies.keelhold_eval.Evaluator`
  (same trim, keel and next-crate terms) whose hold terms count dead hatches as a whole
  (their free slots stay useful as a dump, so filling them costs nothing), charge ballast by
  how far its hatch is from shipping, expect each rush crate to become ballast with the odds
  that it misses its due turn, and grow the cost of each further dead hatch.

Values are in points at multiplier 1, like the planner's lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from sunbot.engines.keelhold_fast import KEEL, FastState, Hatch, Voyage

from .keelhold_eval import unsafe_share


def hatch_need(h: Hatch, cap: int, manifest: int) -> int | None:
    """The fewest crates that must still land in hatch ``h`` for a lot to ship from it.

    ``h``: crates ``(weight, cargo, due)``, cargo ``-1`` for ballast; ``cap``: the hatch's
    capacity; ``manifest``: crates of one cargo that make a lot. A group of ``c`` crates of
    one cargo needs ``manifest - c`` more and can complete while that many slots are free;
    with ``manifest`` free slots a new cargo can start a lot. ``None`` when neither holds:
    nothing in the hatch can leave again (rules: THE TURN, the manifest step).
    """
    free = cap - len(h)
    best = manifest if free >= manifest else None
    counts: dict[int, int] = {}
    for c in h:
        if c[1] >= 0:
            counts[c[1]] = counts.get(c[1], 0) + 1
    for k in counts.values():
        need = manifest - k
        if need <= free and (best is None or need < best):
            best = need
    return best


def rush_odds(need: int, turns: int, share: float) -> float:
    """Chance that ``need`` more crates of one cargo arrive within ``turns`` placements.

    Each placement's crate is that cargo with probability ``share`` (independent draws; the
    crate bag is a local choice the rules do not promise, so it is not counted). 0.0 when
    ``need > turns``; 1.0 when ``need <= 0``.
    """
    if need <= 0:
        return 1.0
    if need > turns:
        return 0.0
    miss = sum(comb(turns, i) * share**i * (1.0 - share) ** (turns - i) for i in range(need))
    return 1.0 - miss


@dataclass(frozen=True)
class HoldWeights:
    """Points-equivalent (at M = 1) of each hold feature :class:`HoldEvaluator` counts.

    ``dead``: per dead hatch (nothing in it can ever leave); ``dead_more``: added per dead
    hatch for each other dead hatch (losing the third costs more than the first); ``dump``:
    per free slot of a dead hatch (room for crates that would harm a live hatch);
    ``ballast``: per ballast crate in a live hatch, by the hatch's need (index 1..3: one,
    two or three more crates to ship it); ``pair``/``single``: per group that can complete,
    one or two crates short; ``blocked``: per crate of a group that cannot complete in its
    hatch (it waits for other lots to leave first); ``mixed``: per cargo beyond the first in
    a live hatch; ``split``: per extra hatch holding an unfinished group of the same cargo;
    ``tight``: a live hatch whose free slots are exactly its need (the next wrong crate
    kills it); ``aboard``: per crate aboard a live hatch; ``rush_hit``: the share of
    :func:`rush_odds` a rush crate is credited (it must also land in its own hatch);
    ``keel``, ``margin``, ``margin_cap``, ``listing``, ``unsafe``: as
    :class:`~sunbot.strategies.keelhold_eval.Weights`.
    """

    dead: float = 150.0
    dead_more: float = 50.0
    dump: float = 10.0
    ballast: tuple[float, float, float, float] = (0.0, 3.0, 12.0, 25.0)
    pair: float = 8.0
    single: float = 2.0
    blocked: float = 10.0
    mixed: float = 6.0
    split: float = 3.0
    tight: float = 15.0
    aboard: float = 1.0
    rush_hit: float = 0.8
    keel: float = 3.0
    margin: float = 1.0
    margin_cap: int = 8
    listing: float = 40.0
    unsafe: float = 400.0


DEFAULT_HOLD_WEIGHTS = HoldWeights()


class HoldEvaluator:
    """Scores positions by :class:`HoldWeights`; caches each hatch's value per turn.

    Same interface as :class:`~sunbot.strategies.keelhold_eval.Evaluator`: :meth:`clear` between
    decisions, :meth:`value` of a position (without the points already paid).
    """

    def __init__(self, weights: HoldWeights = DEFAULT_HOLD_WEIGHTS) -> None:
        self.w = weights
        self._terms = (0, 0)
        self._plain_cache: dict[Hatch, tuple[float, tuple[int, ...], bool, bool]] = {}
        self._rush_cache: dict[tuple[Hatch, int, float], tuple[float, tuple[int, ...], bool]] = {}
        self._odds: dict[tuple[int, int, float], float] = {}

    def clear(self) -> None:
        """Drop the caches (call between decisions to bound memory)."""
        self._plain_cache.clear()
        self._rush_cache.clear()

    def _share(self, v: Voyage) -> float:
        """The chance that one drawn crate is a given cargo (published terms; the ballast
        cadence when the server shows it)."""
        every = v.params.get("ballastEvery")
        cargo = 1.0 - 1.0 / every if isinstance(every, int) and every > 0 else 1.0
        return cargo / max(1, v.cargo_types)

    def odds(self, need: int, turns: int, share: float) -> float:
        """:func:`rush_odds`, cached."""
        key = (need, turns, share)
        got = self._odds.get(key)
        if got is None:
            got = rush_odds(need, turns, share)
            self._odds[key] = got
        return got

    def hatch(self, h: Hatch, v: Voyage, turn: int) -> tuple[float, tuple[int, ...], bool]:
        """``(value, unfinished cargo types, dead)`` of one hatch holding ``h``.

        A rush crate still aboard at ``turn`` counts as cargo with the odds that its lot
        completes by its due turn, else as the ballast it then becomes.
        """
        if (v.cap, v.manifest) != self._terms:
            self.clear()
            self._terms = (v.cap, v.manifest)
        got = self._plain_cache.get(h)
        if got is None:
            value, kinds, dead = self._plain(h, v.cap, v.manifest)
            got = (value, kinds, dead, any(c[2] >= 0 for c in h))
            self._plain_cache[h] = got
        if not got[3]:
            return got[0], got[1], got[2]
        share = self._share(v)
        key = (h, turn, share)
        rushed = self._rush_cache.get(key)
        if rushed is None:
            rushed = self._hatch_with_rush(h, v.cap, v.manifest, turn, share)
            self._rush_cache[key] = rushed
        return rushed

    def _hatch_with_rush(
        self, h: Hatch, cap: int, manifest: int, turn: int, share: float
    ) -> tuple[float, tuple[int, ...], bool]:
        """Expected value over each rush crate making its due turn or becoming ballast."""
        base = self._plain(h, cap, manifest)
        value = base[0]
        free = cap - len(h)
        for i, c in enumerate(h):
            if c[2] < 0:
                continue
            same = sum(1 for d in h if d[1] == c[1])
            need = manifest - same
            made = 0.0
            if need <= free:
                made = self.w.rush_hit * self.odds(need, c[2] - turn + 1, share)
            if made >= 1.0:
                continue
            as_ballast = (*h[:i], (c[0], -1, -1), *h[i + 1 :])
            lost = self._plain(as_ballast, cap, manifest)[0]
            value -= (1.0 - made) * (base[0] - lost)
        return (value, base[1], base[2])

    def _plain(self, h: Hatch, cap: int, manifest: int) -> tuple[float, tuple[int, ...], bool]:
        """The hatch's value taking every crate as it is now."""
        w = self.w
        need = hatch_need(h, cap, manifest)
        free = cap - len(h)
        counts: dict[int, int] = {}
        ballast = 0
        for c in h:
            if c[1] < 0:
                ballast += 1
            else:
                counts[c[1]] = counts.get(c[1], 0) + 1
        if need is None:
            return (-w.dead + w.dump * free, (), True)
        value = -w.aboard * len(h) - w.ballast[need] * ballast
        for k in counts.values():
            if manifest - k > free:
                value -= w.blocked * k
            else:
                value += w.pair if k == manifest - 1 else w.single
        if len(counts) > 1:
            value -= w.mixed * (len(counts) - 1)
        if free == need and len(h):
            value -= w.tight
        return (value, tuple(counts), False)

    def value(self, s: FastState) -> float:
        """The worth of position ``s`` (at M = 1), without the points already paid."""
        w = self.w
        v = s.voyage
        total = 0.0
        dead = 0
        seen: dict[int, int] = {}
        for h in s.hold:
            if h:
                hv, kinds, gone = self.hatch(h, v, s.turn)
                total += hv
                dead += gone
                for k in kinds:
                    seen[k] = seen.get(k, 0) + 1
        if dead > 1:
            total -= w.dead_more * dead * (dead - 1)
        for n in seen.values():
            if n > 1:
                total -= w.split * (n - 1)
        total += w.keel * (v.cap - len(s.hold[KEEL]))
        total += w.margin * min(v.tol - abs(s.trim), w.margin_cap)
        if s.listing:
            total -= w.listing
        total -= w.unsafe * unsafe_share(s)
        return total
