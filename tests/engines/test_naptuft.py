"""Naptuft engine: hand-computed values from Naptuft §3-§8 and our own."""

import copy
import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

from sunbot.engines import IllegalAction
from sunbot.engines import naptuft as N
from sunbot.games import get_game

FEED, PLAY, BRUSH, NAP = ({"type": "care", "care": c} for c in N.CARES)
NEXT_DAY, END_RUN = {"type": "next-day"}, {"type": "end-run"}


def care(c: str) -> dict[str, str]:
    return {"type": "care", "care": c}


def needs_of(s: dict[str, Any]) -> tuple[int, ...]:
    return tuple(s["needs"][n] for n in N.NEEDS)


def hand(
    *,
    needs: tuple[int, ...],
    P: tuple[int, ...],
    wish: list[str],
    progress: int = 0,
    moment: int,
    score: int,
    streak: int,
    day: int = 1,
    last: str = "feed",
    seed: int = 7,
) -> dict[str, Any]:
    """A consistent hand-made engine state; window `moment // 4` gets pressure P and `wish`."""
    s = N.init(seed)
    base = 3 * (day - 1)
    s["forecast"] = [N.descriptor(seed, base + i) for i in range(3)]
    s["nextWindow"] = N.descriptor(seed, base + 3)
    w = moment // 4
    s.update(day=day, moment=moment, window=w, cursor=base + w, score=score, wishStreak=streak)
    s.update(lastCare=last, needs=dict(zip(N.NEEDS, needs, strict=True)))
    s["forecast"][w] = {"wish": list(wish), "pressure": dict(zip(N.NEEDS, P, strict=True))}
    s["wish"] = {"actions": list(wish), "progress": progress}
    return s


def code_of(s: dict[str, Any], a: Any) -> str:
    with pytest.raises(IllegalAction) as exc:
        N.step(s, a)
    return str(exc.value).split(": ", 1)[0]


# ----------------------------------------------------------------- module surface


def test_registry_and_names():
    assert get_game("naptuft").engine is N
    assert (N.SLUG, N.NAME) == ("naptuft", "Naptuft")


# ----------------------------------------------------------------- §4 deck vectors

VECTORS = [
    (0, [15, 22, 70, 116, 41, 111, 245, 181], ["nap", "feed"], [1, 1, 1, 1]),
    (1, [174, 114, 110, 104, 102, 28, 8, 254], ["play"], [0, 0, 0, 0]),
    (2, [82, 20, 161, 162, 148, 22, 12, 182], ["play"], [0, 0, 0, 0]),
    (3, [200, 143, 50, 89, 138, 214, 1, 192], ["feed"], [0, 0, 1, 0]),
    (18, [252, 21, 153, 75, 119, 4, 59, 111], ["brush", "nap"], [4, 4, 4, 1]),
    (20, [224, 148, 224, 25, 43, 228, 47, 230], ["nap", "play", "brush", "feed"], [3, 3, 2, 0]),
]


@pytest.mark.parametrize(("k", "h", "wish", "pressure"), VECTORS)
def test_deck_vectors_seed_7(k, h, wish, pressure):
    assert list(hashlib.sha256(f"naptuft:7:{k}".encode("ascii")).digest()[:8]) == h
    d = N.descriptor(7, k)
    assert d == {"wish": wish, "pressure": dict(zip(N.NEEDS, pressure, strict=True))}
    assert list(d) == ["wish", "pressure"] and list(d["pressure"]) == list(N.NEEDS)


def test_deck_ranges_follow_the_day_tables():
    for seed in (0, 1, 7, 12345, -3):
        for k in range(40):
            d = N.descriptor(seed, k)
            day = k // 3 + 1
            lo, hi = (1, 2) if day <= 2 else (2, 3) if day <= 5 else (2, 4)
            assert lo <= len(d["wish"]) <= hi and len(set(d["wish"])) == len(d["wish"])
            cap = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}.get(day, 4)
            assert all(0 <= p <= cap for p in d["pressure"].values())


def test_descriptor_rejects_bad_indices():
    for seed, k in ((7, -1), (True, 0), (7, 1.0), ("7", 0)):
        with pytest.raises(ValueError):
            N.descriptor(seed, k)  # type: ignore[arg-type]


def test_loss_is_six_plus_pressure_capped_at_eight():
    assert [N.loss(p) for p in range(5)] == [6, 7, 8, 8, 8]


# ----------------------------------------------------------------- §3 init(7)


def test_init_7_contents_and_key_order():
    d = [N.descriptor(7, k) for k in range(4)]
    expected = {
        "day": 1,
        "moment": 0,
        "window": 0,
        "phase": "care",
        "needs": {"food": 70, "joy": 70, "cleanliness": 70, "energy": 70},
        "wish": {"actions": ["nap", "feed"], "progress": 0},
        "wishStreak": 0,
        "forecast": [
            {"wish": ["nap", "feed"], "pressure": dict.fromkeys(N.NEEDS, 1)},
            {"wish": ["play"], "pressure": dict.fromkeys(N.NEEDS, 0)},
            {"wish": ["play"], "pressure": dict.fromkeys(N.NEEDS, 0)},
        ],
        "nextWindow": {
            "wish": ["feed"],
            "pressure": {**dict.fromkeys(N.NEEDS, 0), "cleanliness": 1},
        },
        "lastCare": None,
        "score": 0,
        "result": None,
        "cause": None,
        "seed": 7,
        "cursor": 0,
        "version": 1,
    }
    s = N.init(7)
    assert s == expected and list(s) == list(expected)
    assert s["forecast"] == d[:3] and s["nextWindow"] == d[3]
    assert N.score(s) == 0 and not N.is_over(s)
    N.check_state_shape(s)


def test_observation_drops_hidden_parts_in_table_order():
    s = N.init(7)
    obs = N.observation(s)
    assert list(obs) == list(N.OBS_KEYS)
    assert not set(N.HIDDEN) & set(obs)
    assert json.dumps(obs) == json.dumps({k: s[k] for k in N.OBS_KEYS})
    obs["needs"]["food"] = 1  # a copy, not a view
    assert s["needs"]["food"] == 70
    N.check_observation_shape(N.observation(s))


# ----------------------------------------------------------------- §7 worked examples


def test_w1_opening_of_seed_7():
    s0 = N.init(7)
    s1 = N.step(s0, NAP)
    assert (needs_of(s1), s1["score"], s1["wish"]) == (
        (63, 63, 63, 93),
        40,
        {"actions": ["nap", "feed"], "progress": 1},
    )
    s2 = N.step(s1, FEED)
    assert (needs_of(s2), s2["score"], s2["wish"], s2["wishStreak"]) == (
        (92, 56, 56, 86),
        206,
        None,
        1,
    )
    s3 = N.step(s2, PLAY)
    assert (needs_of(s3), s3["score"]) == ((85, 85, 49, 79), 252)
    s4 = N.step(s3, BRUSH)
    assert (needs_of(s4), s4["score"], s4["wishStreak"]) == ((78, 78, 78, 72), 298, 1)
    assert (s4["moment"], s4["window"], s4["cursor"]) == (4, 1, 1)
    assert s4["wish"] == {"actions": ["play"], "progress": 0}
    assert s4["lastCare"] == "brush" and s4["phase"] == "care"
    assert s0 == N.init(7)  # never mutated


def test_w2_pressure_three_is_capped_at_eight_no_comfort():
    s = hand(needs=(45, 62, 90, 33), P=(3, 1, 0, 2), wish=["feed"], moment=5, score=0, streak=0)
    t = N.step(s, NAP)
    assert needs_of(t) == (37, 55, 84, 61) and t["score"] == 36
    assert t["wish"] == {"actions": ["feed"], "progress": 0} and t["moment"] == 6


def test_w3_comfort_counts_forty():
    s = hand(needs=(47, 46, 58, 20), P=(1, 0, 2, 0), wish=["feed"], moment=1, score=0, streak=0)
    t = N.step(s, NAP)
    assert needs_of(t) == (40, 40, 50, 50) and t["score"] == 46


def test_w4_third_wish_in_a_row_pays_multiplier_three():
    s = hand(
        needs=(72, 75, 64, 58), P=(0, 1, 1, 0), wish=["brush", "feed", "play"], progress=2,
        moment=6, score=1000, streak=2,
    )  # fmt: skip
    t = N.step(s, PLAY)
    assert needs_of(t) == (66, 93, 57, 52)
    assert (t["score"], t["wishStreak"], t["wish"], t["moment"], t["window"]) == (
        1575,
        3,
        None,
        7,
        1,
    )


def test_w5_expired_wish_resets_streak_then_next_wish_pays_times_one():
    s = hand(
        needs=(60, 55, 70, 50), P=(1, 1, 0, 1), wish=["feed", "nap"], progress=1,
        moment=3, score=500, streak=2,
    )  # fmt: skip
    t = N.step(s, PLAY)
    assert needs_of(t) == (53, 84, 64, 43)
    assert (t["score"], t["wishStreak"], t["moment"], t["window"], t["cursor"]) == (546, 0, 4, 1, 1)
    assert t["wish"] == {"actions": ["play"], "progress": 0}  # descriptor 1 of seed 7
    # own follow-up: window 1 of seed 7 has pressure 0: play r=16, 47/94/58/37, no comfort, +60.
    u = N.step(t, PLAY)
    assert needs_of(u) == (47, 94, 58, 37)
    assert (u["score"], u["wishStreak"], u["wish"]) == (546 + 16 + 60, 1, None)


def test_w6_fatal_on_the_twelfth_moment_keeps_only_r():
    s = hand(
        needs=(5, 80, 60, 7),
        P=(0, 0, 0, 2),
        wish=["feed"],
        moment=11,
        score=800,
        streak=1,
        last="nap",
    )
    t = N.step(s, FEED)
    assert needs_of(t) == (35, 74, 54, 0)
    assert (t["score"], t["phase"], t["result"], t["cause"]) == (
        836,
        "over",
        "fatal",
        "zero:energy",
    )
    assert (t["moment"], t["window"], t["cursor"], t["wishStreak"]) == (11, 2, 2, 1)
    assert t["wish"] == {"actions": ["feed"], "progress": 0} and t["lastCare"] == "feed"
    assert N.legal_actions(t) == [] and N.is_over(t) and N.score(t) == 836
    N.check_observation_shape(N.observation(t))


def test_w7_day_bonus_without_comfort_and_expiry():
    s = hand(needs=(44, 52, 20, 39), P=(2, 1, 0, 1), wish=["nap"], moment=11, score=900, streak=1)
    t = N.step(s, BRUSH)
    assert needs_of(t) == (36, 45, 50, 32)
    assert (t["score"], t["phase"], t["moment"], t["window"], t["wish"], t["wishStreak"]) == (
        1056, "dayBreak", 11, 2, None, 0,
    )  # fmt: skip
    assert N.legal_actions(t) == [NEXT_DAY, END_RUN]


# ----------------------------------------------------------------- §8 edge cases


def test_edge1_wish_step_blocked_by_repeat_rule_then_completed_late():
    s = hand(
        needs=(80, 80, 80, 80), P=(0, 0, 0, 0), wish=["nap", "feed", "brush"], moment=4,
        score=0, streak=0, day=7, last="nap",
    )  # fmt: skip
    assert N.legal_actions(s) == [FEED, PLAY, BRUSH, END_RUN]
    assert code_of(s, NAP) == "repeatCare"
    s1 = N.step(s, PLAY)
    assert (needs_of(s1), s1["score"], s1["wish"]["progress"]) == ((74, 94, 74, 74), 30, 0)
    s2 = N.step(s1, NAP)
    assert (needs_of(s2), s2["score"], s2["wish"]["progress"]) == ((68, 88, 68, 94), 66, 1)
    s3 = N.step(s2, FEED)
    assert (needs_of(s3), s3["score"], s3["wish"]["progress"]) == ((94, 82, 62, 88), 108, 2)
    s4 = N.step(s3, BRUSH)  # completes on the window's last moment: 60*3*1
    assert (needs_of(s4), s4["score"], s4["wishStreak"]) == ((88, 76, 92, 82), 334, 1)
    assert (s4["moment"], s4["window"], s4["cursor"]) == (8, 2, 20)
    assert s4["wish"] == {"actions": ["nap", "play", "brush", "feed"], "progress": 0}


def test_edge1_four_step_wish_starting_with_last_care_cannot_complete():
    s = hand(
        needs=(80, 80, 80, 80), P=(0, 0, 0, 0), wish=["nap", "feed", "brush", "play"],
        moment=0, score=0, streak=2, day=7, last="nap",
    )  # fmt: skip
    assert NAP not in N.legal_actions(s)
    progress = []
    for a in (PLAY, NAP, FEED, BRUSH):
        s = N.step(s, a)
        progress.append(s["wish"]["progress"] if s["moment"] < 4 else None)
    assert progress == [0, 1, 2, None]
    assert s["wishStreak"] == 0 and s["wish"] == {
        "actions": s["forecast"][1]["wish"],
        "progress": 0,
    }


def test_edge2_wish_completed_on_the_twelfth_moment():
    s = hand(
        needs=(70, 66, 58, 80), P=(1, 0, 2, 1), wish=["play", "nap"], progress=1,
        moment=11, score=2000, streak=0,
    )  # fmt: skip
    t = N.step(s, NAP)
    assert needs_of(t) == (63, 60, 50, 93)
    assert (t["score"], t["phase"], t["wishStreak"], t["wish"]) == (2270, "dayBreak", 1, None)


def rotate_until(seed: int, day: int, moment: int) -> dict[str, Any]:
    """Play feed, play, brush, nap (care at moment m is CARES[m % 4]) up to (day, moment)."""
    s = N.init(seed)
    while (s["day"], s["moment"]) != (day, moment) or s["phase"] != "care":
        s = N.step(s, NEXT_DAY if s["phase"] == "dayBreak" else care(N.CARES[s["moment"] % 4]))
    return s


def test_edge4_and_5_repeat_allowed_on_day_6_refused_on_day_7_across_the_break():
    s = rotate_until(7, 6, 10)
    s = N.step(s, BRUSH)  # moment 10
    assert s["lastCare"] == "brush" and N.legal_actions(s) == [FEED, PLAY, BRUSH, NAP, END_RUN]
    s = N.step(s, BRUSH)  # a repeat on day 6 is legal (edge 5)
    assert s["phase"] == "dayBreak" and N.legal_actions(s) == [NEXT_DAY, END_RUN]
    before = s
    s = N.step(s, NEXT_DAY)
    assert (s["day"], s["moment"], s["window"], s["cursor"], s["lastCare"]) == (
        7,
        0,
        0,
        18,
        "brush",
    )
    assert s["forecast"] == [N.descriptor(7, k) for k in (18, 19, 20)]
    assert s["nextWindow"] == N.descriptor(7, 21)
    assert s["forecast"][0] == before["nextWindow"]
    assert (s["needs"], s["score"], s["wishStreak"]) == (
        before["needs"],
        before["score"],
        before["wishStreak"],
    )
    assert s["wish"] == {"actions": ["brush", "nap"], "progress": 0}  # starts with lastCare
    assert N.legal_actions(s) == [FEED, PLAY, NAP, END_RUN]
    assert code_of(s, BRUSH) == "repeatCare"
    s = N.step(s, FEED)
    assert s["wish"]["progress"] == 0
    s = N.step(s, BRUSH)
    assert s["wish"]["progress"] == 1
    streak, score, nd = s["wishStreak"], s["score"], s["needs"]["energy"]
    t = N.step(s, NAP)  # P of descriptor 18 is 4/4/4/1
    r = min(36, 100 - nd)
    comfort = 10 if min(t["needs"].values()) >= 40 else 0
    assert t["score"] == score + r + comfort + 60 * 2 * min(streak + 1, 3)
    assert (t["wish"], t["wishStreak"]) == (None, streak + 1)


def test_day_7_no_repeat_across_a_later_day_break():
    s = rotate_until(7, 7, 11)
    s = N.step(s, NAP)
    assert s["phase"] == "dayBreak"
    s = N.step(s, NEXT_DAY)
    assert s["day"] == 8 and N.legal_actions(s) == [FEED, PLAY, BRUSH, END_RUN]
    assert code_of(s, NAP) == "repeatCare"


def test_edge6_care_on_a_full_need_restores_zero_but_still_steps_the_wish():
    s = hand(
        needs=(100, 80, 80, 80), P=(0, 0, 0, 0), wish=["feed", "nap"], moment=1, score=10, streak=0
    )
    t = N.step(s, FEED)
    assert needs_of(t) == (94, 74, 74, 74) and t["score"] == 20 and t["wish"]["progress"] == 1


def test_edge7_end_run_keeps_day_bonus_and_shown_wish():
    s = hand(needs=(44, 52, 20, 39), P=(2, 1, 0, 1), wish=["nap"], moment=11, score=900, streak=1)
    t = N.step(N.step(s, BRUSH), END_RUN)
    assert (t["score"], t["phase"], t["result"], t["cause"], t["wish"]) == (
        1056,
        "over",
        "ended",
        "end-run",
        None,
    )
    m = hand(
        needs=(80,) * 4, P=(0,) * 4, wish=["play", "nap"], progress=1, moment=5, score=77, streak=2
    )
    e = N.step(m, END_RUN)
    assert {k: v for k, v in e.items() if k not in ("phase", "result", "cause")} == {
        k: v for k, v in m.items() if k not in ("phase", "result", "cause")
    }
    assert (e["phase"], e["result"], e["cause"]) == ("over", "ended", "end-run")
    assert e["wish"] == {"actions": ["play", "nap"], "progress": 1} and e["wishStreak"] == 2
    N.check_state_shape(N.step(N.init(3), END_RUN))


def test_edge8_streak_carries_across_next_day():
    s = hand(
        needs=(70, 66, 58, 80),
        P=(1, 0, 2, 1),
        wish=["play", "nap"],
        progress=1,
        moment=11,
        score=0,
        streak=4,
    )
    t = N.step(N.step(s, NAP), NEXT_DAY)
    assert t["wishStreak"] == 5 and (t["day"], t["moment"], t["phase"]) == (2, 0, "care")
    assert t["wish"] == {"actions": N.descriptor(7, 3)["wish"], "progress": 0}


def test_next_day_from_day_1_loads_the_new_day():
    s = rotate_until(7, 1, 11)
    s = N.step(s, NAP)
    t = N.step(s, NEXT_DAY)
    assert t["forecast"] == [N.descriptor(7, k) for k in (3, 4, 5)] and t[
        "nextWindow"
    ] == N.descriptor(7, 6)
    assert t["wish"] == {"actions": ["feed"], "progress": 0} and t["cursor"] == 3
    assert (t["needs"], t["score"], t["lastCare"]) == (s["needs"], s["score"], "nap")


# ----------------------------------------------------------------- own hand-computed cases


def test_two_needs_at_zero_name_both_in_canonical_order():
    s = hand(needs=(6, 6, 50, 50), P=(0, 0, 0, 0), wish=["nap"], moment=2, score=5, streak=0)
    t = N.step(s, BRUSH)
    assert needs_of(t) == (0, 0, 80, 44)
    assert (t["score"], t["cause"], t["moment"], t["lastCare"]) == (41, "zero:food,joy", 2, "brush")


def test_day_bonus_counts_thirty_comfort_fails_at_thirty_nine():
    # nap: energy 60+36=96; decay 6 each -> 30/39/54/90; no comfort, day bonus (30 counts).
    s = hand(needs=(36, 45, 60, 60), P=(0, 0, 0, 0), wish=["feed"], moment=11, score=0, streak=3)
    t = N.step(s, NAP)
    assert needs_of(t) == (30, 39, 54, 90) and t["score"] == 36 + 120 and t["wishStreak"] == 0
    # one lower: food ends at 29, no day bonus, still a day break.
    u = N.step(
        hand(needs=(35, 45, 60, 60), P=(0,) * 4, wish=["feed"], moment=11, score=0, streak=0), NAP
    )
    assert needs_of(u) == (29, 39, 54, 90) and u["score"] == 36 and u["phase"] == "dayBreak"


def test_other_care_neither_advances_nor_resets_progress():
    s = hand(
        needs=(80,) * 4,
        P=(0,) * 4,
        wish=["feed", "nap", "play"],
        progress=1,
        moment=1,
        score=0,
        streak=0,
    )
    t = N.step(s, PLAY)
    assert t["wish"] == {"actions": ["feed", "nap", "play"], "progress": 1}
    assert N.step(t, NAP)["wish"]["progress"] == 2


def test_long_streak_is_uncapped_but_multiplier_is_three():
    # feed at m3: food 50+36=86, decay 7 (P 1): 79/73/73/73, +10, +60*1*3, streak 6; window 1 loads.
    s = hand(needs=(50, 80, 80, 80), P=(1,) * 4, wish=["feed"], moment=3, score=0, streak=5)
    t = N.step(s, FEED)
    assert needs_of(t) == (79, 73, 73, 73) and t["score"] == 36 + 10 + 180 and t["wishStreak"] == 6
    assert (t["moment"], t["window"], t["cursor"], t["wish"]) == (
        4,
        1,
        1,
        {"actions": ["play"], "progress": 0},
    )


# ----------------------------------------------------------------- §5 legal actions, §6.1 refusals


def test_legal_action_order():
    assert N.legal_actions(N.init(7)) == [FEED, PLAY, BRUSH, NAP, END_RUN]
    s = hand(
        needs=(80,) * 4, P=(0,) * 4, wish=["feed"], moment=5, score=0, streak=0, day=9, last="play"
    )
    assert N.legal_actions(s) == [FEED, BRUSH, NAP, END_RUN]
    assert N.legal_actions(N.step(N.init(7), END_RUN)) == []


MALFORMED = [
    None, "feed", 5, ["care", "feed"], {}, {"type": "care"}, {"care": "feed"},
    {"type": "care", "care": "Feed"}, {"type": "care", "care": "sleep"}, {"type": "END_RUN"},
    {"type": "NEXT_DAY"}, {"type": "end-run", "x": 1}, {"type": "next-day", "care": "feed"},
    {"type": "care", "care": "feed", "extra": None}, {"type": ["care"]}, {"type": "care", "care": None},
]  # fmt: skip


def over_state() -> dict[str, Any]:
    return N.step(rotate_until(7, 7, 0), END_RUN)  # day 7, lastCare nap


def day_break_state() -> dict[str, Any]:
    return N.step(rotate_until(7, 7, 11), NAP)  # day 7, lastCare nap


@pytest.mark.parametrize("bad", MALFORMED)
def test_malformed_comes_first_even_when_over(bad):
    for s in (N.init(7), day_break_state(), over_state()):
        assert code_of(s, bad) == "malformed"


def test_refusal_codes_and_precedence():
    over, brk = over_state(), day_break_state()
    mid = rotate_until(7, 7, 6)  # lastCare play
    assert mid["lastCare"] == "play"
    for a in (FEED, NAP, NEXT_DAY, END_RUN):  # gameOver beats dayBreak/notDayBreak/repeatCare
        assert code_of(over, a) == "gameOver"
    assert code_of(brk, NAP) == "dayBreak"  # beats repeatCare (lastCare nap, day 7)
    assert code_of(brk, FEED) == "dayBreak"
    assert code_of(mid, NEXT_DAY) == "notDayBreak"
    assert code_of(mid, PLAY) == "repeatCare"
    with pytest.raises(IllegalAction) as exc:
        N.step(mid, PLAY)
    code, sentence = str(exc.value).split(": ", 1)
    assert code == "repeatCare" and sentence.strip()
    assert isinstance(exc.value, ValueError)


def test_refusals_leave_input_unchanged():
    for s, a in [(over_state(), FEED), (day_break_state(), NAP), (rotate_until(7, 7, 6), PLAY),
                 (N.init(7), NEXT_DAY), (N.init(7), {"type": "x"})]:  # fmt: skip
        before = copy.deepcopy(s)
        with pytest.raises(IllegalAction):
            N.step(s, a)
        with pytest.raises(IllegalAction):
            N.step_observation(N.observation(s), a)
        assert json.dumps(s) == json.dumps(before)


def test_end_run_then_everything_is_game_over_and_stable():
    s = N.step(N.step(N.init(11), PLAY), END_RUN)
    assert N.is_over(s) and N.legal_actions(s) == [] and s["score"] == N.score(s)
    for a in N.ALL_ACTIONS:
        assert code_of(s, a) == "gameOver"


# ----------------------------------------------------------------- player side and schema


def test_step_observation_replays_w1_and_needs_revealed_at_next_day():
    o = N.observation(N.init(7))
    for a in (NAP, FEED, PLAY, BRUSH):
        o = N.step_observation(o, a, revealed={"ignored": True})
    assert needs_of(o) == (78, 78, 78, 72) and o["score"] == 298 and list(o) == list(N.OBS_KEYS)
    s = N.step(rotate_until(7, 1, 11), NAP)
    with pytest.raises(ValueError):
        N.step_observation(N.observation(s), NEXT_DAY)
    with pytest.raises(ValueError):
        N.step_observation(N.observation(s), NEXT_DAY, {"windows": [], "nextWindow": None})
    t = N.step(s, NEXT_DAY)
    assert N.revealed_from(N.observation(t)) == {
        "windows": [N.descriptor(7, 4), N.descriptor(7, 5)],
        "nextWindow": N.descriptor(7, 6),
    }
    got = N.step_observation(N.observation(s), NEXT_DAY, N.revealed_from(N.observation(t)))
    assert json.dumps(got) == json.dumps(N.observation(t))


def bad_variants() -> Iterator[Any]:
    o = N.observation(N.init(7))
    yield {k: v for k, v in o.items() if k != "cause"}
    yield {**o, "seed": 7}
    yield {**o, "day": True}
    yield {**o, "score": 1.0}
    yield {**o, "needs": {**o["needs"], "joy": 101}}
    yield {**o, "window": 1}
    yield {**o, "phase": "dayBreak"}
    yield {**o, "result": "ended"}
    yield {**o, "phase": "over", "result": "fatal", "cause": "zero:food"}
    yield {**o, "wish": {"actions": ["nap", "nap"], "progress": 0}}
    yield {**o, "wish": {"actions": ["nap", "feed"], "progress": 2}}
    yield {**o, "wish": {"actions": ["play"], "progress": 0}}
    yield {**o, "forecast": o["forecast"][:2]}
    yield {
        **o,
        "nextWindow": {"wish": ["feed"], "pressure": {**o["nextWindow"]["pressure"], "joy": -1}},
    }
    yield {**o, "lastCare": "Feed"}
    yield "not an observation"


@pytest.mark.parametrize("bad", list(bad_variants()))
def test_check_observation_shape_rejects(bad):
    with pytest.raises(ValueError):
        N.check_observation_shape(bad)


def test_check_state_shape_rejects_inconsistent_hidden_parts():
    s = N.init(7)
    for bad in ({**s, "cursor": 1}, {**s, "version": 2}, {**s, "seed": 8}, {**s, "version": True}):
        with pytest.raises(ValueError):
            N.check_state_shape(bad)


def test_spec_is_self_documenting():
    assert set(N.SPEC) == {"goal", "scoring", "rules", "actionSchema"}
    assert all(isinstance(r, str) and r for r in N.SPEC["rules"])

    def variant(kind: str, **extra: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"type": {"const": kind}, **extra},
            "required": ["type", *extra],
            "additionalProperties": False,
        }

    assert N.SPEC["actionSchema"] == {
        "type": "object",
        "oneOf": [
            variant("care", care={"enum": ["feed", "play", "brush", "nap"]}),
            variant("next-day"),
            variant("end-run"),
        ],
    }
    json.dumps(N.SPEC)
