"""Sunloaf engine: every worked example of Sunloaf §11, the §12 edge cases,
hand-computed cases of our own, the plain-state check and the fast form's agreement."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from sunbot.engines import IllegalAction
from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.engines import sunloaf_gen as gen
from sunbot.engines.rng import next_u32
from sunbot.games import get_game

REST = {"type": "REST"}
DOZE = {"type": "DOZE"}
END = {"type": "END_RUN"}
NEXT = {"type": "NEXT_DAY"}


def move(cat: int, tile: int) -> dict[str, Any]:
    return {"type": "MOVE", "cat": cat, "tile": tile}


def make_state(
    day: int = 1,
    cats: list[tuple[int, int]] | None = None,
    *,
    window: str = "N",
    furniture: list[int] | None = None,
    hearth: int | None = None,
    bowls: list[tuple[int, int]] | None = None,
    clouds: list[int] | None = None,
    loops: list[list[int]] | None = None,
    shade: int | None = None,
    parity: int | None = None,
    turn: int = 0,
    chain: int = 0,
    quota: int = 0,
    cosy: int = 0,
    score: int = 0,
) -> dict[str, Any]:
    """A running-day state built by hand: ``cats`` are (tile, settled) by id, ``bowls`` are
    (mat, serveTurn); the day's fixed fields (mult, dwell, speed...) follow ``day``."""
    prm = gen.day_params(day)
    loops = loops or []
    idx = max(turn - 1, 0) * prm.dog_speed
    return {
        "seed": 0,
        "rng": 0,
        "day": day,
        "phase": "day",
        "result": None,
        "turn": turn,
        "turnsInDay": prm.turns_in_day,
        "bandDwell": prm.band_dwell,
        "bandWidth": 2,
        "mult": gen.mult(day),
        "score": score,
        "chain": chain,
        "dayCosyRaw": cosy,
        "dayPar": quota,
        "dayQuota": quota,
        "cats": [
            {"id": i, "tile": t, "settled": s, "range": sl.RANGE[i], "big": i == 3}
            for i, (t, s) in enumerate(cats or [(0, 0), (6, 0)])
        ],
        "bowls": [
            {"mat": m, "serveTurn": t} for m, t in sorted(bowls or [], key=lambda b: b[::-1])
        ],
        "layout": {
            "window": window,
            "furniture": sorted(furniture or []),
            "hearth": hearth,
            "dogLoops": loops,
            "dogSpeed": prm.dog_speed,
            "shadeLength": prm.shade_length if shade is None else shade,
            "latticeParity": parity,
            "cloudTurns": sorted(clouds or []),
        },
        "dogs": [loop[idx % len(loop)] for loop in loops],
    }


def jump_to_day(seed: int, day: int) -> dict[str, Any]:
    """The generated day-start state of ``day``: day ``day-1`` is faked as cleared, then
    NEXT_DAY builds the room (and joins every missing cat) from the seed's cursor. The score
    is the least a run holds there: the bonuses of the days before (sunloaf_history)."""
    s = sl.init(seed)
    if day == 1:
        return s
    floor = sum(gen.bonus(d) for d in range(1, day))
    s.update(day=day - 1, phase="sunset", turn=s["turnsInDay"], score=floor)
    return sl.step(s, NEXT)


def settled(s: dict[str, Any]) -> list[int]:
    return [c["settled"] for c in s["cats"]]


def gained(before: dict[str, Any], after: dict[str, Any]) -> tuple[int, int]:
    """(raw cosy, score) gained between two states of one day."""
    return after["dayCosyRaw"] - before["dayCosyRaw"], after["score"] - before["score"]


# ---------------------------------------------------------------- module surface


def test_registry_and_names():
    assert get_game("sunloaf").engine is sl
    assert (sl.SLUG, sl.NAME) == ("sunloaf", "Sunloaf")


def test_spec_is_self_documenting():
    assert set(sl.SPEC) == {"goal", "scoring", "rules", "actionSchema"}
    assert all(isinstance(r, str) and r for r in sl.SPEC["rules"])
    branches = sl.SPEC["actionSchema"]["oneOf"]
    assert [b["properties"]["type"]["const"] for b in branches] == [
        "MOVE",
        "REST",
        "DOZE",
        "NEXT_DAY",
        "END_RUN",
    ]
    assert branches[0]["required"] == ["type", "cat", "tile"]
    assert all(b["additionalProperties"] is False for b in branches)
    json.dumps(sl.SPEC)


def test_mulberry32_vectors():
    # §9 test vectors
    for seed, want in (
        (7, [50271532, 266108690, 4195786334, 3002305430]),
        (0, [1144304738, 1416247, 958946056, 627933444]),
    ):
        cur, got = seed, []
        for _ in range(4):
            cur, v = next_u32(cur)
            got.append(v)
        assert got == want


# ---------------------------------------------------------------- §11.1 light


def test_light_north_window_shade_one():
    s = make_state(1, furniture=[9])
    assert [sl.lit(s, x, 7) for x in (16, 23, 2, 17, 18, 9)] == [
        False,
        True,
        True,
        True,
        False,
        False,
    ]
    s["layout"]["shadeLength"] = 2
    assert [sl.lit(s, x, 7) for x in (16, 23, 30)] == [False, False, True]


def test_light_other_windows():
    south = make_state(1, furniture=[9], window="S")
    assert not sl.lit(south, 2, 7) and sl.lit(south, 16, 7)
    west = make_state(1, furniture=[9], window="W")
    assert not sl.lit(west, 10, 3)
    assert all(sl.lit(west, x, 3) for x in (7, 8, 11))
    assert not sl.lit(west, 21, 3)  # row 3 is outside rows 1-2
    east = make_state(1, furniture=[9], window="E")
    assert not sl.lit(east, 8, 3) and sl.lit(east, 7, 3) and sl.lit(east, 10, 3)


def test_light_last_line_alone():
    s = make_state(1, furniture=[9])
    lit20 = [x for x in range(49) if sl.lit(s, x, 20)]
    assert lit20 == [6, 13, 20, 27, 34, 41, 48]  # p = 6: only column 6
    assert [x for x in range(49) if sl.lit(s, x, 18)] == lit20


def test_light_lattice_and_cloud():
    s = make_state(16, furniture=[40], parity=1, clouds=[5])
    # turn 4, bandDwell 2: p = 2, columns 2-3; (r+c) must be odd
    assert sl.lit(s, 2, 4) is False and sl.lit(s, 3, 4) is True and sl.lit(s, 9, 4) is True
    assert not any(sl.lit(s, x, 5) for x in range(49))


# ---------------------------------------------------------------- §11.2-§11.5 scoring


def test_one_rest_turn():
    s = make_state(1, [(15, 2), (16, 0)], furniture=[40, 41, 48], turn=4, score=5, cosy=7)
    t = sl.step(s, REST)
    assert settled(t) == [3, 1]
    assert gained(s, t) == (37 + 12, 49)
    assert t["turn"] == 5 and t["phase"] == "day"


def test_awards_round_separately():
    s = make_state(4, [(0, 0), (22, 0)])
    assert s["mult"] == 205
    t = sl.step(s, REST)
    assert gained(s, t) == (20, 42)  # 21 + 21, not 20 + 20 nor round(41.0)


def test_hearth_off_band_caps_at_three():
    s = make_state(4, [(45, 4)], window="W", hearth=45, furniture=[1, 2, 3], turn=9)
    assert sl.warm(s, 45, 9) == 3
    t = sl.step(s, REST)
    assert settled(t) == [5] and gained(s, t) == (30, 62)


def test_hearth_lit_has_full_cap():
    s = make_state(4, [(45, 10)], window="W", hearth=45, furniture=[1, 2, 3], turn=15)
    assert sl.warm(s, 45, 15) == 6
    t = sl.step(s, REST)
    assert settled(t) == [11] and gained(s, t) == (100, 205)


def test_hearth_cold_under_cloud():
    s = make_state(4, [(45, 10)], window="W", hearth=45, furniture=[1, 2, 3], turn=15, clouds=[15])
    assert sl.warm(s, 45, 15) == 0
    t = sl.step(s, REST)
    assert settled(t) == [11] and gained(s, t) == (0, 0)


def test_big_and_moved_neighbours():
    s = make_state(5, [(24, 3), (17, 0), (45, 0), (23, 1)], furniture=[3], turn=7)
    assert (s["mult"], s["layout"]["shadeLength"]) == (240, 2)
    assert not sl.lit(s, 17, 7)  # shaded two tiles below furniture 3
    t = sl.step(s, move(2, 31))
    assert [c["tile"] for c in t["cats"]] == [24, 17, 31, 23]
    assert settled(t) == [4, 1, 0, 2]
    assert gained(s, t) == (87 + 25, 209 + 60)


# ---------------------------------------------------------------- §11.6-§11.8 bowls, dogs


def test_chain_over_a_day():
    # cats 0 and 1 sit in permanent shade on mats 10 and 20, so only bowls pay
    s = make_state(
        7, [(10, 0), (20, 0)], furniture=[3, 13], bowls=[(10, 5), (20, 9), (30, 14)], clouds=[2]
    )
    assert s["mult"] == 310
    chains = []
    t = s
    for _ in range(15):
        t = sl.step(t, REST)
        chains.append(t["chain"])
    assert chains == [0] * 5 + [1] * 4 + [2] * 5 + [0]  # after turns 0..14
    assert gained(s, t) == (90, 279)
    assert len(t["bowls"]) == 3  # served entries stay listed


def test_chain_caps_at_eight():
    s = make_state(7, [(10, 0), (0, 0)], furniture=[3, 13], bowls=[(10, 5)], turn=5, chain=8)
    t = sl.step(s, REST)
    assert t["chain"] == 8 and gained(s, t) == (240, (240 * 310 + 50) // 100)


@pytest.mark.parametrize(
    ("tiles", "chain", "gain"),
    [((30, 0), 1, (30, 177)), ((12, 0), 0, (120, 708))],
)
def test_double_serve(tiles, chain, gain):
    s = make_state(15, [(tiles[0], 0), (tiles[1], 0)], bowls=[(30, 6), (12, 6)], turn=6, chain=3)
    assert s["mult"] == 590 and [b["mat"] for b in s["bowls"]] == [12, 30]
    t = sl.step(s, REST)
    assert t["chain"] == chain and gained(s, t) == gain


def test_dog_loop_and_reset():
    loop = gen.dog_loop(1, 1, 3, 3)
    assert loop == [8, 9, 10, 17, 24, 23, 22, 15]
    s = make_state(6, [(18, 5), (42, 0)], loops=[loop], turn=11)
    assert sl.lit(s, 18, 11)
    t = sl.step(s, REST)
    assert t["dogs"] == [17] and settled(t) == [0, 1] and gained(s, t) == (0, 0)


def test_dog_speed_two():
    loop = gen.dog_loop(1, 1, 3, 3)
    s = make_state(24, [(0, 0), (6, 0), (42, 0), (48, 0), (45, 0)], loops=[loop], turn=11)
    assert s["layout"]["dogSpeed"] == 2
    assert sl.step(s, REST)["dogs"] == [22]  # (11*2) % 8 = 6


# ---------------------------------------------------------------- §11.9-§11.10 day parameters


def test_quota_mult_bonus():
    assert gen.ratio(5) == 2460 and gen.quota(400, 5) == 99
    assert gen.quota(400, 1) == 40 and gen.quota(401, 2) == 61
    assert gen.quota(400, 27) == 380 and gen.quota(400, 60) == 380
    assert gen.ratio(26) == 9180 and gen.ratio(27) == 9500
    assert [gen.mult(d) for d in (1, 2, 32, 33, 40)] == [100, 135, 1185, 1200, 1200]
    assert (gen.bonus(7), gen.bonus(30), gen.bonus(40)) == (700, 3000, 3000)


def test_day_end_reaches_sunset():
    s = make_state(1, [(6, 0), (0, 0)], turn=20, quota=137, cosy=130, score=130)
    t = sl.step(s, REST)
    assert (t["phase"], t["result"], t["turn"]) == ("sunset", None, 21)
    assert t["dayCosyRaw"] == 140 and t["score"] == 130 + 10 + 100
    assert sl.legal_actions(t) == [NEXT, END]


def test_day_end_missed_quota():
    s = make_state(1, [(5, 0), (0, 0)], turn=20, quota=137, cosy=130, score=130)
    t = sl.step(s, REST)
    assert (t["phase"], t["result"], t["score"]) == ("over", "missedQuota", 130)
    assert sl.legal_actions(t) == [] and sl.is_over(t)


# ---------------------------------------------------------------- §11.11 DOZE


def doze_room(turn: int, hearth: int | None = None, **kw: Any) -> dict[str, Any]:
    cats = kw.pop("cats", [(4, 0), (42, 0)])
    return make_state(1, cats, furniture=[48], hearth=hearth, bowls=[(30, 9)], turn=turn, **kw)


@pytest.mark.parametrize(
    ("start", "end"), [(3, 6), (6, 9), (9, 13), (13, 15), (2, 3), (20, 21), (0, 3)]
)
def test_doze_stops(start, end):
    s = doze_room(start)
    t = sl.step(s, DOZE)
    assert t["turn"] == end
    r = s
    for _ in range(end - start):
        r = sl.step(r, REST)
    assert r == t


def test_doze_stops_for_a_dog():
    loop = gen.dog_loop(4, 4, 6, 6)
    assert loop == [32, 33, 34, 41, 48, 47, 46, 39]
    s = make_state(6, [(3, 0), (5, 0), (20, 0), (22, 0)], loops=[loop])
    assert sl.step(s, DOZE)["turn"] == 4  # dogs on 33, 34, 41 for turns 1-3 reach no cat
    s["cats"][1]["tile"] = 27  # next to 34, the dog's tile for turn 2
    assert sl.step(s, DOZE)["turn"] == 2


def test_doze_stops_when_the_sky_changes():
    s = make_state(6, [(5, 0), (6, 0), (20, 0), (13, 0)], clouds=[3])  # all cats dark
    assert sl.step(s, DOZE)["turn"] == 3  # turn 3 starts a cloud
    s["turn"] = 3
    assert sl.step(s, DOZE)["turn"] == 4  # a cloud turn itself resolves; the cloud ends at 4


# ---------------------------------------------------------------- §11.12 reference policy


def test_reference_policy_example():
    s = doze_room(0, cats=[(24, 0), (0, 0)])
    moves = [a["tile"] for a in sl.legal_actions(s) if a["type"] == "MOVE" and a["cat"] == 0]
    assert moves == [3, 10, 17, 21, 22, 23, 25, 26, 27, 31, 38, 45]
    assert sl.reference_action(s) == move(0, 22)
    assert sl.reference_action(doze_room(0, hearth=25, cats=[(24, 0), (0, 0)])) == move(0, 25)
    legal = sl.legal_actions(s)
    assert len(legal) == 19
    assert legal[12:] == [move(1, 1), move(1, 2), move(1, 7), move(1, 14), REST, DOZE, END]


def test_reference_policy_rest_cases():
    assert sl.reference_action(doze_room(20, cats=[(24, 0), (0, 0)])) == REST  # last turn
    assert sl.reference_action(doze_room(0, cats=[(1, 0), (0, 0)])) == REST  # nobody stranded
    boxed = make_state(1, [(24, 0), (9, 0)], furniture=[17, 23, 25, 31])
    assert sl.reference_action(boxed) == move(1, 8)  # cat 0 has no move: cat 1 acts (run 5)
    assert sl.reference_action({**boxed, "phase": "sunset"}) == NEXT
    with pytest.raises(IllegalAction):
        sl.reference_action({**boxed, "phase": "over", "result": "goodGame"})


def naive_policy(s: dict[str, Any]) -> dict[str, Any]:
    """§10 written directly on dicts, as an independent check of the fast policy."""
    t, T = s["turn"], s["turnsInDay"]
    if t == T - 1:
        return REST
    for cat in s["cats"]:
        if sl.warm(s, cat["tile"], t) or sl.warm(s, cat["tile"], t + 1):
            continue
        best, best_run = None, 0
        for d in sl.destinations(s, cat["id"]):
            run = 0
            while t + 1 + run < T and sl.warm(s, d, t + 1 + run):
                run += 1
            if run > best_run:
                best, best_run = d, run
        if best is not None:
            return move(cat["id"], best)
    return REST


@pytest.mark.parametrize("seed", [0, 1, 7, 99])
@pytest.mark.parametrize("day", [1, 6, 16, 25])
def test_day_par_is_the_policy_played_through_step(seed, day):
    s = jump_to_day(seed, day)
    s["chain"] = 5  # par must not depend on the player's chain
    p = {**s, "chain": 0, "dayQuota": 0}
    while p["phase"] == "day":
        a = naive_policy(p)
        assert sl.reference_action(p) == a
        p = sl.step(p, a)
    assert p["dayCosyRaw"] == s["dayPar"] == sl.day_par(s)
    assert s["dayQuota"] == gen.quota(s["dayPar"], day)


# ---------------------------------------------------------------- §11.13 golden day


def test_golden_day_one_seed_seven():
    s = sl.init(7)
    assert s["layout"] == {
        "window": "N",
        "furniture": [3, 33, 47],
        "hearth": 24,
        "dogLoops": [],
        "dogSpeed": 1,
        "shadeLength": 1,
        "latticeParity": None,
        "cloudTurns": [],
    }
    assert [(c["tile"], c["settled"], c["range"], c["big"]) for c in s["cats"]] == [
        (19, 0, 3, False),
        (22, 0, 2, False),
    ]
    assert s["bowls"] == [{"mat": 27, "serveTurn": 7}]
    assert (s["rng"], s["dayPar"], s["dayQuota"]) == (3599190436, 1370, 137)
    assert (s["day"], s["phase"], s["turn"], s["turnsInDay"], s["mult"]) == (1, "day", 0, 21, 100)
    assert (s["score"], s["chain"], s["dayCosyRaw"], s["dogs"], s["seed"]) == (0, 0, 0, [], 7)


def test_generator_first_draws_by_hand():
    # seed 7 values (vectors above) through randInt: window, then furniture from free tiles
    assert (50271532 * 4) >> 32 == 0  # "N"
    assert (266108690 * 49) >> 32 == 3  # tile 3
    assert (4195786334 * 48) >> 32 == 46  # 46th of the 48 tiles left: 47
    assert (3002305430 * 47) >> 32 == 32  # 32nd of the 47 left (3 and 47 gone): 33
    assert sl.init(7)["layout"]["furniture"] == [3, 33, 47]


# ---------------------------------------------------------------- §12 edge cases


def test_move_onto_hearth_earns_from_the_next_turn():
    s = make_state(1, [(23, 4), (0, 0)], hearth=26, furniture=[40, 41, 48], turn=3)
    t = sl.step(s, move(0, 26))
    assert settled(t) == [0, 1] and gained(s, t) == (0, 0)
    raws = []
    for _ in range(9):  # turns 4-11 the hearth is off-band (cap 3); lit from turn 12
        u = sl.step(t, REST)
        raws.append(gained(t, u)[0])
        t = u
    assert raws == [10, 20, 30, 30, 30, 30, 30, 30, 100]


def test_mat_eating_depends_on_the_tile_at_serve():
    s = make_state(2, [(29, 0), (0, 0)], bowls=[(30, 5)], furniture=[40], turn=5)
    on = sl.step(s, move(0, 30))  # moves onto the mat on the serve turn: eats
    assert on["chain"] == 1 and gained(s, on)[0] == 30
    s["cats"][0]["tile"] = 30
    off = sl.step(s, move(0, 29))  # leaves it on the serve turn: the serve is empty
    assert off["chain"] == 0 and gained(s, off)[0] == 0


def test_eating_keeps_settled_and_costs_no_turn():
    s = make_state(2, [(30, 3), (0, 0)], bowls=[(30, 5)], furniture=[40], turn=5, chain=2)
    t = sl.step(s, REST)
    assert settled(t)[0] == 4 and t["turn"] == 6 and t["chain"] == 3


def test_dog_effects():
    loop = gen.dog_loop(0, 1, 1, 2)  # [1, 2, 9, 8]
    assert loop == [1, 2, 9, 8]
    # cats may move onto or through the dog's tile
    m = make_state(6, [(16, 3), (0, 4), (44, 0), (46, 0)], loops=[loop], turn=3)
    legal = sl.legal_actions(m)
    assert m["dogs"] == [9] and move(0, 9) in legal and move(0, 2) in legal
    # a cat on or beside the dog's tile for the turn is reset, a diagonal one is not
    s = make_state(6, [(16, 3), (0, 4), (44, 0), (46, 0)], loops=[loop], turn=1)
    t = sl.step(s, REST)  # dog on 2 for turn 1
    assert settled(t) == [4, 5, 1, 1]
    t = sl.step(t, REST)  # dog on 9, next to cat 0 on 16
    assert settled(t)[:2] == [0, 6]
    # a dog on the hearth or a mat changes neither warmth nor eating
    h = make_state(6, [(22, 2), (48, 0), (44, 0), (46, 0)], loops=[loop], hearth=9, turn=2)
    h["layout"]["furniture"] = [40]
    h["bowls"] = [{"mat": 8, "serveTurn": 3}]
    assert sl.warm(h, 9, 2) == 3
    u = sl.step(h, REST)
    assert u["dogs"] == [9]
    h["cats"][0]["tile"] = 8
    v = sl.step({**h, "turn": 3, "dogs": [9]}, REST)
    assert v["dogs"] == [8] and v["chain"] == 1 and settled(v)[0] == 0


def test_doze_on_the_last_turn_resolves_one():
    s = doze_room(20, quota=10**6)
    t = sl.step(s, DOZE)
    assert t["turn"] == 21 and t["result"] == "missedQuota"


def test_cloud_turn_serves_walks_and_grows():
    loop = gen.dog_loop(4, 4, 6, 6)
    s = make_state(
        6,
        [(29, 2), (0, 0), (2, 0), (13, 0)],
        hearth=13,
        bowls=[(29, 4)],
        clouds=[4],
        loops=[loop],
        turn=4,
    )
    t = sl.step(s, REST)
    assert gained(s, t) == (30, (30 * 275 + 50) // 100)  # only the bowl pays
    assert settled(t) == [3, 1, 1, 1] and t["dogs"] == [loop[4]] and t["chain"] == 1


def test_pile_counts_shaded_not_moved_nor_dog_reset():
    # cat 0 lit on 15 (col 1, turn 3); cat 1 on 8 shaded by furniture 1; cat 2 moves to 22
    s = make_state(3, [(15, 2), (8, 2), (36, 0)], furniture=[1, 40, 41], turn=3)
    assert not sl.lit(s, 8, 3) and sl.lit(s, 15, 3)
    t = sl.step(s, move(2, 22))
    assert gained(s, t)[0] == (10 * 3 * 5) // 4  # pile 1: cat 1 only
    loop = gen.dog_loop(1, 3, 2, 5)  # [10, 11, 12, 19, 18, 17]: on 10 again for turn 6
    d = make_state(6, [(16, 2), (17, 4), (46, 0), (48, 0)], loops=[loop], turn=6)
    assert loop[6 % 6] == 10 and sl.lit(d, 16, 6)
    u = sl.step(d, REST)  # cat 1 on 17 is next to 10: reset, so it is no pile neighbour
    assert settled(u)[:2] == [3, 0] and gained(d, u)[0] == 30


def test_hearth_in_band_but_shaded_or_off_lattice():
    s = make_state(
        16, [(23, 5), (0, 0), (44, 0), (46, 0), (48, 0)], furniture=[2], hearth=16, parity=1, turn=4
    )
    assert sl.warm(s, 16, 4) == 3  # column 2 is in band but furniture 2 shades it
    s["layout"]["furniture"] = [40]
    assert sl.warm(s, 16, 4) == 3  # in band, unshaded, but (2+2) is even
    s["layout"]["latticeParity"] = 0
    assert sl.warm(s, 16, 4) == 6


def test_big_cat_earns_like_any_other():
    s = make_state(5, [(42, 0), (0, 0), (46, 0), (22, 2)], turn=3)  # cat 3 alone in col 1
    t = sl.step(s, REST)
    assert gained(s, t) == (30, 72)
    n = make_state(5, [(21, 2), (0, 0), (46, 0), (22, 2)], turn=3)  # cat 0 in col 0 (dark)
    u = sl.step(n, REST)
    assert gained(n, u) == (37, 89)  # cat 3 only, with pile 1 from cat 0 (weight 1)


def test_pile_of_five():
    # day 8 (mult 345), turn 6 lights columns 2-3; cat 0 in the middle of the four others
    s = make_state(8, [(16, 3), (9, 3), (15, 3), (17, 3), (23, 3)], turn=6)
    t = sl.step(s, REST)
    # cat 0: tier 4, pile 1+1+2+1 = 5 -> 112; cats 1, 3, 4: pile 1 -> 62 each; cat 2 is dark
    assert gained(s, t) == (112 + 3 * 62, 386 + 3 * 214)


def test_quota_reached_mid_day_changes_nothing_until_the_end():
    s = make_state(1, [(0, 0), (7, 0)], quota=5)
    t = sl.step(s, REST)
    assert t["dayCosyRaw"] >= 5 and t["phase"] == "day"


def test_zero_quota_always_clears():
    s = make_state(1, [(5, 0), (12, 0)], turn=20, quota=0)
    t = sl.step(s, REST)
    assert t["dayCosyRaw"] == 0 and t["phase"] == "sunset" and t["score"] == 100


def test_bonus_and_chain_across_next_day_and_end_run():
    s = make_state(1, [(6, 0), (0, 0)], turn=20, quota=0, chain=4)
    t = sl.step(s, REST)
    assert t["dayCosyRaw"] == 10 and t["score"] == 110
    n = sl.step(t, NEXT)
    assert n["chain"] == 4 and n["day"] == 2 and n["score"] == 110
    e = sl.step(t, END)
    assert (e["phase"], e["result"], e["score"], e["chain"]) == ("over", "win", 110, 4)
    assert sl.step(s, END)["chain"] == 4


BAD_MOVES = [
    move(0, 24),  # own tile
    move(0, 32),  # diagonal
    move(1, 22),  # beyond cat 1's range 2 (3 steps)
    move(0, 27),  # through the cat on 25
    move(0, 25),  # onto the cat
    move(0, 10),  # through furniture 17
    move(0, 17),  # onto furniture
    move(4, 0),  # cat 4 is not on day 1's roster
    move(2, 0),  # neither is cat 2
    {"type": "MOVE", "cat": True, "tile": 23},
    {"type": "MOVE", "cat": 0, "tile": 23.0},
    {"type": "MOVE", "cat": 0, "tile": 49},
    {"type": "MOVE", "cat": -1, "tile": 23},
    {"type": "MOVE", "cat": 0},
    {"type": "MOVE", "cat": 0, "tile": 23, "x": 1},
    {"type": "REST", "cat": 0},
    {"type": "rest"},
    {"type": "JUMP"},
    {"kind": "REST"},
    {},
    ["REST"],
    "REST",
    None,
    NEXT,
]


@pytest.mark.parametrize("action", BAD_MOVES)
def test_illegal_actions_are_refused_untouched(action):
    s = make_state(1, [(24, 0), (25, 0)], furniture=[17, 40, 41], bowls=[(23, 9)])
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as exc:
        sl.step(s, action)
    assert str(exc.value) and s == before
    assert move(0, 23) in sl.legal_actions(s) and move(0, 21) in sl.legal_actions(s)


def test_mats_and_hearth_do_not_block_moves():
    s = make_state(1, [(24, 0), (0, 0)], hearth=23, bowls=[(22, 9)], furniture=[40, 41, 48])
    assert move(0, 21) in sl.legal_actions(s)


def test_wrong_phase_actions():
    sunset = {**make_state(1, turn=21), "phase": "sunset"}
    for a in (REST, DOZE, move(0, 1)):
        with pytest.raises(IllegalAction):
            sl.step(sunset, a)
    over = {**sunset, "phase": "over", "result": "win"}
    assert sl.legal_actions(over) == []
    for a in (REST, DOZE, END, NEXT, move(0, 1)):
        with pytest.raises(IllegalAction):
            sl.step(over, a)


def test_end_run_on_turn_zero():
    s = sl.init(3)
    e = sl.step(s, END)
    assert (e["phase"], e["result"], e["score"], e["turn"], e["rng"]) == (
        "over",
        "goodGame",
        0,
        0,
        s["rng"],
    )
    assert sl.score(e) == 0 and sl.is_over(e) and not sl.is_over(s)


def test_dog_positions_at_start_and_sunset():
    s = jump_to_day(5, 6)
    loop = s["layout"]["dogLoops"][0]
    assert s["dogs"] == [loop[0]]
    t = sl.step(s, REST)
    assert t["dogs"] == [loop[0]]
    t = sl.step(t, REST)
    assert t["dogs"] == [loop[1 % len(loop)]]
    t["dayQuota"] = 0
    while t["phase"] == "day":
        t = sl.step(t, REST)
    assert t["phase"] == "sunset" and t["dogs"] == [loop[20 % len(loop)]]


def test_seed_masking():
    a, b = sl.init(-1), sl.init(2**32 - 1)
    assert a["seed"] == -1 and b["seed"] == 2**32 - 1
    assert {k: v for k, v in a.items() if k != "seed"} == {
        k: v for k, v in b.items() if k != "seed"
    }
    assert sl.init(2**32 + 7)["layout"] == sl.init(7)["layout"]
    assert sl.init()["layout"] == sl.init(0)["layout"]


def test_rng_moves_only_on_new_day():
    s = sl.init(11)
    r = s["rng"]
    for a in (REST, DOZE, REST):
        s = sl.step(s, a)
        assert s["rng"] == r


# ---------------------------------------------------------------- the generator (§9)


@pytest.mark.parametrize("day", [1, 3, 5, 6, 8, 12, 15, 16, 19, 20, 24, 30])
def test_generated_days_follow_the_ramp(day):
    for seed in (1, 2, 3):
        s = jump_to_day(seed, day)
        sl.check_state(s)
        prm, lay = gen.day_params(day), s["layout"]
        assert len(s["cats"]) == gen.roster_size(day)
        assert len(lay["furniture"]) == prm.furniture
        assert len(lay["cloudTurns"]) == prm.clouds and len(s["bowls"]) == prm.bowls
        assert len(lay["dogLoops"]) == prm.dogs  # rooms this open always fit the dogs
        taken = set(lay["furniture"]) | {lay["hearth"]} | {b["mat"] for b in s["bowls"]}
        assert len(taken) == len(lay["furniture"]) + 1 + len(s["bowls"])
        assert not taken & {c["tile"] for c in s["cats"]}


def test_new_day_keeps_old_cats_and_never_buries_them():
    s = jump_to_day(4, 2)
    tiles = [c["tile"] for c in s["cats"]]
    s.update(phase="sunset", turn=21, dayQuota=0)
    n = sl.step(s, NEXT)
    assert [c["tile"] for c in n["cats"][:2]] == tiles and len(n["cats"]) == 3
    assert settled(n) == [0, 0, 0] and n["rng"] != s["rng"]
    assert not set(tiles) & set(n["layout"]["furniture"])


def test_ramp_table():
    rows = {d: tuple(gen.day_params(d)) for d in (1, 4, 5, 6, 7, 9, 10, 12, 13, 15, 16, 19, 20, 24)}
    assert rows[1] == (3, 1, 0, 1, 1, 0, 1, False, 3)
    assert rows[4] == (4, 1, 0, 2, 2, 0, 1, False, 3)
    assert rows[5] == (4, 2, 1, 2, 2, 0, 1, False, 3)
    assert rows[6] == (4, 2, 1, 2, 2, 1, 1, False, 3)
    assert rows[7] == (5, 2, 1, 3, 3, 1, 1, False, 3)
    assert rows[9] == (5, 3, 2, 3, 3, 1, 1, False, 3)
    assert rows[10] == (6, 3, 2, 4, 4, 1, 1, False, 3)
    assert rows[12] == (6, 3, 2, 4, 4, 1, 1, False, 2)
    assert rows[13] == (7, 4, 3, 5, 5, 1, 1, False, 2)
    assert rows[15] == (7, 4, 3, 5, 7, 1, 1, False, 2)
    assert rows[16] == (8, 4, 3, 5, 7, 1, 1, True, 2)
    assert rows[19] == (9, 4, 3, 5, 7, 1, 1, True, 2)
    assert rows[20] == (9, 4, 3, 5, 7, 2, 1, True, 2)
    assert rows[24] == (9, 4, 3, 5, 7, 2, 2, True, 2)
    assert [gen.roster_size(d) for d in range(1, 10)] == [2, 2, 3, 3, 4, 4, 4, 5, 5]


# ---------------------------------------------------------------- plain-state check


def test_check_state_accepts_generated_and_played_states():
    s = sl.init(7)
    sl.check_state(s)
    sl.check_state(json.loads(json.dumps(s)))
    for a in (REST, sl.reference_action(s), DOZE):
        s = sl.step(s, a)
        sl.check_state(s)
    sl.check_state(sl.step(s, END))


def _corrupt(path: str, value: Any) -> dict[str, Any]:
    s = jump_to_day(3, 20)
    s = sl.step(s, REST)  # turn 1: dayPar is no longer replayable, the rest still is
    node: Any = s
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    elif value is KeyError:
        del node[last]
    else:
        node[last] = value
    return s


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("turn", "1"),
        ("turn", True),
        ("turn", 1.0),
        ("turn", 99),
        ("score", -1),
        ("chain", 9),
        ("rng", 2**32),
        ("phase", "night"),
        ("result", "win"),
        ("day", 0),
        ("mult", 101),
        ("bandDwell", 3),
        ("turnsInDay", 21),
        ("bandWidth", 3),
        ("dayQuota", 1),
        ("dayCosyRaw", KeyError),
        ("extra", 1),
        ("cats.0.big", 1),
        ("cats.0.range", 4),
        ("cats.3.big", False),
        ("cats.1.id", 2),
        ("cats.0.settled", 5),
        ("cats.0.tile", 49),
        ("layout.window", "X"),
        ("layout.dogSpeed", 2),
        ("layout.shadeLength", 3),
        ("layout.latticeParity", None),
        ("layout.latticeParity", 2),
        ("layout.cloudTurns", [1, 2]),
        ("layout.furniture", [1, 2, 3]),
        ("layout.hearth", 50),
        ("layout.dogLoops", [[8, 9, 10, 17, 24, 23, 22, 16]]),
        ("dogs", [0, 1]),
        ("bowls", []),
    ],
)
def test_check_state_refuses(path, value):
    with pytest.raises(ValueError):
        sl.check_state(_corrupt(path, value))


def test_check_state_refuses_geometry():
    s = sl.step(jump_to_day(3, 20), REST)
    sl.check_state(s)
    two = copy.deepcopy(s)
    two["cats"][1]["tile"] = two["cats"][0]["tile"]
    furn = copy.deepcopy(s)
    furn["cats"][0]["tile"] = furn["layout"]["furniture"][0]
    dog = copy.deepcopy(s)
    loop = dog["layout"]["dogLoops"][0]
    dog["dogs"][0] = loop[1]
    mat = copy.deepcopy(s)
    mat["bowls"][0]["mat"] = mat["layout"]["furniture"][0]
    hearth = copy.deepcopy(s)
    hearth["layout"]["hearth"] = hearth["layout"]["furniture"][0]
    bads: list[Any] = [two, furn, dog, mat, hearth, "state", None, [], {"seed": 1}]
    for bad in bads:
        with pytest.raises(ValueError):
            sl.check_state(bad)


def test_check_state_replays_day_par_on_turn_zero():
    s = sl.init(7)
    sl.check_state(s)
    for field, value in (("dayPar", 1371), ("dayQuota", 138)):
        with pytest.raises(ValueError):
            sl.check_state({**s, field: value})
    forged = {**s, "dayPar": 1371, "dayQuota": gen.quota(1371, 1)}
    with pytest.raises(ValueError):
        sl.check_state(forged)


def test_check_state_phase_consistency():
    s = sl.init(7)
    with pytest.raises(ValueError):
        sl.check_state({**s, "phase": "sunset"})  # sunset needs the whole day
    with pytest.raises(ValueError):
        sl.check_state({**s, "phase": "over", "result": "missedQuota"})
    sl.check_state({**s, "phase": "over", "result": "goodGame"})


# ---------------------------------------------------------------- fast form agreement


def fast_code(a: dict[str, Any]) -> int:
    if a["type"] == "MOVE":
        return int(a["cat"] * 49 + a["tile"])
    return {"REST": fast.REST, "DOZE": fast.DOZE, "END_RUN": fast.END_RUN}[a["type"]]


def play_compare(seed: int, days: int, rnd: random.Random) -> int:
    """Play mixed actions, checking the fast form against the dict API every turn."""
    s, turns = sl.init(seed), 0
    while not sl.is_over(s) and s["day"] <= days:
        if s["phase"] == "sunset":
            s = sl.step(s, NEXT)
            continue
        legal = sl.legal_actions(s)
        ctx, fs = fast.to_fast(s)
        assert fast.from_fast(ctx, fs) == s
        assert [fast_code(a) for a in legal] == fast.fast_legal(ctx, fs)
        r = rnd.random()
        a = sl.reference_action(s) if r < 0.6 else DOZE if r < 0.7 else rnd.choice(legal[:-1])
        assert fast.fast_reference(ctx, fs) == fast_code(sl.reference_action(s))
        want = sl.step(s, a)
        assert fast.from_fast(ctx, fast.fast_step(ctx, fs, fast_code(a))) == want
        assert fast.from_fast(ctx, fast.fast_step(ctx, fs, fast.END_RUN)) == sl.step(s, END)
        s, turns = want, turns + 1
    return turns


def test_fast_form_agrees_on_random_play():
    rnd = random.Random(2024)
    assert sum(play_compare(seed, 3, rnd) for seed in range(12)) > 200


def test_fast_form_agrees_on_late_days():
    rnd = random.Random(5)
    for seed, day in ((1, 16), (2, 20), (3, 24), (4, 27)):
        s = jump_to_day(seed, day)
        while s["phase"] == "day":
            ctx, fs = fast.to_fast(s)
            legal = sl.legal_actions(s)
            a = rnd.choice([*legal[:-1], DOZE, sl.reference_action(s)])
            want = sl.step(s, a)
            assert fast.from_fast(ctx, fast.fast_step(ctx, fs, fast_code(a))) == want
            s = want


def test_fast_doze_reports_its_rest_count():
    s = doze_room(3)
    ctx, fs = fast.to_fast(s)
    after, k = fast.fast_doze(ctx, fs)
    assert k == 3 and after[fast.TURN] == 6
    assert fast.fast_legal(ctx, fast.fast_step(ctx, fs, fast.END_RUN)) == []


@pytest.mark.slow
def test_fast_form_agrees_on_many_seeds():
    rnd = random.Random(77)
    assert sum(play_compare(seed, 40, rnd) for seed in range(300)) > 10_000


def test_docs_ramp_table_matches_the_generator():
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "sunloaf.md").read_text()
    rows = [line for line in doc.splitlines() if line.startswith("| ") and line[2].isdigit()]
    seen = set()
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        label = cells[0]
        if label.endswith("+"):
            days = range(int(label[:-1]), 41)
        else:
            lo, _, hi = label.partition("-")
            days = range(int(lo), int(hi or lo) + 1)
        for d in days:
            p = gen.day_params(d)
            want: list[object] = [p.furniture, p.shade_length, p.clouds, p.serves, p.bowls]
            want += [p.dogs]
            want += [p.dog_speed, "yes" if p.lattice else "no"]
            want += [f"{p.band_dwell} / {p.turns_in_day}", gen.roster_size(d)]
            assert [str(w) for w in want] == cells[1:], d
            seen.add(d)
    assert seen == set(range(1, 41))
