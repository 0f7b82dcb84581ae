"""Harvest Watch strategies: speech parsing, the coalition's rules by hand, baselines legal."""

from __future__ import annotations

import random

import pytest

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.strategies.harvest_watch import Coalition, parse_speech
from tests.benchmark_module import load_benchmark
from tests.hw_args import hw_args

bench = load_benchmark("harvest_watch")


def data(summary_over: dict, phase: str = "action", you: int = 0, legal: bool = True) -> dict:
    s = {"you": you, "day": 2, "phase": phase, "food": 4.0, "foods": [4.0] * 6, "alive": True,
         "aliveSeats": list(range(6)), "nightCostBase": 3.0, "nightCostIfGuard": 1.0,
         "nightCost": 3.0, "lastPublic": "Day 2: action."}  # fmt: skip
    s.update(summary_over)
    s["food"] = s["foods"][you]
    state = {"phase": phase, "food": [round(f * 10) for f in s["foods"]],
             "alive": [i in s["aliveSeats"] for i in range(6)], "seats": 6, "status": "running"}  # fmt: skip
    out = {"round": hw.round_of(s["day"], phase), "phase": phase, "summary": s}
    if phase == "action" and legal:
        out["legal"] = hw.legal_commands(state, you)
    elif phase != "action":
        out["schema"] = {"example": hw.default_command(phase)}
    return out


def test_parse_speech_reads_house_templates_and_coalition_format():
    assert parse_speech("Seat 3: I cooperate with seat 4.") == {
        "coalition": False, "house": True, "coop": 4}  # fmt: skip
    assert parse_speech("Seat 5: I guard.") == {"coalition": False, "house": True, "guard": True}
    got = parse_speech("Seat 1: coalition. coop=0 target=4 ring=0>1>2")
    assert got == {"coalition": True, "coop": 0, "target": 4, "ring": [0, 1, 2]}
    assert parse_speech("Seat 1: coalition. coop=- target=-")["coop"] is None
    assert parse_speech("hello") == {"coalition": False}


def test_coalition_coops_with_a_confirmed_partner():
    bot = Coalition(random.Random(0))
    sp = {
        "0": "Seat 0: coalition. coop=1 target=- ring=0>1",
        "1": "Seat 1: coalition. coop=0 target=- ring=0>1",
    }
    d = data({"speeches1": sp, "speeches2": sp, "votes": {}, "punishResult": {}})
    assert bot.choose(*hw_args(d)) == {"act": "farm_coop", "with": 1}


def test_coalition_alone_steals_from_the_richest_non_guard_and_guards_when_richest():
    bot = Coalition(random.Random(0))
    sp1 = {str(i): f"Seat {i}: I cooperate with seat {i ^ 1}." for i in range(1, 5)}
    sp1["5"] = "Seat 5: I guard."
    foods = [3.0, 4.5, 4.0, 4.5, 4.5, 6.0]
    d = data({"foods": foods, "speeches1": sp1, "speeches2": {}})
    assert bot.choose(*hw_args(d)) == {
        "act": "steal",
        "target": 1,
    }  # 5 guards; 1 is richest, lowest
    foods = [6.5, 4.5, 4.0, 4.5, 4.5, 6.0]
    assert bot.choose(*hw_args(data({"foods": foods, "speeches1": sp1}))) == {"act": "guard"}
    # a night it cannot survive (opening <= 1.0): never guard, take 2.0 from the richest
    foods = [1.0, 4.5, 4.0, 0.5, 0.5, 6.0]
    assert bot.choose(*hw_args(data({"foods": foods, "speeches1": sp1}))) == {
        "act": "steal",
        "target": 1,
    }


def test_coalition_bloc_votes_and_routes_the_fine_around_the_ring():
    text = "Seat {s}: coalition. coop=- target=5 ring=0>1>2>3"
    sp = {str(s): text.format(s=s) for s in range(4)} | {"4": "…", "5": "…"}
    foods = [4.0, 4.0, 4.0, 4.0, 4.0, 4.5]  # seat 0 (lowest member) proposes the richest: 5
    votes = [Coalition(random.Random(0)).choose(*hw_args(data({"speeches1": sp, "foods": foods}, "vote", s)))
             for s in range(4)]  # fmt: skip
    assert votes == [{"punish": 5, "giveTo": 1}, {"punish": 5, "giveTo": 2},
                     {"punish": 5, "giveTo": 3}, {"punish": 5, "giveTo": 0}]  # fmt: skip
    # a bloc of two among six cannot fine: it abstains
    sp = {"0": text.format(s=0), "1": text.format(s=1)}
    assert Coalition(random.Random(0)).choose(*hw_args(data({"speeches1": sp}, "vote"))) == {
        "punish": None
    }


def test_coalition_marks_a_member_that_voted_against_the_bloc():
    bot = Coalition(random.Random(0))
    sp = {str(s): f"Seat {s}: coalition. coop=- target=- ring=0>1>2" for s in range(3)}
    votes = {"0": {"punish": None}, "1": {"punish": 0, "giveTo": 2}, "2": {"punish": None}}
    bot.choose(
        *hw_args(data({"speeches1": sp, "speeches2": sp, "votes": votes, "punishResult": {}}))
    )
    assert bot.defectors == {1}


def test_six_coalition_seats_coop_to_a_six_way_draw_on_night_10():
    """All pairs mutual: -0.5 a day; day 10 opens at 0.5, P = 3.0, all out (§7)."""
    _, ranks, state = bench.play_engine_match(3, [bench.maker("coalition")] * 6)
    assert ranks == [1] * 6 and state["outNight"] == [10] * 6
    assert (
        state["preCost"] == [30] * 6
        and state["lastPublic"] == "Draw on night 10: seats 0, 1, 2, 3, 4, 5."
    )


@pytest.mark.parametrize("name", ["coalition", "guard", "farmer", "random", "house"])
def test_every_strategy_plays_only_legal_commands(name):
    for seed in range(1, 6):
        rng = random.Random(seed)
        bots = {s: strategies.create("harvest-watch", name, random.Random(s)) for s in range(6)}
        state = hw.init(seed, 6)
        while state["status"] != "done":
            cmds = {}
            for s, bot in bots.items():
                if state["alive"][s]:
                    cmd = bot.choose(*hw_args(seat_data(state, s, can_act=True, pending=None)))
                    assert hw.validate_command(state, s, cmd) is None, (name, cmd)
                    cmds[s] = [cmd]
            state = hw.resolve_beat(state, cmds)
        assert rng is not None and min(state["result"]["ranks"]) == 1


def test_wilson_interval_known_values():
    lo, hi = bench.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert bench.wilson(0, 20)[0] == 0.0 and round(bench.wilson(0, 20)[1], 4) == 0.1611


def test_coalition_beats_the_baselines_against_house_bots():
    rows = {n: bench.run_row(n, [bench.maker(n)], 40) for n in ("coalition", "farmer", "guard")}
    assert rows["coalition"].rank1 > rows["farmer"].rank1 + 4
    assert rows["coalition"].rank1 > rows["guard"].rank1 + 4
