"""Sunloaf properties over random play (hypothesis and seeded loops): the score never drops,
cats stay on free distinct tiles, refusals change nothing, states survive JSON, DOZE is a run
of RESTs, play is reproducible, and legal_actions is exactly what step accepts."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sunbot.engines import IllegalAction
from sunbot.engines import sunloaf as sl
from tests.engines.test_sunloaf import jump_to_day

REST = {"type": "REST"}
DOZE = {"type": "DOZE"}

JUNK: list[Any] = [
    {"type": "MOVE", "cat": 0, "tile": 0, "extra": 1},
    {"type": "MOVE", "cat": False, "tile": 3},
    {"type": "MOVE", "cat": 0, "tile": "3"},
    {"type": "MOVE", "cat": 0},
    {"type": "MOVE", "cat": 9, "tile": 3},
    {"type": "DOZE", "turns": 2},
    {"type": "NOPE"},
    {"type": None},
    {},
    None,
    7,
]


def choose(s: dict[str, Any], legal: list[dict[str, Any]], c: int) -> dict[str, Any]:
    """A mixed action: mostly the reference policy, else DOZE or any legal action;
    END_RUN only rarely, so runs reach later days."""
    if s["phase"] == "sunset":
        return legal[1 if c % 50 == 49 else 0]  # NEXT_DAY, or END_RUN once in 50
    if c % 97 == 96:
        return legal[-1]
    if c % 3:
        return sl.reference_action(s)
    if c % 7 == 0:
        return DOZE
    return legal[c % (len(legal) - 1)]


def check_invariants(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert after["score"] >= before["score"]
    tiles = [c["tile"] for c in after["cats"]]
    assert len(set(tiles)) == len(tiles)
    assert not set(tiles) & set(after["layout"]["furniture"])
    assert json.loads(json.dumps(after)) == after
    sl.check_state(after)


def play(seed: int, choices: list[int]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(state, action) pairs of one run driven by ``choices``, checking each step."""
    s, out = sl.init(seed), []
    for c in choices:
        if sl.is_over(s):
            break
        legal = sl.legal_actions(s)
        a = choose(s, legal, c)
        assert a in legal or a == DOZE
        frozen = copy.deepcopy(s)
        t = sl.step(s, a)
        assert s == frozen, "step mutated its input"
        check_invariants(s, t)
        out.append((s, a))
        s = t
    return out


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(-(2**40), 2**40),
    choices=st.lists(st.integers(0, 10**6), min_size=30, max_size=150),
)
def test_random_play_invariants(seed, choices):
    play(seed, choices)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_same_seed_and_actions_give_the_same_bytes(seed, choices):
    s = sl.init(seed)
    for want, a in play(seed, choices):
        assert json.dumps(s) == json.dumps(want)
        s = sl.step(s, a)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 10**6), max_size=40))
def test_json_round_trip_steps_the_same(seed, choices):
    for s, a in play(seed, choices):
        wire = json.loads(json.dumps(s))
        assert wire == s and sl.step(wire, a) == sl.step(s, a)
        assert sl.observation(s) == s and sl.score(s) == s["score"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 10**6), max_size=40))
def test_doze_equals_k_rests(seed, choices):
    for s, _ in play(seed, choices):
        if s["phase"] != "day":
            continue
        d = sl.step(s, DOZE)
        k = d["turn"] - s["turn"]
        assert 1 <= k <= 4
        r = s
        for _ in range(k):
            r = sl.step(r, REST)
        assert r == d


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    choices=st.lists(st.integers(0, 10**6), max_size=30),
    junk=st.sampled_from(JUNK),
)
def test_step_accepts_exactly_the_legal_actions(seed, choices, junk):
    run = play(seed, choices)
    for s, _ in run[::6]:
        legal = sl.legal_actions(s)
        frozen = copy.deepcopy(s)
        tries: list[Any] = [
            {"type": "MOVE", "cat": c, "tile": x} for c in range(5) for x in range(49)
        ]
        tries += [{"type": k} for k in ("REST", "DOZE", "NEXT_DAY", "END_RUN")] + [junk]
        accepted = []
        for a in tries:
            try:
                sl.step(s, a)
            except IllegalAction as exc:
                assert str(exc)
            else:
                accepted.append(a)
            assert s == frozen
        assert accepted == legal


def test_over_state_refuses_everything():
    s = sl.step(sl.init(1), {"type": "END_RUN"})
    assert sl.legal_actions(s) == []
    for a in (REST, DOZE, {"type": "END_RUN"}, {"type": "NEXT_DAY"}, *JUNK):
        with pytest.raises(IllegalAction):
            sl.step(s, a)


@pytest.mark.slow
def test_long_runs_through_late_days():
    """The reference player always clears its quota (par at chain 0, ratio < 1), so runs
    driven mostly by it reach the dog, lattice and speed-2 days."""
    rnd = random.Random(9)
    deepest = 0
    for seed in range(40):
        s = sl.init(seed)
        while not sl.is_over(s) and s["day"] <= 30:
            legal = sl.legal_actions(s)
            c = rnd.randrange(10**6)
            a = sl.reference_action(s) if c % 10 else choose(s, legal, c)
            t = sl.step(s, a)
            check_invariants(s, t)
            s = t
        deepest = max(deepest, s["day"])
    assert deepest > 24


@pytest.mark.slow
def test_generated_days_are_consistent_for_many_seeds():
    for seed in range(200):
        for day in (1, 3, 5, 8, 15, 16, 20, 24, 40):
            s = jump_to_day(seed, day)
            sl.check_state(s)
            assert s["dayQuota"] <= s["dayPar"]


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every value inside a state (dict keys and list indices)."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _leaves(v, (*path, i))
    return out


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "N", "day", "over", "win"]),
    st.lists(st.integers(-1, 50), max_size=4),
    st.dictionaries(st.sampled_from(["id", "tile", "mat"]), st.integers(0, 5), max_size=2),
)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 50),
    day=st.sampled_from([1, 6, 16, 24]),
    turns=st.integers(0, 3),
    pick=st.integers(0, 10**6),
    value=JSON_VALUES,
    delete=st.booleans(),
)
def test_check_state_never_crashes_on_mangled_states(seed, day, turns, pick, value, delete):
    s = jump_to_day(seed, day)
    for _ in range(turns):
        s = sl.step(s, sl.reference_action(s))
    paths = _leaves(s)[1:]
    path = paths[pick % len(paths)]
    parent: Any = s
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    try:
        sl.check_state(s)
    except ValueError:
        return
    for a in sl.legal_actions(s)[-3:]:  # an accepted state must play on
        sl.step(s, a)
