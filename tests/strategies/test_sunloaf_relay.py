"""The relay planner: its beam is the planner's beam, its sliced search is the
planner's decision search, and its play is legal, quota-safe and the same for a seed."""

from __future__ import annotations

import itertools
import random

import pytest

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.strategies import sunloaf_relay as relay
from sunbot.strategies.sunloaf import Planner
from sunbot.strategies.sunloaf_beam import FastBeam, FastTables
from sunbot.strategies.sunloaf_planner import BeamSearch, Budget, DayTables, reference_line
from sunbot.strategies.sunloaf_relay import PlannerRelay, Search

END_RUN = {"type": "END_RUN"}


def positions(count: int) -> list[tuple[fast.DayCtx, fast.FastState]]:
    """Running-day positions of several rooms (day 1 and later days), a few random moves in."""
    rnd, out = random.Random(5), []
    for seed in range(count):
        s = sl.init(seed)
        if seed % 2:
            s.update(day=9 + seed, phase="sunset", turn=21)
            s = sl.step(s, {"type": "NEXT_DAY"})
        ctx, fs = fast.to_fast(s)
        for _ in range(rnd.randrange(0, 8)):
            fs = fast.fast_step(ctx, fs, rnd.choice(fast.fast_legal(ctx, fs)[:-2]))
        out.append((ctx, fs))
    return out


@pytest.mark.parametrize("width", [1, 8, 48])
def test_fast_beam_is_the_planners_beam(width):
    # the same action list and the same node count as BeamSearch, position by position
    for ctx, fs in positions(8):
        old = BeamSearch(ctx, DayTables(ctx), fs, width)
        new = FastBeam(ctx, FastTables(ctx), fs, width)
        assert new.run() == old.run()
        assert new.used == old.used > 0


def test_fast_beam_paused_and_resumed_finds_the_same():
    ctx, fs = positions(3)[2]
    tables = FastTables(ctx)
    whole = FastBeam(ctx, tables, fs, 32)
    expected = whole.run()
    sliced, pauses = FastBeam(ctx, tables, fs, 32), 0
    while (found := sliced.run(Budget(nodes=500))) is None:
        pauses += 1
    assert found == expected and sliced.used == whole.used
    assert pauses >= whole.used // 1000  # it really was cut into many slices


def test_reach_top_bounds_every_move():
    ctx, _ = positions(1)[0]
    tables = FastTables(ctx)
    for i, r in enumerate(ctx.ranges):
        for t in (0, ctx.turns // 2, ctx.turns):
            for x in (0, 24, 48):
                dests = [y for y, _ in ctx.paths[x][r]]
                want = max((tables.moved[i][t][y] for y in dests), default=0)
                assert tables.reach_top[i][t][x] == want


def test_search_is_the_planners_decision_search():
    # Search (probe 16, then FILL of the limit) finds the line Planner._improve finds with
    # the same node limit, in one go or in slices
    bot = Planner(random.Random(0), budget_ms=10)  # 12,000 nodes
    limit = bot.budget_nodes
    assert limit == 12_000
    for ctx, fs in positions(4):
        line = reference_line(ctx, fs)
        want = bot._improve(ctx, DayTables(ctx), fs, line, Budget(limit), limit)
        tables = FastTables(ctx)
        whole = Search(ctx, tables, fs, line, limit)
        assert whole.advance(Budget(None)) and whole.line == want
        sliced = Search(ctx, tables, fs, line, limit)
        slices = 1
        while not sliced.advance(Budget(1_500)):
            slices += 1
        assert sliced.line == want and sliced.used == whole.used and slices > 3


def test_decision_points_follow_the_doze_rule():
    ctx, fs = fast.to_fast(sl.init(3))
    line = reference_line(ctx, fs)
    points = relay.decision_points(ctx, fs, line.actions)
    assert points[0] == (0, fs)
    for (off, st), (nxt, _) in itertools.pairwise(points):
        assert nxt - off == relay.step_len(ctx, st, line.actions[off:]) >= 1
    # replaying the whole line through the points lands where the line ends
    off, st = points[-1]
    for a in line.actions[off:]:
        st = fast.fast_step(ctx, st, a)
    assert st == line.final


def play(bot: PlannerRelay, seed: int, days: int) -> tuple[dict, list]:
    s, actions = sl.init(seed), []
    while not sl.is_over(s):
        if s["phase"] == "sunset" and s["day"] >= days:
            s = sl.step(s, END_RUN)
            break
        legal = sl.legal_actions(s)
        a = bot.choose(sl.observation(s), legal)
        assert a in legal, (seed, s["day"], s["turn"], a)
        # a slice (and one expansion past it), at most one room's tables more (today's or
        # tomorrow's: at most 30 turns and 5 cat ranges)
        tables = relay.TABLE_NODES_PER_TURN * 30 * 5
        assert bot.last_nodes <= bot.budget_nodes + tables + 500
        actions.append(a)
        s = sl.step(s, a)
    return s, actions


def small_relay(seed: int) -> PlannerRelay:
    # 6,000 nodes a decision, searches of 18,000 (24,000 at a day's turn 0): two lead decisions
    return PlannerRelay(
        random.Random(seed),
        budget_ms=5,
        search_nodes=18_000,
        first_nodes=24_000,
        time_cap_ms=None,
    )


def test_relay_plays_legal_meets_quotas_and_repeats_for_a_seed():
    bot = small_relay(4)
    assert bot.lead == 2
    s, actions = play(bot, 4, 3)
    assert s["day"] == 3 and s["result"] == "win"
    assert bot.taken >= 10 and bot.resets == 0 and bot.capped == 0
    again = small_relay(4)
    s2, actions2 = play(again, 4, 3)
    assert actions2 == actions and s2["score"] == s["score"]
    assert (again.taken, again.dropped) == (bot.taken, bot.dropped)


def test_relay_beats_the_reference_line():
    bot = small_relay(2)
    s, _ = play(bot, 2, 2)
    ref = sl.init(2)
    while not (ref["phase"] == "sunset" and ref["day"] >= 2):
        ref = sl.step(
            ref, sl.reference_action(ref) if ref["phase"] == "day" else {"type": "NEXT_DAY"}
        )
    assert s["score"] > ref["score"]


def test_relay_restarts_from_an_unpredicted_position():
    # a position its line did not predict (here: the reference policy played some turns)
    s = sl.init(6)
    for _ in range(5):
        s = sl.step(s, sl.reference_action(s))
    bot = small_relay(6)
    a = bot.choose(sl.observation(s), sl.legal_actions(s))
    assert a in sl.legal_actions(s) and bot.resets == 0  # the first decision: nothing to drop
    s = sl.step(s, sl.reference_action(s))  # not what it planned (most likely)
    a = bot.choose(sl.observation(s), sl.legal_actions(s))
    assert a in sl.legal_actions(s)
    assert bot.resets in (0, 1)


def test_relay_refuses_a_finished_run_and_a_bad_budget():
    bot = small_relay(1)
    with pytest.raises(ValueError, match="over"):
        bot.choose({"phase": "over"}, [])
    with pytest.raises(ValueError):
        PlannerRelay(random.Random(1), budget_ms=0)


def test_relay_sizes_a_days_first_search_apart():
    bot, s, limits = small_relay(3), sl.init(3), {}
    while not (s["phase"] == "sunset" and s["day"] >= 2):
        s = sl.step(s, bot.choose(sl.observation(s), sl.legal_actions(s)))
        if bot._job is not None:
            limits[bot._job.turn == 0] = bot._job.search.limit
    assert limits == {True: 24_000, False: 18_000}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_planner_with_the_fast_beam_plays_the_old_paths_actions(seed):
    # the default planner's beam is FastBeam; planner-v1 keeps the original: the same
    # actions decision by decision (small budget: the same search, only narrower)
    def actions(fast_beam: bool) -> list:
        bot = Planner(random.Random(seed), budget_ms=4, time_cap_ms=None, fast_beam=fast_beam)
        assert isinstance(bot._tables_for(fast.to_fast(sl.init(seed))[0]), FastTables) is fast_beam
        s, out = sl.init(seed), []
        while not (s["phase"] == "sunset" and s["day"] >= 2):
            a = bot.choose(sl.observation(s), sl.legal_actions(s))
            out.append((a, bot.last_nodes))
            s = sl.step(s, a)
        return out

    new = actions(True)
    assert new == actions(False) and len(new) > 20


def test_relay_does_not_restart_when_the_day_cache_is_emptied():
    # the engine's DayCtx cache is shared and cleared when full: the same day must still be
    # the same day (compared by its fields, not by object), or a seeded run would depend on
    # what the process played before
    def run(clear_at: int | None) -> tuple[list, int]:
        bot, s, out = small_relay(5), sl.init(5), []
        while not (s["phase"] == "sunset" and s["day"] >= 2):
            if len(out) == clear_at:
                fast._CACHE.clear()
            a = bot.choose(sl.observation(s), sl.legal_actions(s))
            out.append(a)
            s = sl.step(s, a)
        return out, bot.resets

    plain, resets = run(None)
    assert resets == 0
    for at in (3, 12):
        assert run(at) == (plain, 0)


def test_look_ahead_planner_does_not_restart_when_the_day_cache_is_emptied():
    # the same for PlannerAhead's look-ahead: its aim is a day's fields, not an object
    from sunbot.strategies.sunloaf import PlannerAhead

    def run(clear_at: int | None) -> list:
        bot, s, out = PlannerAhead(random.Random(5), budget_ms=5), sl.init(5), []
        bot.time_cap_ms = None
        while not (s["phase"] == "sunset" and s["day"] >= 3):
            if len(out) in (clear_at, (clear_at or 0) + 1):
                fast._CACHE.clear()
            a = bot.choose(sl.observation(s), sl.legal_actions(s))
            out.append((a, bot.last_nodes))
            s = sl.step(s, a)
        return out

    plain = run(None)
    for at in (10, 14, 18):
        assert run(at) == plain
