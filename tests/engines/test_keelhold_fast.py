"""The fast planning form of Keelhold agrees with the dict engine, state for state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sunbot.engines import keelhold as kh
from sunbot.engines import keelhold_fast as kf
from sunbot.engines.keelhold_gen import RNG_DRAWS
from sunbot.strategies.keelhold_planner import Planner
from tests.engines.keelhold_helpers import build, crate


class NoJam:
    """The local draws, minus jams (a jam is an unseen draw the fast form does not make)."""

    def crate(self, state: dict[str, Any], params: dict[str, Any], ballast: bool):
        return RNG_DRAWS.crate(state, params, ballast)

    def jam(self, state: dict[str, Any], candidates: list[int]) -> None:
        return None

    def voyage(self, state: dict[str, Any], voyage: int, prev: list[str]) -> dict[str, Any]:
        return RNG_DRAWS.voyage(state, voyage, prev)


def _fast(s: dict[str, Any]) -> tuple[kf.FastState, list[kf.Crate]]:
    return kf.from_observation({k: v for k, v in s.items() if k != "rng"})


def _fields(f: kf.FastState) -> tuple[Any, ...]:
    return (f.turn, f.trim, f.wind, f.listing, f.chain, f.lots, f.score, f.hold, f.jam)


@pytest.mark.parametrize("seed", [1, 7])
def test_fast_form_matches_the_engine_on_mixed_play(seed):
    """Planner moves, with a random legal (often unsafe) bay one time in forty, so the runs
    reach rush crates, ballast and port calls and also end by the run check."""
    rng = random.Random(seed)
    planner = Planner(random.Random(seed))
    checked = {"place": 0, "ship": 0, "castoff": 0}
    for run in range(2):
        s = kh.init(seed + 1000 * run)
        while not kh.is_over(s) and s["turn"] < 500:
            f, queue = _fast(s)
            if s["phase"] == "port":
                after = kf.cast_off(f)
                s = kh.step_with_draws(s, {"type": "CAST_OFF"}, NoJam())
                assert after is not None and _fields(after) == _fields(_fast(s)[0])
                assert kf.safe_bays(after, queue[0]) == s["safeBays"]
                checked["castoff"] += 1
                continue
            assert kf.legal(f) == kh.legal_bays(s)
            assert kf.safe_bays(f, queue[0]) == s["safeBays"]
            if rng.random() < 0.025:
                bay = rng.choice(kh.legal_bays(s))
            else:
                bay = planner.choose(s, kh.legal_actions(s))["bay"]
            placed = kf.place(f, queue[0], bay)
            s = kh.step_with_draws(s, {"type": "PLACE", "bay": bay}, NoJam())
            assert _fields(placed.state) == _fields(_fast(s)[0])
            assert placed.port == (s["lotsShipped"] == s["params"]["quota"])
            checked["place"] += 1
            checked["ship"] += placed.shipped
    assert checked["place"] > 300 and checked["ship"] > 80 and checked["castoff"] > 5


def test_fast_form_reads_no_cursor_and_keeps_wire_values():
    s = kh.init(3)
    obs = {k: v for k, v in s.items() if k != "rng"}
    f, queue = kf.from_observation(obs)
    assert [kf.crate_of(c) for c in s["queue"]] == queue
    assert (f.turn, f.trim, f.score, f.voyage.number, f.voyage.tol) == (0, 0, 0, 1, 6)
    assert f.voyage.open == (1, 2, 3, 4, 5) and f.voyage.arms == (-3, -2, -1, 0, 1, 2, 3)


@pytest.mark.parametrize("seed", range(6))
def test_fast_form_matches_the_engine_under_squalls_and_rush(seed):
    """Hand-built squall voyages (v21+, wind flipping every 6 turns) with rush crates due
    now and later, every legal bay placed from every turn offset of a squall cycle."""
    r = random.Random(seed)
    for _ in range(20):
        hold = {
            b: [
                crate(
                    r.choice([0, 1, 2, None]),
                    r.randint(2, 6),
                    10 * b + i,
                    due=r.choice([None, None, 30, 33, 40]),
                )
                for i in range(r.randint(0, 4))
            ]
            for b in range(7)
        }
        for h in hold.values():
            for c in h:
                if c["due"] is not None:
                    c["rushWindow"] = None
                    c["cargo"] = c["cargo"] if c["cargo"] is not None else 3
        queue = [
            crate(r.choice([0, 1, 2]), r.randint(2, 6), 90 + i, rush=r.choice([None, 8]))
            for i in range(3)
        ]
        s = build(
            voyage=22,
            hold=hold,
            queue=queue,
            conditions=["squall"],
            wind=r.randint(-8, 8),
            turn=30 + r.randrange(7),
            chain=r.randrange(8),
        )
        if s["phase"] != "loading":
            continue
        f, q = _fast(s)
        assert kf.safe_bays(f, q[0]) == s["safeBays"]
        for bay in kh.legal_bays(s):
            placed = kf.place(f, q[0], bay)
            after = kh.step_with_draws(s, {"type": "PLACE", "bay": bay}, NoJam())
            assert _fields(placed.state) == _fields(_fast(after)[0])
            assert placed.safe == (bay in s["safeBays"])


def test_jam_candidates_predict_the_engines_jams():
    """A jam lands exactly when the published schedule says, on one of the candidates."""
    planner = Planner(random.Random(5))
    jams = 0
    for seed in (5, 6):
        s = kh.init(seed)
        while not kh.is_over(s) and s["turn"] < 400:
            a = planner.choose(s, kh.legal_actions(s))
            nxt = kh.step(s, a)
            if a["type"] == "PLACE":
                f, queue = _fast(s)
                cands = kf.jam_candidates(kf.place(f, queue[0], a["bay"]).state)
                new = [
                    b
                    for b in range(7)
                    if nxt["jammedUntil"][b] > nxt["turn"] and s["jammedUntil"][b] <= nxt["turn"]
                ]
                assert new == [] if not cands else (len(new) == 1 and new[0] in cands)
                jams += len(new)
            s = nxt
    assert jams > 20
