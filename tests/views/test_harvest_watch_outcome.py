"""How a finished Harvest Watch match is told: our seats' lines and the winner line.

The winner lines are checked on engine positions whose outcome is worked out by hand in
``tests/engines/test_harvest_watch.py`` (spec §3 step 7, §9; examples E6 and its draw)."""

from __future__ import annotations

from sunbot.engines import harvest_watch as hw
from sunbot.views.harvest_watch import final_summary, seat_line, winner_line
from tests.engines.test_harvest_watch import E6_OUT, FARM, run, state_at, steal


def _told(state: dict[str, object], seat: int) -> str | None:
    v = hw.view(state, seat)
    s = final_summary({"data": v})
    return winner_line(v["result"]["ranks"], s["aliveSeats"], s["day"])


def test_last_seats_out_together_the_largest_store_ranks_first() -> None:
    # E6: seats 0, 2, 5 all go out on night 7 with stores 0.6, 2.4, 2.9 before the cost
    s = run(
        state_at("action", [6, 0, 4, 0, 0, 9], day=7, out=E6_OUT), {0: FARM, 2: FARM, 5: steal(0)}
    )
    assert (
        hw.view(s, 5)["summary"]["foods"][5] == 0.0 and hw.view(s, 5)["summary"]["aliveSeats"] == []
    )
    assert _told(s, 3) == (
        "seat 5 ranks first: every seat still in went out on night 7, "
        "and it had the most food before that night's cost"
    )


def test_equal_largest_stores_on_the_last_night_draw() -> None:
    s = run(
        state_at("action", [6, 0, 9, 0, 0, 9], day=7, out=E6_OUT), {0: FARM, 2: FARM, 5: steal(0)}
    )
    assert _told(s, 0) == (
        "seats 2 and 5 draw for first: they went out together on night 7 "
        "with equal largest stores before that night's cost"
    )


def test_the_last_seat_in_wins() -> None:
    s = state_at("action", [50, 5, 0, 0, 0, 0], day=6, out={i: (5, 3) for i in range(2, 6)})
    s = run(s, {0: steal(1), 1: FARM})
    assert _told(s, 1) == "seat 0 wins: the last seat still in after night 6"


def test_no_line_before_the_end_and_a_plain_one_for_a_finish_we_cannot_explain() -> None:
    assert winner_line(None, [0, 1], 3) is None
    # a foreign server ending with two seats in: we only say who is at rank 1
    assert winner_line([1, 1, 3, 4, 5, 6], [0, 1], 9) == "rank 1: seats 0 and 1"


def test_seat_lines() -> None:
    assert seat_line(1, 6, 0.1, True, None) == "rank 1 of 6 · food 0.1 · still in"
    assert seat_line(3, 6, 0.0, False, 5) == "rank 3 of 6 · food 0.0 · out on night 5"
    assert seat_line(4, 6, 0.0, False, None) == "rank 4 of 6 · food 0.0 · out"
    assert seat_line(None, 0, None, None, None) == "no rank (unfinished)"


def test_final_summary_tolerates_missing_or_odd_views() -> None:
    assert final_summary(None) == {} and final_summary({"data": {"summary": 3}}) == {}
    assert final_summary({"summary": {"day": 2}}) == {"day": 2}


def test_the_live_table_marks_every_seat_of_ours() -> None:
    import io

    from rich.console import Console

    from sunbot.views.harvest_watch import render

    s = state_at("action", [50, 40, 30, 20, 10, 5], day=2)
    v = {"data": {**hw.view(s, 1), "pending": [{"act": "guard"}]}}

    def text(ours: list[int]) -> list[str]:
        out = io.StringIO()
        Console(file=out, width=200, color_system=None).print(render(v, ours=ours))
        return out.getvalue().splitlines()

    three = text([1, 2, 3])
    marked = [line.split()[0] for line in three if "(you)" in line]
    assert marked == ["1", "2", "3"]
    assert "seat 1's pending command: [{'act': 'guard'}]" in three
    one = text([])  # default: the view's own seat only
    assert [line.split()[0] for line in one if "(you)" in line] == ["1"]
    assert "our pending command: [{'act': 'guard'}]" in one
