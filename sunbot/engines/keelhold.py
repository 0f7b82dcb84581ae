"""Keelhold rules engine: pure functions on the wire state of Keelhold (its "State").

The engine API (:mod:`sunbot.engines`): :func:`init`, :func:`legal_actions`,
:func:`step`, :func:`observation`, :func:`score`, :func:`is_over`. Nothing is hidden but the
random cursor, so the observation is the whole state. Section names in docstrings refer to
Keelhold's rules; the generation ramp (a local choice) is in
:mod:`sunbot.engines.keelhold_gen` and ``docs/rules/keelhold.md``.

For planners, :func:`preview` resolves steps 1-4 of a placement (squall, land, manifest,
awards) without copying the state.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sunbot.engines import IllegalAction
from sunbot.engines.keelhold_gen import RNG_DRAWS, Draws, params_for
from sunbot.engines.rng import MASK32

SLUG = "keelhold"
NAME = "Keelhold"

State = dict[str, Any]
Action = dict[str, Any]

DEFAULT_ARMS: tuple[int, ...] = (-3, -2, -1, 0, 1, 2, 3)
LONG_BOOM_ARMS: tuple[int, ...] = (-4, -2, -1, 0, 1, 2, 4)
#: Lever award A by ``abs(arm)`` (spec "One placement", step 4).
LEVER_AWARD: dict[int, int] = {0: 4, 1: 5, 2: 6, 3: 8, 4: 10}
KEEL = 3
HATCHES = 7
CHAIN_CAP = 7
GUARD_TURNS = 20000


class Preview(NamedTuple):
    """Steps 1-4 of placing ``queue[0]`` into one hatch, resolved on the side.

    ``end_trim``: trim after the manifest (the lurch included); ``shipped``: a lot left;
    ``weight_out``: W, the weight that left; ``award``: points steps 4 would pay (excluding
    nothing: lot, righting, even keel, rush, voyage complete); ``safe``: the bay counts as
    safe (spec "Safety"); ``listing``: it ends outside the tolerance.
    """

    end_trim: int
    shipped: bool
    weight_out: int
    award: int
    safe: bool
    listing: bool


# ---------------------------------------------------------------------------- helpers


def _clone(s: State) -> State:
    """A copy deep enough that mutating it never touches ``s`` (faster than deepcopy)."""
    d = dict(s)
    rng = s.get("rng")
    if isinstance(rng, list):
        d["rng"] = list(rng)
    d["arms"] = list(s["arms"])
    d["hold"] = [[dict(c) for c in h] for h in s["hold"]]
    d["jammedUntil"] = list(s["jammedUntil"])
    d["queue"] = [dict(c) for c in s["queue"]]
    d["params"] = _clone_params(s["params"])
    d["next"] = _clone_params(s["next"])
    d["safeBays"] = list(s["safeBays"])
    d["listingBays"] = list(s["listingBays"])
    return d


def _clone_params(p: dict[str, Any]) -> dict[str, Any]:
    d = dict(p)
    d["openBays"] = list(p["openBays"])
    d["conditions"] = list(p["conditions"])
    return d


def arms_for(conditions: list[str]) -> list[int]:
    """Lever arms under ``conditions``: longBoom widens the outer pair to -4/+4."""
    return list(LONG_BOOM_ARMS if "longBoom" in conditions else DEFAULT_ARMS)


def compute_trim(s: State) -> int:
    """``params.wind + Σ crate.weight × arms[hatch]`` (spec "State", ``trim``)."""
    arms = s["arms"]
    total = s["params"]["wind"]
    for i, hatch in enumerate(s["hold"]):
        if hatch:
            total += arms[i] * sum(c["weight"] for c in hatch)
    return int(total)


def multiplier(s: State) -> int:
    """M = voyage + 3."""
    return int(s["voyage"]) + 3


def _squall_due(s: State, t: int) -> bool:
    p = s["params"]
    start = s["voyageStartTurn"]
    return bool(
        p["squallEvery"]
        and "squall" in p["conditions"]
        and t > start
        and (t - start) % p["squallEvery"] == 0
    )


def legal_bays(s: State) -> list[int]:
    """Hatches a PLACE may target now: open, not jammed at ``turn``, below capacity."""
    if s["phase"] != "loading":
        return []
    t, cap, hold, jam = s["turn"], s["params"]["capacity"], s["hold"], s["jammedUntil"]
    return [b for b in s["params"]["openBays"] if t >= jam[b] and len(hold[b]) < cap]


def preview(s: State, bay: int) -> Preview:
    """Resolve steps 1-4 of placing ``queue[0]`` into ``bay`` without changing ``s``.

    Used for ``safeBays`` (spec "Safety") and by planners. Does not check legality.
    """
    p = s["params"]
    t = s["turn"]
    crate = s["queue"][0]
    arms = s["arms"]
    trim = s["trim"]
    if _squall_due(s, t):
        trim -= 2 * p["wind"]
    arm = arms[bay]
    trim += crate["weight"] * arm
    cargo = crate["cargo"]
    shipped = False
    weight_out = 0
    rush_paid = 0
    hatch = s["hold"][bay]
    if cargo is not None:
        same = [c for c in hatch if c["cargo"] == cargo]
        if len(same) + 1 >= p["manifestSize"]:
            shipped = True
            lot = [*same, crate]
            weight_out = sum(c["weight"] for c in lot) + sum(
                c["weight"] for c in hatch if c["cargo"] is None
            )
            trim -= weight_out * arm
            rush_paid = sum(
                1
                for c in [*lot, *(c for c in hatch if c["cargo"] is None)]
                if c["due"] is not None and t <= c["due"]
            )
            # The crate in hand gets its due only on landing: due = t + rushWindow >= t.
            if crate["rushWindow"] is not None:
                rush_paid += 1
    tol = p["tolerance"]
    a = abs(trim)
    m = multiplier(s)
    award = 0
    if shipped:
        chain = min(s["chain"] + 1, CHAIN_CAP)
        award += (10 * weight_out * LEVER_AWARD[abs(arm)] * (chain + 1) * m) // 32
        award += rush_paid * ((150 * m) // 4)
        if a <= 3:
            award += (50 * m) // 4
        if s["lotsShipped"] + 1 == p["quota"]:
            award += 300 * s["voyage"]
    if s["listing"] and a <= tol:
        award += (75 * m) // 4
    listing = a > tol
    safe = not listing or (not s["listing"] and shipped)
    return Preview(trim, shipped, weight_out, award, safe, listing)


def safety(s: State) -> tuple[list[int], list[int]]:
    """``(safeBays, listingBays)`` for the crate in hand (spec "Safety"); ``[]`` off loading."""
    safe: list[int] = []
    listing: list[int] = []
    for bay in legal_bays(s):
        pv = preview(s, bay)
        if pv.safe:
            safe.append(bay)
            if pv.listing:
                listing.append(bay)
    return safe, listing


def _apply_cast_off_terms(s: State, params: dict[str, Any]) -> None:
    """The deterministic part of CAST_OFF (spec "Port"), in place, without any draw."""
    s["voyage"] += 1
    s["params"] = params
    s["arms"] = arms_for(params["conditions"])
    s["jammedUntil"] = [0] * HATCHES
    s["lotsShipped"] = 0
    s["voyageStartTurn"] = s["turn"]
    s["drawn"] = 0
    s["phase"] = "loading"
    s["trim"] = compute_trim(s)
    s["listing"] = abs(s["trim"]) > params["tolerance"]


def cast_off_safe(s: State) -> bool:
    """At port: would ``queue[0]`` have a safe bay after CAST_OFF (spec "State")."""
    probe = dict(s)
    probe["hold"] = s["hold"]
    probe["queue"] = s["queue"]
    _apply_cast_off_terms(probe, _clone_params(s["next"]))
    return bool(safety(probe)[0])


def refresh(s: State) -> None:
    """Recompute the derived fields in place and apply the run check and the guard.

    ``safeBays``, ``listingBays`` and ``castOffSafe`` follow spec "Safety" and "State";
    the run check is step 10 (``holdFull``, then ``lurch``/``noSafeStow``), the guard step 11.
    """
    s["castOffSafe"] = None
    s["safeBays"], s["listingBays"] = [], []
    if s["phase"] == "loading":
        if not legal_bays(s):
            s["phase"], s["cause"] = "over", "holdFull"
        else:
            safe, listing = safety(s)
            if safe:
                s["safeBays"], s["listingBays"] = safe, listing
            else:
                s["phase"] = "over"
                s["cause"] = "lurch" if s["listing"] else "noSafeStow"
    elif s["phase"] == "port":
        s["castOffSafe"] = cast_off_safe(s)
    if s["turn"] >= GUARD_TURNS and s["phase"] != "over":
        s["phase"], s["cause"], s["castOffSafe"] = "over", "guard", None
        s["safeBays"], s["listingBays"] = [], []


# ---------------------------------------------------------------------------- draws


def _draw_crate(s: State, draws: Draws) -> dict[str, Any]:
    """The next crate: ballast/rush by the voyage's cadence on the draw count, cargo and
    weight from ``draws`` (a ballast crate is never a rush crate; docs/rules/keelhold.md)."""
    p = s["params"]
    k = s["drawn"] + 1
    s["drawn"] = k
    ballast = bool(p["ballastEvery"]) and k % p["ballastEvery"] == 0
    rush = not ballast and bool(p["rushEvery"]) and k % p["rushEvery"] == 0
    cargo, weight = draws.crate(s, p, ballast)
    crate = {
        "id": s["nextCrateId"],
        "weight": weight,
        "cargo": cargo,
        "rushWindow": p["rushWindow"] if rush else None,
        "due": None,
    }
    s["nextCrateId"] += 1
    return crate


# ---------------------------------------------------------------------------- API


def init(seed: int) -> State:
    """The opening state of seed ``seed`` (cursor ``seed & 0xFFFFFFFF``).

    Voyage 1's terms, the shown ``next`` (voyage 2, drawn), then ``queueSize`` crates.
    """
    return init_with_draws(seed, RNG_DRAWS, params_for(1, [], 0), [int(seed) & MASK32])


def init_with_draws(seed: int, draws: Draws, first: dict[str, Any], rng: Any) -> State:
    """:func:`init` with another generation: voyage 1's terms ``first`` (a ``params``
    object), the draws from ``draws`` (``next``, then the opening crates, in that order) and
    ``rng`` as the starting cursor (whatever ``draws`` keeps there; ``None`` for none).

    Another Gameboard server's local choices plug in here (``sunbot.testing.otherserver``);
    the rules applied to the result are the same.
    """
    params = _clone_params(first)
    s: State = {
        "seed": int(seed),
        "rng": rng,
        "voyage": 1,
        "turn": 0,
        "voyageStartTurn": 0,
        "phase": "loading",
        "cause": None,
        "score": 0,
        "trim": 0,
        "listing": False,
        "chain": 0,
        "lotsShipped": 0,
        "arms": arms_for(params["conditions"]),
        "hold": [[] for _ in range(HATCHES)],
        "jammedUntil": [0] * HATCHES,
        "queue": [],
        "params": params,
        "next": None,
        "safeBays": [],
        "listingBays": [],
        "castOffSafe": None,
        "nextCrateId": 1,
        "drawn": 0,
    }
    s["next"] = draws.voyage(s, 2, params["conditions"])
    while len(s["queue"]) < params["queueSize"]:
        s["queue"].append(_draw_crate(s, draws))
    s["trim"] = compute_trim(s)
    s["listing"] = abs(s["trim"]) > params["tolerance"]
    refresh(s)
    return s


def legal_actions(state: State) -> list[Action]:
    """PLACE by bay ascending while loading; CAST_OFF then END_RUN at port; ``[]`` when over."""
    phase = state["phase"]
    if phase == "loading":
        return [{"type": "PLACE", "bay": b} for b in legal_bays(state)]
    if phase == "port":
        return [{"type": "CAST_OFF"}, {"type": "END_RUN"}]
    return []


def _check_action(state: State, action: object) -> str:
    """Validate grammar and legality; returns the action type or raises IllegalAction."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed action: expected an object with a string 'type'")
    kind = action["type"]
    if kind == "PLACE":
        bay = action.get("bay")
        if set(action) != {"type", "bay"} or type(bay) is not int or not 0 <= bay <= 6:
            raise IllegalAction(
                "malformed PLACE: needs exactly {type, bay} with bay an integer 0..6"
            )
    elif kind in ("CAST_OFF", "END_RUN"):
        if set(action) != {"type"}:
            raise IllegalAction(f"malformed {kind}: takes no fields besides type")
    else:
        raise IllegalAction(f"unknown action type {kind!r}; expected PLACE, CAST_OFF or END_RUN")
    phase = state["phase"]
    if phase == "over":
        raise IllegalAction("the run is over: no action is legal")
    if kind == "PLACE":
        if phase != "loading":
            raise IllegalAction(
                "PLACE is legal only while loading; at port send CAST_OFF or END_RUN"
            )
        bay = action["bay"]
        if bay not in state["params"]["openBays"]:
            raise IllegalAction(f"hatch {bay} is shut this voyage")
        if state["turn"] < state["jammedUntil"][bay]:
            raise IllegalAction(f"hatch {bay} is jammed until turn {state['jammedUntil'][bay]}")
        if len(state["hold"][bay]) >= state["params"]["capacity"]:
            raise IllegalAction(f"hatch {bay} is full")
    elif phase != "port":
        raise IllegalAction(f"{kind} is legal only at port")
    return str(kind)


def step(state: State, action: Action) -> State:
    """Apply one action and return the next state; ``state`` is never mutated.

    Raises:
        IllegalAction: a malformed action, or one the rules refuse (spec "Actions and
            legality"); its message is the reason.
    """
    return step_with_draws(state, action, RNG_DRAWS)


def step_with_draws(state: State, action: Action, draws: Draws) -> State:
    """:func:`step` with the random outcomes taken from ``draws`` (the mirror's entry)."""
    kind = _check_action(state, action)
    s = _clone(state)
    if kind == "PLACE":
        _place(s, action["bay"], draws)
    elif kind == "CAST_OFF":
        _cast_off(s, draws)
    else:
        s["phase"], s["cause"] = "over", "ended"
        refresh(s)
    return s


def _place(s: State, bay: int, draws: Draws) -> None:
    """Spec "One placement, in order", steps 1-11, in place on a private copy."""
    p = s["params"]
    t = s["turn"]
    awards = preview(s, bay)  # step 4's points: one place computes them (spec "Safety" too)
    if _squall_due(s, t):  # 1. squall
        p["wind"] = -p["wind"]
    crate = s["queue"].pop(0)  # 2. land
    if crate["rushWindow"] is not None:
        crate["due"] = t + crate["rushWindow"]
    hatch = s["hold"][bay]
    hatch.append(crate)
    if awards.shipped:  # 3. manifest: the lot and every ballast crate leave the hatch
        s["hold"][bay] = [
            c for c in hatch if c["cargo"] is not None and c["cargo"] != crate["cargo"]
        ]
    s["trim"] = compute_trim(s)
    tol = p["tolerance"]
    s["score"] += awards.award  # 4. awards
    if awards.shipped:
        s["chain"] = min(s["chain"] + 1, CHAIN_CAP)
        s["lotsShipped"] += 1
    else:
        s["chain"] = 0
    for h in s["hold"]:  # 5. rush expiry
        for c in h:
            if c["due"] is not None and c["due"] <= t:
                c["cargo"], c["rushWindow"], c["due"] = None, None, None
    nt = t + 1  # 6. jam
    jam = s["jammedUntil"]
    jam_due = bool(p["jamEvery"]) and (nt - s["voyageStartTurn"]) % p["jamEvery"] == 0
    if jam_due and sum(1 for u in jam if u > nt) < p["maxJams"]:
        cands = [b for b in p["openBays"] if b != KEEL and jam[b] <= nt]
        hit = draws.jam(s, cands) if cands else None
        if hit is not None:
            jam[hit] = nt + p["jamLength"]
    while len(s["queue"]) < p["queueSize"]:  # 7. queue
        s["queue"].append(_draw_crate(s, draws))
    s["turn"] = nt  # 8. turn, listing
    s["jammedUntil"] = [u if u > nt else 0 for u in jam]
    s["listing"] = abs(s["trim"]) > tol
    if s["lotsShipped"] == p["quota"]:  # 9. port
        s["phase"] = "port"
    refresh(s)  # 10-11. run check, guard


def _cast_off(s: State, draws: Draws) -> None:
    """Spec "Port": commit ``next``, draw the voyage after it, then the run check."""
    params = s["next"]
    if isinstance(s.get("rng"), list):
        s["rng"] = s["rng"][:1]  # the crate bag refills under the new terms
    _apply_cast_off_terms(s, params)
    s["next"] = draws.voyage(s, s["voyage"] + 1, params["conditions"])
    refresh(s)


def planning_state(observation: State) -> State:
    """A state :func:`step_with_draws` can play from a published observation.

    The cursor (``rng``), the crate counters (``drawn``, ``nextCrateId``) and the turn the
    voyage began (``voyageStartTurn``, which times our squalls) are this project's own
    bookkeeping, not promised by the rule text: another server may leave them out. They are
    filled in when absent (a lookahead that draws nothing never reads the first three; with
    no start turn the voyage is taken to start now, so no squall is assumed this turn: the
    text does not say when squalls come). ``observation`` is not modified.
    """
    s = dict(observation)
    s.setdefault("rng", [0])
    s.setdefault("voyageStartTurn", s.get("turn", 0))
    s.setdefault("drawn", 0)
    if "nextCrateId" not in s:
        crates = [c for h in s.get("hold", []) for c in h] + list(s.get("queue", []))
        s["nextCrateId"] = max((int(c.get("id", 0)) for c in crates), default=0) + 1
    return s


def observation(state: State) -> State:
    """What the player sees: the whole state but the random cursor ``rng``.

    The platform protocol ("Where two faithful servers may differ"): Keelhold hides
    nothing but the cursor, so its observation is the state without ``rng`` (which would
    tell a bot the crates after the queue).
    """
    obs = _clone(state)
    obs.pop("rng", None)
    return obs


def score(state: State) -> int:
    """The run's score (never decreases)."""
    return int(state["score"])


def is_over(state: State) -> bool:
    """True once no action is legal (``phase == "over"``)."""
    return bool(state["phase"] == "over")
