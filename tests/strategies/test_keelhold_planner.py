"""Keelhold's default ``planner``: reads only published fields, plays only safe legal moves,
and sees traps a one-ply greedy player walks into."""

from __future__ import annotations

import random

import pytest

from sunbot import strategies
from sunbot.engines import keelhold as kh
from sunbot.engines import keelhold_fast as kf
from sunbot.strategies.keelhold import SafeGreedy
from sunbot.strategies.keelhold_clairvoyant import future_crates
from sunbot.strategies.keelhold_planner import Planner, PlannerV2
from tests.engines.keelhold_helpers import build, crate


def _without_rng(s: dict) -> dict:
    return {k: v for k, v in kh.observation(s).items() if k != "rng"}


@pytest.mark.parametrize("seed", [2, 11])
def test_choices_never_depend_on_the_cursor(seed):
    """Same choices with ``rng`` left out (another server's state) or replaced by junk."""
    bots = [strategies.create("keelhold", "planner", random.Random(seed)) for _ in range(3)]
    s = kh.init(seed)
    moves = 0
    while not kh.is_over(s) and s["turn"] < 250:
        legal = kh.legal_actions(s)
        junk = kh.observation(s) | {"rng": [0xDEADBEEF, 5, 5, 5]}
        picks = [
            bots[0].choose(kh.observation(s), legal),
            bots[1].choose(_without_rng(s), legal),
            bots[2].choose(junk, legal),
        ]
        assert picks[0] == picks[1] == picks[2]
        assert picks[0] in legal
        s = kh.step(s, picks[0])
        moves += 1
    assert moves >= 250


def test_planner_is_the_default():
    assert strategies.default_name("keelhold") == "planner"
    assert isinstance(strategies.create("keelhold", "planner", random.Random(0)), Planner)


def _trap() -> dict:
    """Voyage 2 terms (tolerance 8) with hatches of capacity 3; trim -3, level.

    In hand ``c2 w2``, then ``c1 w4``, ``c1 w4``. The keel (hatch 3) holds one crate, hatch 1
    two, every other open hatch but 0 and 6 is full.
    """
    hold = {
        0: [crate(2, 2, 1)],
        1: [crate(2, 4, 2), crate(1, 4, 3)],
        2: [crate(2, 2, 4), crate(None, 4, 5), crate(3, 4, 6)],
        3: [crate(2, 4, 7)],
        4: [crate(2, 3, 8), crate(0, 2, 9), crate(1, 2, 10)],
        5: [crate(None, 4, 11), crate(2, 1, 12), crate(0, 3, 13)],
        6: [crate(0, 2, 14)],
    }
    queue = [crate(2, 2, 20), crate(1, 4, 21), crate(1, 4, 22)]
    return build(voyage=2, hold=hold, queue=queue, capacity=3)


def _survivors(s: dict, bay: int) -> list[int]:
    """Safe bays for ``queue[1]`` after placing ``queue[0]`` in ``bay`` that leave the run
    going with ``queue[2]`` in hand (the dict engine decides)."""
    after = kh.step(s, {"type": "PLACE", "bay": bay})
    out = []
    for b in after["safeBays"]:
        if kh.step(after, {"type": "PLACE", "bay": b})["phase"] == "loading":
            out.append(b)
    return out


@pytest.mark.parametrize("planner", [Planner, PlannerV2])
def test_lookahead_avoids_the_trap_one_ply_greedy_walks_into(planner):
    """Greedy keeps the trim at -3 by using the keel (hatch 3); then ``c1 w4`` is safe only
    on the keel again (hatch 0 ends at -15, hatch 1 at -11, hatch 6 at +9), which fills it,
    and the second ``c1 w4`` has no safe bay: the run ends (noSafeStow). Both planners keep
    the keel for later: ``planner-v2`` fills hatch 1 (trim -7, then the keel or hatch 6 are
    safe), the default hatch 6 (trim +3, then hatch 1 or the keel)."""
    s = _trap()
    assert s["trim"] == -3 and s["safeBays"] == [1, 3, 6]
    greedy = SafeGreedy(random.Random(0)).choose(kh.observation(s), kh.legal_actions(s))
    planned = planner(random.Random(0)).choose(_without_rng(s), kh.legal_actions(s))
    assert greedy == {"type": "PLACE", "bay": 3}
    assert _survivors(s, 3) == []
    assert planned == {"type": "PLACE", "bay": 1 if planner is PlannerV2 else 6}
    assert _survivors(s, 1) == [3, 6] and _survivors(s, 6) == [1, 3]


def test_port_decision_follows_cast_off_safety():
    """At port: CAST_OFF when the crate in hand has a safe bay under the next terms, END_RUN
    otherwise (the planner computes it; ``castOffSafe`` is the server's own reading)."""
    bot = Planner(random.Random(0))
    s = kh.init(4)
    ports = 0
    while not kh.is_over(s) and ports < 3:
        a = bot.choose(_without_rng(s), kh.legal_actions(s))
        if s["phase"] == "port":
            ports += 1
            assert a == ({"type": "CAST_OFF"} if s["castOffSafe"] else {"type": "END_RUN"})
        s = kh.step(s, a)
    assert ports == 3


def test_clairvoyant_reads_the_next_draw_and_refuses_other_servers():
    """The reference's future crate is the one the local server hands next."""
    bot = strategies.create("keelhold", "clairvoyant", random.Random(0))
    strategies.notify_start(bot, "keelhold", 9, None)
    s = kh.init(9)
    assert "rng" not in kh.observation(s)  # the cursor is not shown: a shadow run from the seed
    checked = 0
    while not kh.is_over(s) and s["turn"] < 120:
        if s["phase"] == "loading":
            ahead = future_crates(s, 1)
            a = bot.choose(kh.observation(s), kh.legal_actions(s))
            assert a["bay"] in s["safeBays"]
            nxt = kh.step(s, a)
            assert kf.crate_of(nxt["queue"][-1]) == ahead[0]
            checked += 1
        else:
            nxt = kh.step(s, bot.choose(kh.observation(s), kh.legal_actions(s)))
        s = nxt
    assert checked >= 110
    with pytest.raises(ValueError, match="local server only"):  # not where the run went
        bot.choose(_without_rng(kh.init(9)), kh.legal_actions(kh.init(9)))
    other = strategies.create("keelhold", "clairvoyant", random.Random(0))
    strategies.notify_start(other, "keelhold", 8, None)  # a seed whose opening is not this
    with pytest.raises(ValueError, match="local server only"):
        other.choose(kh.observation(kh.init(9)), kh.legal_actions(kh.init(9)))
    fresh = strategies.create("keelhold", "clairvoyant", random.Random(0))
    with pytest.raises(ValueError, match="local server only"):  # never told the seed
        fresh.choose(kh.observation(kh.init(9)), kh.legal_actions(kh.init(9)))
