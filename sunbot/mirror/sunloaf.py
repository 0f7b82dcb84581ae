"""Sunloaf mirror hooks (see :mod:`sunbot.mirror`); rules: Sunloaf §3-§8.

Within a day nothing is left to chance, so every MOVE, REST, DOZE and END_RUN answer is
recomputed whole by :func:`sunbot.engines.sunloaf.step` and compared field by field.

NEXT_DAY is the only place the cursor advances and a room is generated. Room generation is
the server's local choice, so the room (layout, bowls, joining cats, cursor) and its
``dayPar`` (a reference policy's score: which policy is the server's) are adopted from the
answer after :func:`check_room` checks what the rule text fixes of them, and everything the
rules derive is recomputed: ``day``, ``mult``, ``bandDwell``, ``turnsInDay``, ``bandWidth``,
cats on their tiles with ``settled`` 0, ``score`` and ``chain`` kept, ``turn`` 0,
``dayCosyRaw`` 0, phase ``day``, dogs on their loops' first tiles, and ``dayQuota`` from
``dayPar``. The opening of init is checked the same way (day 1, nothing earned). The field
table (determined, chosen, not promised) is in ``docs/rules/sunloaf.md``.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_gen as gen
from sunbot.engines.sunloaf_fast import RANGE, copy_state
from sunbot.engines.sunloaf_read import BAND_WIDTH, BIG_CAT, fill_layout, readable
from sunbot.mirror import Finding, diff
from sunbot.mirror.fields import is_int

_WINDOWS = ("N", "E", "S", "W")
_STATE_KEYS = [  # §3, sorted
    *("bandDwell", "bandWidth", "bowls", "cats", "chain", "day", "dayCosyRaw", "dayPar"),
    *("dayQuota", "dogs", "layout", "mult", "phase", "result", "rng", "score", "seed"),
    *("turn", "turnsInDay"),
]


def _tile(value: Any) -> TypeGuard[int]:
    return is_int(value) and 0 <= value <= 48


def _int_list(value: Any) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(is_int(v) for v in value)


def check_room(state: dict[str, Any], old_tiles: list[int]) -> list[Finding]:
    """Shape problems of the room a server generated for ``state["day"]``.

    Room generation is the server's local choice (our ramp and generator, §4 and §9, are
    one among many): how much furniture, shade, how many clouds, serves and joining cats,
    where they stand, and the dogs' loops. Only what the rule text fixes is checked: a
    window on one of the four walls; tiles on the board; distinct furniture, never under a
    cat; a hearth off the furniture; joining cats with the next ids, their id's range and
    bigness, settled 0, on free tiles, two cats on day 1 and never more than five; cloud and
    serve turns inside the day; one mat per serve, two on every second serve from day 15; a
    lattice parity exactly from day 16; the day's dog speed; no dog before day 6, at most one
    before day 20 and two after, each walking a closed loop of orthogonal steps.

    Args:
        state: the server's day-start state (its ``day`` is trusted here: the caller compares
            it with the rules).
        old_tiles: tiles of the cats that were in the room before it was generated. On day 1:
            ``[]``.

    Returns:
        One :class:`Finding` per problem, at the field's ``state.…`` path.
    """
    out: list[Finding] = []

    def bad(path: str, want: Any, got: Any, note: str) -> None:
        out.append(Finding(f"state.{path}", want, got, note))

    day = state.get("day")
    if not is_int(day) or day < 1:
        return [Finding("state.day", "a day number", day, "cannot check the room")]
    prm = gen.day_params(day)  # only its text-fixed rows are used: dwell, speed, lattice
    turns = 7 * prm.band_dwell
    lay = state.get("layout")
    if not isinstance(lay, dict):
        bad("layout", "a room layout", lay, "no layout object")
        return out
    if lay.get("window") not in _WINDOWS:
        bad("layout.window", "N, E, S or W", lay.get("window"), "a window on one wall")
    furn = lay.get("furniture")
    furniture: set[int] = set()
    if not _int_list(furn) or not all(_tile(x) for x in furn) or len(set(furn)) != len(furn):
        bad("layout.furniture", "distinct tiles", furn, "furniture stands on the board")
    else:
        furniture = set(furn)
        for i, x in enumerate(furn):
            if x in old_tiles:
                bad(f"layout.furniture[{i}]", "a tile with no cat", x, "furniture under a cat")
    hearth = lay.get("hearth")
    if hearth is not None and not _tile(hearth):
        bad("layout.hearth", "a tile or null", hearth, "a hearth stands on the board")
    elif hearth in furniture:
        bad("layout.hearth", "a tile off the furniture", hearth, "the hearth is a cat's tile")
    cats = state.get("cats")
    taken = set(furniture) | set(old_tiles)
    all_tiles = list(old_tiles)
    count = len(cats) if isinstance(cats, list) else -1
    if count < len(old_tiles) or count > len(RANGE) or (day == 1 and count != 2):
        want_n = "2 cats" if day == 1 else f"{len(old_tiles)}..{len(RANGE)} cats"
        got_n = count if isinstance(cats, list) else cats
        bad("cats", want_n, got_n, "a run opens with 2 cats; the roster grows to 5")
    elif isinstance(cats, list):
        for cid in range(len(old_tiles), len(cats)):
            cat = cats[cid]
            want = {"id": cid, "settled": 0, "range": RANGE[cid]}  # which cat is big: theirs
            if not isinstance(cat, dict):
                bad(f"cats[{cid}]", "a cat", cat, "a joining cat")
                continue
            out.extend(
                Finding(f.path, f.expected, f.got, f.note or "a joining cat")
                for f in diff(want, {k: cat.get(k) for k in want}, f"state.cats[{cid}]")
            )
            if not isinstance(cat.get("big", False), bool):  # our key: may be left out
                bad(f"cats[{cid}].big", "true or false", cat.get("big"), "a cat is big or not")
            tile = cat.get("tile")
            if not _tile(tile) or tile in taken:
                note = "a cat stands on a free tile: no furniture, no other cat"
                bad(f"cats[{cid}].tile", "a free tile", tile, note)
            else:
                taken.add(tile)
                all_tiles.append(tile)
    clouds = lay.get("cloudTurns")
    if not _int_list(clouds) or not all(0 <= t < turns for t in clouds):
        bad("layout.cloudTurns", f"turns in 0..{turns - 1}", clouds, "clouds fall inside the day")
    _check_bowls(state.get("bowls"), day, turns, bad)
    parity = lay.get("latticeParity")
    if prm.lattice and (not is_int(parity) or parity not in (0, 1)):
        bad("layout.latticeParity", "0 or 1", parity, "a lattice window from day 16")
    if not prm.lattice and parity is not None:
        bad("layout.latticeParity", None, parity, "no lattice before day 16")
    speed = lay.get("dogSpeed", prm.dog_speed)  # our key: a server may leave it out
    if speed != prm.dog_speed or not is_int(speed):
        note = "dogs step once a turn, twice from day 24"
        bad("layout.dogSpeed", prm.dog_speed, speed, note)
    shade = lay.get("shadeLength")
    if not is_int(shade) or shade < 0:
        bad("layout.shadeLength", "a length >= 0", shade, "the day's shade length")
    _check_dogs(lay.get("dogLoops"), prm.dogs, furniture, bad)
    return out


def _check_bowls(bowls: Any, day: int, turns: int, bad: Any) -> None:
    """Bowls: ``{mat, serveTurn}`` on the board inside the day; from day 15 every second
    serve of the day covers two mats, every other serve one."""
    if not isinstance(bowls, list) or not all(
        isinstance(b, dict) and _tile(b.get("mat")) and is_int(b.get("serveTurn")) for b in bowls
    ):
        bad("bowls", "a list of {mat, serveTurn}", bowls, "bowls have a mat and a serve turn")
        return
    for i, b in enumerate(bowls):
        if not 0 <= b["serveTurn"] < turns:
            bad(f"bowls[{i}].serveTurn", f"a turn in 0..{turns - 1}", b["serveTurn"], "today")
    serves = sorted({b["serveTurn"] for b in bowls})
    for j, turn in enumerate(serves):
        mats = [b["mat"] for b in bowls if b["serveTurn"] == turn]
        want = 2 if day >= 15 and j % 2 else 1
        if len(set(mats)) != want or len(mats) != want:
            note = "from day 15 every second serve covers two mats, the others one"
            bad("bowls", f"{want} mat(s) on serve {j} (turn {turn})", mats, note)


def _check_dogs(loops: Any, dogs: int, furniture: set[int], bad: Any) -> None:
    """The day's dogs (none before day 6, one from 6, two from 20: the text's DOGS
    paragraph), each loop a closed walk of orthogonal one-tile steps on the board. Fewer
    dogs only when no furniture-free rectangle is left for one (our generator's G8 stop;
    with at most 9 pieces of furniture that never happens)."""
    if not isinstance(loops, list) or not all(
        _int_list(loop) and loop and all(_tile(t) for t in loop) for loop in loops
    ):
        bad("layout.dogLoops", "a list of loops of tiles", loops, "dogs walk loops")
        return
    used = [set(loop) for loop in loops]
    room = any(set(gen.dog_loop(*rect)) not in used for rect in gen.dog_rects(furniture))
    if len(loops) > dogs or (len(loops) < dogs and room):
        note = "no dog before day 6, one from day 6, a second from day 20"
        bad("layout.dogLoops", f"{dogs} loop(s)", len(loops), note)
    for k, loop in enumerate(loops):
        steps = zip(loop, loop[1:] + loop[:1], strict=True)
        if len(loop) < 2 or any(abs(a // 7 - b // 7) + abs(a % 7 - b % 7) != 1 for a, b in steps):
            note = "a dog takes one orthogonal step a turn round a closed loop"
            bad(f"layout.dogLoops[{k}]", "a closed loop", loop, note)


def _day_start(exp: dict[str, Any], got: dict[str, Any], findings: list[Finding]) -> None:
    """Dogs on their loops' first tiles, the server's dayPar and the quota it fixes.

    ``dayPar`` is "a reference policy's honest score for this room": which policy is the
    server's choice (ours is §10), so its value is adopted when it is a whole number >= 0;
    the quota then follows from it by the rule text's formula and is checked.
    """
    loops = exp["layout"].get("dogLoops")
    if isinstance(loops, list) and all(isinstance(lp, list) and lp for lp in loops):
        exp["dogs"] = [loop[0] for loop in loops]
    par = got.get("dayPar")
    if is_int(par) and par >= 0:
        exp["dayPar"] = par
    else:
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
        bandWidth=_band_width(state),
        mult=gen.mult(1),
        score=0,
        chain=0,
        dayCosyRaw=0,
    )
    for cat in exp["cats"]:
        cat["settled"] = 0
    if isinstance(exp["layout"], dict):
        _day_start(exp, state, findings)
    return findings + diff(exp, state, "state")


def _band_width(state: dict[str, Any]) -> Any:
    """How many lines the band lights at once: the text does not say, so a server's whole
    number >= 1 stands (ours: 2); anything else is compared with our 2."""
    width = state.get("bandWidth")
    return width if is_int(width) and width >= 1 else 2


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
        return _their_result(ours, got), []
    exp = copy_state(ours)
    got_cats = got.get("cats")
    old = _their_old_cats(exp["cats"][: len(prev["cats"])], got_cats)
    findings = check_room({**got, "day": ours["day"]}, old)
    joined = got_cats[len(old) :] if isinstance(got_cats, list) else []
    exp["cats"] = exp["cats"][: len(old)] + [
        {"big": c.get("id") == BIG_CAT, **c} if isinstance(c, dict) else c for c in joined
    ]
    for key in ("layout", "bowls", "rng"):
        if key in got:
            exp[key] = got[key]
    # the width adopted at init holds every day
    exp["bandWidth"] = prev.get("bandWidth", BAND_WIDTH)
    _fill_layout(exp)
    if isinstance(exp["layout"], dict) and isinstance(exp["bowls"], list):
        _day_start(exp, got, findings)
    return exp, findings


def _fill_layout(state: dict[str, Any]) -> None:
    """Fill ``state["layout"]`` (a copy) as :func:`~sunbot.engines.sunloaf_read.fill_layout`
    does, and a missing hearth as null so that the rest is still checked (the hearth is
    promised: its absence is still one finding a step)."""
    lay = fill_layout(state.get("layout"), state.get("day"))
    state["layout"] = {**lay, "hearth": lay.get("hearth")} if isinstance(lay, dict) else lay


def _their_old_cats(ours: list[dict[str, Any]], got_cats: Any) -> list[int]:
    """The cats already in the room as the server starts the new day: the text never says
    where they stand when a day opens, nor that their streak restarts overnight, so each
    one's ``tile`` (on the board, apart from the others) and ``settled`` (a whole number
    >= 0) are adopted into ``ours`` in place; :func:`check_room` then checks the tiles
    against the new room. Returns their tiles."""
    theirs = got_cats if isinstance(got_cats, list) else []
    tiles = [c.get("tile") if isinstance(c, dict) else None for c in theirs[: len(ours)]]
    for cat, mine in zip(theirs, ours, strict=False):
        if not isinstance(cat, dict):
            continue
        tile = cat.get("tile")
        if _tile(tile) and tiles.count(tile) == 1:
            mine["tile"] = tile
        if is_int(cat.get("settled")) and cat["settled"] >= 0:
            mine["settled"] = cat["settled"]
    return [c["tile"] for c in ours]


def template_states() -> list[dict[str, Any]]:
    """Our own openings whose keys the mirror knows (one with dogs and a lattice too)."""
    return [sl.init(1), copy_state(sl.init(1))]


#: Fields whose absence is a divergence: what the rule text names or fixes (field table:
#: ``docs/rules/sunloaf.md``). The cursor, the seed, the dogs' tiles (derived from the
#: loops) and the band's width are not promised; a server may leave them out.
PROMISED: frozenset[str] = frozenset(
    f"state.{k}" for k in _STATE_KEYS if k not in ("rng", "seed", "dogs", "bandWidth")
)
#: Keys inside promised objects that the text does not promise: which cat is big (it says
#: a big cat counts 2, not which one), the dogs' speed (a key §3 added; the text fixes the
#: speed by the day), the lattice parity (the text has one from day 16 only) and the
#: result (its wording is the server's; how the run ended is checked through phase).
NOT_PROMISED: frozenset[str] = frozenset(
    ("state.cats[].big", "state.layout.dogSpeed", "state.layout.latticeParity", "state.result")
)


def legal_order(got: list[Any]) -> list[Finding]:
    """What the text fixes of the order of ``legalActions`` (MOVING: the MOVEs come first,
    by cat and then by tile); where REST, DOZE, END_RUN or NEXT_DAY sit is free. ``got``
    holds exactly the legal actions (the set is checked first)."""
    kinds = [a.get("type") for a in got]
    moves = [(a["cat"], a["tile"]) for a in got if a.get("type") == "MOVE"]
    if kinds[: len(moves)] == ["MOVE"] * len(moves) and moves == sorted(moves):
        return []
    note = "MOVEs first, by cat and then by tile"
    return [Finding("legalActions", "MOVEs first in cat, tile order", got, note)]


def complete(state: dict[str, Any], *, opening: bool) -> dict[str, Any]:
    """``state`` with what the rules do not promise filled in where a server left it out:
    what the strategies and the view fill too (:func:`~sunbot.engines.sunloaf_read.readable`:
    the band's width, the day's terms, the dogs, which cat is big, the dogs' speed, no
    lattice), a null hearth (:func:`_fill_layout`), and a placeholder cursor and seed (a new
    room is always taken from the server's answer)."""
    s = readable(state)
    s.setdefault("rng", 0)
    s.setdefault("seed", 0)
    if "layout" in s:
        _fill_layout(s)
    return s


def _their_result(expected: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """The wording of ``result`` is the server's (the text names no results); that the run
    is over (``phase``) is still checked."""
    theirs = got.get("result")
    if expected.get("result") is not None and isinstance(theirs, str) and theirs:
        expected["result"] = theirs
    return expected
