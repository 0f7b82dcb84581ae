"""Keelhold properties over random play on many seeds (Keelhold's rules)."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sunbot.engines import IllegalAction
from sunbot.engines import keelhold as kh


def formula_trim(s):
    return s["params"]["wind"] + sum(
        c["weight"] * s["arms"][i] for i, h in enumerate(s["hold"]) for c in h
    )


def brute_force_safety(s):
    """Play every legal bay through the public step() and classify it by the rules text."""
    safe, listing = [], []
    tol = s["params"]["tolerance"]
    for a in kh.legal_actions(s):
        n = kh.step(s, a)
        shipped = n["lotsShipped"] > s["lotsShipped"] or (n["phase"] == "port")
        e = n["trim"]
        if abs(e) <= tol or (not s["listing"] and shipped):
            safe.append(a["bay"])
            if abs(e) > tol:
                listing.append(a["bay"])
    return safe, listing


def play(seed, rng, max_steps=400, prefer_safe=0.85):
    s = kh.init(seed)
    states = [s]
    actions = []
    while not kh.is_over(s) and len(actions) < max_steps:
        legal = kh.legal_actions(s)
        if s["phase"] == "port":
            a = legal[0] if rng.random() < 0.9 else legal[1]
        elif s["safeBays"] and rng.random() < prefer_safe:
            a = {"type": "PLACE", "bay": rng.choice(s["safeBays"])}
        else:
            a = rng.choice(legal)
        s = kh.step(s, a)
        states.append(s)
        actions.append(a)
    return states, actions


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=-(2**40), max_value=2**40), walk=st.integers(0, 2**32))
def test_random_play_invariants(seed, walk):
    states, actions = play(seed, random.Random(walk), max_steps=150)
    for prev, a, nxt in zip(states, actions, states[1:], strict=False):
        assert nxt["score"] >= prev["score"]
        assert nxt["trim"] == formula_trim(nxt)
        tol = nxt["params"]["tolerance"]
        if nxt["phase"] != "over":
            assert nxt["listing"] == (abs(nxt["trim"]) > tol)
        assert all(len(h) <= nxt["params"]["capacity"] for h in nxt["hold"])
        assert 0 <= nxt["chain"] <= 7
        if a["type"] == "PLACE":
            assert nxt["turn"] == prev["turn"] + 1
        if nxt["phase"] == "loading":
            assert (nxt["safeBays"], nxt["listingBays"]) == brute_force_safety(nxt)
            assert nxt["safeBays"], "a loading state always has a safe bay (else the run is over)"
            assert nxt["castOffSafe"] is None
        else:
            assert nxt["safeBays"] == [] and nxt["listingBays"] == []
        if nxt["phase"] == "port":
            cast = kh.step(nxt, {"type": "CAST_OFF"})
            assert nxt["castOffSafe"] == (cast["phase"] == "loading")
        ids = [c["id"] for h in nxt["hold"] for c in h] + [c["id"] for c in nxt["queue"]]
        assert len(ids) == len(set(ids))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 2**32))
def test_step_is_pure_and_deterministic_and_json_round_trips(seed, walk):
    states, actions = play(seed, random.Random(walk), max_steps=60)
    replay = kh.init(seed)
    for a, expected in zip(actions, states[1:], strict=True):
        frozen = copy.deepcopy(replay)
        wire = json.loads(json.dumps(replay))
        assert wire == replay
        nxt = kh.step(replay, a)
        assert replay == frozen, "step mutated its input"
        assert kh.step(wire, a) == nxt
        assert nxt == expected
        replay = nxt


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    walk=st.integers(0, 2**32),
    junk=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=5),
        st.dictionaries(
            st.text(max_size=6),
            st.one_of(st.integers(-3, 9), st.text(max_size=4), st.booleans(), st.none()),
            max_size=3,
        ),
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["PLACE", "CAST_OFF", "END_RUN"]),
                "bay": st.one_of(st.integers(-2, 9), st.booleans(), st.floats()),
            }
        ),
    ),
)
def test_refused_actions_change_nothing(seed, walk, junk):
    states, _ = play(seed, random.Random(walk), max_steps=40)
    s = states[-1]
    before = copy.deepcopy(s)
    legal = kh.legal_actions(s)
    if junk in legal:
        return
    try:
        kh.step(s, junk)
    except IllegalAction as exc:
        assert str(exc)
    else:
        raise AssertionError(f"accepted an action outside legalActions: {junk!r}")
    assert s == before


def test_many_seeds_never_decrease_score_and_keep_trim_formula():
    for seed in range(60):
        states, _ = play(seed, random.Random(seed), max_steps=300)
        scores = [s["score"] for s in states]
        assert scores == sorted(scores)
        assert all(s["trim"] == formula_trim(s) for s in states)
