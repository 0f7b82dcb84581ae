"""Keelhold worked examples (its "Worked examples") and hand-computed cases."""

from __future__ import annotations

import copy

import pytest

from sunbot.engines import IllegalAction
from sunbot.engines import keelhold as kh
from sunbot.engines.keelhold_gen import params_for
from tests.engines.keelhold_helpers import build, crate


def place(s, bay):
    return kh.step(s, {"type": "PLACE", "bay": bay})


# ---------------------------------------------------------------- worked examples


def test_example1_keel_lot_with_even_keel():
    s = build(
        1, hold={3: [crate(1, 2), crate(1, 3)]}, queue=[crate(1, 2), crate(0, 1), crate(0, 1)]
    )
    assert s["trim"] == 0
    n = place(s, 3)
    assert n["score"] == 70 + 50  # lot floor(10*7*4*2*4/32)=70, even keel floor(50*4/4)=50
    assert n["chain"] == 1 and n["lotsShipped"] == 1 and n["hold"][3] == []
    assert n["phase"] == "loading"


def test_example1_fourth_lot_completes_voyage():
    s = build(
        1,
        hold={3: [crate(1, 2), crate(1, 3)]},
        queue=[crate(1, 2), crate(0, 1), crate(0, 1)],
        lots=3,
    )
    n = place(s, 3)
    assert n["score"] == 120 + 300
    assert n["phase"] == "port" and n["lotsShipped"] == 4
    assert n["safeBays"] == [] and n["listingBays"] == [] and isinstance(n["castOffSafe"], bool)


def test_example2_graced_lurch():
    s = build(
        2,
        chain=2,
        hold={
            5: [crate(0, 3), crate(None, 2), crate(0, 1)],
            1: [crate(2, 4), crate(2, 3), crate(3, 2)],
        },
        queue=[crate(0, 2), crate(1, 1), crate(1, 1)],
    )
    assert s["trim"] == -6 and s["params"]["tolerance"] == 8 and not s["listing"]
    assert 5 in s["safeBays"] and 5 in s["listingBays"]
    n = place(s, 5)
    assert n["trim"] == -18
    assert n["score"] == 300  # floor(10*8*6*4*5/32); no even keel, no righting
    assert n["chain"] == 3 and n["listing"] is True
    assert n["hold"][5] == [] and n["hold"][1] == s["hold"][1]
    # Next turn only bays that end inside 8 are safe (in hand c1 w1 from trim -18: none).
    assert all(abs(kh.preview(n, b).end_trim) <= 8 for b in n["safeBays"])


def test_example3_listing_needs_righting():
    s = build(
        2, hold={1: [crate(1, 3), crate(2, 2)]}, queue=[crate(0, 1), crate(1, 1), crate(1, 1)]
    )
    assert s["trim"] == -10 and s["listing"]
    assert [kh.preview(s, b).end_trim for b in range(7)] == [-13, -12, -11, -10, -9, -8, -7]
    assert s["safeBays"] == [5, 6] and s["listingBays"] == []
    n = place(s, 5)
    assert n["score"] == 93 and n["chain"] == 0 and not n["listing"]
    assert place(s, 6)["score"] == 93


def test_example4_tolerance_boundary_is_level():
    s = build(
        2, hold={4: [crate(1, 4), crate(2, 4)]}, queue=[crate(3, 1), crate(1, 1), crate(1, 1)]
    )
    assert s["trim"] == 8 and not s["listing"]
    assert [kh.preview(s, b).end_trim for b in range(7)] == [5, 6, 7, 8, 9, 10, 11]
    assert s["safeBays"] == [0, 1, 2, 3]


def test_example5_rush_paid_on_due_turn_and_expires_after():
    rush = crate(2, 1, rush=8)
    s = build(
        3, turn=40, hold={3: [crate(2, 1), crate(2, 1)]}, queue=[rush, crate(0, 1), crate(0, 1)]
    )
    landed = place(s, 2)  # rush crate lands in hatch 2 at turn 40: due 48
    assert landed["hold"][2][-1]["due"] == 48
    # Ship it on turn 48: +floor(150*6/4) = 225 for it.
    s48 = build(
        3,
        turn=48,
        hold={3: [crate(2, 1), crate(2, 1, rush=8, due=48)]},
        queue=[crate(2, 1), crate(0, 1), crate(0, 1)],
    )
    n = place(s48, 3)
    lot = (10 * 3 * 4 * 2 * 6) // 32
    assert n["score"] == lot + 225 + (50 * 6) // 4
    # Still aboard when turn 48 resolves: ballast from then on.
    s48b = build(
        3,
        turn=48,
        hold={0: [crate(2, 1, rush=8, due=48)]},
        queue=[crate(1, 1), crate(0, 1), crate(0, 1)],
    )
    n = place(s48b, 3)
    assert n["hold"][0][0] == {"id": 0, "weight": 1, "cargo": None, "rushWindow": None, "due": None}


def test_example6_long_boom_outer_hatch_pays_lever_10():
    s = build(
        21,
        conditions=["longBoom"],
        hold={6: [crate(1, 1), crate(1, 1)]},
        queue=[crate(1, 1), crate(0, 1), crate(0, 1)],
    )
    assert s["arms"] == [-4, -2, -1, 0, 1, 2, 4]
    pv = kh.preview(s, 6)
    assert pv.shipped and pv.weight_out == 3
    n = place(s, 6)
    m = 24
    assert n["score"] - s["score"] == (10 * 3 * 10 * 2 * m) // 32 + (
        (50 * m) // 4 if abs(n["trim"]) <= 3 else 0
    )


# ---------------------------------------------------------------- own hand-computed cases


def test_chain_caps_at_seven_so_c_caps_at_eight():
    s = build(
        2,
        chain=7,
        hold={3: [crate(1, 1), crate(1, 1)]},
        queue=[crate(1, 1), crate(0, 1), crate(0, 1)],
    )
    n = place(s, 3)
    assert n["chain"] == 7
    assert n["score"] == (10 * 3 * 4 * 8 * 5) // 32 + (50 * 5) // 4  # 75 + 62


def test_non_shipping_turn_resets_chain():
    s = build(2, chain=4)
    assert place(s, 3)["chain"] == 0


def test_ballast_rides_out_only_from_its_own_hatch_and_other_cargo_stays():
    s = build(
        2,
        hold={2: [crate(None, 5), crate(1, 1), crate(3, 2), crate(1, 1)], 4: [crate(None, 4)]},
        queue=[crate(1, 1), crate(0, 1), crate(0, 1)],
    )
    # trim: hatch2 arm -1 * 9 = -9; hatch4 arm +1 * 4 = 4 -> -5
    assert s["trim"] == -5
    n = place(s, 2)
    assert [c["cargo"] for c in n["hold"][2]] == [3]
    assert n["hold"][4] == [crate(None, 4)]
    # W = 5 + 1 + 1 + 1 = 8, A 5 (arm 1), C 2, M 5: floor(10*8*5*2*5/32) = 125
    assert n["trim"] == 2 and n["score"] == 125 + (50 * 5) // 4


def test_placement_tipping_without_shipping_is_unsafe_but_legal():
    s = build(1, queue=[crate(0, 3), crate(1, 1), crate(1, 1)])
    assert s["params"]["tolerance"] == 6
    # arms -2,-1,0,1,2 with w3 -> -6,-3,0,3,6: all inside 6
    assert s["safeBays"] == [1, 2, 3, 4, 5]
    s2 = build(1, hold={5: [crate(1, 1)]}, queue=[crate(0, 3), crate(1, 1), crate(1, 1)])
    assert s2["trim"] == 2 and s2["safeBays"] == [1, 2, 3, 4]
    n = place(s2, 5)  # legal although unsafe: applied in full
    assert n["trim"] == 8 and n["listing"]


def test_lurch_ends_run_when_no_bay_rights_her():
    s = build(
        1, hold={5: [crate(1, 3)], 4: [crate(2, 1)]}, queue=[crate(0, 1), crate(1, 3), crate(0, 1)]
    )
    assert s["trim"] == 7 and s["listing"]
    # w1: 7-2..7+2 = 5..9 -> bays 1,2 end at 5,6: safe
    assert s["safeBays"] == [1, 2]
    n = place(s, 4)  # ends at 8, still listing, no lot
    assert n["listing"]
    # next crate c1 w3: bay 1 -> 2? 8 + 3*-2 = 2 inside -> safe; so she survives
    assert n["phase"] == "loading" and n["safeBays"]
    n2 = place(n, 5)  # c1 w3 into hatch 5 (arm 2): 8 + 6 = 14, ships c1? only 2 -> no lot
    assert n2["phase"] == "over" and n2["cause"] == "lurch"
    assert n2["safeBays"] == [] and kh.legal_actions(n2) == []


def test_no_safe_stow_when_level():
    s = build(1, hold={1: [crate(2, 3)]}, queue=[crate(0, 1), crate(1, 9), crate(0, 1)])
    assert s["trim"] == -6 and not s["listing"]
    n = place(s, 1)  # -8 listing -> next crate w9 must right her: -8 + 9*arm inside 6
    # bays: 1 -> -26, 2 -> -17, 3 -> -8, 4 -> 1 (safe), 5 -> 10
    assert n["safeBays"] == [4]
    s3 = build(1, hold={5: [crate(2, 3)]}, queue=[crate(0, 1), crate(1, 9), crate(0, 1)])
    n3 = place(
        s3, 3
    )  # trim 6 stays level; w9 crate: arms -2..2 -> -12,-3,6,15,24; level -> bay 2,3 safe
    assert n3["safeBays"] == [2, 3]
    keel_full = [crate(c, 1) for c in (1, 1, 2, 2, 3, 3)]
    s4 = build(
        1,
        hold={3: keel_full, 5: [crate(2, 3)]},
        queue=[crate(0, 1), crate(1, 20), crate(0, 1)],
        cargoTypes=4,
    )
    n4 = place(s4, 2)  # trim 5, level; the w20 crate ends at -35, -15, 25, 45: nowhere safe
    assert n4["trim"] == 5
    assert n4["phase"] == "over" and n4["cause"] == "noSafeStow"


def test_hold_full_when_no_legal_bay():
    full = [crate(i % 2, 1) for i in range(6)]
    hold = {
        b: [crate(4 + (b % 2), 1)] * 0 + [crate(c, 1) for c in (0, 0, 1, 1, 2, 2)]
        for b in (1, 2, 4, 5)
    }
    hold[3] = [crate(c, 1) for c in (0, 0, 1, 1, 2)]
    s = build(1, hold=hold, queue=[crate(3, 1), crate(3, 1), crate(0, 1)], cargoTypes=4)
    assert kh.legal_bays(s) == [3]
    n = place(s, 3)
    assert n["phase"] == "over" and n["cause"] == "holdFull"
    assert full  # unused helper list keeps the shape readable


def test_jam_draws_an_open_non_keel_hatch_on_cadence():
    s = build(4, turn=8)  # jamEvery 9 from voyage 4: (8 + 1 - 0) % 9 == 0
    assert s["params"]["jamEvery"] == 9
    n = place(s, 3)
    jammed = [b for b in range(7) if n["jammedUntil"][b]]
    assert len(jammed) == 1 and jammed[0] != 3
    assert n["jammedUntil"][jammed[0]] == 9 + 4
    assert {"type": "PLACE", "bay": jammed[0]} not in kh.legal_actions(n)


def test_squall_flips_wind_on_cadence_before_landing():
    s = build(
        21, conditions=["squall"], wind=5, turn=6, queue=[crate(0, 1), crate(1, 1), crate(2, 1)]
    )
    assert s["params"]["squallEvery"] == 6 and s["trim"] == 5
    assert kh.preview(s, 3).end_trim == -5  # flip at t=6 (6-0)%6==0, t>start
    n = place(s, 3)
    assert n["params"]["wind"] == -5 and n["trim"] == -5


def test_cast_off_carries_hold_queue_and_chain():
    s = build(
        1,
        hold={3: [crate(1, 2), crate(1, 3)]},
        queue=[crate(1, 2), crate(0, 1), crate(2, 2)],
        lots=3,
        chain=2,
        turn=30,
    )
    port = place(s, 3)
    assert port["phase"] == "port"
    assert kh.legal_actions(port) == [{"type": "CAST_OFF"}, {"type": "END_RUN"}]
    nxt = port["next"]
    v2 = kh.step(port, {"type": "CAST_OFF"})
    assert v2["voyage"] == 2 and v2["params"] == nxt and v2["lotsShipped"] == 0
    assert v2["voyageStartTurn"] == 31 and v2["drawn"] == 0 and v2["chain"] == port["chain"]
    assert v2["queue"] == port["queue"] and v2["hold"] == port["hold"]
    assert v2["score"] == port["score"] and v2["turn"] == port["turn"]
    assert v2["trim"] == kh.compute_trim(v2)
    assert v2["params"]["openBays"] == list(range(7))
    assert v2["next"]["quota"] == 6 and v2["next"]["tolerance"] == 10


def test_end_run_keeps_score():
    s = build(
        1,
        hold={3: [crate(1, 2), crate(1, 3)]},
        queue=[crate(1, 2), crate(0, 1), crate(0, 1)],
        lots=3,
    )
    port = place(s, 3)
    end = kh.step(port, {"type": "END_RUN"})
    assert end["phase"] == "over" and end["cause"] == "ended" and end["score"] == port["score"]
    assert end["castOffSafe"] is None and kh.legal_actions(end) == []
    assert end["rng"] == port["rng"]


@pytest.mark.parametrize(
    "action",
    [
        {"type": "PLACE", "bay": 0},  # shut on voyage 1
        {"type": "PLACE", "bay": 7},
        {"type": "PLACE", "bay": True},
        {"type": "PLACE", "bay": 2.0},
        {"type": "PLACE"},
        {"type": "PLACE", "bay": 2, "x": 1},
        {"type": "CAST_OFF"},
        {"type": "END_RUN"},
        {"type": "place", "bay": 2},
        {"bay": 2},
        "PLACE",
        None,
    ],
)
def test_refused_actions_change_nothing(action):
    s = kh.init(7)
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as err:
        kh.step(s, action)
    assert str(err.value)
    assert s == before


def test_jammed_and_full_hatches_refused():
    s = build(2, hold={2: [crate(c, 1) for c in (0, 0, 1, 1, 2, 2)]})
    s["jammedUntil"][4] = 5
    for bay in (2, 4):
        with pytest.raises(IllegalAction):
            place(s, bay)
    assert [a["bay"] for a in kh.legal_actions(s)] == [0, 1, 3, 5, 6]


def test_guard_ends_run_at_20000_placements():
    s = build(2, turn=19999)
    n = place(s, 3)
    assert n["phase"] == "over" and n["cause"] == "guard" and n["turn"] == 20000


def test_init_seed7_shape():
    s = kh.init(7)
    assert s["voyage"] == 1 and s["turn"] == 0 and s["phase"] == "loading"
    assert s["params"] == params_for(1, [], 0)
    assert len(s["queue"]) == 3 and [c["id"] for c in s["queue"]] == [1, 2, 3]
    assert all(1 <= c["weight"] <= 3 and c["cargo"] in (0, 1, 2) for c in s["queue"])
    assert s["safeBays"] == [1, 2, 3, 4, 5]  # an empty hull takes any crate of weight <= 3
    assert s["next"]["voyage" if False else "quota"] == 5 and abs(s["next"]["wind"]) <= 2
    assert kh.init(7) == s and kh.init(8) != s


def test_ramp_table_values():
    assert params_for(1, [], 0)["cargoTypes"] == 3
    p10 = params_for(10, [], 0)
    assert (
        p10["cargoTypes"],
        p10["weightMin"],
        p10["weightMax"],
        p10["tolerance"],
        p10["quota"],
        p10["jamEvery"],
        p10["ballastEvery"],
        p10["rushEvery"],
    ) == (6, 2, 6, 24, 13, 7, 10, 12)
    p = params_for(25, ["heavyLot", "tightWater", "stickyHatches", "shortCrew"], 3)
    assert (
        p["weightMin"],
        p["weightMax"],
        p["tolerance"],
        p["jamEvery"],
        p["maxJams"],
        p["queueSize"],
    ) == (3, 7, 6 + 48 - 1, 5, 2, 2)
    assert params_for(30, [], 0)["quota"] == 33


def test_every_cast_off_raises_the_tolerance_and_the_quota():
    """THE PORT CALL: casting off raises both. Consecutive voyages never share a condition,
    so a tightWater voyage always follows one without it: 6 + 2 * 21 = 48 on voyage 22
    without, then 6 + 2 * 22 - 1 = 49 with tightWater on voyage 23, then 52 without."""
    from sunbot.engines.keelhold_gen import CONDITIONS

    assert [params_for(v, c, 0)["tolerance"] for v, c in ((22, []), (23, ["tightWater"]))] == [
        48,
        49,
    ]
    for v in range(1, 200):
        for before in CONDITIONS:
            for after in CONDITIONS:
                if after == before:
                    continue
                a, b = params_for(v, [before], 0), params_for(v + 1, [after], 0)
                assert b["tolerance"] > a["tolerance"] and b["quota"] == a["quota"] + 1


def test_observation_is_the_state_without_the_cursor():
    """The platform protocol: Keelhold hides nothing but the cursor, so the observation (and
    the server's ``observation``) is the state without ``rng``; the served ``state`` keeps it."""
    from sunbot.games import get_game

    s = kh.step(kh.init(7), {"type": "PLACE", "bay": 3})
    obs = kh.observation(s)
    assert obs == {k: v for k, v in s.items() if k != "rng"} and isinstance(s["rng"], list)
    obs["queue"][0]["weight"] += 1
    assert obs["queue"][0] != s["queue"][0]  # a copy: the state is untouched
    served = get_game("keelhold").served_fields(s)
    assert "rng" not in served["observation"] and served["state"]["rng"] == s["rng"]
