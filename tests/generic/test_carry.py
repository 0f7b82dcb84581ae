"""The client carries back whichever form a server gave, in any JSON shape."""

from __future__ import annotations

from typing import Any

import pytest

from sunbot.client import MalformedResponse, Position
from sunbot.client.models import Envelope

BASE: dict[str, Any] = {"legalActions": [{"type": "a"}], "score": 0, "gameOver": False}


def position(**fields: Any) -> Position:
    raw = {**BASE, **fields}
    return Position(Envelope.model_validate(raw), raw)


@pytest.mark.parametrize(
    ("fields", "carried"),
    [
        ({"state": {"pile": 5}}, {"state": {"pile": 5}}),
        ({"state": "hn-1f"}, {"state": "hn-1f"}),
        ({"state": {"id": "g1"}}, {"state": {"id": "g1"}}),
        ({"state": [1, 2]}, {"state": [1, 2]}),
        ({"state": {"board": "..."}, "stateToken": "ttt1.x.y"}, {"stateToken": "ttt1.x.y"}),
        ({"stateToken": ""}, {"stateToken": ""}),  # any JSON string, even an empty one
    ],
)
def test_carry(fields, carried):
    assert position(**fields).carry() == carried


def test_nothing_to_carry_and_a_token_that_is_not_a_string():
    with pytest.raises(MalformedResponse, match="neither stateToken nor state"):
        position(observation={}).carry()
    with pytest.raises(ValueError):
        position(stateToken=12)


@pytest.mark.parametrize(
    ("fields", "observation", "state"),
    [
        ({"observation": {"a": 1}, "state": "id"}, {"a": 1}, None),
        ({"state": {"b": 2}}, {"b": 2}, {"b": 2}),
        ({"observation": "X.O|...", "state": "id"}, {"value": "X.O|..."}, None),
        ({"observation": [1], "state": {"c": 3}}, {"c": 3}, {"c": 3}),
        ({"stateToken": "t"}, {}, None),
    ],
)
def test_what_a_strategy_sees(fields, observation, state):
    pos = position(**fields)
    assert pos.observation == observation and pos.state == state
