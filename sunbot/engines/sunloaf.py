"""Sunloaf rules engine on plain wire dicts (engine API of :mod:`sunbot.engines`).

The functions here are the contract. :mod:`sunbot.engines.sunloaf_fast` holds a faster form
for planners (tested to agree turn for turn) and :mod:`sunbot.engines.sunloaf_gen` the ramp,
the room generator and the reference policy. Section numbers (§) refer to the spec file.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sunbot.engines import IllegalAction
from sunbot.engines import sunloaf_fast as fast
from sunbot.engines import sunloaf_gen as gen
from sunbot.engines import sunloaf_history as history

SLUG = "sunloaf"
NAME = "Sunloaf"
PURR = fast.PURR
RANGE = fast.RANGE
_TYPES = ("MOVE", "REST", "DOZE", "NEXT_DAY", "END_RUN")
_KEYS = (  # wire key order of §3
    *("seed", "rng", "day", "phase", "result", "turn", "turnsInDay", "bandDwell", "bandWidth"),
    *("mult", "score", "chain", "dayCosyRaw", "dayPar", "dayQuota", "cats", "bowls", "layout"),
    "dogs",
)


def _schema(kind: str, text: str, **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": kind, "description": text}, **props},
        "required": ["type", *props],
        "additionalProperties": False,
    }


SPEC: dict[str, Any] = {
    "goal": (
        "Keep cats asleep in a band of sunlight that crosses a 7x7 room once per day; earn enough "
        "raw cosy to meet each day's quota and go on to harder, better-paying days."
    ),
    "scoring": (
        "Every turn, each cat that stayed put on a warm tile earns floor(10*purr[tier]*(4+pile)/4) "
        "raw, purr = [0,1,2,3,5,7,10], tier = min(settled, cap), pile = settled orthogonal "
        "neighbours (the big cat counts 2, max 6). Each award adds round(raw*mult/100) to the "
        "score (mult 100 on day 1, +35 a day, max 1200). An eaten bowl pays 30*chain raw. "
        "A cleared day adds min(100*day, 3000) unmultiplied. The score never goes down."
    ),
    "rules": [
        "One action per turn: MOVE one cat, REST, DOZE (up to 4 RESTs), NEXT_DAY (sunset only) "
        "or END_RUN.",
        "A MOVE goes along a row or column up to the cat's range, never onto or through furniture "
        "or another cat; the moved cat's settled becomes 0 and it earns nothing that turn.",
        "Every cat that did not move adds 1 to settled; a cat on or next to a dog is reset to 0.",
        "The band covers 2 lines (columns for an N/S window, rows for E/W) starting at line "
        "turn // bandDwell; a day lasts 7*bandDwell turns (3 until day 11, then 2).",
        "A tile is lit when in the band, not a cloud turn, not furniture, with no furniture within "
        "shadeLength tiles toward the window, and on the lattice parity from day 16.",
        "Lit tiles allow tier 6; on any clear turn the unlit hearth is still warm, tier cap 3.",
        "Bowls serve at their serveTurn: a cat on the mat eats (chain +1, max 8, pays "
        "30*chain raw); an empty mat resets the chain to 0. The chain carries across days.",
        "Dogs walk closed loops, standing on loop[(turn*dogSpeed) % len] as a turn resolves.",
        "DOZE stops after a turn when the next one serves or starts a countdown, a dog would reach "
        "a cat, a lit cat would lose the light, or the sky changes; it equals that many RESTs.",
        "After the last turn: raw cosy >= dayQuota gives sunset and the day bonus, otherwise the "
        "run ends. dayQuota = ceil(dayPar*ratio/10000), dayPar from the reference policy.",
        "END_RUN is legal during the day and at sunset and keeps everything earned.",
        "Nothing is hidden; the rng cursor moves only when a new day's room is generated.",
    ],
    "actionSchema": {
        "type": "object",
        "oneOf": [
            _schema(
                "MOVE",
                "Slide one cat along its row or column; spends the turn.",
                cat={"type": "integer", "minimum": 0, "maximum": 4, "description": "cat id"},
                tile={"type": "integer", "minimum": 0, "maximum": 48, "description": "row*7+col"},
            ),
            _schema("REST", "Spend one turn; nobody moves."),
            _schema("DOZE", "Spend up to 4 turns as RESTs, stopping early on events."),
            _schema("NEXT_DAY", "Open the next day; only at sunset."),
            _schema("END_RUN", "Stop the run, keeping the score."),
        ],
    },
}

# ---------------------------------------------------------------- light (§5)

_TOWARD = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}


def lit(state: dict[str, Any], tile: int, turn: int) -> bool:
    """Whether ``tile`` is lit as ``turn`` resolves (§5: cloud, furniture, band, shade, lattice)."""
    lay = state["layout"]
    furniture = lay["furniture"]
    if turn in lay["cloudTurns"] or tile in furniture:
        return False
    r, c = divmod(tile, 7)
    line = c if lay["window"] in ("N", "S") else r
    start = turn // state["bandDwell"]
    if not start <= line < start + state["bandWidth"]:
        return False
    dr, dc = _TOWARD[lay["window"]]
    for k in range(1, lay["shadeLength"] + 1):
        rr, cc = r + dr * k, c + dc * k
        if 0 <= rr < 7 and 0 <= cc < 7 and rr * 7 + cc in furniture:
            return False
    parity = lay["latticeParity"]
    return parity is None or (r + c) % 2 == parity


def warm(state: dict[str, Any], tile: int, turn: int) -> int:
    """Tier cap of ``tile`` at ``turn`` (§5): 6 if lit, 3 on a clear-sky unlit hearth, else 0."""
    if lit(state, tile, turn):
        return 6
    if tile == state["layout"]["hearth"] and turn not in state["layout"]["cloudTurns"]:
        return 3
    return 0


def _near(a: int, b: int) -> bool:
    """``a`` and ``b`` are the same tile or orthogonal neighbours."""
    (ra, ca), (rb, cb) = divmod(a, 7), divmod(b, 7)
    return abs(ra - rb) + abs(ca - cb) <= 1


# ---------------------------------------------------------------- actions (§6)


def destinations(state: dict[str, Any], cat: int) -> list[int]:
    """Legal MOVE tiles for ``cat`` in ascending order (§6): straight, in range, path clear."""
    blocked = set(state["layout"]["furniture"]) | {c["tile"] for c in state["cats"]}
    me = state["cats"][cat]
    r, c = divmod(me["tile"], 7)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        for k in range(1, me["range"] + 1):
            rr, cc = r + dr * k, c + dc * k
            if not (0 <= rr < 7 and 0 <= cc < 7) or rr * 7 + cc in blocked:
                break
            out.append(rr * 7 + cc)
    return sorted(out)


def legal_actions(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Legal actions in §6 order: MOVEs by cat then tile, REST, DOZE, END_RUN; at sunset
    NEXT_DAY, END_RUN; ``[]`` once over."""
    if state["phase"] == "sunset":
        return [{"type": "NEXT_DAY"}, {"type": "END_RUN"}]
    if state["phase"] != "day":
        return []
    moves = [
        {"type": "MOVE", "cat": c, "tile": d}
        for c in range(len(state["cats"]))
        for d in destinations(state, c)
    ]
    return [*moves, {"type": "REST"}, {"type": "DOZE"}, {"type": "END_RUN"}]


def _check_action(state: dict[str, Any], action: Any) -> str:
    """Raise :class:`IllegalAction` unless ``action`` is legal now (§6); return its type."""
    if not isinstance(action, dict) or action.get("type") not in _TYPES:
        raise IllegalAction("an action is an object whose type is one of " + ", ".join(_TYPES))
    kind: str = action["type"]
    want = {"type", "cat", "tile"} if kind == "MOVE" else {"type"}
    if set(action) != want:
        raise IllegalAction(f"{kind} takes exactly the keys {sorted(want)}")
    phase = state["phase"]
    if phase == "over":
        raise IllegalAction("the run is over")
    if phase == "sunset" and kind not in ("NEXT_DAY", "END_RUN"):
        raise IllegalAction("at sunset only NEXT_DAY and END_RUN are legal")
    if phase == "day" and kind == "NEXT_DAY":
        raise IllegalAction("NEXT_DAY is legal only at sunset")
    if kind == "MOVE":
        cat, tile = action["cat"], action["tile"]
        if type(cat) is not int or type(tile) is not int or not 0 <= tile <= 48:
            raise IllegalAction("cat and tile must be integers, tile within 0..48")
        if not 0 <= cat < len(state["cats"]):
            raise IllegalAction(f"cat {cat} is not on today's roster")
        if tile not in destinations(state, cat):
            raise IllegalAction(f"cat {cat} cannot reach tile {tile}: straight, in range, clear")
    return kind


# ---------------------------------------------------------------- turns (§7, §8)


def _earn(s: dict[str, Any], raw: int) -> None:
    """Add one award: raw to dayCosyRaw, ``Math.round(raw*mult/100)`` to the score (§2)."""
    s["dayCosyRaw"] += raw
    s["score"] += (raw * s["mult"] + 50) // 100


def _resolve_turn(s: dict[str, Any], moved: int | None, tile: int = 0) -> None:
    """Resolve turn ``s.turn`` in place through §7 steps 1-7 (``moved`` None for a REST)."""
    t, lay, cats = s["turn"], s["layout"], s["cats"]
    if moved is not None:  # 1. action
        cats[moved]["tile"] = tile
    s["dogs"] = [loop[(t * lay["dogSpeed"]) % len(loop)] for loop in lay["dogLoops"]]  # 2.
    for cat in cats:  # 3. streaks, 4. dog reset
        cat["settled"] = 0 if cat["id"] == moved else cat["settled"] + 1
        if any(_near(cat["tile"], dog) for dog in s["dogs"]):
            cat["settled"] = 0
    for cat in cats:  # 5. cat scoring
        cap = warm(s, cat["tile"], t)
        if cat["id"] == moved or not cap:
            continue
        pile = sum(
            2 if o["big"] else 1
            for o in cats
            if o is not cat and o["settled"] >= 1 and _near(o["tile"], cat["tile"])
        )
        _earn(s, (10 * PURR[min(cat["settled"], cap)] * (4 + min(pile, 6))) // 4)
    for bowl in sorted((b for b in s["bowls"] if b["serveTurn"] == t), key=lambda b: b["mat"]):
        if any(cat["tile"] == bowl["mat"] for cat in cats):  # 6. bowls
            s["chain"] = min(s["chain"] + 1, 8)
            _earn(s, 30 * s["chain"])
        else:
            s["chain"] = 0
    s["turn"] = t + 1  # 7. clock
    if s["turn"] == s["turnsInDay"]:
        if s["dayCosyRaw"] >= s["dayQuota"]:
            s["phase"] = "sunset"
            s["score"] += gen.bonus(s["day"])
        else:
            s["phase"], s["result"] = "over", "missedQuota"


def _doze_stops(s: dict[str, Any], t: int) -> bool:
    """§8 stop tests (a)-(f) after turn ``t`` resolved, with ``n = s.turn``."""
    n, lay = s["turn"], s["layout"]
    if s["phase"] != "day":
        return True
    if any(b["serveTurn"] in (n, n + 3) for b in s["bowls"]):
        return True
    tiles = [c["tile"] for c in s["cats"]]
    for loop in lay["dogLoops"]:
        dog = loop[(n * lay["dogSpeed"]) % len(loop)]
        if any(_near(x, dog) for x in tiles):
            return True
    if any(lit(s, x, t) and not lit(s, x, n) for x in tiles):
        return True
    return (t in lay["cloudTurns"]) != (n in lay["cloudTurns"])


def _start_day(s: dict[str, Any], day: int, generation: gen.Generation) -> None:
    """NEXT_DAY steps 1-5 (§8) in place: day fields, settled 0, room (§9), dogs, par, quota."""
    prm = generation.day_params(day)
    s.update(
        day=day,
        mult=gen.mult(day),
        bandDwell=prm.band_dwell,
        turnsInDay=prm.turns_in_day,
        bandWidth=2,
    )
    for cat in s["cats"]:
        cat["settled"] = 0
    generation.generate_room(s)
    s.update(turn=0, dayCosyRaw=0, phase="day", dayQuota=0)
    s["dogs"] = [loop[0] for loop in s["layout"]["dogLoops"]]
    s["dayPar"] = generation.day_par(s)
    s["dayQuota"] = gen.quota(s["dayPar"], day)


def init(seed: int = 0) -> dict[str, Any]:
    """Opening state for ``seed`` (§8 init): cursor ``seed & 0xFFFFFFFF``, then day 1 is built."""
    return init_with(seed, gen.LOCAL, seed & 0xFFFFFFFF)


def init_with(seed: int, generation: gen.Generation, rng: Any) -> dict[str, Any]:
    """:func:`init` with another server's local choices (``generation``) and starting
    cursor ``rng`` (whatever ``generation`` keeps there)."""
    s: dict[str, Any] = dict.fromkeys(_KEYS)
    s.update(seed=seed, rng=rng, score=0, chain=0, cats=[], result=None)
    _start_day(s, 1, generation)
    return s


def step(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """Next state after ``action`` (§6-§8); the input is never mutated.

    Raises:
        IllegalAction: the action is malformed or not legal now; nothing changes.
    """
    return step_with(state, action, gen.LOCAL)


def step_with(
    state: dict[str, Any], action: dict[str, Any], generation: gen.Generation
) -> dict[str, Any]:
    """:func:`step` with another server's local choices for the next day (``generation``).

    Raises:
        IllegalAction: the action is malformed or not legal now; nothing changes.
    """
    kind = _check_action(state, action)
    s = fast.copy_state(state)
    if kind == "END_RUN":
        s["result"] = "win" if s["phase"] == "sunset" else "goodGame"
        s["phase"] = "over"
    elif kind == "NEXT_DAY":
        _start_day(s, s["day"] + 1, generation)
    elif kind == "MOVE":
        _resolve_turn(s, action["cat"], action["tile"])
    elif kind == "REST":
        _resolve_turn(s, None)
    else:
        for k in range(1, 5):
            t = s["turn"]
            _resolve_turn(s, None)
            if k == 4 or _doze_stops(s, t):
                break
    return s


def observation(state: dict[str, Any]) -> dict[str, Any]:
    """What the player sees: a copy of the whole state, since nothing is hidden (§3)."""
    return fast.copy_state(state)


def score(state: dict[str, Any]) -> int:
    """The run's score so far (§3 ``score``)."""
    return int(state["score"])


def is_over(state: dict[str, Any]) -> bool:
    """True once the phase is ``"over"`` (no action is legal)."""
    return bool(state["phase"] == "over")


def reference_action(state: dict[str, Any]) -> dict[str, Any]:
    """The §10 reference policy as a player: its MOVE or REST by day, NEXT_DAY at sunset.

    Raises:
        IllegalAction: the run is over.
    """
    if state["phase"] == "over":
        raise IllegalAction("the run is over")
    if state["phase"] == "sunset":
        return {"type": "NEXT_DAY"}
    ctx, fs = fast.to_fast(state)
    code = fast.fast_reference(ctx, fs)
    if code == fast.REST:
        return {"type": "REST"}
    return {"type": "MOVE", "cat": code // 49, "tile": code % 49}


def day_par(state: dict[str, Any]) -> int:
    """``dayPar`` (§10) of a day-start state: the reference policy's raw cosy with chain 0."""
    return gen.day_par(state)


# ---------------------------------------------------------------- plain-state check


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Cat(_Model):
    id: int = Field(ge=0, le=4)
    tile: int = Field(ge=0, le=48)
    settled: int = Field(ge=0)
    range: int
    big: bool


class _Bowl(_Model):
    mat: int = Field(ge=0, le=48)
    serveTurn: int = Field(ge=0)


class _Layout(_Model):
    window: Literal["N", "S", "E", "W"]
    furniture: list[int] = Field(max_length=49)  # tiles of the 7 by 7 room
    hearth: int | None = Field(ge=0, le=48)
    dogLoops: list[Annotated[list[int], Field(max_length=49)]] = Field(max_length=4)
    dogSpeed: int
    shadeLength: int
    latticeParity: Literal[0, 1] | None
    cloudTurns: list[int] = Field(max_length=64)


class _State(_Model):
    seed: int
    rng: int = Field(ge=0, le=0xFFFFFFFF)
    day: int = Field(ge=1)
    phase: Literal["day", "sunset", "over"]
    result: Literal["win", "goodGame", "missedQuota"] | None
    turn: int = Field(ge=0)
    turnsInDay: int
    bandDwell: int
    bandWidth: int
    mult: int
    score: int = Field(ge=0)
    chain: int = Field(ge=0, le=8)
    dayCosyRaw: int = Field(ge=0)
    dayPar: int = Field(ge=0)
    dayQuota: int
    # lengths bounded before any item is read: a list of 500,000 cats (1 MB) had held the
    # server's one event loop for seconds while pydantic judged every item
    cats: list[_Cat] = Field(max_length=5)  # the roster grows to 5
    bowls: list[_Bowl] = Field(max_length=64)  # a day's serves, two mats at most each
    layout: _Layout
    dogs: list[int] = Field(max_length=4)


def _expect(ok: bool, reason: str) -> None:
    if not ok:
        raise ValueError(reason)


def check_state(state: Any) -> None:
    """Refuse a client-supplied plain state that is malformed or inconsistent (§3, §4, §9).

    Raises:
        ValueError: the reason, e.g. a wrong type, two cats on a tile, a day field that does not
            match the day, a quota that does not follow from dayPar, a dog off its loop's place,
            or a score, dayCosyRaw or chain no run holds at that day and turn
            (:func:`sunbot.engines.sunloaf_history.bounds`).
    """
    try:
        m = _State.model_validate(state)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ValueError(f"malformed state at {where}: {err['msg']}") from None
    lay, day, prm = m.layout, m.day, gen.day_params(m.day)
    furn = set(lay.furniture)
    _expect(m.mult == gen.mult(day), "mult does not match the day")
    _expect(m.bandDwell == prm.band_dwell, "bandDwell does not match the day")
    _expect(m.turnsInDay == prm.turns_in_day, "turnsInDay does not match the day")
    _expect(m.bandWidth == 2, "bandWidth must be 2")
    _expect(m.turn <= m.turnsInDay, "turn is past the end of the day")
    _expect(m.dayQuota == gen.quota(m.dayPar, day), "dayQuota does not follow from dayPar")
    _expect(lay.shadeLength == prm.shade_length, "shadeLength does not match the day")
    _expect(lay.dogSpeed == prm.dog_speed, "dogSpeed does not match the day")
    _expect((lay.latticeParity is not None) == prm.lattice, "latticeParity does not match the day")
    _expect(lay.furniture == sorted(furn), "furniture must be ascending and distinct")
    _expect(len(furn) == prm.furniture and furn <= set(range(49)), "wrong furniture for the day")
    _expect(lay.hearth not in furn, "the hearth is on furniture")
    clouds = lay.cloudTurns
    _expect(clouds == sorted(set(clouds)) and len(clouds) == prm.clouds, "wrong cloudTurns")
    _expect(all(1 <= t <= m.turnsInDay - 2 for t in clouds), "a cloud turn is out of range")
    # cats: roster, fixed fields, free distinct tiles, streaks no longer than the day so far
    _expect(len(m.cats) == gen.roster_size(day), "the roster does not match the day")
    for i, cat in enumerate(m.cats):
        _expect(cat.id == i, "cats must be listed by ascending id from 0")
        _expect(cat.range == RANGE[i] and cat.big == (i == 3), f"cat {i} has wrong range/big")
        _expect(cat.tile not in furn, f"cat {i} is on furniture")
        _expect(cat.settled <= m.turn, f"cat {i} has settled longer than today's turns")
    _expect(len({c.tile for c in m.cats}) == len(m.cats), "two cats share a tile")
    # bowls: sorted, distinct free mats, serve turns in range, 1 or 2 mats per serve
    bowls = [(b.serveTurn, b.mat) for b in m.bowls]
    mats = {b.mat for b in m.bowls}
    _expect(bowls == sorted(bowls) and len(mats) == len(bowls), "bowls unsorted or mats repeat")
    _expect(not mats & (furn | {lay.hearth}), "a mat is on furniture or the hearth")
    serves = sorted({t for t, _ in bowls})
    _expect(len(serves) == prm.serves and len(bowls) == prm.bowls, "wrong bowls for the day")
    _expect(all(3 <= t < m.turnsInDay for t in serves), "a serve turn is out of range")
    for j, t in enumerate(serves):
        count = sum(1 for st, _ in bowls if st == t)
        _expect(count == (2 if day >= 15 and j % 2 else 1), "wrong number of mats on a serve")
    # dogs: rectangle loops clear of furniture, each dog where its loop puts it
    _expect(len(lay.dogLoops) <= prm.dogs and len(m.dogs) == len(lay.dogLoops), "wrong dogs")
    for k, loop in enumerate(lay.dogLoops):
        ok = any(gen.dog_loop(*rect) == loop for rect in gen.dog_rects(furn))
        _expect(ok, f"dog loop {k} is not a clear rectangle walked clockwise")
        _expect(m.dogs[k] == loop[(max(m.turn - 1, 0) * lay.dogSpeed) % len(loop)], "dog astray")
    _expect(len({tuple(loop) for loop in lay.dogLoops}) == len(lay.dogLoops), "dog loops repeat")
    # phase and result
    end, cleared = m.turn == m.turnsInDay, m.dayCosyRaw >= m.dayQuota
    _expect((m.result is None) == (m.phase != "over"), "result must be set exactly when over")
    _expect(m.phase != "day" or not end, "a running day has turns left")
    _expect(m.phase != "sunset" or (end and cleared), "sunset needs the whole day and the quota")
    _expect(m.result != "win" or (end and cleared), "a win ends at sunset")
    _expect(m.result != "goodGame" or not end, "goodGame ends mid-day")
    _expect(m.result != "missedQuota" or (end and not cleared), "missedQuota needs a missed quota")
    if m.turn == 0:  # the day-start state itself: par can be replayed
        _expect(m.dayCosyRaw == 0, "no cosy before the first turn")
        _expect(day > 1 or (m.score == 0 and m.chain == 0), "points before day 1 began")
        _expect(not mats & {c.tile for c in m.cats}, "a cat starts the day on a mat")
        _expect(m.dayPar == gen.day_par(state), "dayPar does not match the room")
    history.check_history(state)
