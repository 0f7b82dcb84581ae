"""Naptuft strategies: legality, survival, the planner's arithmetic, and the clairvoyant bound."""

from __future__ import annotations

import random

import pytest

import sunbot
from sunbot import strategies
from sunbot.engines import naptuft as nt
from sunbot.strategies import naptuft as S

CARES = [{"type": "care", "care": c} for c in nt.CARES]


def make(name, seed, cap=None):
    """Built and started as the runner does: told the seed and the run's day cap."""
    bot = strategies.create("naptuft", name, random.Random(seed))
    strategies.notify_start(bot, "naptuft", seed, cap)
    return bot


def play(name, seed, days, check=None):
    """Play ``name`` on the engine up to the day break of ``days`` (the harness's cap)."""
    bot = make(name, seed, days)
    s = nt.init(seed)
    low = 100
    while not nt.is_over(s):
        if s["phase"] == "dayBreak" and s["day"] >= days:
            return nt.step(s, {"type": "end-run"}), low
        legal = nt.legal_actions(s)
        a = bot.choose(nt.observation(s), legal)
        assert a in legal, (name, seed, s["day"], s["moment"], a)
        assert a != {"type": "end-run"}, "strategies leave end-run to the harness's cap"
        if check is not None:
            check(s, a)
        s = nt.step(s, a)
        low = min(low, *s["needs"].values())
    return s, low


def test_registry_lists_the_four_naptuft_strategies_balancer_first():
    assert strategies.names("naptuft")[:4] == ["balancer", "rotation", "random", "clairvoyant"]
    assert strategies.default_name("naptuft") == "balancer"


@pytest.mark.parametrize("name", ["balancer", "rotation", "clairvoyant"])
@pytest.mark.parametrize("seed", [1, 7])
def test_planners_and_rotation_only_play_legal_actions_and_survive(name, seed):
    final, low = play(name, seed, 9)  # days 7-9 have the no-repeat rule
    assert final["result"] == "ended" and final["day"] == 9
    assert low >= 40  # every plan kept comfort on these seeds


def test_random_only_plays_legal_actions():
    for seed in range(5):
        bot = make("random", seed)
        s = nt.init(seed)
        while not nt.is_over(s):
            legal = nt.legal_actions(s)
            a = bot.choose(nt.observation(s), legal)
            assert a in legal
            s = nt.step(s, a)


def test_rotation_cycles_from_feed_and_never_repeats():
    bot = make("rotation", 1)
    s = nt.init(1)
    seen = []
    for _ in range(13):
        a = bot.choose(nt.observation(s), nt.legal_actions(s))
        seen.append(a["care"] if a["type"] == "care" else a["type"])
        s = nt.step(s, a)
    assert seen == ["feed", "play", "brush", "nap"] * 3 + ["next-day"]
    assert bot.choose(nt.observation(s), nt.legal_actions(s)) == CARES[0]  # after nap: feed


def test_rotation_keeps_every_need_at_46_or_more_as_section_9_proves():
    for seed in (2, 3):
        final, low = play("rotation", seed, 20)
        assert final["result"] == "ended" and low >= 46


def test_balancer_never_goes_fatal_and_keeps_comfort_on_eight_seeds_over_30_days():
    for seed in range(100, 108):
        final, low = play("balancer", seed, 30)
        assert final["result"] == "ended" and final["day"] == 30, seed
        assert low >= 40, seed


@pytest.mark.slow
def test_balancer_never_goes_fatal_on_200_seeds_over_40_days():
    for seed in range(200):
        final, _ = play("balancer", seed, 40)
        assert final["result"] == "ended", seed


def test_clairvoyant_scores_at_least_the_balancer_on_the_same_seeds():
    for seed in range(1, 7):
        bal, _ = play("balancer", seed, 8)
        clair, _ = play("clairvoyant", seed, 8)
        assert clair["score"] >= bal["score"], seed


@pytest.mark.slow
def test_clairvoyant_is_at_least_the_balancer_on_average_over_40_seeds_at_30_days():
    bal = sum(play("balancer", seed, 30)[0]["score"] for seed in range(1, 41))
    clair = sum(play("clairvoyant", seed, 30)[0]["score"] for seed in range(1, 41))
    assert clair >= bal


def test_clairvoyant_refuses_without_the_seed_or_on_another_deck():
    obs, legal = nt.observation(nt.init(7)), nt.legal_actions(nt.init(7))
    bot = S.Clairvoyant(random.Random(0))
    with pytest.raises(ValueError, match="seed"):
        bot.choose(obs, legal)
    bot.on_start("naptuft", 8)  # not the deck the observation shows
    with pytest.raises(ValueError, match="deck"):
        bot.choose(obs, legal)
    bot.on_start("naptuft", 7)
    assert bot.choose(obs, legal) in legal


def test_plan_w2_numbers_pick_the_one_step_wish():
    # W2 (§7): needs 45/62/90/33, P 3/1/0/2 -> losses 8/7/6/8; a one-moment horizon.
    start = S.Start(needs=(45, 62, 90, 33), progress=0, streak=0, last=-1)
    moment = S.Moment((8, 7, 6, 8), False, (3,), False, True, False)
    found = S.plan(start, [moment], lambda needs, streak: 0.0)
    assert found is not None and found.cares == [3]  # nap
    # nap: 37/55/84/61, food < 40 so no comfort; the wish [nap] pays 60*1*1 = 60;
    # value = bonuses 60 + needs' sum 237
    assert found.value == 60 + 37 + 55 + 84 + 61
    # feed instead would leave energy at 25 and no wish: 81-8 + 55 + 84 + 25 = 237 < 297


def test_plan_ends_a_window_so_the_next_four_step_wish_is_not_blocked():
    # day 7, moment 3, window 0's wish done, window 1 wishes [feed, play, brush, nap]:
    # caring feed now would block its first step at moment 4 (§8.1), losing 60*4*3 = 720.
    obs = nt.observation(nt.init(5))
    flat = dict.fromkeys(nt.NEEDS, 0)
    obs.update(
        day=7,
        moment=3,
        window=0,
        needs={"food": 40, "joy": 80, "cleanliness": 80, "energy": 80},
        wish=None,
        wishStreak=4,
        lastCare="play",
        score=5000,
        forecast=[
            {"wish": ["play"], "pressure": flat},
            {"wish": ["feed", "play", "brush", "nap"], "pressure": flat},
            {"wish": ["nap", "brush"], "pressure": flat},
        ],
        nextWindow={"wish": ["brush", "feed"], "pressure": flat},
    )
    nt.check_observation_shape(obs)
    bot = S.Balancer(random.Random(0))
    a = bot.choose(obs, nt.legal_actions(obs))
    assert a != CARES[0] and a in nt.legal_actions(obs)  # food is lowest, yet not feed
    s = obs
    for _ in range(5):
        s = nt.step_observation(s, bot.choose(s, nt.legal_actions(s)))
    assert s["moment"] == 8 and s["wishStreak"] == 5  # the 4-step wish was completed


def test_a_horizon_ending_on_a_forced_wish_care_pays_forced_end():
    """One window under the no-repeat rule, wish [feed, play, brush], last care feed: the
    wish can only finish on brush at the horizon's last moment (180 points). With
    ``forced_end`` above that, the plan gives the wish up; with the last care free it
    finishes the wish by moment 2 and leaves the last care open."""
    moments = [S.Moment((6, 6, 6, 6), True, (0, 1, 2), False, m == 3, False) for m in range(4)]
    zero = lambda needs, streak: 0.0  # noqa: E731
    blocked = S.Start(needs=(70, 70, 70, 70), progress=0, streak=0, last=0)
    plain = S.plan(blocked, moments, zero)
    assert plain is not None and plain.cares[1:] == [0, 1, 2]
    wary = S.plan(blocked, moments, zero, forced_end=1000)
    assert wary is not None and wary.cares[1:] != [0, 1, 2]
    assert wary.value < plain.value
    free = S.plan(S.Start((70, 70, 70, 70), 0, 0, -1), moments, zero, forced_end=1000)
    assert free is not None and free.cares[:3] == [0, 1, 2]
    assert free.value >= plain.value


def test_balancer_on_its_last_day_plans_that_day_only_and_values_the_end_exactly():
    """Told its cap (the day it will end the run itself), the balancer's horizon on that
    day is the rest of the day, valued by the final score alone; before it, the next day's
    first window and the margins and streak count as usual; forced_end only applies while
    the window after the horizon falls under the day-7 rule."""
    obs = nt.observation(nt.init(5))
    obs.update(day=9, moment=4, window=1)
    bot = S.Balancer(random.Random(0), day_cap=9)
    seen, terminal = bot._horizon(obs)
    assert seen == obs["forecast"][1:] and terminal((1, 1, 1, 1), 0) == 0.0
    assert not bot._open_ended(9) and bot._open_ended(8)
    obs.update(day=8)
    seen, terminal = bot._horizon(obs)
    assert seen == [*obs["forecast"][1:], obs["nextWindow"]]
    assert terminal((1, 1, 1, 1), 0) == -1e9
    assert S.Balancer(random.Random(0))._open_ended(6) and not bot._open_ended(5)
    assert not S.Clairvoyant(random.Random(0))._open_ended(8)


def test_plan_matches_the_engine_player_side_step_along_its_line():
    rng = random.Random(3)
    for seed in (4, 11, 29):
        s = nt.init(seed)
        for _ in range(rng.randrange(20, 120)):  # a random, mostly safe, mid-run position
            legal = [a for a in nt.legal_actions(s) if a["type"] != "end-run"]
            lowest = legal[0] if s["phase"] == "dayBreak" else S._lowest_legal(s, legal)
            s = nt.step(s, lowest if rng.random() < 0.6 else rng.choice(legal))
        assert not nt.is_over(s)
        if s["phase"] == "dayBreak":
            s = nt.step(s, {"type": "next-day"})
        obs = nt.observation(s)
        seen = [*obs["forecast"][obs["window"] :], obs["nextWindow"]]
        moments = S._moments(seen, obs["day"], obs["moment"])
        found = S.plan(S.Start(*S._position(obs)), moments, lambda needs, streak: 0.0)
        assert found is not None and len(found.cares) == len(moments)
        o, losses = obs, 0
        for i, c in enumerate(found.cares):
            if o["phase"] == "dayBreak":  # the next day's windows 1-2 lie past the horizon
                o = nt.step_observation(o, {"type": "next-day"}, nt.revealed_from(obs))
            assert found.positions[i] == S._position(o)
            losses += sum(moments[i].loss)
            o = nt.step_observation(o, CARES[c])
        # score - needs' sum grows by the fixed losses + bonuses (module docstring), so the
        # plan's value (bonuses + final needs' sum) = score gained + start needs - losses
        gained = o["score"] - obs["score"]
        assert found.value == gained + sum(obs["needs"].values()) - losses


def engine_run(bot, seed, days, cap=None):
    """Balancer ``bot`` on the engine to the day break of ``days``, told ``cap``."""
    strategies.notify_start(bot, "naptuft", seed, cap)
    s = nt.init(seed)
    while not (s["phase"] == "dayBreak" and s["day"] >= days):
        s = nt.step(s, bot.choose(nt.observation(s), nt.legal_actions(s)))
    return s["score"]


@pytest.mark.parametrize("seed", [3, 12, 40])
def test_a_capped_sunbot_play_tells_the_balancer_its_cap(seed):
    """sunbot.play(max_days=8) passes the cap to on_start (the runner's contract), and the
    balancer told it scores at least what it scores untold (its last day then plays for
    the final score instead of margins and a streak it will not use)."""
    bot = S.Balancer(random.Random(seed))
    summary = sunbot.play("naptuft", seed=seed, strategy=bot, max_days=8)
    assert summary.ended_by == "cap" and bot.day_cap == 8
    assert summary.score == engine_run(S.Balancer(random.Random(seed)), seed, 8, cap=8)
    assert summary.score >= engine_run(S.Balancer(random.Random(seed)), seed, 8)


def test_an_uncapped_start_clears_a_day_cap():
    bot = S.Balancer(random.Random(0), day_cap=5)
    strategies.notify_start(bot, "naptuft", 1, None)
    assert bot.day_cap is None
    clair = S.Clairvoyant(random.Random(0))
    strategies.notify_start(clair, "naptuft", 9, 4)
    assert (clair.seed, clair.day_cap) == (9, 4)


@pytest.mark.parametrize(
    ("shown", "live"),
    [
        (None, None),
        ({"actions": ["nap", "feed"], "progress": 2}, None),  # finished, at full progress
        ({"actions": ["nap", "feed"], "progress": 1}, {"actions": ["nap", "feed"], "progress": 1}),
        ({"actions": ["nap", "pet"], "progress": 0}, None),  # not a care of the rules
        ({"actions": "nap", "progress": 0}, None),
        ({"actions": ["nap"], "progress": "0"}, None),
        ({"actions": ["nap"], "progress": -1}, None),
        ({"actions": [["nap"], "feed"], "progress": 0}, None),  # unhashable: no TypeError
        ({"actions": [{"care": "nap"}], "progress": 0}, None),
    ],
)
def test_live_wish_reads_every_form_of_no_wish_as_none(shown, live):
    assert S.live_wish({"wish": shown}) == live
    assert S.live_wish({}) is None  # a server may leave the key out


@pytest.mark.parametrize("form", ["full", "absent"])
def test_balancer_plays_the_same_when_a_done_wish_is_shown_another_way(form):
    """docs/rules/naptuft.md: once a window's wish is done a server may show it at full
    progress or leave ``wish`` out instead of null. The balancer must read both as no wish
    and play exactly the line it plays against our null (seed 7, 3 days: 84 cares)."""

    def play(reshape: bool) -> list[dict]:
        bot = strategies.create("naptuft", "balancer", random.Random(1))
        s, sent = nt.init(7), []
        while s["day"] <= 3 and not nt.is_over(s):
            obs = nt.observation(s)
            if reshape and obs["wish"] is None and obs["phase"] == "care":
                if form == "full":
                    done = obs["forecast"][obs["window"]]["wish"]
                    obs["wish"] = {"actions": done, "progress": len(done)}
                else:
                    del obs["wish"]
            action = bot.choose(obs, nt.legal_actions(s))
            sent.append(action)
            s = nt.step(s, action)
        return sent

    ours = play(False)
    assert play(True) == ours
    assert sum(a["type"] == "care" for a in ours) == 36
