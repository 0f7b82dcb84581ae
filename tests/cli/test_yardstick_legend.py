"""Item 1 of the newcomer's frictions: a yardstick row in ``play``'s summary, a legend under
each game's live view, and a live view that says "capped" when the cap ended the run."""

from __future__ import annotations

from rich.console import Console
from typer.testing import CliRunner

from sunbot import views
from sunbot.bench.reference import REFERENCES, nearest, short_number, yardstick
from sunbot.cli.main import app
from sunbot.engines import keelhold, naptuft

runner = CliRunner()


def _text(renderable: object, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_short_number_keeps_three_figures() -> None:
    assert short_number(1_082_788) == "1.08 M"
    assert short_number(281_633) == "282 k"
    assert short_number(18_830) == "18.8 k"
    assert short_number(7_860) == "7,860"


def test_nearest_picks_the_closest_measured_cap() -> None:
    assert [r.strategy for r in nearest("naptuft", 10)] == ["balancer", "rotation"]
    assert {r.cap for r in nearest("keelhold", 60)} == {30}  # 30 away beats 40 away
    assert {r.cap for r in nearest("keelhold", 65)} == {30}  # a tie takes the lower cap
    assert {r.cap for r in nearest("keelhold", 90)} == {100}
    assert {r.cap for r in nearest("keelhold", None)} == {100}  # no cap: the longest runs
    assert nearest("harvest-watch", None) == []
    assert all(r.runs > 0 and r.mean > 0 for r in REFERENCES)


def test_a_yardstick_is_quoted_only_at_the_runs_own_cap() -> None:
    assert yardstick("naptuft", 10, "day") == (
        "balancer averages 18.8 k capped at day 10 over seeds 1-50; rotation 7,860"
    )
    assert yardstick("keelhold", 5, "voyage") == (
        "planner averages 14.3 k capped at voyage 5 over seeds 1-20; safe-greedy 12.6 k"
    )
    # no mean at this cap: none quoted, the caps measured and how to measure this one
    assert yardstick("naptuft", 3, "day") == (
        "no mean measured for day 3 (measured at days 2, 5, 10, 30); sunbot bench naptuft"
        " -s balancer -s rotation --cap days=3 --seeds 1-50 measures one"
    )
    assert yardstick("keelhold", None, "voyage") == (
        "no mean measured for an uncapped run (measured at voyages 3, 5, 10, 30, 100)"
    )
    assert yardstick("harvest-watch", None) is None


def test_play_summary_has_a_yardstick_row() -> None:
    result = runner.invoke(
        app, ["play", "naptuft", "--seed", "7", "--quiet", "--no-transcript", "--max-days", "10"]
    )
    assert result.exit_code == 0, result.output
    row = next(ln for ln in result.output.splitlines() if "yardstick" in ln)
    assert "balancer averages 18.8 k capped at day 10 over seeds 1-50; rotation 7,860" in row


def test_keelhold_yardstick_at_the_default_cap() -> None:
    assert yardstick("keelhold", 30, "voyage") == (
        "planner averages 1.08 M capped at voyage 30 over seeds 1-20; safe-greedy 282 k"
    )


def test_live_view_of_a_capped_run_says_capped() -> None:
    result = runner.invoke(
        app, ["play", "keelhold", "--seed", "7", "--max-voyages", "1", "--no-transcript"]
    )
    assert result.exit_code == 0, result.output
    assert "phase over (capped at voyage 1)" in result.output
    assert "phase over (ended)" not in result.output
    assert "M: multiplier (voyage + 3)" in result.output  # the legend under the last frame


def test_views_take_our_ending_words_and_draw_a_legend() -> None:
    k = keelhold.init(7)
    shown = _text(views.render("keelhold", k, ended="capped at voyage 1"))
    assert "(capped at voyage 1)" in shown
    assert "lots: shipped / quota" in shown and "chain: lots on consecutive turns" in shown
    n = naptuft.init(7)
    plain = _text(views.render("naptuft", n))
    assert "f/j/c/e: food/joy/cleanliness/energy" in plain
    assert "capped" not in plain
    over = {**n, "phase": "over", "result": "ended", "cause": "end-run"}
    assert "phase over (capped at day 10)" in _text(
        views.render("naptuft", over, "capped at day 10")
    )
    assert "phase over (ended: end-run)" in _text(views.render("naptuft", over))
