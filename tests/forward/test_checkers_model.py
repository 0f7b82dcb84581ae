"""The example checkers model (``examples/forward_models/checkers.py``): hand-computed
steps (a compulsory jump, a chain, a crowning, the draw, a loss), certify against the
platform test server's checkers with 0 divergences, and a copy whose G-Bot breaks ties the
other way flagged at its first divergence."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from sunbot.certify.check import certify
from sunbot.testing.platform import create_platform_app
from tests.conftest import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples/forward_models/checkers.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("checkers_model", MODEL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ck = _module()


def _state(rows: list[str], quiet: int = 0) -> Any:
    # pieces stand on the dark squares only (row + column odd)
    assert all(p == "." or (r + c) % 2 for r, row in enumerate(rows) for c, p in enumerate(row))
    return ck.Checkers().from_observation(
        {"board": rows, "sinceCapture": quiet, "moves": 0, "result": None, "lastBotMove": None}
    )


def _move(r: int, c: int, r2: int, c2: int) -> dict[str, Any]:
    return {"type": "move", "from": {"row": r, "col": c}, "to": {"row": r2, "col": c2}}


EMPTY = "." * 8


def _board(**pieces: str) -> list[str]:
    """Rows from ``rROW="........"`` keywords, the others empty."""
    return [pieces.get(f"r{r}", EMPTY) for r in range(8)]


def test_a_jump_is_compulsory_and_taking_the_last_piece_wins() -> None:
    # red man (5,2) may step to (4,1) or jump black's only man on (4,3) to (3,4)
    s = _state(_board(r4="...b....", r5="..r....."))
    model = ck.Checkers()
    assert model.legal_actions(s) == [_move(5, 2, 3, 4)]
    after = model.step(s, _move(5, 2, 3, 4))
    obs = model.observation(after)
    assert obs["board"] == _board(r3="....r...")
    assert (obs["result"], obs["sinceCapture"], obs["moves"]) == ("win", 0, 1)
    assert (model.score(after), model.is_over(after), model.legal_actions(after)) == (101, True, [])
    with pytest.raises(ValueError):
        model.step(s, _move(5, 2, 4, 1))


def test_a_chain_of_two_jumps_is_one_move() -> None:
    # (6,1) jumps (5,2) to (4,3), then (3,4) to (2,5); the chain's last landing is `to`;
    # a second red man keeps the win at 100 plus two
    s = _state(_board(r3="....b...", r5="..b.....", r6=".r.....r"))
    model = ck.Checkers()
    assert model.legal_actions(s) == [_move(6, 1, 2, 5)]
    after = model.step(s, _move(6, 1, 2, 5))
    assert model.observation(after)["board"] == _board(r2=".....r..", r6=".......r")
    assert model.score(after) == 102


def test_a_man_on_the_far_row_is_crowned_and_g_bot_replies() -> None:
    # red steps (1,2) to (0,1) and is crowned; G-Bot's one man on (3,0) has one move
    s = _state(_board(r1="..r.....", r3="b......."), quiet=4)
    model = ck.Checkers()
    assert model.legal_actions(s) == [_move(1, 2, 0, 1), _move(1, 2, 0, 3)]
    obs = model.observation(model.step(s, _move(1, 2, 0, 1)))
    assert obs["board"] == _board(r0=".R......", r4=".b......")
    assert obs["lastBotMove"] == {"from": {"row": 3, "col": 0}, "to": {"row": 4, "col": 1}}
    assert (obs["sinceCapture"], obs["result"], obs["yourPieces"], obs["botPieces"]) == (
        6,
        None,
        1,
        1,
    )


def test_a_crowning_ends_a_chain() -> None:
    # (2,1) jumps (1,2) to the far row (0,3): crowned, the move ends there, though a king
    # could go on over (1,4) to (2,5)
    s = _state(_board(r1="..b.b...", r2=".r......", r7="......b."))
    model = ck.Checkers()
    assert model.legal_actions(s) == [_move(2, 1, 0, 3)]
    obs = model.observation(model.step(s, _move(2, 1, 0, 3)))
    assert obs["board"][0][3] == "R" and obs["board"][1][2] == "."
    assert (obs["yourPieces"], obs["botPieces"], obs["result"]) == (1, 2, None)


def test_eighty_quiet_half_moves_draw_and_a_lost_last_piece_loses() -> None:
    model = ck.Checkers()
    # the 80th quiet half-move is yours: a draw (25) before G-Bot replies
    s = _state(_board(r1="b.......", r6=".....r.."), quiet=79)
    drawn = model.step(s, _move(6, 5, 5, 4))
    assert (model.observation(drawn)["result"], model.score(drawn)) == ("draw", 25)
    # stepping next to G-Bot's man with an empty square behind: it takes your last piece
    s = _state(_board(r3="..b.....", r5="....r..."))
    lost = model.step(s, _move(5, 4, 4, 3))
    obs = model.observation(lost)
    assert (obs["result"], obs["yourPieces"], model.score(lost)) == ("loss", 0, 0)
    assert obs["board"] == _board(r5="....b...")


@pytest.fixture(scope="module")
def platform() -> Iterator[str]:
    with LoopbackServer(create_platform_app()) as srv:
        yield srv.url


def test_the_model_passes_certify_on_the_platform_server(platform: str) -> None:
    report = certify("checkers", f"{MODEL}:Checkers", server=platform, seeds=[1], max_steps=6)
    assert report.passed, [str(f) for f in report.first[:3]]
    assert (report.trajectories, report.divergences, report.errors) == (2, 0, [])
    assert report.predictions == report.steps + 2 and report.steps >= 10


def test_a_g_bot_breaking_ties_the_other_way_is_flagged(platform: str, tmp_path: Path) -> None:
    text = MODEL.read_text()
    assert text.count("if v > best_value:") == 1
    broken = tmp_path / "broken_checkers.py"
    broken.write_text(text.replace("if v > best_value:", "if v >= best_value:"))
    report = certify(
        "checkers", f"{broken}:Checkers", server=platform, seeds=[1], policies=["first"],
        max_steps=6,
    )  # fmt: skip
    assert not report.passed
    first = report.first[0].divergence
    # the opening is predicted right; G-Bot's first reply is the first thing that differs
    assert first.step == 1 and first.path.startswith(("observation.board", "observation.last"))


@pytest.mark.slow  # a strength benchmark: one whole game, about a minute of a loaded machine
def test_search_through_the_model_beats_g_bot(platform: str) -> None:
    import sunbot

    run = sunbot.play("checkers", seed=1, strategy="search", server=platform,
                      engine=f"{MODEL}:Checkers", max_steps=200)  # fmt: skip
    assert run.error is None, run.error
    assert (run.ended_by, run.cause, run.divergences) == ("rules", "win", [])
    assert run.score > 100
