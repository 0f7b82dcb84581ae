"""A result line for games sunbot has no engine for, read from the served spec and the final
position (sunbot.generic.outcome), in the summary of ``sunbot play``; and the ending words
of the known games explained."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import sunbot
from sunbot.cli import app as cli
from sunbot.games import get_game
from sunbot.generic.outcome import outcome_line, read_result, score_order
from sunbot.testing.platform import create_platform_app
from tests.conftest import LoopbackServer

HIGHER = {"scoreOrder": "descending"}


def test_the_score_order_comes_from_the_spec_only() -> None:
    assert score_order(HIGHER) == ("higher is better", "spec.scoreOrder 'descending'")
    assert score_order({"scoreOrder": "Ascending "}) == (
        "lower is better",
        "spec.scoreOrder 'Ascending '",
    )
    # the same reader as search's objective and bench's verdict: the scoring words count
    assert score_order({"scoring": "Fewer moves is better."}) == (
        "lower is better",
        "spec.scoring 'Fewer moves is better'",
    )
    assert score_order({"scoreOrder": "sideways"}) is None
    assert score_order({"scoring": "lower is better, higher is better"}) is None  # both
    assert score_order({}) is None and score_order(None) is None


@pytest.mark.parametrize(
    ("observation", "state", "read"),
    [
        ({"won": True, "phase": "over"}, None, ("won", "won: true")),
        ({"won": False}, {"result": "win"}, ("not won", "won: false")),  # observation first
        ({"phase": "solved"}, None, ("solved", 'phase: "solved"')),
        ({"phase": "over"}, {"result": "loss"}, ("lost", 'result: "loss"')),
        ({"status": "Gave_Up"}, None, ("gave up", 'status: "Gave_Up"')),
        ({"result": "draw"}, None, ("drawn", 'result: "draw"')),
        ({"phase": "over", "result": None, "won": 1}, "token", None),  # 1 is no true/false
        ({"result": "bananas"}, None, None),  # a word it does not know is not guessed at
    ],
)
def test_the_outcome_is_read_from_known_field_names_and_words(observation, state, read) -> None:
    assert read_result(observation, state) == read


def test_the_line_says_the_outcome_and_which_way_the_score_goes() -> None:
    assert outcome_line(HIGHER, {"won": True}, None, 2048, True) == (
        "won (the final position's won: true); score 2,048, higher is better"
        " (spec.scoreOrder 'descending')"
    )
    assert outcome_line({}, {"phase": "over"}, {"result": "loss"}, 0, True) == (
        'lost (the final position\'s result: "loss"); score 0 (the served spec does not say'
        " whether higher or lower is better)"
    )
    assert outcome_line({"scoreOrder": "ascending"}, {}, None, 31, False) == (
        "not over (the run was stopped first); score 31, lower is better"
        " (spec.scoreOrder 'ascending')"
    )
    assert outcome_line(HIGHER, {"phase": "over"}, None, 7.5, True).startswith("over; score 7.50")


def test_play_shows_the_result_and_a_yardstick_row_for_a_game_it_does_not_know() -> None:
    app = create_platform_app(checkers_depth=1)
    with LoopbackServer(app) as server:
        args = ["play", "dots-and-boxes", "--server", server.url, "--seed", "3", "--strategy",
                "first", "--no-transcript"]  # fmt: skip
        table = CliRunner().invoke(cli, [*args, "--quiet"])
        run = sunbot.play("dots-and-boxes", server=server.url, seed=3, strategy="first")
    assert table.exit_code == 0, table.output
    assert run.final_state is not None and run.outcome is not None
    # the final position's result, read by the generic code (no word of dots-and-boxes in it)
    said = {"win": "won", "loss": "lost", "draw": "drawn"}[run.final_state["result"]]
    assert run.outcome.startswith(f"{said} (the final position's result:")
    row = next(line for line in table.output.splitlines() if "result" in line)
    assert f"{said} (the final position's result:" in row
    assert "higher is better (spec.scoreOrder 'descending')" in row
    assert "none measured for dots-and-boxes" in table.output


def test_the_known_games_ending_words_are_explained() -> None:
    assert get_game("keelhold").explain("lurch") == (
        "she was listing and no hatch for the crate in hand would right her"
    )
    assert get_game("naptuft").explain("zero:food,joy") == "food and joy fell to 0"
    assert get_game("sunloaf").explain("missedQuota") == (
        "a day ended with less raw cosy than its quota"
    )
    assert get_game("keelhold").explain("nonsense") is None
    assert get_game("harvest-watch").explain("win") is None  # its winner row says why


def test_play_explains_a_cause_in_the_summary() -> None:
    res = CliRunner().invoke(cli, ["play", "keelhold", "--seed", "7", "--strategy", "random",
                                   "--max-voyages", "5", "--quiet", "--no-transcript"])  # fmt: skip
    assert res.exit_code == 0, res.output
    row = next(line for line in res.output.splitlines() if "│ ended " in line)
    cause = row.split("│")[2].strip().split(":")[0]
    assert row.split("│")[2].strip() == f"{cause}: {get_game('keelhold').explain(cause)}"
