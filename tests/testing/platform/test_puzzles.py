"""The seven single-player puzzles: a known opening, refusals, a solve, forged states."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from sunbot.testing.platform.crate_push import LEVELS
from sunbot.testing.platform.pipe_connect import turn
from sunbot.testing.platform.pixel_puzzle import PICTURES, picture, runs
from sunbot.testing.platform.sliding_puzzle import manhattan, solvable
from sunbot.testing.platform.sudoku import puzzle, solutions
from sunbot.testing.unseen.common import BadRequest
from tests.testing.platform.helpers import APP, at, game, refusal, step

# --- sliding-puzzle ----------------------------------------------------------------------

SOLVED = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, None]]


def test_sliding_lists_the_tiles_next_to_the_empty_square_by_value():
    answer = game("sliding-puzzle").init(7)
    assert answer["observation"]["rows"][1] == " 6 __  8 14"
    assert answer["observation"]["empty"] == {"row": 1, "col": 1}
    # above 9, below 15, left 6, right 8
    assert [a["tile"] for a in answer["legalActions"]] == [6, 8, 9, 15]
    assert refusal("sliding-puzzle", answer, {"type": "slide", "tile": 7}).reason == (
        "tile 7 does not touch the empty square (row 1, col 1); tiles that can slide: "
        "6, 8, 9, 15")  # fmt: skip
    back = step("sliding-puzzle", step("sliding-puzzle", answer, {"type": "slide", "tile": 8}),
                {"type": "slide", "tile": 8})  # fmt: skip
    assert back["state"]["board"] == answer["state"]["board"] and back["score"] == 2


def test_the_last_slide_wins_and_the_score_is_the_slides():
    near = [row[:] for row in SOLVED]
    near[3][2], near[3][3] = None, 15
    answer = at("sliding-puzzle", {"board": near, "moves": 41})
    assert answer["observation"]["manhattan"] == 1 and answer["observation"]["tilesInPlace"] == 14
    won = step("sliding-puzzle", answer, {"type": "slide", "tile": 15})
    assert (won["score"], won["gameOver"], won["observation"]["phase"]) == (42, True, "solved")
    assert won["observation"]["slides"] == 42 and won["observation"]["tilesInPlace"] == 15


def test_sliding_refuses_a_board_that_cannot_be_solved():
    flat = [v for row in SOLVED for v in row]
    assert solvable(flat) and manhattan(flat) == 0
    swapped = [row[:] for row in SOLVED]
    swapped[3][0], swapped[3][1] = 14, 13  # one swap: the other half of the arrangements
    assert not solvable([v for row in swapped for v in row])
    with pytest.raises(BadRequest, match="cannot be solved"):
        at("sliding-puzzle", {"board": swapped, "moves": 0})
    with pytest.raises(BadRequest, match="once each"):
        at("sliding-puzzle", {"board": [[1] * 4] * 4, "moves": 0})


# --- sudoku ------------------------------------------------------------------------------


def test_a_sudoku_has_36_clues_and_one_solution():
    answer = game("sudoku").init(7)
    assert answer["observation"]["rows"][0] == "7.5..4..1"
    assert answer["observation"]["emptyCells"] == 45
    flat = [v for row in answer["state"]["grid"] for v in row]
    assert len(solutions(flat, 2)) == 1 and tuple(flat) == puzzle("platform-1", 7)
    # (0,1) is empty; its row holds 7 5 4 1, its column 6 2, its box 7 5 2
    assert [a["value"] for a in answer["legalActions"] if (a["row"], a["col"]) == (0, 1)] == [
        3, 8, 9]  # fmt: skip


def test_sudoku_refusals_name_the_clash():
    answer = game("sudoku").init(7)
    place = {"type": "place", "row": 0, "col": 1}
    assert refusal("sudoku", answer, {**place, "value": 5}).reason == (
        "5 is already in row 0; (0,1) can take: 3, 8, 9")  # fmt: skip
    assert refusal("sudoku", answer, {**place, "value": 6}).reason.startswith(
        "6 is already in column 1")  # fmt: skip
    assert refusal("sudoku", answer, {"type": "erase", "row": 0, "col": 0}).reason == (
        "(0,0) is a clue (7) and cannot change")  # fmt: skip
    after = step("sudoku", answer, {**place, "value": 3})
    assert refusal("sudoku", after, {**place, "value": 8}).reason == (
        "(0,1) holds 3 already: erase it first")  # fmt: skip
    erased = step("sudoku", after, {"type": "erase", "row": 0, "col": 1})
    assert erased["state"]["grid"] == answer["state"]["grid"] and erased["score"] == 2


def test_the_last_digit_solves_the_sudoku():
    answer = game("sudoku").init(7)
    solution = solutions([v for row in answer["state"]["grid"] for v in row], 1)[0]
    grid = [solution[r * 9 : r * 9 + 9] for r in range(9)]
    grid[0][1] = 0  # not a clue
    near = at("sudoku", {**answer["state"], "grid": grid, "moves": 44})
    assert near["legalActions"][0] == {"type": "place", "row": 0, "col": 1, "value": solution[1]}
    assert near["legalActions"][1]["type"] == "erase" and len(near["legalActions"]) == 1 + 44
    done = step("sudoku", near, near["legalActions"][0])
    assert (done["score"], done["gameOver"], done["observation"]["phase"]) == (45, True, "solved")
    clash = [row[:] for row in grid]
    clash[0][1] = clash[0][0]
    with pytest.raises(BadRequest, match="clashes"):
        at("sudoku", {**answer["state"], "grid": clash})


# --- crate-push --------------------------------------------------------------------------

#: The shortest solutions of the five levels (a breadth-first search found them).
SOLUTIONS = ["rrr", "uuuldurrd", "uurrrdulluldddrrr", "uurruulldulddrddlurul",
             "uluuulddrrdrurruullddrdluuurdd"]  # fmt: skip
DIRS = {"u": "up", "d": "down", "l": "left", "r": "right"}


def push(answer: dict[str, Any], moves: str) -> dict[str, Any]:
    for letter in moves:
        answer = step("crate-push", answer, {"type": "move", "dir": DIRS[letter]})
    return answer


def test_crate_push_level_one_in_three_pushes_loads_level_two():
    answer = game("crate-push").init(7)
    assert answer["observation"]["board"] == list(LEVELS[0])
    assert answer["legalActions"] == [{"type": "move", "dir": "right"}]  # walls all round
    refused = refusal("crate-push", answer, {"type": "move", "dir": "left"})
    assert refused.reason.startswith("you cannot move left") and refused.legal == answer[
        "legalActions"]  # fmt: skip
    two = push(answer, "rr")
    assert two["observation"]["board"][1] == "#..PCT#" and two["state"]["history"] == "rR"
    nxt = push(two, "r")
    assert nxt["state"]["level"] == 1 and nxt["state"]["solved"] == 1
    assert (nxt["score"], nxt["state"]["levelMoves"], nxt["state"]["history"]) == (3, 0, "")


def test_undo_and_reset_count_their_moves_off():
    level = push(game("crate-push").init(1), "rrr")
    moved = push(level, "uuul")
    assert moved["score"] == 7 and moved["legalActions"][-2:] == [{"type": "undo"},
                                                                  {"type": "reset"}]  # fmt: skip
    undone = step("crate-push", moved, {"type": "undo"})
    assert undone["score"] == 6 and undone["state"]["history"] == "uuu"
    reset = step("crate-push", undone, {"type": "reset"})
    assert reset["state"] == level["state"] and reset["score"] == 3
    assert refusal("crate-push", reset, {"type": "undo"}).reason == "nothing to undo on this level"


def test_the_five_levels_solve_in_80_moves():
    answer = game("crate-push").init(9)
    for solution in SOLUTIONS:
        answer = push(answer, solution)
    assert (answer["score"], answer["gameOver"], answer["observation"]["phase"]) == (
        80, True, "complete")  # fmt: skip
    assert answer["state"]["solved"] == 5 and answer["legalActions"] == []


def test_crate_push_refuses_a_history_that_does_not_lead_back():
    state = push(game("crate-push").init(1), "rr")["state"]
    with pytest.raises(BadRequest, match="history"):
        at("crate-push", {**state, "history": "lR"})
    with pytest.raises(BadRequest, match="wall"):
        at("crate-push", {**state, "player": {"row": 0, "col": 0}})


# --- maze-runner -------------------------------------------------------------------------


def shortest(maze: list[list[dict[str, bool]]]) -> list[str]:
    steps = {"up": (-1, 0, "top"), "down": (1, 0, "bottom"), "left": (0, -1, "left"),
             "right": (0, 1, "right")}  # fmt: skip
    came: dict[tuple[int, int], Any] = {(0, 0): None}
    todo = deque([(0, 0)])
    while todo:
        r, c = todo.popleft()
        for name, (dr, dc, wall) in steps.items():
            if not maze[r][c][wall] and (r + dr, c + dc) not in came:
                came[(r + dr, c + dc)] = ((r, c), name)
                todo.append((r + dr, c + dc))
    path, at_ = [], (14, 14)
    while came[at_] is not None:
        at_, name = came[at_]
        path.append(name)
    return path[::-1]


def test_the_maze_is_perfect_and_its_shortest_path_wins_with_that_score():
    answer = game("maze-runner").init(7)
    maze = answer["observation"]["maze"]
    passages = sum(not cell["right"] for row in maze for cell in row) + sum(
        not cell["bottom"] for row in maze for cell in row)  # fmt: skip
    assert passages == 15 * 15 - 1  # a tree: one path between any two cells
    assert answer["legalActions"] == [{"type": "move", "direction": "down"}]
    assert refusal("maze-runner", answer, {"type": "move", "direction": "up"}).reason == (
        "moving up from (0,0) leaves the maze")  # fmt: skip
    assert refusal("maze-runner", answer, {"type": "move", "direction": "right"}).reason == (
        "a wall blocks right at (0,0); open ways: down")  # fmt: skip
    path = shortest(maze)
    for direction in path:
        assert not answer["gameOver"]
        answer = step("maze-runner", answer, {"type": "move", "direction": direction})
    assert (answer["score"], answer["gameOver"], answer["observation"]["won"]) == (
        len(path), True, True)  # fmt: skip


def test_the_maze_refuses_walls_that_disagree():
    state = game("maze-runner").init(2)["state"]
    state["maze"][3][3]["right"] = not state["maze"][3][3]["right"]
    with pytest.raises(BadRequest, match="disagree"):
        at("maze-runner", state)


# --- pipe-connect ------------------------------------------------------------------------


def test_a_quarter_turn_moves_each_opening_clockwise():
    assert [turn(1), turn(2), turn(4), turn(8)] == [2, 4, 8, 1]
    assert turn(5) == 10 and turn(6) == 12 and turn(7, 4) == 7 and turn(3, 3) == 9


def test_one_turn_joins_the_source_to_the_drain():
    grid = [[1] * 6 for _ in range(6)]
    grid[0][1], grid[5][4] = 4, 1  # the source opens south, the drain north
    for r in (1, 2, 3):
        grid[r][1] = 5  # north-south
    grid[4][1], grid[4][2], grid[4][3] = 3, 10, 10  # north-east, then east-west
    grid[4][4] = 6  # east-south: one turn short of south-west
    answer = at("pipe-connect", {"grid": grid, "rotations": 9})
    assert len(answer["observation"]["connected"]) == 7 and answer["gameOver"] is False
    assert len(answer["legalActions"]) == 34 and {"type": "rotate", "row": 0, "col": 1} not in (
        answer["legalActions"])  # fmt: skip
    assert refusal("pipe-connect", answer, {"type": "rotate", "row": 5, "col": 4}).reason == (
        "(5,4) is the drain, which is fixed: turn another tile")  # fmt: skip
    solved = step("pipe-connect", answer, {"type": "rotate", "row": 4, "col": 4})
    assert solved["state"]["grid"][4][4] == 12 and solved["observation"]["phase"] == "solved"
    assert (solved["score"], solved["gameOver"]) == (10, True)
    assert answer["observation"]["rows"][4] == "╵└──┌╵" and answer["observation"]["rows"][
        0] == "╵╷╵╵╵╵"  # fmt: skip


def test_a_new_pipe_board_is_unsolved_and_keeps_source_and_drain():
    for seed in range(6):
        answer = game("pipe-connect").init(seed)
        grid = answer["state"]["grid"]
        assert grid[0][1] == 4 and grid[5][4] == 1 and answer["gameOver"] is False
    with pytest.raises(BadRequest, match="source"):
        at("pipe-connect", {"grid": [[2] * 6] * 6, "rotations": 0})


# --- pixel-puzzle ------------------------------------------------------------------------


def test_the_heart_shows_its_clues_and_the_run_solves_in_its_filled_cells():
    answer = game("pixel-puzzle").init(7)
    obs = answer["observation"]
    assert (obs["name"], obs["size"], obs["board"]) == ("Heart", 5, ["....."] * 5)
    assert obs["rowClues"] == [[1, 1], [5], [5], [3], [1]]
    assert obs["colClues"] == [[2], [4], [4], [4], [2]]
    assert runs("..#.##.") == [1, 2] and runs(".....") == [0]
    assert len(answer["legalActions"]) == 50
    assert refusal("pixel-puzzle", answer, {"type": "fill", "row": 7, "col": 0}).reason == (
        "(7,0) is off this 5x5 puzzle: rows and columns run 0 to 4")  # fmt: skip
    total = 0
    for index, (name, _) in enumerate(PICTURES):
        assert answer["observation"]["name"] == name and answer["state"]["solved"] == index
        cells = [(r, c) for r, row in enumerate(picture(index)) for c, ch in enumerate(row)
                 if ch == "#"]  # fmt: skip
        answer = step("pixel-puzzle", answer, {"type": "mark", "row": cells[0][0],
                                               "col": cells[0][1]})  # fmt: skip
        for r, c in cells:  # a fill replaces the mark
            answer = step("pixel-puzzle", answer, {"type": "fill", "row": r, "col": c})
        total += len(cells) + 1
    assert (answer["score"], answer["gameOver"], answer["observation"]["phase"]) == (
        total, True, "complete")  # fmt: skip
    assert answer["state"]["board"] == picture(4)
    assert total == 16 + 9 + 26 + 36 + 52 + 5  # the filled cells of each picture, a mark each


def test_marks_never_solve_and_an_extra_fill_blocks_the_solve():
    answer = game("pixel-puzzle").init(1)
    cells = [(r, c) for r, row in enumerate(picture(0)) for c, ch in enumerate(row) if ch == "#"]
    for r, c in cells[:-1]:
        answer = step("pixel-puzzle", answer, {"type": "fill", "row": r, "col": c})
    marked = step(
        "pixel-puzzle", answer, {"type": "mark", "row": cells[-1][0], "col": cells[-1][1]}
    )
    assert marked["observation"]["name"] == "Heart"  # a mark is no fill
    extra = step("pixel-puzzle", answer, {"type": "fill", "row": 0, "col": 0})
    done = step("pixel-puzzle", extra, {"type": "fill", "row": cells[-1][0], "col": cells[-1][1]})
    assert done["observation"]["name"] == "Heart"  # (0,0) is not in the heart
    cleared = step("pixel-puzzle", done, {"type": "fill", "row": 0, "col": 0})
    assert cleared["observation"]["name"] == "Plus" and cleared["state"]["solved"] == 1


# --- word-search -------------------------------------------------------------------------


def test_word_search_lists_both_ends_of_each_word_and_finds_all_eight():
    answer = game("word-search").init(7)
    assert answer["state"]["words"] == ["DUNE", "TUNDRA", "GROVE", "FJORD", "RIDGE",
                                        "ORCHARD", "SHORE", "DESERT"]  # fmt: skip
    dune = {"type": "select", "fromRow": 1, "fromCol": 7, "toRow": 4, "toCol": 4}
    back = {"type": "select", "fromRow": 4, "fromCol": 4, "toRow": 1, "toCol": 7}
    assert answer["legalActions"][:2] == [dune, back] and len(answer["legalActions"]) == 16
    assert "".join(answer["state"]["grid"][1 + k][7 - k] for k in range(4)) == "DUNE"
    assert refusal("word-search", answer, {"type": "select", "fromRow": 0, "fromCol": 0,
                                           "toRow": 1, "toCol": 2}).reason == (
        "the cells are not on one line across, down or at 45 degrees")  # fmt: skip
    assert refusal("word-search", answer, {"type": "select", "fromRow": 0, "fromCol": 0,
                                           "toRow": 0, "toCol": 2}).reason == (
        "NTQ (or QTN) is none of the words still to find; nothing changed")  # fmt: skip
    found = step("word-search", answer, back)  # backwards finds it too
    assert found["state"]["found"] == [{"word": "DUNE", "fromRow": 4, "fromCol": 4, "toRow": 1,
                                        "toCol": 7}]  # fmt: skip
    assert dune not in found["legalActions"] and found["score"] == 1
    assert refusal("word-search", found, dune).reason.startswith("DUNE (or ENUD) is none")
    while not found["gameOver"]:
        found = step("word-search", found, found["legalActions"][0])
    assert (found["score"], found["observation"]["phase"], found["legalActions"]) == (
        8, "complete", [])  # fmt: skip


def test_word_search_refuses_a_claim_the_grid_does_not_read():
    state = game("word-search").init(7)["state"]
    claim = {"word": "DUNE", "fromRow": 0, "fromCol": 0, "toRow": 0, "toCol": 3}
    with pytest.raises(BadRequest, match="does not read"):
        at("word-search", {**state, "found": [claim]})


def test_the_salt_of_the_rule_tests_app_is_the_default():
    assert APP.state.games["sudoku"].salt == "platform-1"
