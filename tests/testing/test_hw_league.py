"""The Harvest Watch league: every style plays only legal commands in whole engine matches,
each style's signature move on a hand-built position, the registry and tables, and the
league benchmark on a tiny run (hand-computed outcomes)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.observations.harvest_watch import legal_actions
from sunbot.testing import hw_league
from sunbot.testing.hw_league import HELD_OUT, LEAGUE, TUNING, make
from sunbot.testing.hw_league.keepers import KIN_WORDS
from sunbot.testing.hw_league.tables import (
    FIRST_HELD_OUT,
    TRUST,
    TRUST_HELD_OUT,
    Table,
    issue_tables,
    tables,
)
from tests.benchmark_module import load_benchmark

bench = load_benchmark("harvest_watch_league")


def _legal(me: int, foods: list[float]) -> list[dict[str, Any]]:
    """The action beat's legal list (Harvest Watch §5) for seat ``me``."""
    others = [s for s, f in enumerate(foods) if f > 0 and s != me]
    out: list[dict[str, Any]] = [{"act": "farm"}]
    out += [{"act": "farm_coop", "with": s} for s in others]
    out += [{"act": "guard"}] + [{"act": "steal", "target": s} for s in others]
    if foods[me] >= 1.0:
        out += [{"act": "donate", "to": s} for s in others]
    return out


def obs(phase: str, day: int, foods: list[float], me: int = 0, **extra: Any) -> dict[str, Any]:
    """A seat's view ``data`` on ``phase`` of ``day``."""
    summary = {"you": me, "day": day, "phase": phase, "food": foods[me], "foods": foods,
               "alive": True, "aliveSeats": [s for s, f in enumerate(foods) if f > 0]}  # fmt: skip
    summary.update(extra)
    data: dict[str, Any] = {"round": 5 * (day - 1) + 1, "phase": phase, "summary": summary}
    if phase == "action":
        data["legal"] = _legal(me, foods)
    return data


def act(player: Any, day: int, foods: list[float], me: int = 0, **extra: Any) -> dict:
    data = obs("action", day, foods, me, **extra)
    return player.choose(data, legal_actions(data))


def night(player: Any, day: int, opening: list[float], after: list[float], **extra: Any) -> None:
    """Show ``player`` (seat 0) day ``day``'s action beat (it answers) and the night."""
    act(player, day, opening)
    player.choose(obs("diary", day, after, **extra), [{"diary": "…"}])


# -- whole matches ------------------------------------------------------------------------
class _Checked:
    """Wraps a player and records any command that does not fit its beat."""

    def __init__(self, player: Any, bad: list[Any]) -> None:
        self.player, self.bad = player, bad

    def choose(self, data: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        cmd = self.player.choose(data, legal)
        phase = data["phase"]
        if phase in ("action", "vote"):
            ok = cmd in legal
        elif phase == "diary":
            ok = set(cmd) == {"diary"} and 1 <= len(cmd["diary"]) <= 80
        else:
            ok = set(cmd) == {"speech"} and 1 <= len(cmd["speech"]) <= 200
        if not ok:
            self.bad.append((type(self.player).__name__, phase, cmd))
        return cmd


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_style_plays_only_legal_commands(seed):
    names = sorted(LEAGUE)
    bad: list[Any] = []
    for start in range(0, len(names), 6):  # 22 styles: four tables of six (one wraps)
        six = (names[start:] + names)[:6]
        rng = random.Random(seed)
        bots = {s: _Checked(LEAGUE[n].sample(random.Random(seed * 10 + s)), bad)
                for s, n in enumerate(six)}  # fmt: skip
        state = bench.hwbench.play_loop(seed, rng, bots, [], set(), None)
        assert state["status"] == "done" and len(state["result"]["ranks"]) == 6
    assert bad == []


def test_the_league_is_twenty_two_styles_seven_held_out():
    assert len(LEAGUE) == 22 and set(TUNING) | set(HELD_OUT) == set(LEAGUE)
    assert not set(TUNING) & set(HELD_OUT) and len(HELD_OUT) == 7
    assert {"last_night", "joint_offer", "vengeful", "bloc", "reciprocator"} <= set(TUNING)
    # the styles that exploit trust: three to tune on, two held out since they were written
    assert {"turncoat", "false_farmer", "juror"} <= set(TUNING)
    assert {"vote_buyer", "cycler"} <= set(HELD_OUT)


def test_make_and_sample():
    p = make("last_night", random.Random(1), base="farm", kill_below=0.0)
    assert p.params() == {"base": "farm", "last_at": 1.0, "kill_below": 0.0,
                          "target": "richest", "tie": "random", "spare_kin": True}  # fmt: skip
    drawn = [LEAGUE["greedy"].sample(random.Random(i)).params() for i in range(20)]
    assert len({d["rate"] for d in drawn}) > 5  # a population, not one player
    assert hw_league.sample("greedy", random.Random(3)) == hw_league.sample(
        "greedy", random.Random(3)
    )
    with pytest.raises(KeyError, match="not a league style"):
        make("nobody", random.Random(1))
    with pytest.raises(TypeError):
        make("bloc", random.Random(1), steal_threshold=2)
    with pytest.raises(ValueError, match="mixture weights"):
        make("mixture", random.Random(1), weights={"liar": 1.0})  # held out: not a part


# -- signature moves on hand-built positions -------------------------------------------
def test_last_night_guards_until_its_last_night_then_robs_the_richest():
    p = make("last_night", random.Random(1))
    assert act(p, 4, [2.0] * 6) == {"act": "guard"}
    assert act(p, 5, [1.0, 1.0, 1.0, 3.0, 1.0, 1.0]) == {"act": "steal", "target": 3}


def test_last_night_robs_a_seat_a_theft_would_put_out():
    p = make("last_night", random.Random(1), kill_below=1.0)
    assert act(p, 3, [3.0, 3.0, 0.8, 3.0, 3.0, 3.0]) == {"act": "steal", "target": 2}


def test_last_night_spares_its_kin_and_robs_the_stranger():
    kin = {str(s): f"Seat {s}: {KIN_WORDS}" for s in range(5)} | {"5": "Seat 5: I guard."}
    p = make("last_night", random.Random(1))
    p.choose(obs("speech2", 5, [1.0] * 6, speeches1=kin), [{"speech": "…"}])
    assert act(p, 5, [1.0] * 6, speeches1=kin) == {"act": "steal", "target": 5}


def test_joint_offer_offers_to_the_poorest_in_house_words_and_keeps_it():
    p = make("joint_offer", random.Random(1))
    foods = [5.0, 4.0, 3.0, 2.5, 4.0, 2.5]
    said = p.choose(obs("speech1", 2, foods), [{"speech": "…"}])
    assert said == {"speech": "Seat 0: I cooperate with seat 3."}  # ties to the lowest
    assert act(p, 2, foods) == {"act": "farm_coop", "with": 3}


def test_two_faced_keeps_its_offer_then_robs_its_partner():
    p = make("two_faced", random.Random(1), betray_rate=1.0, betray_after_nights=1)
    foods = [5.0, 4.0, 3.0, 2.5, 4.0, 2.5]
    said = p.choose(obs("speech1", 1, foods), [{"speech": "…"}])
    assert said == {"speech": "Seat 0: I cooperate with seat 3."}  # the poorest, lowest
    assert p.choose(obs("speech2", 1, foods), [{"speech": "…"}]) == said
    assert act(p, 1, foods) == {"act": "farm_coop", "with": 3}  # night 1: kept
    p.choose(obs("speech1", 2, foods), [{"speech": "…"}])
    assert act(p, 2, foods) == {"act": "steal", "target": 3}  # night 2: robs its partner


def test_two_faced_offers_to_the_richest_robs_the_richest_at_its_rate():
    p = make("two_faced", random.Random(1), betray_rate=0.0, partner="richest")
    foods = [3.0, 4.0, 5.0, 3.0, 5.0, 3.0]
    said = p.choose(obs("speech1", 2, foods), [{"speech": "…"}])
    assert said == {"speech": "Seat 0: I cooperate with seat 2."}
    assert act(p, 2, foods) == {"act": "farm_coop", "with": 2}  # rate 0: always kept
    q = make("two_faced", random.Random(1), betray_rate=1.0, betray_after_nights=0,
             target="richest")  # fmt: skip
    assert act(q, 1, [2.0, 4.0, 5.0, 1.5, 4.0, 6.0]) == {"act": "steal", "target": 5}
    with pytest.raises(ValueError, match="target"):
        make("two_faced", random.Random(1), target="nobody")


def test_vengeful_farms_guards_after_a_robbery_and_fines_its_catch():
    p = make("vengeful", random.Random(1), patience=1)
    assert act(p, 1, [5.0] * 6) == {"act": "farm"}
    p.choose(obs("diary", 1, [2.0, 4.0, 4.0, 4.0, 6.0, 4.0]), [{"diary": "…"}])  # 5+2-2-3
    assert p.record.robbed == [1]
    assert act(p, 2, [2.0, 4.0, 4.0, 4.0, 6.0, 4.0]) == {"act": "guard"}
    p.choose(obs("diary", 2, [1.0, 3.0, 3.0, 3.0, 3.0, 3.0], caught=[4]), [{"diary": "…"}])
    foods = [1.0, 3.0, 2.0, 3.0, 3.0, 3.0]
    data = obs("vote", 3, foods)
    assert p.choose(data, legal_actions(data)) == {"punish": 4, "giveTo": 2}


def test_plain_spoken_says_what_it_plays_and_means_it():
    p = make("plain_spoken", random.Random(1), patience=1, phrasing=0, threat=True)
    data = obs("speech1", 1, [5.0] * 6)
    said = p.choose(data, [{"speech": "…"}])["speech"]
    assert said == "Seat 0: I farm. If anyone robs me, I will guard and fine them."
    assert act(p, 1, [5.0] * 6) == {"act": "farm"}
    p.choose(obs("diary", 1, [2.0, 4.0, 4.0, 4.0, 6.0, 4.0]), [{"diary": "…"}])  # robbed
    data = obs("speech1", 2, [2.0, 4.0, 4.0, 4.0, 6.0, 4.0])
    assert p.choose(data, [{"speech": "…"}]) == {"speech": "Seat 0: I guard tonight."}
    assert act(p, 2, [2.0, 4.0, 4.0, 4.0, 6.0, 4.0]) == {"act": "guard"}
    p.choose(obs("diary", 2, [1.0, 3.0, 3.0, 3.0, 5.0, 3.0], caught=[4]), [{"diary": "…"}])
    data = obs("vote", 3, [1.0, 3.0, 3.0, 3.0, 5.0, 3.0])
    assert p.choose(data, legal_actions(data)) == {"punish": 4, "giveTo": 1}
    # its last night (1.0 left): it farms for the larger pre-cost store, and says so
    data = obs("speech1", 3, [1.0, 3.0, 3.0, 3.0, 5.0, 3.0])
    assert p.choose(data, [{"speech": "…"}])["speech"].startswith("Seat 0: I farm.")
    assert act(p, 3, [1.0, 3.0, 3.0, 3.0, 5.0, 3.0]) == {"act": "farm"}
    q = make("plain_spoken", random.Random(1), patience=0, phrasing=1)
    q.choose(obs("diary", 1, [2.0, 4.0, 4.0, 4.0, 6.0, 4.0]), [{"diary": "…"}])
    assert q.choose(obs("speech1", 2, [2.0] * 6), [{"speech": "…"}]) == {"speech": "Farming today."}


def test_false_farmer_says_it_farms_and_steals():
    p = make("false_farmer", random.Random(1), aim="richest", threat=True)
    said = p.choose(obs("speech1", 1, [5.0] * 6), [{"speech": "…"}])["speech"]
    assert said == "Seat 0: I farm. If anyone robs me, I will guard and fine them."
    assert act(p, 1, [5.0, 4.0, 6.0, 4.0, 6.0, 0.0]) == {"act": "steal", "target": 2}
    q = make("false_farmer", random.Random(1), rate=0.0, base="guard")
    assert act(q, 1, [5.0] * 6) == {"act": "guard"}
    with pytest.raises(ValueError, match="aim"):
        make("false_farmer", random.Random(1), aim="nobody")


def _coalition(seat: int, partner: int | str, target: int | str, ring: str) -> str:
    return f"Seat {seat}: coalition. coop={partner} target={target} ring={ring}"


def test_turncoat_speaks_the_coalition_format_pairs_and_then_robs_its_pair():
    p = make("turncoat", random.Random(1), loyal_nights=1, betray_rate=1.0)
    foods = [5.0, 5.0, 4.0, 5.0, 5.0, 6.0]
    first = p.choose(obs("speech1", 1, foods), [{"speech": "…"}])["speech"]
    assert first == _coalition(0, "-", 5, "0")  # alone in its bloc: the richest outsider
    tagged = {"0": first, "2": _coalition(2, "-", 5, "2"), "4": "Seat 4: I guard."}
    data = obs("speech2", 1, foods, speeches1=tagged)
    assert p.choose(data, [{"speech": "…"}])["speech"] == _coalition(0, 2, 5, "0>2")
    confirm = {"2": _coalition(2, 0, 5, "0>2")}
    extra = {"speeches1": tagged, "speeches2": confirm}
    assert act(p, 1, foods, **extra) == {"act": "farm_coop", "with": 2}  # one loyal night
    assert act(p, 2, foods, **extra) == {"act": "steal", "target": 2}  # then robs its pair
    unconfirmed = {"speeches1": tagged, "speeches2": {"2": _coalition(2, 4, 5, "0>2>4")}}
    assert act(p, 3, foods, **unconfirmed) == {"act": "guard"}
    # the bloc (0 and 2) is no majority of six: it abstains
    data = obs("vote", 1, foods, speeches1=tagged)
    assert p.choose(data, legal_actions(data)) == {"punish": None}


def test_juror_fines_the_most_accused_seat():
    p = make("juror", random.Random(1), min_accusers=2)
    said = {"1": "Seat 1: fine seat 3.", "2": "Seat 2: seat 3 stole from me.",
            "4": _coalition(4, "-", 5, "4"), "5": "Seat 5: I guard."}  # fmt: skip
    foods = [5.0, 4.0, 2.0, 4.0, 5.0, 3.0]
    data = obs("vote", 2, foods, speeches1=said)
    assert p.choose(data, legal_actions(data)) == {"punish": 3, "giveTo": 2}
    assert p.accused() == {3: 2, 5: 1}
    q = make("juror", random.Random(1), min_accusers=3)
    data = obs("vote", 2, foods, speeches1=said)
    assert q.choose(data, legal_actions(data)) == {"punish": None}
    r = make("juror", random.Random(1))  # it accuses the seat it caught
    r.choose(obs("diary", 1, [4.0] * 6, caught=[5]), [{"diary": "…"}])
    data = obs("speech1", 2, [4.0] * 6)
    assert r.choose(data, [{"speech": "…"}])["speech"] == (
        "Seat 0: seat 5 stole from me. Fine seat 5."
    )


def test_vote_buyer_names_a_seat_and_pays_its_voters():
    p = make("vote_buyer", random.Random(1), pay="after", keep=3.0)
    foods = [5.0, 4.0, 2.0, 6.0, 4.5, 3.0]
    said = p.choose(obs("speech1", 1, foods), [{"speech": "…"}])["speech"]
    assert said == "Seat 0: fine seat 3. I give 1 food to each seat that does."
    data = obs("vote", 1, foods)
    assert p.choose(data, legal_actions(data)) == {"punish": 3, "giveTo": 2}
    assert act(p, 1, foods) == {"act": "guard"}  # nobody voted with it yet
    votes = {"0": {"punish": 3, "giveTo": 2}, "4": {"punish": 3, "giveTo": 1},
             "5": {"punish": 3, "giveTo": 0}, "1": {"punish": None}}  # fmt: skip
    p.choose(obs("diary", 1, foods, votes=votes), [{"diary": "…"}])
    p.choose(obs("speech1", 2, foods), [{"speech": "…"}])
    data = obs("vote", 2, foods)
    assert p.choose(data, legal_actions(data)) == {"punish": 3, "giveTo": 4}
    assert act(p, 2, foods) == {"act": "donate", "to": 5}  # pays the poorer voter


def test_cycler_keeps_its_offer_and_robs_its_partner_on_its_nights():
    p = make("cycler", random.Random(1), period=3, phase=0, base="coop", aim="partner")
    foods = [5.0, 4.0, 3.0, 2.5, 4.0, 2.5]
    said = p.choose(obs("speech1", 1, foods), [{"speech": "…"}])
    assert said == {"speech": "Seat 0: I cooperate with seat 3."}
    assert [act(p, d, foods)["act"] for d in range(1, 7)] == [
        "farm_coop", "farm_coop", "steal", "farm_coop", "farm_coop", "steal",
    ]  # fmt: skip
    assert act(p, 3, foods) == {"act": "steal", "target": 3}
    q = make("cycler", random.Random(1), period=2, phase=1, base="farm", aim="richest")
    assert q.choose(obs("speech1", 1, foods), [{"speech": "…"}]) == {"speech": "Seat 0: I farm."}
    assert act(q, 1, foods) == {"act": "steal", "target": 1}
    assert act(q, 2, foods) == {"act": "farm"}
    with pytest.raises(ValueError, match="aim"):
        make("cycler", random.Random(1), base="guard", aim="partner")


def test_bloc_fines_the_richest_other_seat_every_day():
    p = make("bloc", random.Random(1))
    data = obs("vote", 2, [3.0, 4.5, 2.0, 4.0, 1.0, 2.0], me=1)
    assert p.choose(data, legal_actions(data)) == {"punish": 3, "giveTo": 4}


def test_reciprocator_accepts_an_offer_and_robs_back_its_thief():
    p = strategies.create("harvest-watch", "reciprocator", random.Random(1))
    offer = {"2": "Seat 2: I cooperate with seat 0.", "3": "Seat 3: I guard."}
    assert act(p, 1, [5.0] * 6, speeches1=offer) == {"act": "farm_coop", "with": 2}
    p.choose(obs("diary", 1, [4.5] * 6, caught=[5]), [{"diary": "…"}])
    assert act(p, 2, [4.5] * 6) == {"act": "steal", "target": 5}
    assert act(p, 3, [4.5] * 6) == {"act": "guard"}  # no offer, no fresh thief
    data = obs("vote", 3, [4.5] * 6)
    assert p.choose(data, legal_actions(data)) == {"punish": 5, "giveTo": 1}


def test_reciprocator_stops_trusting_a_seat_that_left_it_alone():
    p = make("reciprocator", random.Random(1), forgiveness=2)
    offer = {"2": "Seat 2: I cooperate with seat 0."}
    act(p, 1, [5.0] * 6, speeches1=offer)  # coop with 2, which guards: our night is -1.0
    p.choose(obs("diary", 1, [4.0] * 6), [{"diary": "…"}])
    assert act(p, 2, [4.0] * 6, speeches1=offer) == {"act": "guard"}


def test_sneak_robs_only_a_seat_seen_farming_jointly():
    p = make("sneak", random.Random(1))
    night(p, 1, [5.0] * 6, [4.0, 4.5, 4.5, 4.0, 4.0, 4.0])
    assert act(p, 2, [4.0, 4.5, 4.5, 4.0, 4.0, 4.0]) == {"act": "steal", "target": 1}
    q = make("sneak", random.Random(1))
    night(q, 1, [5.0] * 6, [4.0] * 6)
    assert act(q, 2, [4.0] * 6) == {"act": "guard"}


def test_liar_offers_to_the_richest_and_robs_it():
    p = make("liar", random.Random(1))
    foods = [3.0, 4.0, 5.0, 3.0, 3.0, 3.0]
    said = p.choose(obs("speech1", 2, foods), [{"speech": "…"}])
    assert said == {"speech": "Seat 0: I cooperate with seat 2."}
    assert act(p, 2, foods) == {"act": "steal", "target": 2}


def test_weak_thief_robs_the_poorest_seat_it_can_put_out():
    p = make("weak_thief", random.Random(1), below=3.0, min_take=0.5)
    assert act(p, 2, [4.0, 4.0, 2.0, 1.5, 0.3, 4.0]) == {"act": "steal", "target": 3}
    assert act(p, 2, [4.0, 4.0, 4.0, 4.0, 4.0, 4.0]) == {"act": "guard"}


def test_mimic_copies_the_best_seat_of_last_night():
    p = make("mimic", random.Random(1))
    night(p, 1, [5.0] * 6, [4.0, 4.0, 4.5, 4.5, 4.0, 4.0])  # seats 2 and 3 farmed jointly
    assert act(p, 2, [4.0, 4.0, 4.5, 4.5, 4.0, 4.0]) == {"act": "farm_coop", "with": 2}
    q = make("mimic", random.Random(1))
    night(q, 1, [5.0] * 6, [4.0, 4.0, 2.0, 4.0, 4.0, 4.0])  # seat 2 robbed
    assert act(q, 2, [4.0, 4.0, 2.0, 4.0, 4.0, 4.0]) == {"act": "steal", "target": 1}


def test_retaliator_robs_back_the_thief_it_caught():
    p = make("retaliator", random.Random(1), grudge=1)
    night(p, 1, [5.0] * 6, [4.0] * 6, caught=[3])
    assert act(p, 2, [4.0] * 6) == {"act": "steal", "target": 3}
    assert act(p, 3, [3.0] * 6) == {"act": "guard"}


def test_mixture_plays_one_part_per_day():
    p = make("mixture", random.Random(4), weights={"greedy": 1.0, "bloc": 1.0})
    picks = set()
    for day in range(1, 12):
        act(p, day, [5.0] * 6)
        picks.add(p.today)
    assert picks == {"greedy", "bloc"}


# -- tables and the benchmark -----------------------------------------------------------
def test_tables_are_fixed_and_grouped():
    assert [t.name for t in tables("issue")][:3] == ["5 last_night", "5 joint_offer", "5 vengeful"]
    assert tables("all") == tables("all")  # drawn from fixed seeds
    for t in tables("held-out"):
        assert any(s in HELD_OUT for s, _ in t.seats)
    assert all(s in TUNING for t in tables("tuning") for s, _ in t.seats)
    # two_faced, then plain_spoken, then the trust styles came later: their tables are
    # added, the earlier ones stay as drawn
    tuning = tables("tuning")
    assert [t.name for t in tuning[15:20]] == [
        "tuning mix 6", "5 two_faced (drawn)", "two_faced mix",
        "5 plain_spoken (drawn)", "plain_spoken mix",
    ]  # fmt: skip
    assert tuning[17].styles() == "two_faced,two_faced,joint_offer,reciprocator,vengeful"
    assert tuning[19].styles() == "plain_spoken,plain_spoken,plain_spoken,last_night,two_faced"
    assert tuning[10].styles() == "vengeful,reciprocator,last_night,vengeful,rich_thief"
    assert [t.name for t in tuning[20:23]] == [
        "5 turncoat (drawn)", "5 false_farmer (drawn)", "5 juror (drawn)",
    ]  # fmt: skip
    assert [t.name for t in tuning[23:]] == [f"trust mix {i}" for i in range(1, 5)]
    assert all(any(s in TRUST for s, _ in t.seats) for t in tuning[23:])
    held = tables("held-out")
    assert held[0].styles() == "mimic,liar,vengeful,liar,liar"
    assert all(s in FIRST_HELD_OUT or s not in HELD_OUT for t in held[:6] for s, _ in t.seats)
    assert [t.name for t in held[6:8]] == ["5 vote_buyer (drawn)", "5 cycler (drawn)"]
    assert all(t.seats[0][0] in TRUST_HELD_OUT for t in held[8:]) and len(held) == 12
    issue = tables("issue")
    assert [t.name for t in issue[4:]] == ["5 false_farmer", "turncoat mix"]
    assert issue[4].seats[0] == ("false_farmer", {})  # default: always steals, says it farms
    with pytest.raises(ValueError, match="one of issue"):
        tables("best")


def test_benchmark_one_table_two_matches_hand_computed():
    # five last-night opportunists guard to 1.0, then rob the one seat not of their kin:
    # a guard blocks them all, so six seats go out on night 5 at 1.0 (a six-way draw);
    # a farmer's 3.0 is split among the five thieves, so it ranks last
    table = issue_tables()[0]
    rows = bench.measure([table], ["guard", "farmer"], 2)
    assert (rows[(0, "guard")].matches, rows[(0, "guard")].rank1) == (2, 2)
    assert rows[(0, "guard")].share == pytest.approx(2 / 6)
    assert (rows[(0, "farmer")].rank1, rows[(0, "farmer")].share) == (0, 0.0)
    rep = bench.report([table], ["guard", "farmer"], rows)
    assert rep["tables"][0]["best_reference"] == "farmer" and rep["tables"][0]["gap"] > 0
    assert rep["groups"]["issue"]["guard"]["mean"] == pytest.approx(1 / 6)


def _row(share: float, matches: int = 10) -> Any:
    row = bench.hwbench.Row("x", matches=matches, finishes=matches)
    row.share = share * matches
    return row


def test_robustness_and_versions_in_the_report():
    # two tables; ours, two references and two earlier defaults, shares by hand
    a, b = Table("a", "issue"), Table("b", "tuning")
    shares = {
        "ours": (0.50, 0.20),
        "guard": (0.40, 0.30),
        "farmer": (0.10, 0.25),
        "adaptive-v1": (0.45, 0.26),
        "adaptive-v2": (0.60, 0.10),
    }
    players = list(shares)
    rows = {(i, p): _row(shares[p][i]) for i in (0, 1) for p in players}
    rep = bench.report([a, b], players, rows, ["adaptive-v1", "adaptive-v2"])
    assert rep["references"] == ["guard", "farmer"]
    ta, tb = rep["tables"]
    assert (ta["best_reference"], ta["gap"]) == ("guard", pytest.approx(0.10))
    assert (tb["best_reference"], tb["gap"]) == ("guard", pytest.approx(-0.10))
    assert (ta["best_version"], ta["drop"]) == ("adaptive-v2", pytest.approx(-0.10))
    assert (tb["best_version"], tb["drop"]) == ("adaptive-v1", pytest.approx(-0.06))
    everything = rep["robustness"]["all"]
    assert everything["mean"] == pytest.approx(0.0)
    assert (everything["worst"], everything["worst_table"]) == (pytest.approx(-0.10), "b")
    assert rep["robustness"]["issue"]["worst_table"] == "a"
    assert rep["drops"]["all"]["worst_table"] == "a"
    text = bench.markdown(rep)
    assert "| a | 50.0% | 45.0% | 60.0% | `adaptive-v2` (**-10.0**) |" in text
    assert "| b | 20.0% | 26.0% | 10.0% | `adaptive-v1` (**-6.0**) |" in text
    assert "worst -10.0 points (b)" in text
    assert bench.versions("adaptive") == ["adaptive-v1", "adaptive-v2", "adaptive-v3"]
    assert bench.versions("adaptive-v2") == ["adaptive-v1", "adaptive-v3"]


def test_benchmark_is_deterministic_and_the_pool_agrees():
    table = Table(
        "mix", "tuning", tuple((s, {}) for s in ["greedy", "bloc", "liar", "mimic", "loyal"])
    )
    one = bench.measure([table], ["reciprocator"], 3)[(0, "reciprocator")].shares
    again = bench.measure([table], ["reciprocator"], 3)[(0, "reciprocator")].shares
    pooled = bench.measure([table], ["reciprocator"], 3, jobs=2)[(0, "reciprocator")].shares
    assert one == again == pooled
    ranks = [bench.play_league_match(7, "adaptive", table)[1] for _ in range(2)]
    assert ranks[0] == ranks[1]


def test_seat_data_view_is_what_styles_read():
    # the engine's own view of a fresh match feeds a style without error (day 1, speech1)
    state = hw.init(1, 6)
    data = seat_data(state, 2, can_act=True, pending=None)
    said = make("joint_offer", random.Random(1)).choose(data, legal_actions(data))
    assert said["speech"] == "Seat 2: I cooperate with seat 0."


def test_benchmark_command_prints_every_group_and_the_json():
    out = CliRunner().invoke(bench.app, ["--ours", "guard", "--tables", "issue", "--matches", "1"])
    assert out.exit_code == 0, out.output
    assert "issue tables (1 matches each)" in out.output and "5 last_night" in out.output
    assert "reciprocator" in out.output and "worst table" in out.output
    out = CliRunner().invoke(bench.app, ["--ours", "guard", "--tables", "issue", "--matches", "1",
                                         "--json"])  # fmt: skip
    rep = json.loads(out.output)
    assert rep["references"] == ["farmer", "coalition", "reciprocator"]
    guard = rep["tables"][0]["guard"]
    assert (guard["share"], guard["rank1"], guard["sole"]) == (1 / 6, 1.0, 0.0)
    assert guard["sole_ci95"][0] == 0.0 and 0.7 < guard["sole_ci95"][1] < 0.8  # 0 of 1
    bad = CliRunner().invoke(bench.app, ["--tables", "best"])
    assert bad.exit_code != 0 and "one of issue" in bad.output
