"""Checkers and dots-and-boxes against G-Bot: hand-set positions and what the rule pages
say must follow from them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sunbot.testing.platform import create_platform_app
from sunbot.testing.platform.checkers import bot_move, can_move, moves_of, opening, play
from sunbot.testing.unseen.common import BadRequest
from tests.testing.platform.helpers import at, game, refusal, step


def board(**pieces: str) -> list[str]:
    """An 8x8 board from ``r5c2="r"``-style keyword arguments."""
    rows = [["."] * 8 for _ in range(8)]
    for key, piece in pieces.items():
        r, c = key[1:].split("c")
        rows[int(r)][int(c)] = piece
    return ["".join(row) for row in rows]


def checkers(rows: list[str], quiet: int = 0) -> dict[str, Any]:
    return at("checkers", {"board": rows, "sinceCapture": quiet, "moves": 4, "result": None,
                           "lastBotMove": None})  # fmt: skip


def move(r: int, c: int, r2: int, c2: int) -> dict[str, Any]:
    return {"type": "move", "from": {"row": r, "col": c}, "to": {"row": r2, "col": c2}}


# --- checkers ------------------------------------------------------------------------------


def test_checkers_opens_with_twelve_men_each_and_seven_moves_for_red():
    answer = game("checkers").init(7)
    assert answer["state"]["board"] == [".b.b.b.b", "b.b.b.b.", ".b.b.b.b", "........",
                                        "........", "r.r.r.r.", ".r.r.r.r", "r.r.r.r."]  # fmt: skip
    # only row 5's men can step, up-left or up-right, onto row 4
    assert answer["legalActions"] == [move(5, 0, 4, 1), move(5, 2, 4, 1), move(5, 2, 4, 3),
                                      move(5, 4, 4, 3), move(5, 4, 4, 5), move(5, 6, 4, 5),
                                      move(5, 6, 4, 7)]  # fmt: skip
    assert answer["observation"]["yourPieces"] == answer["observation"]["botPieces"] == 12
    assert (answer["score"], answer["observation"]["phase"]) == (0, "your-turn")


def test_a_jump_is_compulsory_and_the_refusal_names_it():
    answer = checkers(board(r5c2="r", r7c0="r", r4c3="b", r0c7="b"))
    assert answer["legalActions"] == [move(5, 2, 3, 4)]
    refused = refusal("checkers", answer, move(7, 0, 6, 1))
    assert refused.reason == "a jump is compulsory; jumps: (5,2)->(3,4)"
    assert refusal("checkers", answer, move(4, 3, 5, 2)).reason == "no red piece of yours on (4,3)"


def test_a_jump_chain_is_one_move_to_its_last_landing_square():
    answer = checkers(board(r6c1="r", r5c2="b", r3c4="b", r0c1="b"))
    assert answer["legalActions"] == [move(6, 1, 2, 5)]  # (4,3) is only a stop on the way
    after = step("checkers", answer, move(6, 1, 2, 5))
    flat = "".join(after["state"]["board"])
    assert flat.count("b") == 1 and flat[2 * 8 + 5] == "r" and after["state"]["result"] is None
    bot = after["state"]["lastBotMove"]  # G-Bot's last man stepped down a row
    assert bot["from"] == {"row": 0, "col": 1} and bot["to"]["row"] == 1
    assert after["state"]["sinceCapture"] == 1 and after["observation"]["botPieces"] == 1


def test_a_man_reaching_the_far_row_is_crowned_and_the_chain_stops():
    answer = checkers(board(r2c1="r", r1c2="b", r1c4="b", r7c6="r"))
    # as a king on (0,3) it could jump (1,4) next, but crowning ends the move
    assert answer["legalActions"] == [move(2, 1, 0, 3)]
    after = step("checkers", answer, move(2, 1, 0, 3))
    assert after["state"]["board"][0][3] == "R" and after["observation"]["botPieces"] == 1


def test_taking_the_last_piece_wins_100_plus_your_pieces():
    answer = checkers(board(r3c2="R", r2c3="b", r7c0="r"))
    won = step("checkers", answer, move(3, 2, 1, 4))
    assert won["state"]["result"] == "win" and won["gameOver"] is True
    assert (won["score"], won["legalActions"]) == (102, [])
    assert won["state"]["lastBotMove"] is None  # G-Bot had nothing left to reply with
    assert refusal("checkers", won, move(1, 4, 0, 3)).reason.startswith("the game is over")


def test_g_bot_must_take_and_a_side_without_pieces_loses():
    answer = checkers(board(r6c1="r", r5c0="b", r4c3="b"))
    assert answer["legalActions"] == [move(6, 1, 5, 2)]  # (5,0) is taken, no jump is possible
    lost = step("checkers", answer, move(6, 1, 5, 2))
    assert lost["state"]["lastBotMove"] == {
        "from": {"row": 4, "col": 3},
        "to": {"row": 6, "col": 1},
    }
    assert lost["state"]["result"] == "loss" and (lost["score"], lost["gameOver"]) == (0, True)


def test_eighty_half_moves_without_a_capture_draw_for_25():
    answer = checkers(board(r7c0="r", r0c7="b"), quiet=79)
    drawn = step("checkers", answer, move(7, 0, 6, 1))
    assert drawn["state"]["result"] == "draw" and drawn["state"]["sinceCapture"] == 80
    assert (drawn["score"], drawn["gameOver"]) == (25, True)


@pytest.mark.parametrize(
    ("rows", "result", "why"),
    [
        (board(r0c1="r", r7c0="b"), None, "uncrowned"),
        (board(r4c4="r", r0c7="b"), None, "light square"),
        (board(r7c0="r", r0c7="b"), "win", "can still move"),
        (board(r7c0="r"), None, "over"),
        ([".R.R.R.R", "R.R.R.R."] * 2 + ["........"] * 3 + ["B......."], None, "over 12"),
    ],
)
def test_checkers_refuses_a_board_that_is_not_a_position(rows, result, why):
    with pytest.raises(BadRequest, match=why):
        at("checkers", {"board": rows, "sinceCapture": 0, "moves": 0, "result": result,
                        "lastBotMove": None})  # fmt: skip


def test_g_bot_is_deterministic_and_searches_the_pages_six_plies_by_default():
    start = opening()
    start[5 * 8 + 2], start[4 * 8 + 3] = ".", "r"
    assert bot_move(start, 4) == bot_move(start, 4) is not None
    assert create_platform_app().state.games["checkers"].depth == 6


def test_the_quick_move_check_agrees_with_the_move_list():
    rng = random.Random(4)
    for _ in range(12):
        rows, side = opening(), "r"
        for _ in range(rng.randrange(10, 70)):
            for who in "rb":
                assert can_move(rows, who) == bool(moves_of(rows, who))
            moves = moves_of(rows, side)
            if not moves:
                break
            rows, side = play(rows, rng.choice(moves)), "b" if side == "r" else "r"


@pytest.mark.slow
def test_six_ply_g_bot_beats_a_player_that_always_takes_the_first_move():
    g = create_platform_app().state.games["checkers"]
    answer = g.init(1)
    while not answer["gameOver"]:
        answer = g.act({"state": answer["state"], "action": answer["legalActions"][0]})
    assert answer["state"]["result"] == "loss"


# --- dots-and-boxes ------------------------------------------------------------------------


def dots(h: list[str], v: list[str], boxes: list[str], seed: int = 3) -> dict[str, Any]:
    return at("dots-and-boxes", {"seed": seed, "h": h, "v": v, "boxes": boxes, "result": None,
                                 "lastBotLines": []})  # fmt: skip


def line(kind: str, r: int, c: int) -> dict[str, Any]:
    return {"type": "line", "orientation": kind, "row": r, "col": c}


EMPTY_H, EMPTY_V, OPEN = ["0000"] * 5, ["00000"] * 4, ["...."] * 4


def test_dots_opens_with_forty_edges_horizontal_first():
    answer = game("dots-and-boxes").init(7)
    legal = answer["legalActions"]
    assert len(legal) == 40 and legal[0] == line("h", 0, 0) and legal[19] == line("h", 4, 3)
    assert legal[20] == line("v", 0, 0) and legal[-1] == line("v", 3, 4)
    assert answer["score"] == 0 and answer["observation"]["phase"] == "your-turn"


def test_dots_refuses_edges_off_the_lattice_or_drawn_already():
    answer = dots(["1000", *EMPTY_H[1:]], EMPTY_V, OPEN)
    assert refusal("dots-and-boxes", answer, line("h", 0, 4)).reason == (
        "no edge h row 0 col 4: horizontal edges have row 0-4, col 0-3"
    )
    assert (
        "vertical edges have row 0-3" in refusal("dots-and-boxes", answer, line("v", 4, 0)).reason
    )
    assert refusal("dots-and-boxes", answer, line("h", 0, 0)).reason == (
        "edge h row 0 col 0 is drawn already")  # fmt: skip


def test_completing_a_box_keeps_the_turn():
    # box (0,0) has its top, bottom and left sides
    answer = dots(["1000", "1000", "0000", "0000", "0000"], ["10000", *EMPTY_V[1:]], OPEN)
    after = step("dots-and-boxes", answer, line("v", 0, 1))
    assert after["state"]["boxes"][0] == "X..." and after["state"]["lastBotLines"] == []
    assert after["state"]["v"] == ["11000", *EMPTY_V[1:]] and after["state"]["h"][2:] == [
        "0000"] * 3  # G-Bot drew nothing  # fmt: skip
    assert (after["score"], after["gameOver"], after["observation"]["yourBoxes"]) == (1, False, 1)


def test_g_bot_takes_every_box_it_can_then_passes_with_one_more_edge():
    # boxes (0,0) and (0,1) are a chain: (0,0) has three sides, (0,1) two
    answer = dots(["1100", "1100", "0000", "0000", "0000"], ["10000", *EMPTY_V[1:]], OPEN)
    after = step("dots-and-boxes", answer, line("h", 4, 3))  # a quiet edge far away
    bot = after["state"]["lastBotLines"]
    assert bot[:2] == [line("v", 0, 1), line("v", 0, 2)] and len(bot) == 3
    assert after["state"]["boxes"][0] == "OO.." and after["observation"]["botBoxes"] == 2
    assert after["score"] == 0 and after["gameOver"] is False


@pytest.mark.parametrize(("mine", "score", "result"), [(8, 102, "win"), (7, 50, "draw"),
                                                      (6, 7, "loss")])  # fmt: skip
def test_the_last_box_settles_the_score_as_the_page_says(mine, score, result):
    # every edge is drawn but the top of box (0,0); it goes to whoever draws it: you
    taken = "X" * mine + "O" * (15 - mine)
    boxes = ["." + taken[:3], taken[3:7], taken[7:11], taken[11:15]]
    answer = dots(["0111", *["1111"] * 4], ["11111"] * 4, boxes)
    assert answer["legalActions"] == [line("h", 0, 0)] and answer["score"] == mine
    end = step("dots-and-boxes", answer, line("h", 0, 0))
    assert (end["state"]["result"], end["score"], end["gameOver"]) == (result, score, True)


def test_dots_refuses_a_state_whose_boxes_and_sides_disagree():
    with pytest.raises(BadRequest, match="box 0"):
        dots(EMPTY_H, EMPTY_V, ["X...", "....", "....", "...."])
    with pytest.raises(BadRequest, match="result"):
        at("dots-and-boxes", {"seed": 1, "h": EMPTY_H, "v": EMPTY_V, "boxes": OPEN,
                              "result": "win", "lastBotLines": []})  # fmt: skip
