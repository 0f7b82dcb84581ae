"""Harvest Watch properties over random legal matches: termination (§1), the food fall on
nights nobody goes out, view secrecy and field presence (§4), lastPublic templates, and
non-mutation of inputs. The default run uses a few dozen seeds; ``-m slow`` uses many.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from typing import Any

import pytest

from sunbot.engines import harvest_watch as hw

State = dict[str, Any]

ALWAYS = {
    "you",
    "day",
    "phase",
    "food",
    "foods",
    "alive",
    "aliveSeats",
    "nightCostBase",
    "nightCostIfGuard",
    "nightCost",
    "lastPublic",
}
# §4 table: the beats on which each optional field is present.
PRESENT = {
    "speeches1": {"speech2", "vote", "action", "diary", "done"},
    "speeches2": {"vote", "action", "diary", "done"},
    "votes": {"action", "diary", "done"},
    "punishResult": {"action", "diary", "done"},
    "caught": {"diary", "done"},
    "collided": {"diary", "done"},
}


def living(state: State) -> list[int]:
    return [s for s, a in enumerate(state["alive"]) if a]


def random_commands(state: State, rng: random.Random, tag: str) -> dict[int, list[Any]]:
    """Random legal commands (with misses, holds, and ignorable noise) for the current beat."""
    phase, alive = state["phase"], living(state)
    focus = rng.choice(alive)
    out: dict[int, list[Any]] = {}
    for seat in alive:
        r = rng.random()
        if r < 0.08:
            continue  # missed: default
        if r < 0.12:
            out[seat] = []  # stored hold: default
            continue
        cmd: dict[str, Any]
        if phase in ("speech1", "speech2"):
            cmd = {"speech": f"SPEECH-{tag}-{state['round']}-{seat}"}
        elif phase == "diary":
            cmd = {"diary": f"DIARY-{tag}-{state['round']}-{seat}"}
        elif phase == "vote":
            target = focus if rng.random() < 0.6 else rng.choice(alive)
            to = [m for m in alive if m not in (target, seat)]
            cmd = {"punish": None}
            if to and rng.random() < 0.8:
                cmd = {"punish": target, "giveTo": rng.choice(to)}
        else:
            cmd = rng.choice(hw.legal_commands(state, seat) or [])
        assert hw.validate_command(state, seat, cmd) is None, (seat, cmd)
        out[seat] = [cmd, {"ignored": "second element"}] if rng.random() < 0.1 else [cmd]
    for seat in range(state["seats"]):
        if not state["alive"][seat]:
            out[seat] = [{"act": "SECRET-from-an-out-seat"}]
    out[17] = [{"act": "SECRET-from-nobody"}]
    return out


def play(seed: int, seats: int = 6, house: tuple[int, ...] = ()) -> list[State]:
    """Every state of one random match, from init to done."""
    rng = random.Random(seed)
    house_rng = random.Random(seed * 7 + 1)
    memories: dict[int, dict[str, Any]] = {s: {} for s in house}
    states = [hw.init(seed, seats)]
    while states[-1]["status"] == "running":
        s = states[-1]
        cmds = random_commands(s, rng, f"m{seed}")
        for seat in house:
            if s["alive"][seat]:
                cmd = hw.house_command(s, seat, memories[seat], house_rng, house_seats=house)
                assert hw.validate_command(s, seat, cmd) is None, (seat, cmd)
                cmds[seat] = [cmd]
        states.append(hw.resolve_beat(s, cmds))
        assert states[-1]["day"] <= 100, "match did not end"
    return states


def matches(count: int, start: int = 0) -> list[list[State]]:
    out = []
    for seed in range(start, start + count):
        seats = 6 if seed % 4 else 2 + seed % 5
        house = tuple(range(0, seats, 2)) if seed % 3 == 0 else ()
        out.append(play(seed, seats, house))
    return out


FEW = matches(40)


def check_match_invariants(states: list[State]) -> None:
    for before, after in itertools.pairwise(states):
        alive_before = living(before)
        total = sum(before["food"][s] for s in alive_before)
        assert all(f >= 0 for f in after["food"])
        assert all(after["food"][s] == 0 for s in range(after["seats"]) if not after["alive"][s])
        if before["phase"] == "speech1":
            assert all(before["food"][s] > 0 for s in alive_before)  # fines are >= 0.1
        if before["phase"] == "vote":  # a fine only moves food between living seats
            assert sum(after["food"][s] for s in alive_before) == total
        if before["phase"] == "action":
            went_out = [s for s in alive_before if not after["alive"][s]]
            if not went_out:
                after_total = sum(after["food"][s] for s in alive_before)
                assert after_total <= total - 5 * len(alive_before)
            assert after["round"] == before["round"] + (0 if after["status"] == "done" else 1)
        elif after["status"] == "running":
            assert after["round"] == before["round"] + 1
    final = states[-1]
    ranks = final["result"]["ranks"]
    assert final["phase"] == "done" and 1 in ranks
    assert final["round"] == hw.round_of(final["day"], "action")
    left = living(final)
    assert len(left) <= 1
    if left:
        assert ranks[left[0]] == 1 and ranks.count(1) == 1
    for a in range(final["seats"]):
        for b in range(final["seats"]):
            na = 10**9 if final["alive"][a] else final["outNight"][a]
            nb = 10**9 if final["alive"][b] else final["outNight"][b]
            if na < nb:
                assert ranks[a] > ranks[b]  # out earlier ranks behind
            if na == nb and not final["alive"][a] and final["preCost"][a] < final["preCost"][b]:
                assert ranks[a] > ranks[b]


def test_random_legal_matches_end_and_living_food_falls() -> None:
    for states in FEW:
        check_match_invariants(states)


@pytest.mark.slow
def test_random_legal_matches_end_on_many_seeds() -> None:
    for states in matches(600, start=1000):
        check_match_invariants(states)


def _perturb_others(state: State, seat: int) -> State:
    """The same public position with every other seat's secrets (and the log) replaced."""
    other = copy.deepcopy(state)
    for key in ("caught", "collided"):
        if other[key] is not None:
            for t in range(other["seats"]):
                if t != seat:
                    other[key][t] = [99, t]
    other["log"] = [{"applied": {"0": {"act": "SECRET", "diary": "SECRET"}}}]
    return other


def _walk(value: Any) -> tuple[set[str], set[str]]:
    """Every object key and every string value inside a JSON value."""
    keys: set[str] = set()
    strings: set[str] = set()
    if isinstance(value, dict):
        for k, item in value.items():
            keys.add(k)
            sub_keys, sub_strings = _walk(item)
            keys |= sub_keys
            strings |= sub_strings
    elif isinstance(value, list):
        for item in value:
            sub_keys, sub_strings = _walk(item)
            keys |= sub_keys
            strings |= sub_strings
    elif isinstance(value, str):
        strings.add(value)
    return keys, strings


def check_secrecy(states: list[State]) -> None:
    for state in states:
        for seat in range(state["seats"]):
            v = hw.view(state, seat)
            text = json.dumps(v, ensure_ascii=False)
            assert "DIARY-" not in text and "SECRET" not in text
            keys, strings = _walk(v)
            assert not keys & {"act", "diary", "target", "with", "to", "pending", "log"}
            assert not strings & {"farm", "farm_coop", "steal", "donate", "guard"}
            assert hw.view(_perturb_others(state, seat), seat) == v
            summ = v["summary"]
            for key in ("caught", "collided"):
                if key in summ:
                    assert summ[key] == state[key][seat]
            for key, value in summ.items():
                if key not in ("speeches1", "speeches2"):
                    assert "SPEECH-" not in json.dumps(value)


def test_views_never_show_acts_diaries_or_other_seats_secrets() -> None:
    for states in FEW[:12]:
        check_secrecy(states)


@pytest.mark.slow
def test_views_secrecy_on_many_seeds() -> None:
    for states in matches(150, start=5000):
        check_secrecy(states)


def check_fields(state: State) -> None:
    phase = state["phase"]
    for seat in range(state["seats"]):
        v = hw.view(state, seat)
        summ = v["summary"]
        expected = ALWAYS | {k for k, beats in PRESENT.items() if phase in beats}
        assert set(summ) == expected, (phase, set(summ) ^ expected)
        assert ("result" in v) == (phase == "done")
        assert summ["you"] == seat and summ["phase"] == phase and summ["day"] == state["day"]
        assert summ["nightCostBase"] == 3.0 and summ["nightCostIfGuard"] == 1.0
        assert summ["nightCost"] == (None if phase in ("diary", "done") else 3.0)
        assert summ["foods"] == [f / 10 for f in state["food"]]
        assert all(isinstance(f, float) for f in summ["foods"])
        assert summ["food"] == state["food"][seat] / 10
        assert summ["alive"] == state["alive"][seat]
        assert summ["aliveSeats"] == living(state)
        if "punishResult" in summ:
            pr = summ["punishResult"]
            assert round(sum(pr["shares"].values()) * 10) == round(pr["fine"] * 10)
            assert (pr["punished"] is None) == (pr["fine"] == 0.0)
        for key in ("speeches1", "speeches2", "votes"):
            if key in summ:
                assert list(summ[key]) == [str(s) for s in sorted(map(int, summ[key]))]


def test_summary_fields_follow_the_section_4_table() -> None:
    phases = set()
    for states in FEW:
        for state in states:
            check_fields(state)
            phases.add(state["phase"])
    assert phases == {"speech1", "speech2", "vote", "action", "diary", "done"}


DEC = r"\d+\.\d"
SEATS = r"(seat \d|seats \d(, \d)+)"
TEMPLATES = {
    "speech1": r"Day (\d+): speech1\.",
    "speech2": r"Day (\d+): speech2\.",
    "vote": r"Day (\d+): vote\.",
    "action": rf"Day (\d+): (seat \d fined {DEC}|action)\.",
    "diary": rf"(Night (\d+): {SEATS} out|Day (\d+): diary)\.",
    "done": r"(Seat \d wins on night (\d+)|Draw on night (\d+): seats \d(, \d)+)\.",
}


def test_last_public_follows_the_templates() -> None:
    for states in FEW:
        for prev, state in itertools.pairwise(states):
            line = state["lastPublic"]
            m = re.fullmatch(TEMPLATES[state["phase"]], line)
            assert m, (state["phase"], line)
            assert str(state["day"]) in [g for g in m.groups() if g]
            if state["phase"] == "action":
                pr = state["punishResult"]
                assert ("fined" in line) == (pr["punished"] is not None)
            if state["phase"] == "diary":
                outs = [s for s in living(prev) if not state["alive"][s]]
                shown = [int(x) for x in re.findall(r"\d+", line.split(":")[1])]
                assert shown == outs
            if state["phase"] == "done":
                winners = [s for s, r in enumerate(state["result"]["ranks"]) if r == 1]
                shown = [int(x) for x in re.findall(r"\d+", line)][: len(winners) + 1]
                assert winners == ([shown[0]] if "wins" in line else shown[1:])


def test_no_public_function_mutates_its_inputs() -> None:
    rng = random.Random(99)
    for states in FEW[:6]:
        for state in states:
            frozen = copy.deepcopy(state)
            for seat in range(state["seats"]):
                hw.view(state, seat)
                legal = hw.legal_commands(state, seat)
                if legal:
                    before = copy.deepcopy(legal)
                    assert hw.validate_command(state, seat, legal[0]) is None
                    assert legal == before
                if state["status"] == "running" and state["alive"][seat]:
                    memory: dict[str, Any] = {}
                    hw.house_command(state, seat, memory, rng, house_seats=[0, 1, 2])
            if state["status"] == "running":
                cmds = random_commands(state, rng, "nm")
                cmds_before = copy.deepcopy(cmds)
                nxt = hw.resolve_beat(state, cmds)
                assert cmds == cmds_before
                # the output shares nothing with the input
                nxt["food"][0] += 1
                nxt["log"].append({"x": 1})
                if nxt["log"][:-1]:
                    nxt["log"][0]["round"] = -5
            assert state == frozen


def test_same_commands_give_the_same_states() -> None:
    a, b = play(4242), play(4242)
    assert a == b
    assert json.loads(json.dumps(a[-1])) == a[-1]  # plain JSON throughout
