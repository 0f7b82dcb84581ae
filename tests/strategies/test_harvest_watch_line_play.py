"""The line play (:class:`LinePlay`, ``adaptive-v3``, the default's base): its rollouts of
whole lines on hand-computed nights, and where it departs from ``adaptive-v2``."""

from __future__ import annotations

import random

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.strategies import harvest_watch_lines as lines
from sunbot.strategies import harvest_watch_planner as plan
from sunbot.strategies.harvest_watch_line_play import SNUB, LinePlay
from sunbot.strategies.harvest_watch_reader import Foresight
from sunbot.testing import hw_league
from tests.hw_args import hw_args
from tests.strategies.test_harvest_watch import data

GUARD, FARM, COOP1, STEAL1 = (plan.GUARD, -1), (plan.FARM, -1), (plan.COOP, 1), (plan.STEAL, 1)
TWO = [True, True, False, False, False, False]


def test_the_rollout_night_is_the_planner_night():
    rng = random.Random(5)
    kinds = [plan.FARM, plan.GUARD, plan.STEAL, plan.COOP]
    for _ in range(300):
        food = [rng.randrange(1, 60) for _ in range(6)]
        acts: dict[int, plan.Act] = {}
        for s in range(6):
            k = rng.choice(kinds)
            named = k in (plan.STEAL, plan.COOP)
            acts[s] = (k, rng.choice([x for x in range(6) if x != s]) if named else -1)
        a, b = food[:], food[:]
        alive_a, alive_b = [True] * 6, [True] * 6
        _, pre_a = plan.night(a, alive_a, acts)
        pre_b = lines._night(b, alive_b, acts)
        assert (a, alive_a, pre_a) == (b, alive_b, pre_b)


def test_a_last_night_against_a_guard_is_a_farm():
    # both at 1.0, seat 1 always guards: farming ends with P 3.0 against 1.0 (a sole win),
    # guarding draws (P 1.0 each), a theft is blocked (P 1.0 each: a draw)
    food, living = [10, 10, 0, 0, 0, 0], [0, 1]
    models = {1: lines.Model(rate=0.0, farm=0.0, last=0.0)}
    cands = [(GUARD, lines.GUARD), (STEAL1, lines.GUARD), (FARM, lines.GUARD)]
    best, means = lines.best_line(0, food, living, models, cands, [1], random.Random(1), 8)
    assert best == (FARM, lines.GUARD)
    assert means == {cands[0]: 0.5, cands[1]: 0.5, cands[2]: 1.0}


def test_a_seat_that_offers_and_betrays_is_guarded_against():
    # we and seat 1 at 2.0; seat 1 offers us a joint farm and surely robs us instead.
    # Joint farm: one-sided +2.0, robbed 2.0: P 2.0, out; seat 1 P 4.0 lives on: 0.
    # Guard: its theft is blocked (P 2.0, out), we live on 1.0: a sole win, 1.
    food, living = [20, 20, 0, 0, 0, 0], [0, 1]
    models = {1: lines.Model(rate=0.0, offer=0, betray=1.0, farm=0.0)}
    cands = [(COOP1, lines.COOP), (GUARD, lines.GUARD)]
    best, means = lines.best_line(0, food, living, models, cands, [1], random.Random(1), 8)
    assert best == (GUARD, lines.GUARD) and means == {cands[0]: 0.0, cands[1]: 1.0}
    assert lines.play(0, food, living, models, cands[0], [1], [[0.0] * 6]) == 0.0


def test_an_early_theft_from_a_joint_farming_seat_pays():
    # 3.0 each, seats 1 and 2 joint-farm together every night and never steal or guard,
    # we are alone. Guarding, we last 3 nights, they 6: we lose. Robbing seat 1 tonight
    # (+2.5 - 2.0 - 3.0: 0.5 left) and again the next night puts it out, and seat 2, alone,
    # then farms one-sided: robbing it every night, we outlast it.
    food, living = [30, 30, 30, 0, 0, 0], [0, 1, 2]
    models = {
        1: lines.Model(rate=0.0, offer=2, farm=1.0),
        2: lines.Model(rate=0.0, offer=1, farm=1.0),
    }
    cands = [(GUARD, lines.GUARD), (STEAL1, lines.ROB)]
    best, means = lines.best_line(0, food, living, models, cands, [1, 2], random.Random(1), 4)
    assert best == (STEAL1, lines.ROB)
    assert means[cands[0]] < 0.01 and means[cands[1]] == 1.0


def play(strategy: type[Foresight], table: list[str], seed: int) -> tuple[list[int], list[dict]]:
    """One engine match of ``strategy`` in seat 0 against ``table``; its action commands."""
    bots = {0: strategy(random.Random(seed))}
    house = [i for i, name in enumerate(table, start=1) if name == "house"]
    for i, name in enumerate(table, start=1):
        r = random.Random(seed * 10 + i)
        if name in hw_league.LEAGUE:
            bots[i] = hw_league.make(name, r)
        elif name != "house":
            bots[i] = strategies.create("harvest-watch", name, r)
    state, sent, mem, rng = hw.init(seed, 6), [], {s: {} for s in house}, random.Random(seed)
    while state["status"] != "done":
        cmds = {s: [hw.house_command(state, s, mem[s], rng, house_seats=house)]
                for s in house if state["alive"][s]}  # fmt: skip
        for s, bot in bots.items():
            if state["alive"][s]:
                cmd = bot.choose(*hw_args(seat_data(state, s, can_act=True, pending=None)))
                assert hw.validate_command(state, s, cmd) is None
                cmds[s] = [cmd]
                if s == 0 and state["phase"] == "action":
                    sent.append(cmd)
        state = hw.resolve_beat(state, cmds)
    return state["result"]["ranks"], sent


def test_among_house_bots_it_plays_as_adaptive_v2():
    table = ["house", "house", "house", "farmer", "random"]
    for seed in (1, 2, 3):
        assert play(LinePlay, table, seed) == play(Foresight, table, seed)


def test_it_robs_seats_that_farm_under_their_offers():
    # five league seats that offer the poorest seat a joint farm every day and keep it:
    # their stores are open (§3.5); ``adaptive-v2`` draws six ways with them, the line
    # play robs them and shares rank 1 with two seats only (win share 1/3, not 1/6)
    for seed in (1, 5, 7):
        ranks, sent = play(LinePlay, ["joint_offer"] * 5, seed)
        assert any(c["act"] == "steal" for c in sent)
        assert ranks[0] == 1 and ranks.count(1) == 3
        assert play(Foresight, ["joint_offer"] * 5, seed)[0] == [1] * 6


def test_an_offer_it_left_one_sided_is_not_counted_on():
    bot = LinePlay(random.Random(0))
    said = {str(i): "…" for i in range(6)} | {"2": "Seat 2: I cooperate with seat 0."}
    bot.book.seat(2).betrayed = 3  # not trusted: it takes no joint farm with seat 2
    cmd = bot.choose(*hw_args(data({"speeches1": said, "speeches2": said, "day": 2})))
    assert cmd != {"act": "farm_coop", "with": 2}
    assert bot.snubbed == {2: 2}
    assert bot._snubbed(2, 2 + SNUB) and not bot._snubbed(2, 3 + SNUB)


def test_it_stays_as_adaptive_v3_and_the_earlier_one_as_adaptive_v2():
    assert type(strategies.create("harvest-watch", "adaptive-v3", random.Random(0))) is LinePlay
    assert type(strategies.create("harvest-watch", "adaptive-v2", random.Random(0))) is Foresight
    assert play(LinePlay, ["random"] * 5, 7) == play(LinePlay, ["random"] * 5, 7)
