"""Comparing a model's predictions with a served answer: exact where it draws nothing, by
shape and range where it draws, never on fields it does not predict."""

from __future__ import annotations

from sunbot.forward.predict import (
    MAX_SAMPLES,
    SAMPLES,
    View,
    compare,
    enumerated,
    grade,
    served_view,
    strip_unpredicted,
)


def view(obs: dict, legal: list | None = None, score: float = 0, over: bool = False) -> View:
    return View(obs, legal if legal is not None else [{"type": "go"}], score, over)


def test_an_exact_prediction_agrees_and_lists_what_it_does_not_predict() -> None:
    served = view({"n": 2, "board": [1, 2], "tip": "be kind"})
    found, unpredicted = compare([view({"n": 2, "board": [1, 2]})], served)
    assert found == []
    assert unpredicted == ["observation.tip"]


def test_a_wrong_field_is_one_finding_with_its_path() -> None:
    found, _ = compare(
        [view({"n": 2, "board": [1, 3]}, score=4)], view({"n": 2, "board": [1, 2]}, score=5)
    )
    assert [(f.path, f.expected, f.got) for f in found] == [
        ("observation.board[1]", 3, 2),
        ("score", 4, 5),
    ]


def test_legal_actions_compare_in_any_order_and_missing_fields_are_findings() -> None:
    a, b = {"type": "a"}, {"type": "b"}
    found, _ = compare([view({"n": 1}, [a, b])], view({"n": 1}, [b, a]))
    assert found == []
    found, _ = compare([view({"n": 1, "m": 2}, [a])], view({"n": 1}, [a, b], over=True))
    assert [f.path for f in found] == ["observation.m", "legalActions", "gameOver"]


def test_drawn_fields_are_compared_by_kind_and_range() -> None:
    draws = [view({"cells": [0, 2, 0], "moves": 1}), view({"cells": [4, 0, 0], "moves": 1})]
    ok, _ = compare(draws, view({"cells": [2, 0, 0], "moves": 1}))  # not one of the draws
    assert ok == []
    found, _ = compare(draws, view({"cells": [8, "x", 0], "moves": 2}))
    assert [(f.path, f.note) for f in found] == [
        ("observation.cells[0]", "outside the drawn range"),
        ("observation.cells[1]", "a drawn field of another kind"),
        ("observation.moves", ""),
    ]


def test_a_drawn_list_is_checked_by_its_length_range() -> None:
    draws = [view({"cats": [1, 2]}), view({"cats": [1, 2, 3, 4]})]
    ok, _ = compare(draws, view({"cats": [1, 2, 3]}))  # a length between the draws'
    assert ok == []
    found, _ = compare(draws, view({"cats": [1, 2, 3, 4, 4]}))
    assert [(f.path, f.expected, f.note) for f in found] == [
        ("observation.cats", "2..4", "outside the drawn range"),
    ]


def test_a_drawn_item_ranges_over_every_item_the_draws_put_in_its_list() -> None:
    draws = [view({"tiles": [1, 5]}), view({"tiles": [2, 9]})]  # sorted draws
    ok, _ = compare(draws, view({"tiles": [3, 8]}))  # 3 is no draw's first item
    assert ok == []
    found, _ = compare(draws, view({"tiles": [0, 8]}))
    assert [(f.path, f.expected, f.got) for f in found] == [("observation.tiles[0]", "1..9", 0)]


def test_strip_leaves_out_only_keys_no_prediction_has() -> None:
    got, dropped = strip_unpredicted(
        {"a": {"x": 1, "y": 2}, "b": [{"k": 1, "z": 0}]},
        [{"a": {"x": 0}, "b": [{"k": 0}]}, {"a": {"y": 0}}],
        "observation",
    )
    assert got == {"a": {"x": 1, "y": 2}, "b": [{"k": 1}]}
    assert dropped == ["observation.b[0].z"]


def test_served_view_reads_the_envelope_as_the_client_does() -> None:
    v = served_view({"state": {"p": 1}, "legalActions": [], "score": 3, "gameOver": True})
    assert (v.observation, v.score, v.game_over) == ({"p": 1}, 3.0, True)
    assert served_view({"observation": "board", "score": True}).observation == {"value": "board"}


def test_settled_draws_that_never_give_the_served_answer_diverge() -> None:
    # a model that jitters the position by one: two outcomes, each drawn 1,024 times; the
    # served position lies between them (in the drawn range) and is neither
    jitter = [View({"x": 4}, [], 0.0, False), View({"x": 6}, [], 0.0, False)] * (MAX_SAMPLES // 2)
    served = View({"x": 5}, [], 0.0, False)
    assert compare(jitter, served) == ([], [])  # by kind and range alone it would pass
    assert enumerated(jitter) == 2
    (finding,), _ = grade(jitter, served)
    assert finding.path == "observation" and "outside every outcome" in finding.note
    # one of the outcomes served: no finding
    assert grade(jitter, View({"x": 6}, [], 0.0, False)) == ([], [])


def test_draws_too_many_to_enumerate_are_checked_by_kind_and_range() -> None:
    rooms = [View({"x": k}, [], 0.0, False) for k in range(SAMPLES)]  # every draw new
    assert enumerated(rooms) is None
    assert grade(rooms, View({"x": 5.5}, [], 0.0, False)) == ([], [])
    few = [View({"x": 4}, [], 0.0, False), View({"x": 6}, [], 0.0, False)] * (SAMPLES // 2)
    assert enumerated(few) is None
