"""Harvest Watch house bots (spec §2.7): templates, vote memory, pairing, the 0.1 steal draw."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from sunbot.engines import IllegalAction
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_house import partner_of
from tests.engines.test_harvest_watch import state_at


class ScriptedRng(random.Random):
    """``random()`` returns the scripted values in order and counts the draws."""

    def __init__(self, *values: float) -> None:
        super().__init__(0)
        self.values = list(values)
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return self.values.pop(0)


def bot(state: dict[str, Any], seat: int, house: Any, rng: random.Random | None = None,
        memory: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    return hw.house_command(
        state, seat, {} if memory is None else memory, rng or ScriptedRng(), house_seats=house
    )


def test_pairing_of_living_house_seats() -> None:
    assert [partner_of(s, [0, 2, 3, 5]) for s in (0, 2, 3, 5)] == [2, 0, 5, 3]
    assert [partner_of(s, [1, 3, 4]) for s in (1, 3, 4)] == [3, 1, None]
    assert partner_of(2, [1, 3]) is None


def test_speech_and_diary_templates() -> None:
    s = state_at("speech1", [50] * 6, day=2)
    house = [0, 2, 3, 5]
    assert bot(s, 0, house) == {"speech": "Seat 0: I cooperate with seat 2."}
    assert bot(s, 5, house) == {"speech": "Seat 5: I cooperate with seat 3."}
    assert bot(s, 4, [1, 3, 4]) == {"speech": "Seat 4: I guard."}
    s = state_at("speech2", [45, 50, 7, 50, 50, 50], day=2)
    assert bot(s, 0, house) == {"speech": "Seat 0 holds 4.5."}
    assert bot(s, 2, house) == {"speech": "Seat 2 holds 0.7."}
    assert bot(s, 3, house) == {"speech": "Seat 3 holds 5.0."}
    s = state_at("diary", [50] * 6, day=3)
    assert bot(s, 1, house) == {"diary": "Day 3 noted."}


def test_pairing_skips_seats_that_are_out() -> None:
    s = state_at("speech1", [50, 50, 0, 50, 50, 50], day=2, out={2: (1, 5)})
    assert bot(s, 0, [0, 2, 3, 5]) == {"speech": "Seat 0: I cooperate with seat 3."}
    assert bot(s, 5, [0, 2, 3, 5]) == {"speech": "Seat 5: I guard."}


def test_vote_punishes_the_lowest_remembered_living_thief() -> None:
    # Seat 3 (a house bot) guarded and caught 0 and 5 on day 1; it reads that at the diary.
    s = run_e3_day()
    memory: dict[str, Any] = {}
    assert bot(s, 3, [3], memory=memory) == {"diary": "Day 1 noted."}
    assert memory == {"caught": [0, 5]}
    later = copy.deepcopy(s)
    later["caught"][3] = [2]
    bot(later, 3, [3], memory=memory)
    assert memory == {"caught": [0, 2, 5]}  # memory accumulates across days
    memory = {"caught": [0, 5]}
    s = hw.resolve_beat(s, {})
    for _ in range(2):
        s = hw.resolve_beat(s, {})
    assert s["phase"] == "vote"
    # 5 went out on night 1 (E3), so only 0 is a living remembered thief.
    assert bot(s, 3, [3], memory=memory) == {"punish": 0, "giveTo": 1}
    assert bot(s, 3, [3], memory={"caught": [4, 1]}) == {"punish": 1, "giveTo": 0}
    assert bot(s, 3, [3], memory={}) == {"punish": None}
    assert bot(s, 3, [3], memory={"caught": [5]}) == {"punish": None}  # 5 is out


def run_e3_day() -> dict[str, Any]:
    s = state_at("action", [40, 50, 50, 20, 50, 30])
    s = hw.resolve_beat(s, {0: [{"act": "steal", "target": 3}], 5: [{"act": "steal", "target": 3}]})
    assert s["caught"][3] == [0, 5] and not s["alive"][5]
    return s


def test_vote_abstains_when_no_give_to_seat_exists() -> None:
    s = state_at("vote", [50, 0, 0, 50, 0, 0], day=3,
                 out={1: (1, 5), 2: (1, 5), 4: (2, 5), 5: (2, 5)})  # fmt: skip
    assert bot(s, 0, [0], memory={"caught": [3]}) == {"punish": None}


def test_action_pairs_coop_and_guards_when_alone() -> None:
    s = state_at("action", [50] * 6)
    house = [1, 2, 4]
    rng = ScriptedRng(0.5, 0.1, 0.99)
    assert bot(s, 1, house, rng) == {"act": "farm_coop", "with": 2}
    assert bot(s, 2, house, rng) == {"act": "farm_coop", "with": 1}  # 0.1 is not < 0.1
    assert bot(s, 4, house, rng) == {"act": "guard"}
    assert rng.draws == 3


def test_action_steal_draw_targets_the_richest_other_living_seat() -> None:
    s = state_at("action", [30, 62, 62, 50, 62, 0], day=2, out={5: (1, 9)})
    assert bot(s, 0, [0, 3], ScriptedRng(0.0999)) == {"act": "steal", "target": 1}
    assert bot(s, 1, [0, 1], ScriptedRng(0.05)) == {"act": "steal", "target": 2}
    s["food"][4] = 63
    assert bot(s, 1, [0, 1], ScriptedRng(0.0)) == {"act": "steal", "target": 4}


def test_one_draw_per_action_beat_and_none_elsewhere() -> None:
    rng = ScriptedRng(*([0.5] * 10))
    for phase in ("speech1", "speech2", "vote", "diary"):
        bot(state_at(phase, [50] * 6), 0, [0, 1], rng)
    assert rng.draws == 0
    bot(state_at("action", [50] * 6), 0, [0, 1], rng)
    assert rng.draws == 1


def test_out_seat_gets_the_default_and_done_raises() -> None:
    s = state_at("vote", [50, 50, 0, 50, 50, 50], day=2, out={2: (1, 5)})
    assert bot(s, 2, [2]) == {"punish": None}
    done = copy.deepcopy(s)
    done["status"], done["phase"] = "done", "done"
    done["result"] = {"ranks": [1] * 6}
    with pytest.raises(IllegalAction):
        bot(done, 0, [0])


def house_match(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    memories: dict[int, dict[str, Any]] = {s: {} for s in range(6)}
    states = [hw.init(seed)]
    while states[-1]["status"] == "running":
        s = states[-1]
        cmds = {}
        for seat in range(6):
            if s["alive"][seat]:
                cmd = hw.house_command(s, seat, memories[seat], rng, house_seats=range(6))
                assert hw.validate_command(s, seat, cmd) is None
                cmds[seat] = [cmd]
        states.append(hw.resolve_beat(s, cmds))
    return states


def test_all_house_matches_are_legal_deterministic_and_end() -> None:
    for seed in range(15):
        a = house_match(seed)
        assert a[-1]["status"] == "done"
        assert a == house_match(seed)
    # Without steals, three coop pairs lose 0.5 a day and all go out on night 10.
    quiet = random.Random(0)
    quiet.random = lambda: 0.5  # type: ignore[method-assign]
    s = hw.init(0)
    while s["status"] == "running":
        cmds = {i: [hw.house_command(s, i, {}, quiet, house_seats=range(6))] for i in range(6)}
        s = hw.resolve_beat(s, cmds)
    assert s["day"] == 10 and s["result"]["ranks"] == [1] * 6
