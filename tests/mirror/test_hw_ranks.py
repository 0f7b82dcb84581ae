"""Harvest Watch final ranks: the mirror checks what the rule text's Finish section fixes
(rank 1 for the winner or the drawn winners, lasting longer ranks ahead), not how a server
numbers the ranks after a tie (ours: competition ranking, a local choice of our spec §3.9).

The match is spec §6 E6's draw variant, seen by seat 2: seats 1 and 4 went out on night 4,
seat 3 on night 6; on night 7 seat 0 (P 0.6), seat 2 (P 2.9) and seat 5 (P 2.9) all go out,
so seats 2 and 5 draw. Competition ranks [3, 5, 1, 4, 5, 1]; dense ranks [2, 4, 1, 3, 4, 1].
"""

from __future__ import annotations

from typing import Any

import pytest

from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.mirror.harvest_watch import MatchMirror
from tests.engines.test_harvest_watch import E6_OUT, FARM, state_at, steal

SEAT = 2
FARM_ACT = FARM


def _view(state: dict[str, Any], *, can_act: bool, pending: list[Any] | None) -> dict[str, Any]:
    done = state["status"] == "done"
    remain = 0 if done else 5000
    return {
        "status": state["status"],
        "remainMs": remain,
        "pollAfterMs": 0 if done else 500,
        "next": None if done else {"rel": "poll", "method": "GET", "href": "/x"},
        "data": seat_data(state, SEAT, can_act=can_act, pending=pending),
    }


def _views() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The action beat before and after our store, and the finished view."""
    opening = state_at("action", [6, 0, 9, 0, 0, 9], day=7, out=E6_OUT)
    done = hw.resolve_beat(opening, {0: [FARM], SEAT: [FARM_ACT], 5: [steal(0)]})
    assert done["result"]["ranks"] == [3, 5, 1, 4, 5, 1]  # the spec's E6 draw variant
    return (
        _view(opening, can_act=True, pending=None),
        _view(opening, can_act=False, pending=[FARM_ACT]),
        _view(done, can_act=False, pending=None),
    )


def _check(final_ranks: list[Any]) -> MatchMirror:
    before, stored, after = _views()
    after["data"]["result"]["ranks"] = final_ranks
    mirror = MatchMirror(SEAT)
    mirror.check(before)
    mirror.note_command(before["data"]["round"], [FARM_ACT])
    mirror.check(stored)
    mirror.check(after)
    assert mirror.beats_checked == 1
    return mirror


def test_competition_and_dense_ranks_are_both_faithful() -> None:
    assert _check([3, 5, 1, 4, 5, 1]).divergences == []
    assert _check([2, 4, 1, 3, 4, 1]).divergences == []


@pytest.mark.parametrize(
    "ranks",
    [
        [2, 4, 2, 3, 4, 2],  # nobody at rank 1: the text always names a winner or a draw
        [1, 4, 0, 3, 4, 0],  # rank 0
        [2, 4, 1, 3, 4, True],  # a boolean is not a rank
    ],
)
def test_ranks_without_a_winner_or_not_positive_integers_diverge(ranks: list[Any]) -> None:
    found = _check(ranks).divergences
    assert [d.path for d in found] == ["data.result.ranks"]
