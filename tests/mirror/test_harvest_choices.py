"""What a Harvest Watch server may choose in a resolved beat (issue 11 point 2): where a
fine's spare tenth goes, a fine's value when nobody is fined, nightCost before the night.
Hand-computed from the spec's worked example E4 (fine 2.0 split 2:1 between seats 4 and 1)."""

from __future__ import annotations

import copy
from typing import Any

from sunbot.mirror.harvest_choices import servers_choices

VOTES = {
    "0": {"punish": 2, "giveTo": 4},
    "1": {"punish": 2, "giveTo": 4},
    "3": {"punish": 2, "giveTo": 1},
    "2": {"punish": 0, "giveTo": 3},
    "4": {"punish": None},
}


def summary(shares: dict[str, float], foods: list[float]) -> dict[str, Any]:
    return {
        "you": 1,
        "phase": "action",
        "food": foods[1],
        "foods": foods,
        "nightCost": 3.0,
        "votes": VOTES,
        "punishResult": {"punished": 2, "fine": 2.0, "shares": shares},
    }


# ours: 4 gets floor(40/3) = 13, 1 gets floor(20/3) = 6, the spare tenth to the lower seat, 1
OURS = summary({"1": 0.7, "4": 1.3}, [3.0, 3.2, 1.4, 4.0, 3.5, 0.0])


def test_the_spare_tenth_to_the_higher_recipient_is_the_servers_choice() -> None:
    expected = copy.deepcopy(OURS)
    got = summary({"1": 0.6, "4": 1.4}, [3.0, 3.1, 1.4, 4.0, 3.6, 0.0])
    assert servers_choices(expected, got) == []
    assert expected == got  # shares and the recipients' foods (ours too) follow the server


def test_shares_that_do_not_add_up_or_stray_from_the_split_are_flagged() -> None:
    lost = summary({"1": 0.6, "4": 1.3}, [3.0, 3.1, 1.4, 4.0, 3.5, 0.0])  # a tenth lost
    skewed = summary({"1": 0.5, "4": 1.5}, [3.0, 3.0, 1.4, 4.0, 3.7, 0.0])  # 5 is not 6 or 7
    for got in (lost, skewed):
        found = servers_choices(copy.deepcopy(OURS), got)
        assert [f.path for f in found] == ["data.summary.punishResult.shares"]


def test_no_fine_and_the_cost_before_the_night_are_the_servers() -> None:
    expected = {"phase": "speech1", "nightCost": 3.0}
    assert servers_choices(expected, {"phase": "speech1"}) == []
    assert "nightCost" not in expected  # not promised before the night
    none = {"punished": None, "fine": 0.0, "shares": {}}
    expected = {"phase": "action", "nightCost": 3.0, "punishResult": none}
    got = {"phase": "action", "nightCost": None, "punishResult": {**none, "fine": None}}
    assert servers_choices(expected, got) == [] and expected == got
