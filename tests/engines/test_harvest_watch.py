"""Harvest Watch engine: the worked examples of spec §6 and the rules of §3/§5, by hand.

Foods are written in tenths (the engine's unit); views show tenths / 10.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sunbot.engines import IllegalAction
from sunbot.engines import harvest_watch as hw
from sunbot.games import get_game

E = "\u2026"
FARM = {"act": "farm"}
GUARD = {"act": "guard"}


def coop(n: int) -> dict[str, Any]:
    return {"act": "farm_coop", "with": n}


def steal(n: int) -> dict[str, Any]:
    return {"act": "steal", "target": n}


def donate(n: int) -> dict[str, Any]:
    return {"act": "donate", "to": n}


def ballot(n: int, m: int) -> dict[str, Any]:
    return {"punish": n, "giveTo": m}


ABSTAIN = {"punish": None}


def state_at(
    phase: str,
    foods: list[int],
    day: int = 1,
    out: dict[int, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """A consistent plain state at the opening of ``phase`` on ``day``.

    ``foods`` are tenths; ``out`` maps a seat that is already out to (out-night, P). The
    day's earlier beats are filled as if every living seat had missed them.
    """
    s = hw.init(0, len(foods))
    s["day"], s["phase"], s["round"] = day, phase, hw.round_of(day, phase)
    s["food"] = list(foods)
    for seat, (night, p) in (out or {}).items():
        s["alive"][seat], s["outNight"][seat], s["preCost"][seat] = False, night, p
        s["food"][seat] = 0
    living = [i for i, a in enumerate(s["alive"]) if a]
    k = hw.PHASES.index(phase)
    if k >= 1:
        s["speeches1"] = {str(i): E for i in living}
    if k >= 2:
        s["speeches2"] = {str(i): E for i in living}
    if k >= 3:
        s["votes"] = {str(i): dict(ABSTAIN) for i in living}
        s["punishResult"] = {"punished": None, "fine": 0, "shares": {}}
    s["lastPublic"] = f"Day {day}: {phase}."
    return s


def run(state: dict[str, Any], cmds: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Resolve the current beat with one command per listed seat."""
    return hw.resolve_beat(state, {seat: [c] for seat, c in cmds.items()})


def summary(state: dict[str, Any], seat: int) -> dict[str, Any]:
    out: dict[str, Any] = hw.view(state, seat)["summary"]
    return out


def foods(state: dict[str, Any]) -> list[float]:
    out: list[float] = summary(state, 0)["foods"]
    return out


# ---------------------------------------------------------------- module surface


def test_registry_and_names() -> None:
    assert get_game("harvest-watch").match_engine is hw
    assert hw.SLUG == "harvest-watch"
    assert hw.NAME == "Harvest Watch"
    assert set(hw.SPEC) >= {"goal", "scoring", "rules", "commandSchema"}
    assert all(isinstance(r, str) for r in hw.SPEC["rules"])
    shapes = hw.SPEC["commandSchema"]["oneOf"]
    coop_shape = next(x for x in shapes if x["properties"].get("act") == {"const": "farm_coop"})
    assert coop_shape["required"] == ["act", "with"]


def test_init_state() -> None:
    s = hw.init(42)
    assert s["seats"] == 6 and s["seed"] == 42
    assert s["status"] == "running"
    assert (s["day"], s["phase"], s["round"]) == (1, "speech1", 1)
    assert s["food"] == [50] * 6
    assert s["alive"] == [True] * 6
    assert s["lastPublic"] == "Day 1: speech1."
    assert hw.init(42) == s
    assert len(hw.init(1, seats=3)["food"]) == 3
    for bad in (1, 7, True, 2.0):
        with pytest.raises(ValueError):
            hw.init(1, seats=bad)  # type: ignore[arg-type]


def test_default_commands() -> None:
    assert hw.default_command("speech1") == {"speech": "…"}
    assert hw.default_command("speech2") == {"speech": "\u2026"}
    assert hw.default_command("vote") == {"punish": None}
    assert hw.default_command("action") == {"act": "guard"}
    assert hw.default_command("diary") == {"diary": "…"}
    with pytest.raises(ValueError):
        hw.default_command("done")
    hw.default_command("vote")["punish"] = 3  # a fresh dict every time
    assert hw.default_command("vote") == {"punish": None}


# ---------------------------------------------------------------- E1..E8 (§6)


def test_e1_mutual_coop_one_sided_coop_and_guard() -> None:
    s = hw.init(5)
    for _ in range(3):  # speech1, speech2, vote: everyone missed
        s = hw.resolve_beat(s, {})
    assert (s["phase"], s["round"]) == ("action", 4)
    s = run(s, {0: coop(1), 1: coop(0), 2: coop(0), 3: FARM, 4: GUARD, 5: coop(4)})
    assert s["preCost"] == [75, 75, 70, 70, 50, 70]
    assert s["food"] == [45, 45, 40, 40, 40, 40]
    assert foods(s) == [4.5, 4.5, 4.0, 4.0, 4.0, 4.0]
    assert s["alive"] == [True] * 6
    assert (s["phase"], s["round"], s["lastPublic"]) == ("diary", 5, "Day 1: diary.")


E2_OPEN = [50, 40, 10, 50, 20, 50]
E2_ACTS = {0: FARM, 1: steal(2), 2: FARM, 3: FARM, 4: steal(2), 5: FARM}


def test_e2_two_thieves_split_a_small_store() -> None:
    s = run(state_at("action", E2_OPEN), E2_ACTS)
    assert s["preCost"] == [70, 55, 0, 70, 35, 70]
    assert foods(s) == [4.0, 2.5, 0.0, 4.0, 0.5, 4.0]
    assert s["alive"] == [True, True, False, True, True, True]
    assert s["outNight"][2] == 1
    assert summary(s, 1)["collided"] == [4]
    assert summary(s, 4)["collided"] == [1]
    assert summary(s, 2)["caught"] == []
    assert summary(s, 2)["collided"] == []
    assert s["lastPublic"] == "Night 1: seat 2 out."


def test_e2_variant_spare_tenth_goes_to_the_lower_thief() -> None:
    s = run(state_at("action", [50, 40, 11, 50, 20, 50]), E2_ACTS)  # store 3.1
    assert s["preCost"][1] - 40 == 16 and s["preCost"][4] - 20 == 15
    assert s["preCost"][2] == 0
    assert s["food"][1] == 26 and s["food"][4] == 5


def test_e2_variant_boundary_counts() -> None:
    s = run(state_at("action", [50, 40, 20, 50, 20, 50]), E2_ACTS)  # store 4.0 == 2 * 2.0
    assert s["preCost"][1] == 60 and s["preCost"][4] == 40
    assert s["preCost"][2] == 0
    assert not s["alive"][2]


def test_steal_covered_store_keeps_the_rest_and_empty_store_stays_empty() -> None:
    s = run(state_at("action", [50, 40, 10, 50, 20, 50]), {0: steal(3), 1: steal(5)})
    # seat 3 (5.0, guard by default) blocks; seat 5 guards too.
    assert s["caught"][3] == [0] and s["caught"][5] == [1]
    s = run(state_at("action", [50, 50, 50, 50, 50, 50]), {0: steal(1), 1: FARM, 2: steal(1)})
    assert s["preCost"][1] == 70 - 40  # 7.0 covers 2 x 2.0: loses exactly 4.0
    assert s["preCost"][0] == 70 and s["preCost"][2] == 70
    s = run(state_at("action", [50, 50, 50, 50, 50, 50]), {0: steal(1), 1: donate(2)})
    assert s["preCost"][1] == 40 - 20  # donation first, then the steal from 4.0
    s = run(
        state_at("action", [50, 10, 50, 50, 50, 50]),
        {0: steal(1), 1: donate(2), 2: FARM, 3: steal(1)},
    )
    assert s["preCost"][1] == 0 and s["preCost"][0] == 50 and s["preCost"][3] == 50
    assert s["collided"][0] == [3] and s["collided"][3] == [0]


def test_loot_cannot_be_stolen_the_same_night_and_thieves_steal_from_each_other() -> None:
    # 0 steals from 1 while 2 steals from 0: takes are worked out from S, before any loot.
    s = run(state_at("action", [10, 50, 50, 50, 50, 50]), {0: steal(1), 1: FARM, 2: steal(0)})
    assert s["preCost"][:3] == [10 - 10 + 20, 70 - 20, 50 + 10]
    # E7's mutual theft: both 2.0 takes from S, so nothing changes.
    s = run(state_at("action", [50, 50, 32, 50, 50, 40]), {2: steal(5), 5: steal(2)})
    assert s["preCost"][2] == 32 and s["preCost"][5] == 40


def test_e3_guarded_target_blocks_both_thieves() -> None:
    s = run(state_at("action", [40, 50, 50, 20, 50, 30]), {0: steal(3), 3: GUARD, 5: steal(3)})
    # 1, 2, 4 missed the beat: guard, 5.0 -> 4.0
    assert foods(s) == [1.0, 4.0, 4.0, 1.0, 4.0, 0.0]
    assert s["alive"] == [True, True, True, True, True, False]
    assert summary(s, 3)["caught"] == [0, 5]
    assert summary(s, 0)["collided"] == [5]
    assert summary(s, 5)["collided"] == [0]
    assert summary(s, 0)["caught"] == [] and summary(s, 3)["collided"] == []
    assert s["lastPublic"] == "Night 1: seat 5 out."


E4_FOODS = [30, 25, 34, 40, 22, 0]


def test_e4_fine_split_two_to_one() -> None:
    s = state_at("vote", E4_FOODS, day=2, out={5: (1, 10)})
    s = run(s, {0: ballot(2, 4), 1: ballot(2, 4), 3: ballot(2, 1), 2: ballot(0, 3), 4: ABSTAIN})
    assert s["punishResult"] == {"punished": 2, "fine": 20, "shares": {"1": 7, "4": 13}}
    v = summary(s, 0)
    assert v["punishResult"] == {"punished": 2, "fine": 2.0, "shares": {"1": 0.7, "4": 1.3}}
    assert v["foods"] == [3.0, 3.2, 1.4, 4.0, 3.5, 0.0]
    assert v["votes"] == {
        "0": {"punish": 2, "giveTo": 4},
        "1": {"punish": 2, "giveTo": 4},
        "2": {"punish": 0, "giveTo": 3},
        "3": {"punish": 2, "giveTo": 1},
        "4": {"punish": None},
    }
    assert (v["phase"], s["round"]) == ("action", 5 + 4)
    assert v["lastPublic"] == "Day 2: seat 2 fined 2.0."


def test_e4_mirror_case() -> None:
    s = state_at("vote", E4_FOODS, day=2, out={5: (1, 10)})
    s = run(s, {0: ballot(2, 1), 1: ballot(2, 4), 3: ballot(2, 1), 2: ballot(0, 3)})
    assert summary(s, 4)["punishResult"]["shares"] == {"1": 1.4, "4": 0.6}
    assert s["food"] == [30, 25 + 14, 14, 40, 22 + 6, 0]


def test_fine_shares_list_a_zero_share_and_sum_to_the_fine() -> None:
    # seat 5 holds 0.1: F = 1 tenth split 1:1 between 0 and 1 -> 0.1 and 0.0
    s = state_at("vote", [50, 50, 50, 50, 50, 1])
    s = run(s, {0: ballot(5, 1), 1: ballot(5, 0), 2: ballot(5, 0), 3: ballot(5, 1)})
    assert summary(s, 2)["punishResult"] == {
        "punished": 5,
        "fine": 0.1,
        "shares": {"0": 0.1, "1": 0.0},
    }
    assert s["food"] == [51, 50, 50, 50, 50, 0]
    assert s["alive"][5]  # at 0.0 but living until the night cost decides
    assert len(hw.legal_commands(s, 5) or []) == 12  # no donate at 0.0
    s = run(s, {5: FARM})
    assert not s["alive"][5] and s["preCost"][5] == 20


@pytest.mark.parametrize(("living", "needed"), [(6, 4), (5, 3), (4, 3), (3, 2)])
def test_fine_needs_more_than_half_of_the_living_seats(living: int, needed: int) -> None:
    out = {s: (1, 10) for s in range(living, 6)}
    for count in (needed - 1, needed):
        s = state_at("vote", [50] * 6, day=2, out=out)
        s = run(s, {v: ballot(0, 1 if v != 1 else 2) for v in range(1, 1 + count)})
        fined = s["punishResult"]["punished"]
        assert fined == (0 if count == needed else None), (living, count)


def test_no_fine_is_possible_with_two_living_seats() -> None:
    s = state_at(
        "vote", [50, 0, 0, 50, 0, 0], day=3, out={1: (1, 5), 2: (1, 5), 4: (2, 5), 5: (2, 5)}
    )
    assert hw.validate_command(s, 0, ballot(3, 0)) is not None  # giveTo == voter
    assert hw.validate_command(s, 0, ballot(3, 3)) is not None  # giveTo == punish
    assert hw.validate_command(s, 0, ballot(0, 3)) is None  # self-punish is allowed
    s = run(s, {0: ballot(0, 3), 3: ABSTAIN})
    assert s["punishResult"]["punished"] is None  # 1 ballot of 2 living is not a majority


def test_e5_a_seat_going_out_and_the_donation_that_saves_it() -> None:
    out = {4: (3, 10), 5: (3, 12)}
    opening = [30, 25, 8, 45, 0, 0]
    s0 = state_at("action", opening, day=4, out=out)
    assert len(hw.legal_commands(s0, 2) or []) == 8  # 0.8 < 1.0: 2n
    assert len(hw.legal_commands(s0, 3) or []) == 11  # 3n - 1
    s = run(s0, {0: FARM, 1: GUARD, 2: FARM, 3: FARM})
    assert [s["preCost"][i] for i in range(4)] == [50, 25, 28, 65]
    assert foods(s) == [2.0, 1.5, 0.0, 3.5, 0.0, 0.0]
    assert s["alive"] == [True, True, False, True, False, False]
    assert s["lastPublic"] == "Night 4: seat 2 out."
    assert summary(s, 0)["aliveSeats"] == [0, 1, 3]
    s = run(s0, {0: FARM, 1: GUARD, 2: FARM, 3: donate(2)})
    assert s["preCost"][2] == 38 and s["preCost"][3] == 35
    assert foods(s)[:4] == [2.0, 1.5, 0.8, 0.5]
    assert s["lastPublic"] == "Day 4: diary."


E6_OUT = {1: (4, 20), 3: (6, 7), 4: (4, 20)}


def test_e6_simultaneous_wipe_out() -> None:
    s = state_at("action", [6, 0, 4, 0, 0, 9], day=7, out=E6_OUT)
    s = run(s, {0: FARM, 2: FARM, 5: steal(0)})
    assert {i: s["preCost"][i] for i in (0, 2, 5)} == {0: 6, 2: 24, 5: 29}
    assert s["alive"] == [False] * 6
    assert s["status"] == "done" and s["phase"] == "done"
    assert s["result"] == {"ranks": [3, 5, 2, 4, 5, 1]}
    assert s["round"] == 5 * 6 + 4  # the final action beat's round
    assert s["lastPublic"] == "Seat 5 wins on night 7."
    v = hw.view(s, 3)
    assert v["result"] == {"ranks": [3, 5, 2, 4, 5, 1]}
    assert v["summary"]["phase"] == "done" and v["summary"]["nightCost"] is None


def test_e6_draw_variant() -> None:
    s = state_at("action", [6, 0, 9, 0, 0, 9], day=7, out=E6_OUT)  # seat 2: 0.9 + 2.0 = 2.9
    s = run(s, {0: FARM, 2: FARM, 5: steal(0)})
    assert s["preCost"][2] == s["preCost"][5] == 29
    assert s["result"]["ranks"] == [3, 5, 1, 4, 5, 1]
    assert s["lastPublic"] == "Draw on night 7: seats 2, 5."


def test_last_survivor_wins_and_keeps_the_day_fields() -> None:
    s = state_at("action", [50, 5, 0, 0, 0, 0], day=6, out={i: (5, 3) for i in range(2, 6)})
    s = run(s, {0: steal(1), 1: FARM})
    assert s["food"][:2] == [50 + 20 - 30, 0]
    assert s["result"]["ranks"] == [1, 2, 3, 3, 3, 3]
    assert s["lastPublic"] == "Seat 0 wins on night 6."
    v = summary(s, 0)
    assert v["phase"] == "done" and v["alive"] and v["aliveSeats"] == [0]
    assert v["collided"] == [] and "votes" in v and "speeches2" in v
    assert hw.legal_commands(s, 0) == []
    with pytest.raises(IllegalAction, match="not_running"):
        hw.resolve_beat(s, {})


def test_e7_full_day_vector() -> None:
    s = state_at("speech1", [35, 35, 32, 30, 13, 40], day=3)
    assert s["round"] == 11
    s = run(s, {i: {"speech": f"hello from {i}"} for i in range(6)})
    assert (s["phase"], s["round"], s["lastPublic"]) == ("speech2", 12, "Day 3: speech2.")
    s = hw.resolve_beat(s, {0: [], 3: [{"speech": "x" * 200}]})
    assert summary(s, 1)["speeches2"] == {"0": E, "1": E, "2": E, "3": "x" * 200, "4": E, "5": E}
    assert (s["phase"], s["round"], s["lastPublic"]) == ("vote", 13, "Day 3: vote.")
    s = run(
        s, {0: ballot(4, 1), 1: ballot(4, 0), 2: ballot(4, 0), 5: ballot(4, 0), 4: ballot(5, 3)}
    )
    v = summary(s, 2)
    assert v["punishResult"] == {"punished": 4, "fine": 1.3, "shares": {"0": 1.0, "1": 0.3}}
    assert v["foods"] == [4.5, 3.8, 3.2, 3.0, 0.0, 4.0]
    assert v["votes"]["3"] == {"punish": None}
    assert (s["phase"], s["round"], v["lastPublic"]) == ("action", 14, "Day 3: seat 4 fined 1.3.")
    assert len(hw.legal_commands(s, 4) or []) == 12
    assert len(hw.legal_commands(s, 3) or []) == 17
    acts = {0: coop(1), 1: coop(0), 2: steal(5), 3: donate(4), 4: FARM, 5: steal(2)}
    for seat, a in acts.items():
        assert hw.validate_command(s, seat, a) is None
    s = run(s, acts)
    assert s["preCost"] == [70, 63, 32, 20, 30, 40]
    assert foods(s) == [4.0, 3.3, 0.2, 0.0, 0.0, 1.0]
    assert s["alive"] == [True, True, True, False, False, True]
    assert s["outNight"] == [None, None, None, 3, 3, None]
    assert summary(s, 2)["collided"] == [] and summary(s, 5)["collided"] == []
    assert all(summary(s, i)["caught"] == [] for i in range(6))
    assert (s["phase"], s["round"]) == ("diary", 15)
    assert summary(s, 0)["aliveSeats"] == [0, 1, 2, 5]
    assert s["lastPublic"] == "Night 3: seats 3, 4 out."
    s = run(s, {0: {"diary": "private"}})
    assert (s["day"], s["phase"], s["round"]) == (4, "speech1", 16)
    assert s["lastPublic"] == "Day 4: speech1."
    for key in ("speeches1", "speeches2", "votes", "punishResult", "caught", "collided"):
        assert key not in summary(s, 0)
    assert s["log"][-1]["applied"] == {"0": {"diary": "private"}, "1": {"diary": E},
                                       "2": {"diary": E}, "5": {"diary": E}}  # fmt: skip


def test_e8_idle_match_is_a_six_way_draw() -> None:
    s = hw.init(8)
    seen_foods = []
    beats = 0
    while s["status"] == "running":
        if s["phase"] == "speech1":
            seen_foods.append(list(s["food"]))
        s = hw.resolve_beat(s, {})
        beats += 1
    assert seen_foods == [[50] * 6, [40] * 6, [30] * 6, [20] * 6, [10] * 6]
    assert beats == 4 * 5 + 4
    assert s["food"] == [0] * 6 and s["preCost"] == [10] * 6
    assert s["outNight"] == [5] * 6
    assert s["result"] == {"ranks": [1, 1, 1, 1, 1, 1]}
    assert (s["day"], s["round"]) == (5, 24)
    assert s["lastPublic"] == "Draw on night 5: seats 0, 1, 2, 3, 4, 5."


# ---------------------------------------------------------------- rounds and lastPublic


def test_rounds_follow_day_and_phase_and_done_keeps_the_action_round() -> None:
    s = hw.init(3)
    lines = []
    while s["status"] == "running":
        k = hw.PHASES.index(s["phase"]) + 1
        assert s["round"] == 5 * (s["day"] - 1) + k
        lines.append(s["lastPublic"])
        prev_round = s["round"]
        s = hw.resolve_beat(s, {})
        assert s["round"] == prev_round + 1 or s["status"] == "done"
    assert s["round"] == prev_round == 24
    assert lines[:6] == [
        "Day 1: speech1.",
        "Day 1: speech2.",
        "Day 1: vote.",
        "Day 1: action.",
        "Day 1: diary.",
        "Day 2: speech1.",
    ]
    assert hw.round_of(1, "speech1") == 1 and hw.round_of(3, "diary") == 15


def test_missing_empty_and_ignored_command_lists() -> None:
    s = state_at("action", [50, 50, 50, 50, 50, 0], out={5: (1, 10)})
    cmds: dict[int, list[dict[str, Any]]] = {
        0: [FARM, {"garbage": True}],  # only the first element applies
        1: [],  # stored hold: default guard
        5: [{"nonsense": 1}],  # out seat: ignored
        9: [{"nonsense": 1}],  # unknown seat: ignored
    }
    before = copy.deepcopy(cmds)
    t = hw.resolve_beat(s, cmds)
    assert cmds == before
    assert t["preCost"][:5] == [70, 50, 50, 50, 50]
    assert t["food"][:5] == [40, 40, 40, 40, 40]
    assert t["log"][-1]["applied"] == {"0": FARM, "1": GUARD, "2": GUARD, "3": GUARD, "4": GUARD}


def test_string_seat_keys_are_a_type_error_not_a_silent_default() -> None:
    s = state_at("action", [50] * 6)
    with pytest.raises(TypeError):
        hw.resolve_beat(s, {"0": [FARM]})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        hw.resolve_beat(s, {0: FARM})  # type: ignore[dict-item]


def test_resolve_beat_refuses_an_illegal_applied_command_and_changes_nothing() -> None:
    s = state_at("action", [50, 50, 50, 50, 50, 0], out={5: (1, 10)})
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction, match="illegal_command"):
        run(s, {0: steal(5)})
    with pytest.raises(IllegalAction, match="illegal_command"):
        hw.resolve_beat(s, {1: [{"speech": "on the action beat"}]})
    assert s == before


def test_dead_targets_are_void_at_resolution() -> None:
    """§3.7, defensive only: reached through the internal resolver, never through legal play."""
    s = state_at("action", [50, 50, 50, 50, 50, 0], out={5: (1, 10)})
    hw.resolve_acts(s, {0: coop(5), 1: steal(5), 2: donate(5), 3: GUARD, 4: steal(4)})
    assert s["preCost"][:5] == [70, 50, 50, 50, 50]
    assert s["food"] == [40, 20, 20, 40, 20, 0]
    assert s["collided"][1] == [] and s["caught"][5] == []


# ---------------------------------------------------------------- legal lists (§5)


def test_legal_list_order_and_counts() -> None:
    s = state_at("action", [50] * 6)
    legal = hw.legal_commands(s, 2)
    assert legal == [
        FARM,
        *[coop(n) for n in (0, 1, 3, 4, 5)],
        GUARD,
        *[steal(n) for n in (0, 1, 3, 4, 5)],
        *[donate(n) for n in (0, 1, 3, 4, 5)],
    ]
    assert len(legal) == 17
    s["food"][2] = 9
    assert len(hw.legal_commands(s, 2) or []) == 12
    s["food"][2] = 10  # exactly 1.0 offers donate
    assert len(hw.legal_commands(s, 2) or []) == 17


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_legal_counts_3n_minus_1_and_2n(n: int) -> None:
    out = {s: (1, 5) for s in range(n, 6)}
    s = state_at("action", [10] * n + [0] * (6 - n), day=2, out=out)
    assert all(len(hw.legal_commands(s, i) or []) == 3 * n - 1 for i in range(n))
    s = state_at("action", [9] * n + [0] * (6 - n), day=2, out=out)
    assert all(len(hw.legal_commands(s, i) or []) == 2 * n for i in range(n))
    assert all(hw.legal_commands(s, i) == [] for i in range(n, 6))


def test_legal_list_is_none_off_the_action_beat() -> None:
    for phase in ("speech1", "speech2", "vote", "diary"):
        s = state_at(phase, [50, 50, 50, 50, 50, 0], out={5: (1, 10)})
        assert hw.legal_commands(s, 0) is None
        assert hw.legal_commands(s, 5) == []
    with pytest.raises(ValueError):
        hw.legal_commands(hw.init(1), 6)


# ---------------------------------------------------------------- validation (§3.6)


def _vote_state() -> dict[str, Any]:
    return state_at("vote", [50, 50, 50, 50, 50, 0], day=2, out={5: (1, 10)})


@pytest.mark.parametrize(
    "cmd",
    [
        {"punish": None},
        {"punish": 1, "giveTo": 2},
        {"punish": 0, "giveTo": 1},  # N may be the voter itself
        {"giveTo": 4, "punish": 3},
    ],
)
def test_vote_accepts(cmd: dict[str, Any]) -> None:
    assert hw.validate_command(_vote_state(), 0, cmd) is None


@pytest.mark.parametrize(
    "cmd",
    [
        {"punish": True, "giveTo": 2},
        {"punish": 1, "giveTo": True},
        {"punish": 2.0, "giveTo": 1},
        {"punish": 1, "giveTo": 2.0},
        {"punish": 1, "giveTo": 0},  # giveTo == voter
        {"punish": 1, "giveTo": 1},  # giveTo == N
        {"punish": 5, "giveTo": 1},  # N is out
        {"punish": 1, "giveTo": 5},  # M is out
        {"punish": 6, "giveTo": 1},  # no such seat
        {"punish": -1, "giveTo": 1},
        {"punish": "1", "giveTo": 2},
        {"punish": None, "giveTo": 1},
        {"punish": 1},
        {"punish": False},
        {"punish": 1, "giveTo": 2, "note": "x"},
        {},
        {"speech": "hi"},
        {"act": "guard"},
        None,
        [{"punish": None}],
        "abstain",
    ],
)
def test_vote_rejects(cmd: Any) -> None:
    reason = hw.validate_command(_vote_state(), 0, cmd)
    assert isinstance(reason, str) and reason


@pytest.mark.parametrize("phase", ["speech1", "speech2"])
def test_speech_lengths_in_code_points(phase: str) -> None:
    s = state_at(phase, [50] * 6)
    ok = ["a", "x" * 200, "\U0001f600" * 200, E]
    bad: list[Any] = ["", "x" * 201, "\U0001f600" * 201, 5, None, ["hi"]]
    for text in ok:
        assert hw.validate_command(s, 1, {"speech": text}) is None
    for text in bad:
        assert hw.validate_command(s, 1, {"speech": text}) is not None
    assert hw.validate_command(s, 1, {"diary": "hi"}) is not None  # diary on a speech beat
    assert hw.validate_command(s, 1, {"speech": "hi", "diary": "x"}) is not None
    assert hw.validate_command(s, 1, {"act": "guard"}) is not None
    assert hw.validate_command(s, 1, "hi") is not None


def test_diary_lengths_and_speech_on_the_diary_beat() -> None:
    s = state_at("diary", [50] * 6)
    assert hw.validate_command(s, 0, {"diary": "d"}) is None
    assert hw.validate_command(s, 0, {"diary": "d" * 80}) is None
    assert hw.validate_command(s, 0, {"diary": "\U0001f600" * 80}) is None
    assert hw.validate_command(s, 0, {"diary": "d" * 81}) is not None
    assert hw.validate_command(s, 0, {"diary": ""}) is not None
    assert hw.validate_command(s, 0, {"speech": "hello"}) is not None


def test_action_needs_deep_json_equality_with_a_legal_entry() -> None:
    s = state_at("action", [50, 50, 50, 50, 9, 0], out={5: (1, 10)})
    for entry in hw.legal_commands(s, 0) or []:
        assert hw.validate_command(s, 0, copy.deepcopy(entry)) is None
    bad: list[Any] = [
        {"act": "steal", "target": 2.0},
        {"act": "steal", "target": True},
        {"act": "steal", "target": 5},  # dead target
        {"act": "donate", "to": 5},
        {"act": "farm_coop", "with": 5},
        {"act": "farm_coop", "with": 0},  # self
        {"act": "steal", "target": 0},
        {"act": "farm", "extra": 1},
        {"act": "rest"},
        {"act": "farm_coop"},
        {"punish": None},
        "farm",
        None,
    ]
    for cmd in bad:
        assert hw.validate_command(s, 0, cmd) is not None, cmd
    assert hw.validate_command(s, 4, donate(0)) is not None  # 0.9 opening: no donate
    assert hw.validate_command(s, 1, donate(4)) is None


def test_out_unknown_and_finished_seats_are_refused() -> None:
    s = _vote_state()
    assert hw.validate_command(s, 5, {"punish": None}) is not None
    assert hw.validate_command(s, 6, {"punish": None}) is not None
    assert hw.validate_command(s, True, {"punish": None}) is not None
    done = run(state_at("action", [50, 5, 0, 0, 0, 0], day=6, out={i: (5, 3) for i in range(2, 6)}),
               {0: steal(1), 1: FARM})  # fmt: skip
    assert done["status"] == "done"
    assert hw.validate_command(done, 0, {"act": "guard"}) is not None
