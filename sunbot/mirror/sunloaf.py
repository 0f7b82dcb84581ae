"""Sunloaf mirror hooks (see :mod:`sunbot.mirror`); rules in ``shared/spec/sunloaf.md``.

Within a day nothing is left to chance, so every MOVE, REST, DOZE and END_RUN answer is
recomputed whole by :func:`sunbot.engines.sunloaf.step` and compared field by field.

NEXT_DAY (§8) is the only place the cursor advances and a room is generated (§9). The room
is adopted from the server's answer after its shape is checked, and everything the rules fix
is recomputed: ``day``, ``mult``, ``bandDwell``, ``turnsInDay``, ``bandWidth``, cats on their
tiles with ``settled`` 0, ``score`` and ``chain`` kept, ``turn`` 0, ``dayCosyRaw`` 0, phase
``day``, dogs on their loops' first tiles, ``dayPar`` replayed by the engine's own reference
policy (§10) on the served room and ``dayQuota`` from it (§4). The opening position of init
is checked the same way (day 1, nothing earned).

Room shape (§4 ramp, §9 G1-G8): a window; the day's furniture count, ascending, distinct,
on the board and never under a cat already in the room; a hearth off furniture and cats;
joining cats with their id's range and bigness, settled 0, on free tiles; the day's cloud
turns ascending in ``1..turnsInDay-2``; the day's serve count in ``3..turnsInDay-1`` with one
mat per serve (two on every second serve from day 15), mats distinct and off furniture,
hearth and cats, bowls sorted by (serveTurn, mat); a lattice parity exactly from day 16; the
day's dog speed and shade length; at most the day's dogs, each loop the clockwise perimeter
of a distinct furniture-free rectangle of G8 (fewer dogs only when no rectangle is left);
and an uint32 cursor. Each problem is one finding at its field's path.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_gen as gen
from sunbot.engines.sunloaf_fast import RANGE, copy_state
from sunbot.mirror import Finding, diff

_WINDOWS = ("N", "E", "S", "W")
_LAYOUT_KEYS = {
    *("window", "furniture", "hearth", "dogLoops", "dogSpeed", "shadeLength"),
    *("latticeParity", "cloudTurns"),
}
_CAT_KEYS = {"id", "tile", "settled", "range", "big"}
_STATE_KEYS = [  # §3, sorted
    *("bandDwell", "bandWidth", "bowls", "cats", "chain", "day", "dayCosyRaw", "dayPar"),
    *("dayQuota", "dogs", "layout", "mult", "phase", "result", "rng", "score", "seed"),
    *("turn", "turnsInDay"),
]


def _is_int(value: Any) -> TypeGuard[int]:
    return type(value) is int


def _tile(value: Any) -> TypeGuard[int]:
    return _is_int(value) and 0 <= value <= 48


def _int_list(value: Any) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(_is_int(v) for v in value)


def check_room(state: dict[str, Any], old_tiles: list[int]) -> list[Finding]:
    """Shape problems of the room generated for ``state["day"]`` (§4 ramp, §9 G1-G8).

    Args:
        state: the server's day-start state (its ``day`` is trusted here: the caller compares
            it with the rules).
        old_tiles: tiles of the cats that were in the room before it was generated (they
            keep them; furniture and the hearth never land under them). On day 1: ``[]``.

    Returns:
        One :class:`Finding` per problem, at the field's ``state.…`` path.
    """
    out: list[Finding] = []

    def bad(path: str, want: Any, got: Any, note: str) -> None:
        out.append(Finding(f"state.{path}", want, got, note))

    day = state.get("day")
    if not _is_int(day) or day < 1:
        return [Finding("state.day", "a day number", day, "cannot check the room")]
    prm = gen.day_params(day)
    turns = prm.turns_in_day
    rng = state.get("rng")
    if not (_is_int(rng) and 0 <= rng <= 0xFFFFFFFF):
        bad("rng", "an uint32 cursor", rng, "the cursor is an integer in 0..2^32-1")
    lay = state.get("layout")
    if not isinstance(lay, dict):
        bad("layout", "a room layout", lay, "no layout object")
        return out
    if set(lay) != _LAYOUT_KEYS:
        note = "§3 layout fields exactly"
        bad("layout", sorted(_LAYOUT_KEYS), sorted(lay), note)
    if lay.get("window") not in _WINDOWS:
        bad("layout.window", "N, E, S or W", lay.get("window"), "G1")
    furn = lay.get("furniture")
    furniture: set[int] = set()
    if not _int_list(furn) or not all(_tile(x) for x in furn):
        bad("layout.furniture", "a list of tiles", furn, "G2")
    else:
        furniture = set(furn)
        if furn != sorted(furniture):
            bad("layout.furniture", sorted(furniture), furn, "ascending and distinct")
        if len(furn) != prm.furniture:
            note = f"day {day} has {prm.furniture} pieces of furniture (§4)"
            bad("layout.furniture", prm.furniture, len(furn), note)
        for i, x in enumerate(furn):
            if x in old_tiles:
                bad(f"layout.furniture[{i}]", "a tile with no cat", x, "furniture under a cat")
    hearth = lay.get("hearth")
    if not _tile(hearth):
        bad("layout.hearth", "a tile", hearth, "G3: the generator always places a hearth")
    elif hearth in furniture or hearth in old_tiles:
        bad("layout.hearth", "a free tile", hearth, "G3: not on furniture nor under a cat")
    # G4: joining cats
    cats = state.get("cats")
    taken = set(furniture) | set(old_tiles) | ({hearth} if _tile(hearth) else set())
    all_tiles = list(old_tiles)
    if not isinstance(cats, list) or len(cats) != gen.roster_size(day):
        got = len(cats) if isinstance(cats, list) else cats
        bad("cats", gen.roster_size(day), got, f"day {day}'s roster size (§2)")
    else:
        for cid in range(len(old_tiles), len(cats)):
            cat = cats[cid]
            want = {"id": cid, "settled": 0, "range": RANGE[cid], "big": cid == 3}
            if not isinstance(cat, dict) or set(cat) != _CAT_KEYS:
                bad(f"cats[{cid}]", "a cat with the §3 fields", cat, "G4")
                continue
            out.extend(
                Finding(f.path, f.expected, f.got, f.note or "a joining cat (G4)")
                for f in diff(want, {k: cat.get(k) for k in want}, f"state.cats[{cid}]")
            )
            tile = cat.get("tile")
            if not _tile(tile) or tile in taken:
                note = "G4: off furniture, the hearth and the other cats"
                bad(f"cats[{cid}].tile", "a free tile", tile, note)
            else:
                taken.add(tile)
                all_tiles.append(tile)
    # G5: clouds
    clouds = lay.get("cloudTurns")
    if (
        not _int_list(clouds)
        or clouds != sorted(set(clouds))
        or len(clouds) != prm.clouds
        or not all(1 <= t <= turns - 2 for t in clouds)
    ):
        note = f"day {day}: {prm.clouds} distinct ascending turns in 1..{turns - 2} (G5)"
        bad("layout.cloudTurns", f"{prm.clouds} cloud turns", clouds, note)
    _check_bowls(state.get("bowls"), day, prm, furniture, hearth, all_tiles, bad)
    # G7, fixed per day: lattice, dog speed, shade length
    parity = lay.get("latticeParity")
    if prm.lattice and (not _is_int(parity) or parity not in (0, 1)):
        bad("layout.latticeParity", "0 or 1", parity, "a lattice from day 16 (G7)")
    if not prm.lattice and parity is not None:
        bad("layout.latticeParity", None, parity, "no lattice before day 16 (G7)")
    for key, fixed in (("dogSpeed", prm.dog_speed), ("shadeLength", prm.shade_length)):
        if lay.get(key) != fixed or not _is_int(lay.get(key)):
            bad(f"layout.{key}", fixed, lay.get(key), f"fixed by the day (§4 day {day})")
    _check_dogs(lay.get("dogLoops"), prm.dogs, furniture, bad)
    return out


def _check_bowls(
    bowls: Any,
    day: int,
    prm: gen.DayParams,
    furniture: set[int],
    hearth: Any,
    cat_tiles: list[int],
    bad: Any,
) -> None:
    """G6: serve turns, mats per serve, free distinct mats, sorted list."""
    turns = prm.turns_in_day
    if not isinstance(bowls, list) or not all(
        isinstance(b, dict) and set(b) == {"mat", "serveTurn"} for b in bowls
    ):
        bad("bowls", "a list of {mat, serveTurn}", bowls, "G6")
        return
    pairs = [(b["serveTurn"], b["mat"]) for b in bowls]
    if not all(_is_int(t) and _tile(m) for t, m in pairs):
        bad("bowls", "integer serve turns and tiles", bowls, "G6")
        return
    if pairs != sorted(pairs):
        bad("bowls", "sorted by (serveTurn, mat)", bowls, "G6")
    serves = sorted({t for t, _ in pairs})
    if len(serves) != prm.serves:
        bad("bowls", f"{prm.serves} serve turns", len(serves), f"day {day} (§4)")
    for j, turn in enumerate(serves):
        mats = sum(1 for t, _ in pairs if t == turn)
        want = 2 if day >= 15 and j % 2 else 1
        if mats != want:
            bad("bowls", f"{want} mat(s) on serve {j} (turn {turn})", mats, "G6")
    seen: set[int] = set()
    for i, (t, m) in enumerate(pairs):
        if not 3 <= t <= turns - 1:
            bad(f"bowls[{i}].serveTurn", f"a turn in 3..{turns - 1}", t, "G6")
        if m in seen or m in furniture or m == hearth or m in cat_tiles:
            note = "G6: distinct, off furniture, the hearth and every cat"
            bad(f"bowls[{i}].mat", "a free tile", m, note)
        seen.add(m)


def _check_dogs(loops: Any, most: int, furniture: set[int], bad: Any) -> None:
    """G8: clockwise perimeters of distinct clear rectangles, as many as there is room for."""
    if not isinstance(loops, list) or not all(_int_list(loop) for loop in loops):
        bad("layout.dogLoops", "a list of loops", loops, "G8")
        return
    rects = {tuple(gen.dog_loop(*r)): r for r in gen.dog_rects(furniture)}
    used: set[tuple[int, ...]] = set()
    for k, loop in enumerate(loops):
        key = tuple(loop)
        if key not in rects:
            note = "G8: the clockwise perimeter of a furniture-free rectangle, sides 1..3"
            bad(f"layout.dogLoops[{k}]", "a clear rectangle's loop", loop, note)
        elif key in used:
            bad(f"layout.dogLoops[{k}]", "a new rectangle", loop, "G8: loops are distinct")
        used.add(key)
    left = len(set(rects) - used)
    if len(loops) > most or (len(loops) < most and left):
        note = f"{most} dog(s) today, fewer only when no clear rectangle is left (G8)"
        bad("layout.dogLoops", f"{most} loop(s)", len(loops), note)


def _day_start(exp: dict[str, Any], findings: list[Finding]) -> None:
    """Dogs on their loops' first tiles, then dayPar replayed on the room and its quota."""
    loops = exp["layout"].get("dogLoops")
    if isinstance(loops, list) and all(isinstance(lp, list) and lp for lp in loops):
        exp["dogs"] = [loop[0] for loop in loops]
    try:
        exp["dayPar"] = gen.day_par(exp)
    except Exception as exc:  # a room too broken to play: say so, compare the rest
        note = f"cannot replay the reference policy on this room: {type(exc).__name__}"
        findings.append(Finding("state.dayPar", "a par replayed on the room", "?", note))
        return
    exp["dayQuota"] = gen.quota(exp["dayPar"], exp["day"])


def check_initial(state: dict[str, Any]) -> list[Finding]:
    """The opening: day 1 with nothing earned, a well-shaped room, par replayed on it.

    Never raises: a state too broken to check is one finding at ``state``.
    """
    try:
        return _check_opening(state)
    except Exception as exc:
        note = f"cannot check the opening: {type(exc).__name__}: {exc}"
        return [Finding("state", "a Sunloaf opening position", "?", note)]


def _check_opening(state: dict[str, Any]) -> list[Finding]:
    findings = check_room({**state, "day": 1}, [])
    if set(state) != set(_STATE_KEYS):
        findings.append(Finding("state", _STATE_KEYS, sorted(state), "§3 state fields exactly"))
    if not _copyable(state):
        return [*findings, Finding("state", "a Sunloaf state", "malformed", "cannot copy")]
    exp = copy_state(state)
    prm = gen.day_params(1)
    exp.update(
        day=1,
        phase="day",
        result=None,
        turn=0,
        turnsInDay=prm.turns_in_day,
        bandDwell=prm.band_dwell,
        bandWidth=2,
        mult=gen.mult(1),
        score=0,
        chain=0,
        dayCosyRaw=0,
    )
    for cat in exp["cats"]:
        cat["settled"] = 0
    if isinstance(exp["layout"], dict):
        _day_start(exp, findings)
    return findings + diff(exp, state, "state")


def _copyable(state: Any) -> bool:
    try:
        copy_state(state)
    except (KeyError, TypeError, AttributeError, ValueError):
        return False
    return True


def expected_after(
    prev: dict[str, Any], action: Any, got: dict[str, Any]
) -> tuple[dict[str, Any], list[Finding]]:
    """The state the rules give for ``action`` from ``prev``; after NEXT_DAY, with ``got``'s
    room (layout, bowls, joining cats, cursor) adopted once its shape is checked.

    Raises:
        IllegalAction: the rules refuse ``action`` in ``prev``.
    """
    ours = sl.step(prev, action)  # raises IllegalAction when refused
    if action.get("type") != "NEXT_DAY":
        return ours, []
    old = [c["tile"] for c in prev["cats"]]
    findings = check_room({**got, "day": ours["day"]}, old)
    exp = copy_state(ours)
    got_cats = got.get("cats")
    joined = got_cats[len(old) :] if isinstance(got_cats, list) else []
    exp["cats"] = exp["cats"][: len(old)] + [dict(c) if isinstance(c, dict) else c for c in joined]
    for key in ("layout", "bowls", "rng"):
        if key in got:
            exp[key] = got[key]
    if isinstance(exp["layout"], dict) and isinstance(exp["bowls"], list):
        _day_start(exp, findings)
    return exp, findings


def template_states() -> list[dict[str, Any]]:
    """Our own openings whose keys the mirror knows (one with dogs and a lattice too)."""
    return [sl.init(1), copy_state(sl.init(1))]
