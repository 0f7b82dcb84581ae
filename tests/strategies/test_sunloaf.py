"""Sunloaf strategies: registry, legality, the planner's never-miss guarantee on many seeds,
its fallback to the reference line, quota-first choice, DOZE use and the search's exactness."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from sunbot import strategies
from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_fast as fast
from sunbot.engines import sunloaf_gen as gen
from sunbot.strategies import sunloaf as strat
from sunbot.strategies import sunloaf_planner as plan
from sunbot.strategies.sunloaf import Planner, Reference, Rest
from sunbot.strategies.sunloaf_ahead import Ahead

NEXT = {"type": "NEXT_DAY"}


def quick(seed: int = 0, width: int = 4) -> Planner:
    """A deterministic planner (no clock): one beam width per decision."""
    return Planner(random.Random(seed), budget_ms=None, max_width=width, min_width=width)


def play(bot: Any, seed: int, days: int, check_legal: bool = False) -> tuple[dict, list]:
    """Play ``seed`` with ``bot`` to the sunset of ``days`` (or the end); the final state and
    each finished day as (day, dayCosyRaw, dayQuota, dayPar)."""
    s, ended = sl.init(seed), []
    while not sl.is_over(s):
        if s["phase"] == "sunset":
            ended.append((s["day"], s["dayCosyRaw"], s["dayQuota"], s["dayPar"]))
            if s["day"] >= days:
                break
        legal = sl.legal_actions(s)
        a = bot.choose(sl.observation(s), legal)
        if check_legal:
            assert a in legal, (seed, s["day"], s["turn"], a)
        s = sl.step(s, a)
    if s["phase"] == "over":
        ended.append((s["day"], s["dayCosyRaw"], s["dayQuota"], s["dayPar"]))
    return s, ended


# ---------------------------------------------------------------- registry and baselines


def test_registry_names_and_defaults(monkeypatch):
    assert strategies.names("sunloaf")[:7] == [
        "planner",
        "planner-ahead",
        "planner-relay",
        "planner-v1",
        "reference",
        "rest",
        "random",
    ]
    assert strategies.default_name("sunloaf") == "planner"
    bot = strategies.create("sunloaf", "planner", random.Random(1))
    assert isinstance(bot, Planner) and bot.budget_ms == 200.0 and bot.max_width == 8192
    assert bot.budget_nodes == 200 * strat.NODES_PER_MS and bot.time_cap_ms == 4000.0
    assert (bot.follow, bot._ahead) == (False, None)
    v1 = strat.PlannerV1(random.Random(1))  # the planner before issue 27
    assert (v1.budget_ms, v1.time_cap_ms, v1.follow, v1._ahead) == (200.0, 1000.0, False, None)
    fast_bot = strat.PlannerAhead(random.Random(1))
    assert fast_bot.budget_nodes == 50 * strat.NODES_PER_MS and fast_bot.follow
    assert fast_bot._ahead is not None and fast_bot._ahead.nodes == strat.AHEAD_NODES
    monkeypatch.setenv(strat.BUDGET_ENV, "35")
    assert Planner(random.Random(1)).budget_ms == 35.0
    assert Planner(random.Random(1)).budget_nodes == 35 * strat.NODES_PER_MS
    monkeypatch.setenv(strat.BUDGET_ENV, "none")
    assert Planner(random.Random(1)).budget_ms is None
    assert Planner(random.Random(1)).budget_nodes is None
    assert Planner(random.Random(1)).time_cap_ms is None
    assert Planner(random.Random(1), budget_ms=50).budget_ms == 50
    monkeypatch.setenv(strat.BUDGET_ENV, "-3")
    with pytest.raises(ValueError):
        Planner(random.Random(1))
    with pytest.raises(ValueError):
        Planner(random.Random(1), budget_ms=10, max_width=4, min_width=16)
    with pytest.raises(ValueError):
        Planner(random.Random(1), budget_ms=10, time_cap_ms=0)


def test_rest_naps_well_until_the_ratio_catches_it():
    """Never moving keeps every streak (tier 6 as the band passes), enough for the early
    quotas (a fraction of par); on day 12 (14-turn days) seed 7 falls below quota."""
    s, days = play(Rest(random.Random(0)), 7, 40, check_legal=True)
    assert s["result"] == "missedQuota" and s["score"] == 52230
    assert days[-2:] == [(11, 915, 588, 1341), (12, 224, 270, 574)]


def test_reference_player_earns_par_plus_chain_and_never_misses():
    s, days = play(Reference(random.Random(0)), 7, 12, check_legal=True)
    assert s["phase"] == "sunset" and s["day"] == 12 and s["score"] == 64243
    assert all(cosy >= par >= quota for _, cosy, quota, par in days)
    assert days[:2] == [(1, 1370, 137, 1370), (2, 1678, 252, 1678)]  # day 1: §11.13


def test_every_strategy_refuses_to_play_a_finished_run():
    over = sl.step(sl.init(1), {"type": "END_RUN"})
    for bot in (Rest(random.Random(0)), Reference(random.Random(0)), quick()):
        with pytest.raises(ValueError):
            bot.choose(over, [])
        assert bot.choose({**over, "phase": "sunset", "result": None}, [NEXT]) == NEXT


# ---------------------------------------------------------------- the planner's guarantee


def _never_misses(seeds: range) -> None:
    """The never-miss guarantee on ``seeds``: every day of 15 cleared, with legal actions
    only (checked on seeds below 3); and it earns well above the reference policy's par."""
    total, par = 0, 0
    for seed in seeds:
        s, days = play(quick(seed), seed, 15, check_legal=seed < 3)
        assert s["phase"] == "sunset" and s["day"] == 15, (seed, days[-1])
        assert all(cosy >= quota for _, cosy, quota, _ in days)
        total += sum(cosy for _, cosy, _, _ in days)
        par += sum(p for _, _, _, p in days)
    assert total > 2 * par


def test_planner_never_misses_a_quota_10_seeds_15_days():
    """The default run's share of the 30 seeds (the slowest default test at 30 seeds)."""
    _never_misses(range(10))


@pytest.mark.slow
def test_planner_never_misses_a_quota_20_more_seeds_15_days():
    """Seeds 10-29 of the 30-seed check, kept by ``-m slow``."""
    _never_misses(range(10, 30))


@pytest.mark.slow
def test_planner_never_misses_a_quota_100_more_seeds_40_days():
    for seed in range(100, 200):
        s, days = play(quick(seed, width=4), seed, 40)
        assert s["phase"] == "sunset" and s["day"] == 40, (seed, days[-1])


@pytest.mark.slow
def test_planner_with_the_default_budget_keeps_it_and_clears_every_day():
    """No decision generates more nodes than its budget (a search that would pass it is
    abandoned or paused), NEXT_DAY decisions included (they run the look-ahead), and from
    day 2 every day starts from a finished look-ahead search."""
    bot = strat.PlannerAhead(random.Random(0))
    bot.time_cap_ms = None
    assert bot.budget_nodes is not None and bot._ahead is not None
    s = sl.init(3)
    while not (s["phase"] == "sunset" and s["day"] >= 12):
        assert s["phase"] != "over"
        a = bot.choose(s, sl.legal_actions(s))
        assert bot.last_nodes <= bot.budget_nodes + 400
        s = sl.step(s, a)
    assert bot._ahead.taken == bot._ahead.taken_wide == 11


def test_node_budget_bounds_the_search_exactly():
    """A search stops right after the expansion that passes ``Budget.nodes``, whatever the
    clock: the same nodes on every run; without a limit it counts what it generated."""
    s = sl.init(4)
    ctx, fs = fast.to_fast(s)
    tables = plan.DayTables(ctx)
    free = plan.Budget()
    plan.beam_search(ctx, tables, fs, 16, free)
    assert free.used > 1000
    for _ in range(2):
        b = plan.Budget(nodes=free.used // 2)
        with pytest.raises(plan.SearchStopped):
            plan.beam_search(ctx, tables, fs, 16, b)
        assert free.used // 2 < b.used <= free.used // 2 + 5 * 8 * 4 + 1
        assert not b.hit_deadline
    late = plan.Budget(deadline=time.perf_counter() - 1)
    with pytest.raises(plan.SearchStopped):
        plan.beam_search(ctx, tables, fs, 16, late)
    assert late.hit_deadline


@pytest.mark.slow
def test_default_planner_replays_the_same_actions_40_days():
    """Two plays of one seed with the default (node) budget choose the same actions for all
    40 days, and no decision reaches the wall-clock safety cap."""
    runs = []
    for _ in range(2):
        bot = Planner(random.Random(11))
        s, actions = sl.init(11), []
        while not (s["phase"] == "sunset" and s["day"] >= 40):
            a = bot.choose(sl.observation(s), sl.legal_actions(s))
            actions.append(a)
            s = sl.step(s, a)
        runs.append((actions, s["score"], bot.capped))
    assert runs[0] == runs[1] and runs[0][2] == 0


def test_without_search_time_the_planner_plays_the_reference_line():
    """A budget too small for any search leaves the fallback: the reference line itself
    (DOZE standing in for its runs of RESTs), so every day earns what the reference earns."""
    s_ref, ref_days = play(Reference(random.Random(0)), 5, 8)
    s_fb, fb_days = play(Planner(random.Random(0), budget_ms=1e-6), 5, 8)
    assert fb_days == ref_days and s_fb["score"] == s_ref["score"]


def test_a_line_missing_the_quota_is_never_adopted(monkeypatch):
    """Even when the search proposes a line that scores more but misses the quota, the
    planner keeps a line that clears it."""
    day = make_day(turn=18, cosy=0, quota=1, cats=[(24, 0), (42, 0)], lit_col=6)
    ctx, fs = fast.to_fast(day)

    def bad_search(ctx, tables, start, width, budget=None, follow=None):
        return [fast.REST] * (ctx.turns - start[fast.TURN])

    monkeypatch.setattr(strat, "beam_search", bad_search)
    assert plan.reference_line(ctx, fs).quota_met
    bot = Planner(random.Random(0), budget_ms=None, max_width=8, min_width=8)
    s = day
    while s["phase"] == "day":
        s = sl.step(s, bot.choose(s, sl.legal_actions(s)))
    assert s["phase"] == "sunset"


def make_day(
    turn: int,
    cosy: int,
    quota: int,
    cats: list[tuple[int, int]],
    lit_col: int,
    bowls: list[tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """A hand-built running day 1 (window N, no furniture, hearth far off in the dark)."""
    s = sl.init(0)
    s.update(turn=turn, dayCosyRaw=cosy, dayQuota=quota, dayPar=quota, score=cosy)
    s["cats"] = [
        {"id": i, "tile": t, "settled": k, "range": sl.RANGE[i], "big": i == 3}
        for i, (t, k) in enumerate(cats)
    ]
    s["bowls"] = [{"mat": m, "serveTurn": t} for m, t in bowls or []]
    s["layout"].update(window="N", furniture=[], hearth=None, cloudTurns=[], dogLoops=[])
    s["layout"].update(shadeLength=1, latticeParity=None)
    s["dogs"] = []
    assert (turn // 3) <= lit_col <= (turn // 3) + 1
    return s


def test_quota_first_a_fresh_planner_finds_the_only_clearing_line():
    """Turn 19 of 21, nothing earned, quota 30, every cat in the dark: the reference policy
    has no warm tile in reach and RESTs to a missed quota; the only clearing line walks cat 0
    onto the mat serving at turn 20 (chain 1, raw 30)."""
    day = make_day(turn=19, cosy=0, quota=30, cats=[(0, 0), (42, 0)], lit_col=6, bowls=[(2, 20)])
    ctx, fs = fast.to_fast(day)
    assert not plan.reference_line(ctx, fs).quota_met
    bot = quick()
    a = bot.choose(day, sl.legal_actions(day))
    assert a == {"type": "MOVE", "cat": 0, "tile": 2}
    s = sl.step(day, a)
    s = sl.step(s, bot.choose(s, sl.legal_actions(s)))
    assert (s["phase"], s["dayCosyRaw"], s["chain"]) == ("sunset", 30, 1)


def test_planner_moves_ahead_of_the_band_and_naps_at_tier_6():
    """Day 1, window N, a clear room: from turn 0 the best lines park cats ahead of the band
    so they are lit already settled; cat 0 alone on column 0 earns far above par."""
    day = make_day(turn=0, cosy=0, quota=0, cats=[(0, 0), (48, 0)], lit_col=0)
    ctx, fs = fast.to_fast(day)
    ref = plan.reference_line(ctx, fs)
    best = plan.replay(ctx, fs, plan.beam_search(ctx, plan.DayTables(ctx), fs, 64))
    assert best.quota_met and best.final[fast.COSY] > 2 * ref.final[fast.COSY]
    tiers = max(best.final[fast.CATS + 2 :])
    assert tiers >= 6


def test_planner_uses_doze_and_restarts_from_an_unexpected_position():
    bot = quick(width=8)
    s, sent = sl.init(11), []
    while s["day"] < 3:
        a = bot.choose(s, sl.legal_actions(s))
        sent.append(a["type"])
        s = sl.step(s, a)
    assert "DOZE" in sent and "MOVE" in sent and "END_RUN" not in sent
    # someone else moves a cat mid-day: the planner replans from there and clears the day
    s = sl.step(s, sl.legal_actions(s)[0])
    s = sl.step(s, sl.legal_actions(s)[-3])  # REST
    while s["phase"] == "day":
        s = sl.step(s, bot.choose(s, sl.legal_actions(s)))
    assert s["phase"] == "sunset"


def test_planner_is_deterministic_without_a_clock():
    a, _ = play(quick(3, width=8), 3, 4)
    b, _ = play(quick(3, width=8), 3, 4)
    assert a == b and a["score"] == b["score"] > 0


def test_planner_pinned_day_one_of_seed_7():
    """Seed 7's golden day 1 (par 1370, quota 137): the width-16 planner's exact day, 1.87
    times par (score = cosy at mult 100, plus the day bonus of 100)."""
    s, days = play(quick(width=16), 7, 1)
    assert days == [(1, 2568, 137, 1370)] and s["score"] == 2568 + 100


# ---------------------------------------------------------------- the search's internals


@pytest.mark.parametrize("day", [1, 5, 9, 15, 20, 24])
def test_incremental_children_equal_the_engine_step(day):
    """Every MOVE/REST child the search builds incrementally equals fast_step's turn (score,
    cosy, chain, tiles, settled capped at 6), along a random line of the day."""
    rnd = random.Random(day)
    for seed in range(3):
        s = sl.init(seed)
        if day > 1:
            s.update(day=day - 1, phase="sunset", turn=21)
            s = sl.step(s, NEXT)
        ctx, fs = fast.to_fast(s)
        tables = plan.DayTables(ctx)
        n = ctx.n
        while fs[fast.TURN] < ctx.turns:
            kids = plan.children(ctx, tables, fs)
            legal = [a for a in fast.fast_legal(ctx, fs) if a not in (fast.DOZE, fast.END_RUN)]
            assert sorted(kids) == sorted(legal)
            for a in legal:
                c = fast.fast_step(ctx, fs, a)
                bonus = ctx.bonus if c[fast.PHASE] == fast.SUNSET else 0
                key = (c[fast.CHAIN], *c[fast.CATS : fast.CATS + n])
                key += tuple(min(x, 6) for x in c[fast.CATS + n :])
                node = kids[a]
                assert (node[1] + bonus, node[2], node[3]) == (c[fast.SCORE], c[fast.COSY], key)
            fs = fast.fast_step(ctx, fs, rnd.choice(legal))


def test_lone_cat_values_by_hand():
    """Day 1, window N, clear room: a lone range-3 cat on column 6 at turn 15 (lit 15..20)
    with settled 6 earns tier 6 six times: 6 * 100 raw; at turn 20 with settled 0, tier 1."""
    day = make_day(turn=0, cosy=0, quota=0, cats=[(6, 0), (48, 0)], lit_col=0)
    ctx, _ = fast.to_fast(day)
    v = plan.DayTables(ctx).value[0]
    assert v[(15 * 49 + 6) * 7 + 6] == 600
    assert v[(20 * 49 + 6) * 7 + 0] == 10
    assert v[(21 * 49 + 6) * 7 + 6] == 0
    assert gen.day_params(1).turns_in_day == 21


# ---------------------------------------------------------------- issue 27: look-ahead


def _day_start(seed: int, day: int) -> dict[str, Any]:
    s = sl.init(seed)
    if day > 1:
        s.update(day=day - 1, phase="sunset", turn=21)
        s = sl.step(s, NEXT)
    return s


def test_a_paused_search_resumed_in_slices_finds_the_same_line():
    """BeamSearch paused every ~3,000 nodes and resumed under fresh budgets ends with the
    same actions and the same node count as one uninterrupted run (so splitting the work
    over decisions changes nothing a seeded run does)."""
    ctx, fs = fast.to_fast(_day_start(2, 9))
    tables = plan.DayTables(ctx)
    whole = plan.BeamSearch(ctx, tables, fs, 64)
    assert whole.run() is not None and whole.used > 20_000
    sliced, pauses = plan.BeamSearch(ctx, tables, fs, 64), 0
    while (found := sliced.run(plan.Budget(nodes=3_000))) is None:
        pauses += 1
    assert pauses >= 6 and found == whole.result and sliced.used == whole.used
    assert plan.beam_search(ctx, tables, fs, 64) == whole.result


def test_a_followed_line_is_never_lost_by_a_narrow_beam():
    """A width-1 beam ends below a width-64 line on this day; told to follow that line it
    keeps the line's positions in every layer and so ends at least as high."""
    ctx, fs = fast.to_fast(_day_start(1, 12))
    tables = plan.DayTables(ctx)
    good = plan.replay(ctx, fs, plan.beam_search(ctx, tables, fs, 64))
    narrow = plan.replay(ctx, fs, plan.beam_search(ctx, tables, fs, 1))
    assert narrow.rank() < good.rank()
    kept = plan.replay(ctx, fs, plan.beam_search(ctx, tables, fs, 1, follow=good))
    assert kept.rank() >= good.rank()


def test_the_look_ahead_plans_tomorrow_from_the_predicted_sunset():
    """From a day's planned sunset the look-ahead builds tomorrow's room with the engine and
    searches it in slices; at the real tomorrow's turn 0 it hands over a line that is the
    exact replay there (and beats the reference line); another room gets nothing."""
    s = _day_start(4, 6)
    ctx, fs = fast.to_fast(s)
    line = plan.replay(ctx, fs, plan.beam_search(ctx, plan.DayTables(ctx), fs, 16))
    assert line.final[fast.PHASE] == fast.SUNSET
    ahead = Ahead(nodes=40_000, min_width=8, max_width=512, fill=0.9)
    for _ in range(100):
        budget = plan.Budget(nodes=15_000)
        ahead.prepare(ctx, line.final, budget)
        ahead.advance(budget)
        if ahead.ready:
            break
    assert ahead.ready
    tomorrow = sl.step(fast.from_fast(ctx, line.final), NEXT)
    ctx2, fs2 = fast.to_fast(tomorrow)
    got = ahead.take(ctx2, fs2, plan.Budget(nodes=1))
    assert got is not None and (ahead.taken, ahead.taken_wide) == (1, 1)
    assert got == plan.replay(ctx2, fs2, got.actions) and got.quota_met
    assert got.rank() > plan.reference_line(ctx2, fs2).rank()
    ahead.prepare(ctx, line.final, plan.Budget(nodes=15_000))
    other_ctx, other_fs = fast.to_fast(_day_start(5, 7))
    assert ahead.take(other_ctx, other_fs, plan.Budget(nodes=15_000)) is None


def test_the_look_ahead_planner_is_deterministic_and_legal():
    """Two plays of a seed with PlannerAhead (node budget, look-ahead) send the same legal
    actions; day 2 starts from the look-ahead's finished search."""
    runs = []
    for _ in range(2):
        bot = strat.PlannerAhead(random.Random(8))
        s, days = play(bot, 8, 2, check_legal=True)
        assert s["phase"] == "sunset" and all(c >= q for _, c, q, _ in days)
        assert bot._ahead is not None and bot._ahead.taken_wide == 1
        runs.append((s["score"], days))
    assert runs[0] == runs[1]
