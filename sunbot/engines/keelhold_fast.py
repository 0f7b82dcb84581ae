"""Keelhold's fast internal form, for planners (Keelhold's rules).

The dict API of :mod:`sunbot.engines.keelhold` is the contract; this module is a second,
independent implementation of what a player can resolve without any unseen draw: placing a
*known* crate (steps 1-5 and 8-9 of "One placement, in order"; the jam and queue draws of
steps 6-7 are unseen and skipped) and the deterministic terms of CAST_OFF (spec "Port") under
the shown ``next`` terms. The tests check that both give identical states on random play.

It reads only published fields (never ``rng``), so a planner can build it from any server's
observation.

- :class:`Voyage`: the terms that cannot change during a voyage (tolerance, arms, lever
  awards, quota, ...), built once per voyage, plus the shown ``next`` terms.
- :data:`FastState`: a tuple ``(turn, trim, wind, listing, chain, lots, score, hold, jam,
  voyage)``; ``hold`` is a tuple of seven hatches, each a tuple of crates ``(weight, cargo,
  due)`` with ``cargo == -1`` for ballast and ``due == -1`` when not set; ``jam`` is the
  seven ``jammedUntil`` values. A crate not yet placed is ``(weight, cargo, rushWindow)``
  with ``rushWindow == 0`` when it is not a rush crate.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sunbot.engines.keelhold import CHAIN_CAP, HATCHES, KEEL, LEVER_AWARD, arms_for

Crate = tuple[int, int, int]
Hatch = tuple[Crate, ...]
Hold = tuple[Hatch, ...]


class FastState(NamedTuple):
    """One position of the fast form (see the module docstring for the crate encoding)."""

    turn: int
    trim: int
    wind: int
    listing: bool
    chain: int
    lots: int
    score: int
    hold: Hold
    jam: tuple[int, ...]
    voyage: Voyage


class Placed(NamedTuple):
    """The outcome of :func:`place`: the next position and what the turn did.

    ``award``: points paid (step 4); ``shipped``: a lot left; ``safe``: the bay counts as
    safe for the crate that was placed (spec "Safety"); ``port``: the quota is met.
    """

    state: FastState
    award: int
    shipped: bool
    safe: bool
    port: bool


class Voyage:
    """A voyage's fixed terms in fast form, and the ``next`` terms shown during it.

    Built from a wire ``params`` object (spec "State"); ``start`` is ``voyageStartTurn``.
    """

    __slots__ = (
        "_next",
        "arms",
        "cap",
        "cargo_types",
        "jam_every",
        "lever",
        "manifest",
        "max_jams",
        "mult",
        "next_params",
        "number",
        "open",
        "params",
        "queue_size",
        "quota",
        "squall",
        "start",
        "tol",
        "wmax",
        "wmin",
    )

    def __init__(
        self,
        number: int,
        start: int,
        params: dict[str, Any],
        next_params: dict[str, Any] | None,
    ) -> None:
        self.number = number
        self.start = start
        self.mult = number + 3
        self.params = params
        self.next_params = next_params
        self.tol: int = params["tolerance"]
        self.cap: int = params["capacity"]
        self.manifest: int = params["manifestSize"]
        self.quota: int = params["quota"]
        arms = arms_for(params["conditions"])
        self.arms: tuple[int, ...] = tuple(arms)
        self.lever: tuple[int, ...] = tuple(LEVER_AWARD[abs(a)] for a in arms)
        self.open: tuple[int, ...] = tuple(params["openBays"])
        every = params["squallEvery"]
        self.squall: int = every if every and "squall" in params["conditions"] else 0
        self.wmin: int = params["weightMin"]
        self.wmax: int = params["weightMax"]
        self.cargo_types: int = params["cargoTypes"]
        self.queue_size: int = params["queueSize"]
        self.jam_every: int = params["jamEvery"] or 0
        self.max_jams: int = params["maxJams"]
        self._next: dict[int, Voyage] = {}

    def following(self, start: int) -> Voyage | None:
        """The next voyage's terms if it starts at turn ``start``; None when not shown."""
        if self.next_params is None:
            return None
        got = self._next.get(start)
        if got is None:
            got = Voyage(self.number + 1, start, self.next_params, None)
            self._next[start] = got
        return got


def crate_of(c: dict[str, Any]) -> Crate:
    """A wire crate in the queue as ``(weight, cargo, rushWindow)`` (-1 / 0 when null)."""
    cargo = c["cargo"]
    rush = c["rushWindow"]
    return (int(c["weight"]), -1 if cargo is None else int(cargo), int(rush) if rush else 0)


def _held(c: dict[str, Any]) -> Crate:
    cargo, due = c["cargo"], c["due"]
    return (int(c["weight"]), -1 if cargo is None else int(cargo), -1 if due is None else int(due))


def from_observation(obs: dict[str, Any]) -> tuple[FastState, list[Crate]]:
    """The fast position of a loading or port observation and its visible queue.

    Reads only published fields (spec "State"); ``rng`` may be absent.
    """
    voyage = Voyage(int(obs["voyage"]), int(obs["voyageStartTurn"]), obs["params"], obs["next"])
    hold = tuple(tuple(_held(c) for c in h) for h in obs["hold"])
    state = FastState(
        int(obs["turn"]),
        int(obs["trim"]),
        int(obs["params"]["wind"]),
        bool(obs["listing"]),
        int(obs["chain"]),
        int(obs["lotsShipped"]),
        int(obs["score"]),
        hold,
        tuple(int(u) for u in obs["jammedUntil"]),
        voyage,
    )
    return state, [crate_of(c) for c in obs["queue"]]


def legal(s: FastState) -> list[int]:
    """Bays a PLACE may target (spec "Actions and legality"), ascending."""
    v, t, hold, jam = s.voyage, s.turn, s.hold, s.jam
    return [b for b in v.open if t >= jam[b] and len(hold[b]) < v.cap]


def place(s: FastState, crate: Crate, bay: int) -> Placed:
    """Place ``crate`` into ``bay``: steps 1-5, 8 and 9 of the spec; no jam, no queue draw.

    Does not check legality (take ``bay`` from :func:`legal`).
    """
    v = s.voyage
    t = s.turn
    trim, wind = s.trim, s.wind
    if v.squall and t > v.start and (t - v.start) % v.squall == 0:  # 1. squall
        trim -= 2 * wind
        wind = -wind
    arm = v.arms[bay]
    weight, cargo, rush = crate
    trim += weight * arm  # 2. land
    hatch = s.hold[bay]
    shipped = False
    out = 0
    paid_rush = 0
    if cargo >= 0:  # 3. manifest
        same = 1
        for c in hatch:
            if c[1] == cargo:
                same += 1
        if same >= v.manifest:
            shipped = True
            out = weight
            paid_rush = 1 if rush else 0
            kept: list[Crate] = []
            for c in hatch:
                if c[1] == cargo or c[1] < 0:
                    out += c[0]
                    if c[2] >= t:
                        paid_rush += 1
                else:
                    kept.append(c)
            trim -= out * arm
            new_hatch: Hatch = tuple(kept)
    if not shipped:
        new_hatch = (*hatch, (weight, cargo, t + rush if rush else -1))
    a = trim if trim >= 0 else -trim
    m = v.mult
    award = 0
    chain = s.chain
    lots = s.lots
    if shipped:  # 4. awards
        chain = chain + 1 if chain < CHAIN_CAP else CHAIN_CAP
        award = (10 * out * v.lever[bay] * (chain + 1) * m) // 32 + paid_rush * ((150 * m) // 4)
        if a <= 3:
            award += (50 * m) // 4
        lots += 1
        if lots == v.quota:
            award += 300 * v.number
    else:
        chain = 0
    if s.listing and a <= v.tol:
        award += (75 * m) // 4
    listing = a > v.tol
    safe = not listing or (shipped and not s.listing)
    hold = list(s.hold)
    hold[bay] = new_hatch
    for i in range(HATCHES):  # 5. rush expiry
        h = hold[i]
        for c in h:
            if 0 <= c[2] <= t:
                hold[i] = tuple((c[0], -1, -1) if 0 <= c[2] <= t else c for c in h)
                break
    nt = t + 1
    jam = s.jam
    if any(jam):
        jam = tuple(u if u > nt else 0 for u in jam)
    nxt = FastState(nt, trim, wind, listing, chain, lots, s.score + award, tuple(hold), jam, v)
    return Placed(nxt, award, shipped, safe, lots == v.quota)


def jam_candidates(s: FastState) -> tuple[int, ...]:
    """Hatches one of which jams now, right after the placement that made ``s`` (step 6).

    The schedule is published (``jamEvery`` from ``voyageStartTurn``, ``maxJams``), the
    hatch is an unseen uniform draw among these: open, not the keel, not jammed at
    ``s.turn``. Empty when no jam is due. Only meaningful for a position reached by a
    placement (CAST_OFF draws no jam and clears them all).
    """
    v = s.voyage
    nt = s.turn
    if not v.jam_every or (nt - v.start) % v.jam_every:
        return ()
    jam = s.jam
    if sum(1 for u in jam if u > nt) >= v.max_jams:
        return ()
    return tuple(b for b in v.open if b != KEEL and jam[b] <= nt)


def cast_off(s: FastState) -> FastState | None:
    """CAST_OFF's deterministic part (spec "Port") under the shown ``next``; None if unknown.

    Hold, score and chain carry over; the new terms' wind and arms recompute the trim; every
    jam clears; ``lotsShipped`` is 0. The run check is the caller's (a crate needs a safe bay).
    """
    v = s.voyage.following(s.turn)
    if v is None:
        return None
    wind = int(v.params["wind"])
    trim = wind
    for arm, h in zip(v.arms, s.hold, strict=True):
        if h and arm:
            trim += arm * sum(c[0] for c in h)
    listing = abs(trim) > v.tol
    return FastState(s.turn, trim, wind, listing, s.chain, 0, s.score, s.hold, (0,) * 7, v)


def safe_bays(s: FastState, crate: Crate) -> list[int]:
    """Bays where placing ``crate`` is safe (spec "Safety"), ascending."""
    return [b for b in legal(s) if place(s, crate, b).safe]


__all__ = [
    "KEEL",
    "Crate",
    "FastState",
    "Placed",
    "Voyage",
    "cast_off",
    "crate_of",
    "from_observation",
    "jam_candidates",
    "legal",
    "place",
    "safe_bays",
]
