"""The default Harvest Watch strategy, ``adaptive`` (:class:`Deeds`): trust read from the
public record on hand-computed nights (Harvest Watch §3.5), and where it departs from
``adaptive-v3`` (:class:`LinePlay`)."""

from __future__ import annotations

import random

import pytest

from sunbot import strategies
from sunbot.strategies.harvest_watch_coalition import parse_speech
from sunbot.strategies.harvest_watch_deeds import DeedBook, Deeds
from sunbot.strategies.harvest_watch_line_play import LinePlay
from sunbot.strategies.harvest_watch_styles import StyleBook
from tests.hw_args import hw_args
from tests.strategies.test_harvest_watch import data

QUIET = {str(i): "…" for i in range(6)}


def _bloc_speeches(partner_of_1: int) -> dict[str, str]:
    """Seats 0-3 speak the coalition format (a bloc of four of six: a majority), paired
    (0, 1) and (2, 3); seat 1 names ``partner_of_1``; seats 4 and 5 say nothing."""
    said = dict(QUIET)
    pairs = {0: 1, 1: partner_of_1, 2: 3, 3: 2}
    for s, p in pairs.items():
        said[str(s)] = f"Seat {s}: coalition. coop={p} target=4 ring=0>1>2>3"
    return said


def _joint_farm_night(bot: Deeds, after: float) -> None:
    """Day 2: seat 1 confirms our pairing and we farm jointly with it from 4.0; the diary
    and day 3's speech1 show our store ``after`` the night."""
    said = _bloc_speeches(0)
    cmd = bot.choose(*hw_args(data({"speeches1": said, "speeches2": said})))
    assert cmd == {"act": "farm_coop", "with": 1}
    foods = [after, 3.0, 3.0, 3.0, 3.0, 3.0]
    bot.choose(*hw_args(data({"foods": foods}, phase="diary")))
    bot.choose(*hw_args(data({"day": 3, "foods": foods}, phase="speech1")))


@pytest.mark.parametrize("cls", [Deeds, LinePlay])
def test_a_partner_that_robs_us_during_a_joint_farm_is_a_defector_after_that_night(cls):
    # one-sided (+2.0, our partner did not farm with us) and robbed of 2.0, cost 3.0:
    # 4.0 -> 1.0. No mutual half tenth: the partner defected, whatever it said.
    # ``adaptive-v3`` flagged only an exact -1.0 night, so it kept this partner.
    bot = cls(random.Random(0))
    _joint_farm_night(bot, 1.0)
    assert (1 in bot.defectors) is (cls is Deeds)


def test_a_partner_that_left_us_one_sided_is_a_defector_and_the_bloc_pairs_anew():
    bot = Deeds(random.Random(0))
    _joint_farm_night(bot, 3.0)  # 4.0 + 2.0 - 3.0: one-sided, not robbed (as before)
    assert 1 in bot.defectors
    said = _bloc_speeches(0)
    d = data({"day": 3, "foods": [3.0] * 6, "speeches1": said}, phase="speech2")
    # the bloc is now 0, 2, 3 (three of six: no majority), so it speaks as a seat alone
    assert bot._bloc(d["summary"]) == [0]
    assert parse_speech(bot.choose(*hw_args(d))["speech"])["coop"] != 1


def test_a_joint_farm_robbed_by_a_third_seat_keeps_the_partner():
    # mutual (+2.5) and robbed of 2.0 by someone else: 4.0 -> 1.5; the half tenth says the
    # partner farmed with us, and a seat farming jointly cannot also steal
    bot = Deeds(random.Random(0))
    _joint_farm_night(bot, 1.5)
    assert bot.defectors == set()
    assert bot._partner(data({"day": 3, "foods": [1.5] + [3.0] * 5})["summary"]) == 1


FARMERS = {str(i): f"Seat {i}: I farm." for i in range(1, 6)} | {"0": "…"}


def test_a_seat_that_says_it_farms_is_not_robbed_on_night_1_for_saying_it():
    d = data({"day": 1, "foods": [5.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    assert Deeds(random.Random(0)).choose(*hw_args(d)) == {"act": "guard"}
    # ``adaptive-v3`` robbed the richest (ties to the lowest) for the words alone
    assert LinePlay(random.Random(0)).choose(*hw_args(d)) == {"act": "steal", "target": 1}


def test_a_claimed_farmer_whose_night_matches_a_farm_is_robbed():
    bot = Deeds(random.Random(0))
    d = data({"day": 1, "foods": [5.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    assert bot.choose(*hw_args(d)) == {"act": "guard"}
    # night 1: every seat -1.0 (a farm's +2.0 - 3.0, our guard's -1.0): the sum of the
    # changes (-6.0 over six seats) leaves no theft to share, so each claim matches
    night = data({"day": 1, "foods": [4.0] * 6}, phase="diary")
    bot.choose(*hw_args(night))
    assert [bot.farm_proven(s) for s in range(1, 6)] == [True] * 5
    d = data({"day": 2, "foods": [4.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    assert bot.choose(*hw_args(d)) == {"act": "steal", "target": 1}


def test_a_claimed_farmer_caught_robbing_us_is_not_trusted():
    bot = Deeds(random.Random(0))
    d = data({"day": 1, "foods": [5.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    bot.choose(*hw_args(d))  # guard
    # seat 3 tried to rob our guarded store: blocked, it pays 3.0 (5.0 -> 2.0); we -1.0
    foods = [4.0, 4.0, 4.0, 2.0, 4.0, 4.0]
    bot.choose(*hw_args(data({"day": 1, "foods": foods, "caught": [3]}, phase="diary")))
    assert not bot.farm_proven(3) and bot.farm_proven(1)


def _out_night(book: StyleBook) -> None:
    """Day 1 from 5.0 each, us (seat 0) guarding. Acts: 1 robs 2, 2 robs us (blocked),
    3 robs 2, 4 robs us (blocked), 5 robs 3. Seat 2's 5.0 covers its two thieves (2.0
    each, §3.5.3) and it pays 3.0 for its blocked theft: out. Seat 3 takes 2.0 from 2 and
    loses 2.0 to 5. After the night: [4.0, 4.0, 0.0, 2.0, 2.0, 4.0]."""
    opening = [5.0] * 6
    summary = data({"day": 1, "foods": opening})["summary"]
    book.observe(summary)
    book.acted(summary, {"act": "guard"})
    after = [4.0, 4.0, 0.0, 2.0, 2.0, 4.0]
    night = data({"day": 1, "foods": after, "aliveSeats": [0, 1, 3, 4, 5], "caught": [2, 4]},
                 phase="diary")  # fmt: skip
    book.observe(night["summary"])


def test_thieves_are_counted_on_a_night_a_seat_went_out():
    book = DeedBook()
    _out_night(book)
    # caught: 2 and 4. Living changes -1.0, -1.0, -3.0, -3.0, -1.0 (seats 0, 1, 3, 4, 5)
    # and seat 2 lost at least its 5.0: the sum is at most -14.0 = -6.0 - 2.0 * thieves,
    # so 4 thieves at least; 2 besides the caught ones, shared by 1, 3 and 5 (a change a
    # thief could show): 2/3 each (all three did steal)
    assert [book.seat(s).steals for s in (2, 4)] == [1, 1]
    assert [book.seat(s).steals for s in (1, 3, 5)] == [pytest.approx(2 / 3)] * 3
    assert book.thefts == 4
    # ``adaptive-v3``'s book counted the caught thieves only: 1, 3 and 5 looked clean
    older = StyleBook()
    _out_night(older)
    assert [older.seat(s).steals for s in (1, 3, 5)] == [0, 0, 0]


def test_an_unexplained_theft_goes_first_to_the_seat_that_went_out():
    # from 5.0, 5.0, 5.0, 5.0, 5.0, 2.0: seat 5 robs seat 4's guarded store (blocked:
    # 2.0 - 3.0, out); everyone else guards or farms (-1.0). Nobody is caught by us.
    book = DeedBook()
    opening = [5.0, 5.0, 5.0, 5.0, 5.0, 2.0]
    summary = data({"day": 2, "foods": opening})["summary"]
    book.observe(summary)
    book.acted(summary, {"act": "guard"})
    after = [4.0, 4.0, 4.0, 4.0, 4.0, 0.0]
    book.observe(data({"day": 2, "foods": after, "aliveSeats": [0, 1, 2, 3, 4]},
                      phase="diary")["summary"])  # fmt: skip
    # the sum is at most -5.0 - 2.0 = -6.0 - 2.0 * thieves: at least half a theft, so one
    # (a guard at 2.0 would have lived on 1.0); it goes to the seat that went out, not to
    # the five quiet seats
    assert book.seat(5).steals == 1
    assert [book.seat(s).steals for s in range(1, 5)] == [0, 0, 0, 0]


def test_a_lone_seat_in_the_coalition_format_is_an_offer_not_a_bloc():
    # one other seat speaks the format (a bloc of two of six cannot fine anyone): it is
    # an ordinary seat whose ``coop=`` us is an offer, and our speech2 the next day names
    # it in that format, as the seat that offered to us the day before
    said = dict(QUIET) | {"3": "Seat 3: coalition. coop=0 target=1 ring=0>3"}
    bot = Deeds(random.Random(0))
    d = data({"day": 1, "speeches1": said}, phase="speech2")
    bot.choose(*hw_args(d))
    assert bot._bloc(d["summary"]) == [0]
    bot.choose(*hw_args(data({"day": 1, "speeches1": said, "speeches2": said}, phase="vote")))
    assert bot.book.offered_to_me(1) == [3]
    d2 = data({"day": 2, "foods": [4.0] * 6, "speeches1": said}, phase="speech2")
    assert parse_speech(bot.choose(*hw_args(d2))["speech"])["coop"] == 3
    # ``adaptive-v3`` pairs with it on its words
    v3 = LinePlay(random.Random(0))
    v3.choose(*hw_args(d))
    assert v3._bloc(d["summary"]) == [0, 3]


def test_a_majority_bloc_pairs_on_its_words():
    said = _bloc_speeches(0)
    bot = Deeds(random.Random(0))
    d = data({"speeches1": said}, phase="speech2")
    assert bot.choose(*hw_args(d))["speech"].startswith("Seat 0: coalition. coop=1 ")
    assert bot._bloc(d["summary"]) == [0, 1, 2, 3]


def test_it_is_the_default_and_the_earlier_ones_stay_versioned():
    assert strategies.default_name("harvest-watch") == "adaptive"
    assert type(strategies.create("harvest-watch", "adaptive", random.Random(0))) is Deeds
    assert type(strategies.create("harvest-watch", "adaptive-v3", random.Random(0))) is LinePlay


def test_a_claim_proves_nothing_on_a_night_a_theft_was_shared_with_it():
    # night 1 from 5.0: seat 5 (says it farms) robbed farming seat 4 (4: 5.0 + 2.0 -
    # 2.0 - 3.0 = 2.0; 5: 5.0 + 2.0 - 3.0 = 4.0); we guarded. The sum (-8.0 over six)
    # says one theft, which seats 1, 2, 3, 5 (-1.0) and 4 (-3.0) could each show: a
    # fifth each, under half a theft, but no claimer's night is clear of it
    bot = Deeds(random.Random(0))
    d = data({"day": 1, "foods": [5.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    bot.choose(*hw_args(d))
    after = [4.0, 4.0, 4.0, 4.0, 2.0, 4.0]
    bot.choose(*hw_args(data({"day": 1, "foods": after}, phase="diary")))
    assert [bot.book.seat(s).steals for s in range(1, 6)] == [pytest.approx(0.2)] * 5
    assert not any(bot.farm_proven(s) for s in range(1, 6))
    d = data({"day": 2, "foods": after, "speeches1": FARMERS, "speeches2": QUIET})
    assert bot.choose(*hw_args(d)) == {"act": "guard"}


def test_farm_claims_count_for_no_seat_once_a_claimer_was_caught_stealing():
    bot = Deeds(random.Random(0))
    d = data({"day": 1, "foods": [5.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    bot.choose(*hw_args(d))  # guard
    bot.choose(*hw_args(data({"day": 1, "foods": [4.0] * 6}, phase="diary")))
    assert bot.farm_proven(1) and bot._says_farm(1)
    d = data({"day": 2, "foods": [4.0] * 6, "speeches1": FARMERS, "speeches2": QUIET})
    assert bot.choose(*hw_args(d)) == {"act": "steal", "target": 1}
    # seat 3, which said it farms, robbed seat 1 too: our ``collided`` names it. Seat 1
    # (4.0 + 2.0, two thieves: 2.0 each) ends at 0.0 - 3.0: out
    night = data({"day": 2, "foods": [3.0, 0.0, 3.0, 3.0, 3.0, 3.0], "collided": [3],
                  "aliveSeats": [0, 2, 3, 4, 5]}, phase="diary")  # fmt: skip
    bot.choose(*hw_args(night))
    assert bot.claims_broken and not bot._says_farm(2)


def test_it_does_not_rob_an_empty_store():
    # seat 5 was fined to 0.0 at the vote: a theft on it takes nothing (§3.5.3)
    bot = Deeds(random.Random(0))
    bot.choose(*hw_args(data({"day": 1, "foods": [5.0] * 6, "speeches1": FARMERS}, phase="vote")))
    bot.deeds.clear = {s: 1 for s in range(1, 6)}
    foods = [4.0, 4.0, 4.0, 4.0, 4.0, 0.0]
    d = data({"day": 2, "foods": foods, "speeches1": FARMERS, "speeches2": QUIET})
    assert 5 not in bot.prey(d["summary"]) and 1 in bot.prey(d["summary"])


def test_an_offer_from_a_seat_that_broke_its_word_is_not_counted_on():
    bot = Deeds(random.Random(0))
    assert not bot._snubbed(2, 3)
    bot.defectors.add(2)
    assert bot._snubbed(2, 3)
    bot.book.seat(4).broke = bot.book.seat(4).betrayed = 1  # one-sided and robbed
    bot.book.seat(5).robbed_us = 1
    assert bot._snubbed(4, 3) and bot._snubbed(5, 3) and not bot._snubbed(1, 3)


def test_two_seats_of_ours_offer_each_other_and_keep_faith():
    # seats 0 and 3 speak the format (a bloc of two of six): with no offer to answer,
    # each offers the other, in the format and in the house bots' words
    said = dict(QUIET) | {"3": "Seat 3: coalition. coop=- target=1 ring=3"}
    bot = Deeds(random.Random(0))
    d = data({"day": 1, "speeches1": said}, phase="speech2")
    speech = bot.choose(*hw_args(d))["speech"]
    assert parse_speech(speech)["coop"] == 3 and speech.endswith("I cooperate with seat 3.")
    # after a mutual joint farm with it (-0.5), it is not prey however open its store
    # (``LinePlay`` took it for an open seat), until a joint farm with it leaves us robbed
    d = data({"day": 2, "speeches1": said, "speeches2": said})
    bot.model.seat(3).active = 1  # a night that proves it did not guard: open
    assert 3 in bot.prey(d["summary"])
    bot.book.seat(3).kept = 1
    assert 3 not in bot.prey(d["summary"])
    bot.book.seat(3).broke = 1  # a miss (one-sided, not robbed) keeps the faith
    assert 3 not in bot.prey(d["summary"])
    bot.book.seat(3).betrayed = 1  # one-sided and robbed: a betrayal ends it
    assert 3 in bot.prey(d["summary"])


@pytest.mark.parametrize(("after", "defector"), [(3.0, False), (1.0, True)])
def test_a_joint_farm_outside_a_bloc_left_one_sided_is_a_miss_robbed_a_defection(after, defector):
    # seat 3 alone speaks the format and offers us a joint farm: we take it from 4.0.
    # One-sided and not robbed (4.0 + 2.0 - 3.0 = 3.0): it missed (it guarded, say), which
    # the record counts; one-sided and robbed (1.0): a defection
    said = dict(QUIET) | {"3": "Seat 3: coalition. coop=0 target=1 ring=0>3"}
    bot = Deeds(random.Random(0))
    bot.choose(*hw_args(data({"speeches1": said, "speeches2": said}, phase="vote")))
    cmd = bot.choose(*hw_args(data({"speeches1": said, "speeches2": said})))
    assert cmd == {"act": "farm_coop", "with": 3}
    foods = [after, 3.0, 3.0, 3.0, 3.0, 3.0]
    bot.choose(*hw_args(data({"foods": foods}, phase="diary")))
    bot.choose(*hw_args(data({"day": 3, "foods": foods}, phase="speech1")))
    assert (3 in bot.defectors) is defector
    assert bot.book.seat(3).broke == 1 and bot.book.seat(3).betrayed == int(defector)
