"""The crate-push and pipe-connect example models: hand-computed steps (a push, an undo, a
reset, the next level; a quarter turn), their estimates, and certify against the platform
test server (0 divergences; a broken copy flagged at its first divergence)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sunbot.certify.check import certify
from sunbot.forward.load import load_model
from sunbot.testing.platform import create_platform_app
from tests.conftest import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
CRATE = ROOT / "examples/forward_models/crate_push.py"
PIPE = ROOT / "examples/forward_models/pipe_connect.py"


def _model(path: Path, cls: str, game: str) -> Any:
    return load_model(f"{path}:{cls}", game, certificates=False).build(random.Random(0))


@pytest.fixture(scope="module")
def platform() -> Iterator[str]:
    with LoopbackServer(create_platform_app()) as srv:
        yield srv.url


def _opening(board: list[str]) -> dict[str, Any]:
    """An opening observation of a crate-push board, built by hand."""
    player = next((r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "P+")
    return {
        "level": 0,
        "player": {"row": player[0], "col": player[1]},
        "crates": [
            {"row": r, "col": c}
            for r, row in enumerate(board)
            for c, ch in enumerate(row)
            if ch in "C*"
        ],
        "history": "",
        "levelMoves": 0,
        "moves": 0,
        "solved": 0,
        "board": board,
    }


RIGHT = {"type": "move", "dir": "right"}
LEVEL_1 = ["#######", "#.....#", "#.C.C.#", "#.T.T.#", "#..P..#", "#######"]


def test_crate_push_a_push_covers_the_target_and_the_next_level_loads() -> None:
    m = _model(CRATE, "CratePush", "crate-push")
    s = m.from_observation(_opening(["#######", "#P.C.T#", "#######"]))
    assert m.legal_actions(s) == [RIGHT]
    s = m.step(m.step(s, RIGHT), RIGHT)  # a walk, then a push
    obs = m.observation(s)
    assert (obs["board"][1], obs["history"], obs["moves"]) == ("#..PCT#", "rR", 2)
    assert m.legal_actions(s) == [
        {"type": "move", "dir": "left"}, RIGHT, {"type": "undo"}, {"type": "reset"}
    ]  # fmt: skip
    after = m.observation(m.step(s, RIGHT))  # the crate onto the target: level 1 opens
    assert after["board"] == LEVEL_1
    assert (after["level"], after["solved"], after["moves"], after["levelMoves"]) == (1, 1, 3, 0)
    assert (after["player"], after["history"], after["phase"]) == (
        {"row": 4, "col": 3},
        "",
        "playing",
    )
    assert m.legal_actions(m.step(s, RIGHT)) == [
        {"type": "move", "dir": d} for d in ("up", "left", "right")
    ]


def test_crate_push_undo_and_reset_count_their_moves_off() -> None:
    m = _model(CRATE, "CratePush", "crate-push")
    s = m.from_observation({**_opening(LEVEL_1), "level": 1, "moves": 3, "solved": 1})
    for d in ("left", "up", "up"):  # the last one pushes the crate at (2,2) to (1,2)
        s = m.step(s, {"type": "move", "dir": d})
    obs = m.observation(s)
    assert obs["history"] == "luU" and obs["moves"] == 6 and obs["levelMoves"] == 3
    assert obs["board"][1:4] == ["#.C...#", "#.P.C.#", "#.T.T.#"]
    back = m.observation(m.step(s, {"type": "undo"}))
    assert back["board"][2:4] == ["#.C.C.#", "#.+.T.#"]
    assert (back["history"], back["moves"], back["levelMoves"]) == ("lu", 5, 2)
    reset = m.observation(m.step(s, {"type": "reset"}))
    assert (reset["board"], reset["moves"], reset["levelMoves"]) == (LEVEL_1, 3, 0)


def test_crate_push_estimate_matches_crates_to_targets_and_sees_dead_ends() -> None:
    m = _model(CRATE, "CratePush", "crate-push")
    mod = sys.modules[type(m).__module__]
    # two crates one push from a target each (each push counted twice), and a walk of 3
    # cells to the nearest crate, less the one it stops short of
    assert mod.level_estimate(mod.layout_of(LEVEL_1), (4, 3), ((2, 2), (2, 4))) == 6.0
    s = m.from_observation({**_opening(LEVEL_1), "level": 1, "moves": 3, "solved": 1})
    for d in ("left", "up", "up"):  # pushes the crate at (2,2) against the top wall
        s = m.step(s, {"type": "move", "dir": d})
    assert m.estimate(s) >= mod.STUCK  # no push brings it back down to a target
    square = ["######", "#TTTT#", "#.CC.#", "#.CC.#", "#P...#", "######"]
    lay = mod.layout_of(square)
    assert not lay.dead & {(2, 2), (2, 3), (3, 2), (3, 3)}  # each alone could reach a target
    assert mod.level_estimate(lay, (4, 1), ((2, 2), (2, 3), (3, 2), (3, 3))) == mod.STUCK


def test_crate_push_a_board_it_does_not_know_ends_in_an_unknown_level() -> None:
    m = _model(CRATE, "CratePush", "crate-push")
    s = m.step(m.from_observation(_opening(["######", "#PCT.#", "######"])), RIGHT)
    assert m.observation(s) == {
        "level": 1, "history": "", "levelMoves": 0, "moves": 1, "solved": 1, "phase": "playing"
    }  # fmt: skip
    assert (m.legal_actions(s), m.is_over(s)) == ([], False)


def test_pipe_connect_a_quarter_turn_and_the_turns_a_chain_needs() -> None:
    m = _model(PIPE, "PipeConnect", "pipe-connect")
    mod = sys.modules[type(m).__module__]
    assert [mod.turn(x) for x in (1, 3, 9, 10, 7)] == [2, 6, 3, 5, 14]
    # crosses everywhere but row 1, all straights east-west: the chain must go down
    # through (1,1), a straight turned once
    grid = [[10 if r == 1 else 15 for _ in range(6)] for r in range(6)]
    grid[0][1], grid[5][4] = 4, 1
    s = m.from_observation({"grid": grid, "rotations": 7})
    assert mod.turns_needed(s[0]) == 1.0
    assert m.estimate(s) == pytest.approx(7 + 1.01 * 1)  # a hair over a turn: the tie-break
    assert (m.is_over(s), len(m.legal_actions(s))) == (False, 34)
    obs = m.observation(s)
    assert obs["rows"][1] == "──────" and obs["connected"] == [{"row": 0, "col": 1}]
    after = m.step(s, {"type": "rotate", "row": 1, "col": 1})
    obs = m.observation(after)
    assert obs["grid"][1][:3] == [10, 5, 10] and obs["rows"][1][1] == "│"
    assert (obs["rotations"], obs["phase"], m.is_over(after)) == (8, "solved", True)
    assert {"row": 5, "col": 4} in obs["connected"] and m.legal_actions(after) == []
    with pytest.raises(ValueError):
        m.step(s, {"type": "rotate", "row": 0, "col": 1})  # the source is fixed


@pytest.mark.parametrize(
    ("game", "path", "cls"),
    [("crate-push", CRATE, "CratePush"), ("pipe-connect", PIPE, "PipeConnect")],
)
def test_the_models_pass_certify_on_the_platform_test_server(
    game: str, path: Path, cls: str, platform: str
) -> None:
    report = certify(game, f"{path}:{cls}", server=platform, seeds=[1, 2], max_steps=12)
    assert report.passed, [str(f) for f in report.first[:3]]
    assert (report.trajectories, report.divergences, report.errors) == (4, 0, [])
    assert report.predictions == report.steps + 4 and report.steps > 20


@pytest.mark.parametrize(
    ("game", "path", "cls", "right", "wrong", "field"),
    [
        # levelMoves counted twice: the first step's answer says 1, the model 2
        ("crate-push", CRATE, "CratePush", '"levelMoves": s["levelMoves"] + 1,',
         '"levelMoves": s["levelMoves"] + 2,', "observation.levelMoves"),
        # turned anticlockwise: the first turn of (0,0) shows another pipe
        ("pipe-connect", PIPE, "PipeConnect", "((mask << 1) | (mask >> 3)) & 15",
         "((mask >> 1) | (mask << 3)) & 15", "observation.grid[0][0]"),
    ],
)  # fmt: skip
def test_a_broken_copy_is_flagged_at_its_first_divergence(
    game: str, path: Path, cls: str, right: str, wrong: str, field: str, platform: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    text = path.read_text()
    assert text.count(right) == 1
    broken = tmp_path / f"broken_{path.name}"
    broken.write_text(text.replace(right, wrong))
    bad = certify(game, f"{broken}:{cls}", server=platform, seeds=[1], policies=["first"],
                  max_steps=3)  # fmt: skip
    assert not bad.passed
    first = bad.first[0]
    assert (first.seed, first.divergence.step, first.divergence.path) == (1, 1, field)


@pytest.mark.parametrize(
    ("game", "path", "cls", "steps"),
    [("crate-push", CRATE, "CratePush", 80), ("pipe-connect", PIPE, "PipeConnect", 9)],
)
def test_search_through_the_model_solves_seed_1_and_certify_follows_it(
    game: str, path: Path, cls: str, steps: int, platform: str
) -> None:
    """Certify with ``search`` as the policy: the model plans the run (crate-push's five
    levels in the fewest moves, 3 + 9 + 17 + 21 + 30; every level's load predicted) and
    predicts each answer."""
    report = certify(game, f"{path}:{cls}", server=platform, seeds=[1], policies=["search"],
                     max_steps=200)  # fmt: skip
    assert report.passed, [str(f) for f in report.first[:3]]
    assert (report.steps, report.divergences, report.errors) == (steps, 0, [])


def test_pipe_connect_estimate_counts_a_cell_once() -> None:
    """The platform test server's seed-10 board: the cheapest route that may pass a cell
    twice takes 8 turns, down the straight at (2,1) and back through it from the west
    (which would need it turned both ways); the cheapest simple chain takes 13, the
    score search makes on that seed."""
    m = _model(PIPE, "PipeConnect", "pipe-connect")
    mod = sys.modules[type(m).__module__]
    grid = ((11, 4, 9, 5, 1, 8), (10, 10, 8, 14, 9, 6), (9, 5, 13, 7, 13, 4),
            (9, 9, 12, 5, 12, 10), (3, 9, 10, 8, 5, 10), (9, 9, 12, 7, 1, 7))  # fmt: skip
    assert mod._to_drain(grid)[mod.START] == 8
    assert mod.turns_needed(grid) == 13.0


def test_search_takes_back_a_stuck_crate_and_solves() -> None:
    """Level 2 (the third; 17 moves from its opening) after 12 moves, its crate at (3,5)
    pushed up twice against the top wall, where no target is: search through the model
    resets once (free: the server counts the level's moves off) and ends the run in
    12 + 17 + 21 + 30 moves, the fewest there are, never taking a move back again."""
    from sunbot.strategies.search import Search
    from sunbot.testing.platform.crate_push import CratePush as Served

    game = Served("test")
    s = game._load(2, 12, 2)
    for d in ("right", "right", "right", "up", "up"):
        s = game.apply(s, {"type": "move", "dir": d})
    assert s["history"] == "rrrUU" and s["crates"][0] == {"row": 1, "col": 5}
    bot = Search(random.Random(1), engine=f"{CRATE}:CratePush")
    bot.on_start("crate-push", 1, spec=game.spec)
    played = []
    while not game.over(s) and len(played) < 200:
        obs, legal = game.observe(s), game.legal(s)
        bot.on_answer({"observation": obs, "legalActions": legal, "score": game.score(s),
                       "gameOver": False})  # fmt: skip
        action = bot.choose(obs, legal)
        played.append(action["type"])
        s = game.apply(s, action)
    assert game.over(s) and game.score(s) == 12 + 17 + 21 + 30
    assert played == ["reset"] + ["move"] * (17 + 21 + 30)  # one reset, then moves only
