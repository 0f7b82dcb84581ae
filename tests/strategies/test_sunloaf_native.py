"""The C beam search (sunbot/strategies/_sunloaf_beam.c) is FastBeam's Python search node for node:
the same action lists, node counts, pauses and tables; the planner with it plays planner-v1's
actions; without it (not built, or turned off) the planner plays the same in pure Python."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.strategies import sunloaf_beam as sb
from sunbot.strategies.sunloaf import Planner, PlannerV1
from sunbot.strategies.sunloaf_beam import FastBeam, FastTables
from sunbot.strategies.sunloaf_planner import Budget, DayTables

NEXT_DAY = {"type": "NEXT_DAY"}
DAYS = (1, 8, 15, 24, 33)
built = pytest.mark.skipif(sb.native is None, reason="the C extension is not built (or is off)")


def position(seed: int, day: int, mid: bool) -> tuple[fast.DayCtx, fast.FastState]:
    """Seed ``seed``'s room on ``day`` (reached as the relay tests do: the sunset of the day
    before, then NEXT_DAY), at turn 0 or, with ``mid``, half the day in (random legal
    moves and rests)."""
    s = sl.init(seed)
    if day > 1:
        s.update(day=day - 1, phase="sunset", turn=s["turnsInDay"])
        s = sl.step(s, NEXT_DAY)
    assert s["day"] == day
    ctx, fs = fast.to_fast(s)
    if mid:
        rnd = random.Random(seed * 100 + day)
        for _ in range(ctx.turns // 2):
            fs = fast.fast_step(ctx, fs, rnd.choice(fast.fast_legal(ctx, fs)[:-2]))
    return ctx, fs


POSITIONS = [(seed, day, mid) for seed in (1, 2, 3) for day in DAYS for mid in (False, True)]


def pair(ctx: fast.DayCtx, fs: fast.FastState, width: int) -> tuple[FastBeam, FastBeam]:
    tables = FastTables(ctx)
    return (
        FastBeam(ctx, tables, fs, width, use_native=False),
        FastBeam(ctx, tables, fs, width, use_native=True),
    )


@built
@pytest.mark.parametrize("width", [1, 16, 300])
def test_c_search_is_the_python_search(width):
    # the same action list and node count on every position: three seeds, five days from
    # the first to the 33rd (2 and 5 cats, 1 to 7 bowls), turn 0 and mid-day
    for seed, day, mid in POSITIONS:
        ctx, fs = position(seed, day, mid)
        py, c = pair(ctx, fs, width)
        found = c.run()
        assert found is not None and len(found) == ctx.turns - fs[fast.TURN]
        assert found == py.run(), (seed, day, mid)
        assert c.used == py.used > 0, (seed, day, mid)
        assert c.result == found and c.run() is found  # a finished search keeps its result


@built
@pytest.mark.parametrize("day", DAYS)
def test_c_search_is_the_python_search_at_width_2000(day):
    ctx, fs = position(4, day, mid=day % 2 == 0)
    py, c = pair(ctx, fs, 2000)
    assert c.run() == py.run()
    assert c.used == py.used > 100_000  # wide enough that the floor and the table matter


@built
@pytest.mark.parametrize(("seed", "day", "mid", "width", "slice_"), [
    (1, 1, False, 16, 97),
    (2, 8, True, 300, 5_000),
    (3, 15, False, 300, 1_234),
    (1, 24, True, 64, 301),
    (2, 33, False, 2000, 40_000),
])  # fmt: skip
def test_c_search_pauses_where_the_python_search_pauses(seed, day, mid, width, slice_):
    # budgets that stop it mid-layer: each slice returns None at the same node count, the
    # budget's own count carried in (used > 0 at the start), and the resumed search ends
    # on the same line as one uninterrupted run
    ctx, fs = position(seed, day, mid)
    py, c = pair(ctx, fs, width)
    whole = FastBeam(ctx, FastTables(ctx), fs, width, use_native=True).run()
    pauses, carried = 0, 0
    while True:
        b_py, b_c = Budget(nodes=carried + slice_), Budget(nodes=carried + slice_)
        b_py.used = b_c.used = carried
        got_py, got_c = py.run(b_py), c.run(b_c)
        assert got_c == got_py and b_c.used == b_py.used > carried
        assert not b_c.hit_deadline
        assert c.used == py.used
        if got_c is not None:
            break
        pauses += 1
        carried = b_c.used % 1000
    assert got_c == whole and pauses >= c.used // (2 * slice_ + 2_000)


@built
def test_a_passed_deadline_stops_both_at_the_same_position():
    # the deadline is looked at every 16th parent: both stop at the same one, then resume
    ctx, fs = position(2, 15, mid=False)
    py, c = pair(ctx, fs, 300)
    first = Budget(nodes=5_000)
    assert py.run(first) is None and c.run(Budget(nodes=5_000)) is None
    b_py, b_c = Budget(deadline=0.0), Budget(deadline=0.0)
    assert py.run(b_py) is None and c.run(b_c) is None
    assert b_py.hit_deadline and b_c.hit_deadline and b_c.used == b_py.used > 0
    assert c.run() == py.run() and c.used == py.used


@built
def test_day_tables_in_c_are_the_python_tables():
    # the lone-cat values (DayTables' backward induction), moved, moved_top and reach_top
    for seed, day, _ in POSITIONS[::2]:
        ctx, _fs = position(seed, day, mid=False)
        c = FastTables(ctx)
        slow = DayTables(ctx)
        assert c.value == slow.value and c.moved == slow.moved
        assert c.moved_top == slow.moved_top
        for i, r in enumerate(ctx.ranges):
            for t in range(ctx.turns + 1):
                want = [max((slow.moved[i][t][y] for y, _ in ctx.paths[x][r]), default=0)
                        for x in range(49)]  # fmt: skip
                assert list(c.reach_top[i][t]) == want
    assert max(c.value[0]) > 0


@built
def test_the_c_day_checks_its_tables():
    ctx, _ = position(1, 1, mid=False)
    tables = FastTables(ctx)
    day = tables.native_day()
    assert tables.native_day() is day  # built once per day
    assert sb.native is not None
    warm = bytes(cap for caps in ctx.warm for cap in caps)
    args = [ctx.n, ctx.turns, ctx.mult, ctx.quota, ctx.weights, ctx.ranges, tables.value,
            [[0] * ((ctx.turns + 1) * 49)] * ctx.n, warm, ctx.reach, ctx.serves, ctx.paths]  # fmt: skip
    sb.native.Day(*args)
    short = list(args)
    short[6] = [v[:-1] for v in tables.value]
    with pytest.raises(ValueError, match="values"):
        sb.native.Day(*short)
    short = list(args)
    short[8] = warm[:-1]
    with pytest.raises(ValueError, match="warm"):
        sb.native.Day(*short)
    with pytest.raises(ValueError, match="width"):
        sb.native.Search(day, fast.to_fast(sl.init(1))[1], 0)


def _decisions(bot: Planner, seed: int, days: int) -> list:
    """``bot``'s (action, nodes searched) at every decision of seed ``seed`` up to the
    sunset of day ``days``."""
    s, out = sl.init(seed), []
    while not (s["phase"] == "sunset" and s["day"] >= days):
        a = bot.choose(sl.observation(s), sl.legal_actions(s))
        out.append((a, bot.last_nodes))
        s = sl.step(s, a)
    return out


@built
def test_planner_plays_planner_v1s_actions_at_the_full_budget():
    # the default planner (C search) and planner-v1 (the original pure-Python BeamSearch),
    # the same 240,000 nodes a decision: the same actions and node counts, decision by
    # decision, for three days
    v1 = PlannerV1(random.Random(7))
    v1.time_cap_ms = None  # its 1 s wall-clock cap cuts nodes on a loaded machine
    assert not isinstance(v1._tables_for(fast.to_fast(sl.init(7))[0]), FastTables)
    new = _decisions(Planner(random.Random(7), time_cap_ms=None), 7, 3)
    assert new == _decisions(v1, 7, 3) and len(new) > 30
    assert max(n for _, n in new) > 200_000


def test_without_the_extension_the_planner_plays_the_same(monkeypatch):
    # the fallback: with the module flag off, FastBeam and FastTables are pure Python and
    # the planner plays the same actions (only slower)
    def actions() -> list:
        return _decisions(Planner(random.Random(3), budget_ms=20, time_cap_ms=None), 3, 2)

    with_c = actions()
    monkeypatch.setattr(sb, "native", None)
    ctx, fs = position(3, 1, mid=False)
    tables = FastTables(ctx)
    assert FastBeam(ctx, tables, fs, 4)._c is None
    with pytest.raises(RuntimeError, match="not built"):
        FastBeam(ctx, tables, fs, 4, use_native=True)
    with pytest.raises(RuntimeError, match="not built"):
        tables.native_day()
    without = actions()
    assert without == with_c and len(without) > 20


def test_the_environment_variable_turns_the_extension_off():
    code = "from sunbot.strategies import sunloaf_beam as b; print(b.native is None)"
    for value, off in (("1", "True"), ("0", str(sb.native is None))):
        env = {**os.environ, sb.NO_NATIVE_ENV: value}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == off
