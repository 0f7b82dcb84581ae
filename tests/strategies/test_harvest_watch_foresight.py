"""The default Harvest Watch strategy, ``adaptive`` (:class:`Foresight`): its style record on hand-made
nights, the night simulation on hand-computed last nights, offers, words, whole matches."""

from __future__ import annotations

import random

import pytest

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.strategies import harvest_watch_planner as plan
from sunbot.strategies.harvest_watch_foresight import best_act, seat_acts, value
from sunbot.strategies.harvest_watch_reader import Foresight, says_farm
from sunbot.strategies.harvest_watch_styles import StyleBook
from tests.hw_args import hw_args
from tests.strategies.test_harvest_watch import data

GUARD, FARM = (plan.GUARD, -1), (plan.FARM, -1)


def summary(phase: str, day: int, foods: list[float], **extra: object) -> dict:
    s = {"you": 0, "day": day, "phase": phase, "food": foods[0], "foods": foods,
         "alive": True, "aliveSeats": [i for i, f in enumerate(foods) if f > 0]}  # fmt: skip
    s.update(extra)
    return s


def test_the_book_counts_a_caught_thief_and_shares_an_unseen_theft():
    book = StyleBook()
    opening = [4.0] * 6
    book.observe(summary("action", 2, opening))
    book.acted(summary("action", 2, opening), {"act": "guard"})
    # seat 3 robbed us and was caught (-3.0); seat 1 took 2.0 from farming seat 2
    # (1: -1.0, 2: 4.0 + 2.0 - 2.0 - 3.0 = 1.0); 4 and 5 guarded or farmed (-1.0)
    book.observe(summary("diary", 2, [3.0, 3.0, 1.0, 1.0, 3.0, 3.0], caught=[3], collided=[]))
    assert book.pending is None
    assert book.seat(3).robbed_us == 1 and book.seat(3).steals == 1
    # sum of changes -10.0 over 6 seats: 2 thieves; one known (3); the other is one of the
    # seats whose change a thief could show: 1, 4, 5 (-1.0) and 2 (-3.0), a quarter each
    assert book.thefts == 2
    assert [book.seat(s).steals for s in (1, 2, 4, 5)] == [0.25] * 4
    assert book.seat(1).steal_rate() == (0.25 + 0.1) / 2


def test_a_mutual_joint_farm_is_kept_and_a_one_sided_one_broken():
    book = StyleBook()
    book.acted(summary("action", 2, [4.0] * 6), {"act": "farm_coop", "with": 2})
    book.observe(summary("diary", 2, [3.5, 3.0, 3.5, 3.0, 3.0, 3.0]))
    assert (book.seat(2).kept, book.seat(2).broke, book.seat(2).coops) == (1, 0, 1)
    book.acted(
        summary("action", 3, [3.5, 3.0, 3.5, 3.0, 3.0, 3.0]), {"act": "farm_coop", "with": 2}
    )
    book.observe(summary("diary", 3, [2.5, 2.0, 2.5, 2.0, 2.0, 2.0]))
    assert (book.seat(2).broke, book.seat(2).last_broke) == (1, 3)


def test_a_joint_farm_robbed_by_a_third_seat_is_kept_and_a_robbed_one_sided_one_betrayed():
    book = StyleBook()
    book.acted(summary("action", 2, [4.0] * 6), {"act": "farm_coop", "with": 2})
    # mutual with 2 (+2.5 - 3.0) but seat 4 took 2.0 from us: -2.5, a half tenth: kept
    book.observe(summary("diary", 2, [1.5, 3.0, 3.5, 3.0, 5.0, 3.0]))
    assert (book.seat(2).kept, book.seat(2).broke, book.seat(2).betrayed) == (1, 0, 0)
    opening = [4.0] * 6
    book.acted(summary("action", 3, opening), {"act": "farm_coop", "with": 2})
    # one-sided (+2.0 - 3.0) and robbed of 2.0: -3.0, seat 2 stole it (-1.0)
    book.observe(summary("diary", 3, [1.0, 3.0, 3.0, 3.0, 3.0, 3.0]))
    assert (book.seat(2).kept, book.seat(2).broke, book.seat(2).betrayed) == (1, 1, 1)
    assert book.seat(2).betray_rate() == (1 + 1) / (1 + 1 + 6)
    assert book.seat(3).betray_rate() == 1 / 6  # the prior: a stranger's offer is taken


def test_it_refuses_the_offer_of_a_seat_whose_joint_farm_left_it_robbed():
    bot = Foresight(random.Random(0))
    said = {str(i): "…" for i in range(6)} | {"2": "Seat 2: I cooperate with seat 0."}
    bot.book.me = 0
    bot.book.seat(2).betrayed, bot.book.seat(2).broke = 1, 1  # 2 / 7 > BETRAY
    d = data({"speeches1": said, "speeches2": said})
    assert bot.choose(*hw_args(d)) != {"act": "farm_coop", "with": 2}
    bot.book.seat(2).kept = 4  # four kept since: 2 / 11 < BETRAY, trusted again
    assert bot.choose(*hw_args(d)) == {"act": "farm_coop", "with": 2}


def test_it_refuses_the_offer_of_a_seat_that_steals():
    bot = Foresight(random.Random(0))
    said = {str(i): "…" for i in range(6)} | {"2": "Seat 2: I cooperate with seat 0."}
    bot.book.me = 0
    bot.book.seat(2).nights, bot.book.seat(2).steals = 3, 0.8  # 0.9 / 4 > STEALER
    d = data({"speeches1": said, "speeches2": said})
    assert bot.choose(*hw_args(d)) != {"act": "farm_coop", "with": 2}
    bot.book.seat(2).steals = 0.6  # 0.7 / 4 < STEALER: taken
    assert bot.choose(*hw_args(d)) == {"act": "farm_coop", "with": 2}


def test_a_last_night_against_five_thieves_on_us_is_a_guard():
    # all at 1.0; five seats that surely steal from us: guard blocks them all and everyone
    # ends with P 1.0 (a six-way draw); a farm's 3.0 is split five ways (P 0.0)
    food, living = [10] * 6, list(range(6))
    choices = {s: [(1.0, (plan.STEAL, 0))] for s in range(1, 6)}
    act, means = best_act(0, food, living, choices, [FARM, GUARD], random.Random(1), 8)
    assert act == GUARD
    assert abs(means[GUARD] - 1 / 6) < 1e-3 and means[FARM] < 1e-3


def test_a_last_night_against_five_guards_is_a_farm():
    food, living = [10] * 6, list(range(6))
    choices = {s: [(1.0, GUARD)] for s in range(1, 6)}
    act, means = best_act(0, food, living, choices, [GUARD, FARM], random.Random(1), 8)
    assert act == FARM and means[FARM] == 1.0  # P 3.0 against 1.0: a sole win


def test_value_of_a_night_that_leaves_the_match_open():
    # we live on 2.0, the best other on 1.0 a night: we last longest
    assert value(0, [20, 10, 0, 0, 0, 0], [True, True] + [False] * 4, {}, set()) > 1.0
    # a joint-farm pair lasts twice as long on the same store
    assert value(0, [20, 15, 15, 0, 0, 0], [True] * 3 + [False] * 3, {}, {1, 2}) < 0.01


def test_a_seat_on_its_last_night_steals_at_least_half_the_time():
    book = StyleBook()
    food = [30, 10, 30, 30, 30, 30]
    acts = seat_acts(book, 1, food, list(range(6)), None)
    steal = sum(p for p, a in acts if a[0] == plan.STEAL)
    assert abs(sum(p for p, _ in acts) - 1) < 1e-9 and abs(steal - 0.5) < 1e-9
    calm = seat_acts(book, 2, food, list(range(6)), None)
    assert abs(sum(p for p, a in calm if a[0] == plan.STEAL) - 0.1) < 1e-9  # the prior rate


def test_it_accepts_an_offer_from_outside_its_bloc():
    bot = Foresight(random.Random(0))
    said = {str(i): "…" for i in range(6)} | {"2": "Seat 2: I cooperate with seat 0."}
    d = data({"speeches1": said, "speeches2": said})
    assert bot.choose(*hw_args(d)) == {"act": "farm_coop", "with": 2}


def test_it_speaks_like_a_table_that_all_says_the_same():
    bot = Foresight(random.Random(0))
    said = {str(i): f"Seat {i}: I keep watch." for i in range(1, 6)} | {"0": "x"}
    bot.choose(*hw_args(data({"speeches1": said, "day": 2}, phase="speech2")))
    d = data({"day": 3, "foods": [3.0] * 6}, phase="speech1")
    assert bot.choose(*hw_args(d)) == {"speech": "Seat 0: I keep watch."}


def play(table: list[str], seed: int) -> tuple[list[int], list[dict]]:
    """One engine match of ``foresight`` in seat 0 against ``table``; its action commands."""
    bots = {0: Foresight(random.Random(seed))}
    for i, name in enumerate(table, start=1):
        bots[i] = strategies.create("harvest-watch", name, random.Random(seed * 10 + i))
    state, sent = hw.init(seed, 6), []
    while state["status"] != "done":
        cmds = {}
        for s, bot in bots.items():
            if state["alive"][s]:
                cmd = bot.choose(*hw_args(seat_data(state, s, can_act=True, pending=None)))
                assert hw.validate_command(state, s, cmd) is None
                cmds[s] = [cmd]
                if s == 0 and state["phase"] == "action":
                    sent.append(cmd)
        state = hw.resolve_beat(state, cmds)
    return state["result"]["ranks"], sent


def test_against_five_guards_it_farms_the_last_night_and_wins_alone():
    ranks, sent = play(["guard"] * 5, 1)
    assert sent == [{"act": "guard"}] * 4 + [{"act": "farm"}]
    assert ranks == [1, 2, 2, 2, 2, 2]


def test_against_five_reciprocators_it_pairs_and_outlasts_them():
    ranks, sent = play(["reciprocator"] * 5, 2)
    assert {"act": "farm_coop", "with": 1} in sent
    assert ranks[0] == 1


def test_it_is_the_default_and_deterministic_for_a_seed():
    assert strategies.default_name("harvest-watch") == "adaptive"
    assert isinstance(strategies.create("harvest-watch", "adaptive", random.Random(0)), Foresight)
    assert play(["random"] * 5, 7) == play(["random"] * 5, 7)


@pytest.mark.parametrize(
    ("text", "farms"),
    [
        ("Seat 2: I farm.", True),
        ("Seat 2: I farm. If anyone robs me, I will guard and fine them.", True),
        ("Farming today; whoever steals from me finds me on guard.", True),
        ("I farm and keep watch.", False),  # one clause claims both
        ("Seat 2: I guard.", False),
        ("I will not farm.", False),  # a negation claims nothing
        ("I farm. I guard tonight.", False),
        ("Seat 3: farm.", True),  # the random baseline's talk
        ("Seat 1: I cooperate with seat 4.", False),
        ("\u2026", False),
        ("I'm a farmer, I plant and harvest every day.", True),
        ("Welcome to Harvest Watch.", False),  # the game's name has a guard word
        ("Tending my crops tonight.", True),
    ],
)
def test_says_farm_reads_claims_clause_by_clause(text: str, farms: bool) -> None:
    assert says_farm(text) is farms
