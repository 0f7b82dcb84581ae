"""Tile-merge and dice-dash: the rules, and the random cursor each state carries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sunbot.testing.platform.dice_dash import points
from sunbot.testing.platform.tile_merge import mulberry32, slide_row
from sunbot.testing.unseen.common import BadRequest
from tests.testing.platform.helpers import at, game, refusal, step

# --- tile-merge --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "after", "points_made"),
    [
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),
        ([2, 2, 4, 0], [4, 4, 0, 0], 4),  # the new 4 does not merge again in the same move
        ([4, 0, 4, 8], [8, 8, 0, 0], 8),
        ([2, 4, 8, 16], [2, 4, 8, 16], 0),
        ([0, 0, 0, 2], [2, 0, 0, 0], 0),
        ([1024, 1024, 2, 2], [2048, 4, 0, 0], 2052),
    ],
)
def test_a_row_slides_and_merges_once(row, after, points_made):
    assert slide_row(row) == (after, points_made)


def merge(board: list[list[int]], rng: int = 12345, score: int = 0) -> dict[str, Any]:
    won = any(v >= 2048 for row in board for v in row)
    return at("tile-merge", {"board": board, "score": score, "won": won, "moves": 3, "rng": rng})


def test_a_move_that_changes_nothing_is_refused_with_the_ones_that_do():
    answer = merge([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert answer["legalActions"] == [{"type": "move", "direction": d} for d in ("down", "right")]
    assert refusal("tile-merge", answer, {"type": "move", "direction": "left"}).reason == (
        "moving left changes nothing; moves that do: down, right")  # fmt: skip


def test_a_move_scores_its_merges_then_one_tile_spawns_from_the_carried_cursor():
    board = [[2, 2, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    answer = merge(board, rng=777, score=10)
    after = step("tile-merge", answer, {"type": "move", "direction": "left"})
    new = after["state"]["board"]
    assert new[0][:2] == [4, 8] and after["score"] == 10 + 4 + 8 and after["state"]["moves"] == 4
    spawned = [(r, c, v) for r in range(4) for c in range(4) if (r, c) not in ((0, 0), (0, 1))
               and (v := new[r][c])]  # fmt: skip
    # the spawn is the cursor's: two draws of mulberry32 from 777
    u, cursor = mulberry32(777)
    v, cursor = mulberry32(cursor)
    empties = [(r, c) for r in range(4) for c in range(4) if (r, c) not in ((0, 0), (0, 1))]
    assert spawned == [(*empties[int(u * len(empties))], 4 if v < 0.1 else 2)]
    assert after["state"]["rng"] == cursor
    other = step(
        "tile-merge", merge(board, rng=778, score=10), {"type": "move", "direction": "left"}
    )
    assert other["state"]["board"] != new  # another cursor, another future


def test_2048_is_a_milestone_not_the_end_and_a_locked_board_is():
    answer = merge([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    after = step("tile-merge", answer, {"type": "move", "direction": "left"})
    assert after["state"]["won"] is True and after["observation"]["won"] is True
    assert after["gameOver"] is False and after["observation"]["maxTile"] == 2048
    locked = merge([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], score=99)
    assert (locked["gameOver"], locked["legalActions"], locked["score"]) == (True, [], 99)


def test_the_tile_merge_observation_shows_all_but_the_cursor():
    answer = game("tile-merge").init(5)
    tiles = [v for row in answer["state"]["board"] for v in row if v]
    assert len(tiles) == 2 and set(tiles) <= {2, 4} and answer["score"] == 0
    obs = answer["observation"]
    assert "rng" not in obs and str(answer["state"]["rng"]) not in json.dumps(obs)
    assert obs["board"] == answer["state"]["board"] and obs["rows"][0].count(" ") == 3
    with pytest.raises(BadRequest, match="powers of two"):
        merge([[3, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    with pytest.raises(BadRequest, match="won"):
        at("tile-merge", {**answer["state"], "won": True})


# --- dice-dash ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ([3, 3, 3, 5, 5], {"ones": 0, "threes": 9, "fives": 10, "threeOfAKind": 19,
                           "fourOfAKind": 0, "fullHouse": 25, "straight": 0, "allMatch": 0}),
        ([1, 2, 3, 4, 6], {"ones": 1, "threes": 3, "fives": 0, "threeOfAKind": 0,
                           "fourOfAKind": 0, "fullHouse": 0, "straight": 30, "allMatch": 0}),
        ([6, 6, 6, 6, 6], {"ones": 0, "threes": 0, "fives": 0, "threeOfAKind": 30,
                           "fourOfAKind": 30, "fullHouse": 0, "straight": 0, "allMatch": 50}),
        ([5, 2, 4, 5, 3], {"ones": 0, "threes": 3, "fives": 10, "threeOfAKind": 0,
                           "fourOfAKind": 0, "fullHouse": 0, "straight": 30, "allMatch": 0}),
    ],
)  # fmt: skip
def test_each_category_scores_as_the_page_says(dice, expected):
    assert {k: points(k, dice) for k in expected} == expected


def dash(**fields: Any) -> dict[str, Any]:
    state = {"seed": 4, "rolls": 1, "round": 1, "rollInRound": 1, "dice": [3, 3, 3, 5, 5],
             "held": [False] * 5, "scores": dict.fromkeys(
                 ["ones", "threes", "fives", "threeOfAKind", "fourOfAKind", "fullHouse",
                  "straight", "allMatch"]), "perfect": []}  # fmt: skip
    return at("dice-dash", {**state, **fields})


def test_scoring_on_the_first_roll_earns_a_perfect_round_and_starts_the_next():
    answer = dash()
    assert answer["legalActions"][:2] == [{"type": "roll"}, {"type": "toggleHold", "dieIndex": 0}]
    assert len(answer["legalActions"]) == 1 + 5 + 8 and answer["observation"]["preview"][
        "fullHouse"] == 25  # fmt: skip
    after = step("dice-dash", answer, {"type": "score", "category": "fullHouse"})
    assert after["score"] == 25 + 5 and after["observation"]["perfectRounds"] == ["fullHouse"]
    assert (after["observation"]["round"], after["observation"]["rollNumber"]) == (2, 1)
    assert after["state"]["rolls"] == 2 and after["observation"]["held"] == [False] * 5
    assert {"type": "score", "category": "fullHouse"} not in after["legalActions"]
    assert refusal("dice-dash", after, {"type": "score", "category": "fullHouse"}).reason == (
        "fullHouse is filled already (it scored 25); open: ones, threes, fives, threeOfAKind, "
        "fourOfAKind, straight, allMatch")  # fmt: skip


def test_holds_keep_dice_through_a_roll_and_the_third_roll_forces_a_score():
    answer = dash()
    held = step("dice-dash", step("dice-dash", answer, {"type": "toggleHold", "dieIndex": 0}),
                {"type": "toggleHold", "dieIndex": 4})  # fmt: skip
    assert held["observation"]["dice"] == [3, 3, 3, 5, 5] and held["state"]["rolls"] == 1
    assert held["observation"]["held"] == [True, False, False, False, True]
    two = step("dice-dash", held, {"type": "roll"})
    assert two["observation"]["dice"][0] == 3 and two["observation"]["dice"][4] == 5
    three = step("dice-dash", two, {"type": "roll"})
    assert three["observation"]["phase"] == "choosing" and three["observation"]["rollsLeft"] == 0
    assert all(a["type"] == "score" for a in three["legalActions"])
    for action in ({"type": "roll"}, {"type": "toggleHold", "dieIndex": 1}):
        assert refusal("dice-dash", three, action).reason.startswith("no rolls are left")
    scored = step("dice-dash", three, {"type": "score", "category": "allMatch"})
    assert scored["observation"]["perfectRounds"] == []  # not on a first roll


def test_the_number_bonus_and_the_end_of_the_eighth_round():
    scores = {"ones": 5, "threes": 15, "fives": None, "threeOfAKind": 0, "fourOfAKind": 0,
              "fullHouse": 25, "straight": 30, "allMatch": 0}  # fmt: skip
    answer = dash(round=8, rolls=8, dice=[5, 5, 1, 2, 2], scores=scores, perfect=["ones"])
    assert answer["score"] == 75 + 5 and answer["observation"]["numberBonus"] == 0
    end = step("dice-dash", answer, {"type": "score", "category": "fives"})
    assert end["observation"]["numberTotal"] == 30 and end["observation"]["numberBonus"] == 20
    assert (end["score"], end["gameOver"], end["legalActions"]) == (85 + 20 + 10, True, [])


def test_the_dice_dash_observation_hides_the_seed_and_the_roll_counter():
    answer = game("dice-dash").init(123456)
    for _ in range(3):
        answer = step("dice-dash", answer, {"type": "roll"} if answer["observation"][
            "rollsLeft"] else {"type": "score", "category": "ones"})  # fmt: skip
    obs = answer["observation"]
    assert "seed" not in obs and "rolls" not in obs and "123456" not in json.dumps(obs)
    assert answer["state"]["rolls"] == 4 and obs["rollNumber"] == 1  # the names differ too
    again = step("dice-dash", answer, {"type": "roll"})
    assert again == step("dice-dash", answer, {"type": "roll"})  # the state fixes the roll
    with pytest.raises(BadRequest, match="round"):
        dash(round=3)
