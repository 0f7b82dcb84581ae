"""The peek guard decides by content, says what it found in one line."""

from __future__ import annotations

from sunbot.search.peek import classify, decision


def test_a_token_or_an_id_may_hold_anything() -> None:
    token = classify({"stateToken": "abc", "observation": {"n": 1}})
    assert token.peeks and "opaque stateToken" in token.line
    kept = classify({"state": "hn-1f2e", "observation": {"low": 1}})
    assert kept.peeks and "an id the server keeps (a str)" in kept.line
    assert "hn-1f2e" not in kept.line


def test_a_value_the_observation_does_not_show_peeks_and_is_named() -> None:
    v = classify({"state": {"board": [[2, 0], [0, 4]], "rng": 2632566823},
                  "observation": {"board": [[2, 0], [0, 4]], "max": 4}})  # fmt: skip
    assert v.peeks and v.hidden == ["state.rng"]
    # named by its path; the value itself (what the player may not see) is never quoted
    assert "(state.rng)" in v.line and "2632566823" not in v.line
    assert "1 of its 5 values" in v.line


def test_the_same_content_under_other_names_and_shapes_is_honest() -> None:
    v = classify({
        "state": {"board": "X...O....", "moves": 3, "winner": None},
        "observation": {"rows": ["X..", ".O.", "..."], "movesUsed": 3},
    })  # fmt: skip
    assert not v.peeks and v.compared == 2
    assert "every one of the state's 2 values shows" in v.line


def test_the_decision_line_says_what_follows() -> None:
    v = classify({"stateToken": "x"})
    assert decision(v, False).endswith(
        "refused (--allow-peek looks anyway and labels the run clairvoyant)"
    )
    assert decision(v, True).endswith("looking ahead anyway (--allow-peek): the run is clairvoyant")
    honest = classify({"state": {"n": 1}, "observation": {"n": 1}})
    assert decision(honest, False).endswith(": looking ahead")


def test_a_value_held_more_often_than_shown_peeks() -> None:
    # dice-dash's opening at seed 1: the seed and the roll counter are both 1, as is the
    # round shown; one shown 1 cannot vouch for three
    v = classify({"state": {"seed": 1, "rolls": 1, "round": 1, "dice": [4, 6]},
                  "observation": {"round": 1, "dice": [4, 6]}})  # fmt: skip
    assert v.peeks and v.hidden == ["state.seed", "state.rolls"]
    assert "2 of its 5 values" in v.line
    twice = classify({"state": {"a": 1}, "observation": {"x": 1, "y": 1}})
    assert not twice.peeks
