"""The ``coalition`` family on summaries a server not built like ours could send: seats
with no store, keys that are not seat numbers, speeches that are not text, stores that
are not finite numbers. Each strategy still answers a legal command (it raised before)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from sunbot import strategies
from sunbot.strategies.harvest_watch_tidy import SPEECH_READ, tidy
from tests.hw_args import hw_args
from tests.strategies.test_harvest_watch import data

OFFERS = {str(i): f"Seat {i}: I cooperate with seat {(i + 1) % 6}." for i in range(6)}


def _hostile(kind: str, phase: str = "action") -> dict[str, Any]:
    over = {"speeches1": dict(OFFERS), "speeches2": dict(OFFERS), "day": 3, "phase": phase}
    d = data(over, phase=phase)
    s = d["summary"]
    if kind == "seat without a store":
        s["aliveSeats"] = [*s["aliveSeats"], 7, -1]
    elif kind == "long seat key":
        s["speeches1"]["0" * 5000 + "1"] = "hi"
        s["speeches2"]["x"] = "Seat x: I guard."
    elif kind == "speech not text":
        s["speeches1"]["2"] = ["a"]
        s["speeches2"]["3"] = None
    elif kind == "ballot out of range":
        s["votes"] = {"1": {"punish": 9, "giveTo": 8}, "2": None, "3": {"punish": True}}
    elif kind == "store not finite":
        s["foods"][3] = float("nan")
    elif kind == "a hundred thousand seats":
        s["foods"] = [*s["foods"], *([5.0] * 100_000)]
        s["aliveSeats"] = [*range(100_006), 3, 3]
    elif kind == "fine of a seat without a store":
        s["punishResult"] = {"punished": 9, "fine": 3.0, "shares": {"8": 1.0, "x": 2}}
    return d


KINDS = ["seat without a store", "long seat key", "speech not text", "ballot out of range",
         "store not finite", "fine of a seat without a store", "a hundred thousand seats"]  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "name", ["coalition", "adaptive-v1", "adaptive-v2", "adaptive-v3", "adaptive"]
)
def test_a_hostile_summary_still_gets_a_legal_command(name: str, kind: str) -> None:
    bot = strategies.create("harvest-watch", name, random.Random(1))
    for phase in ("vote", "action"):  # the vote beat fills the record the action reads
        d, legal = hw_args(_hostile(kind, phase))
        assert bot.choose(d, legal) in legal


def test_tidy_keeps_a_clean_summary_and_drops_what_names_no_seat() -> None:
    clean = data({"speeches1": dict(OFFERS), "votes": {"1": {"punish": 2, "giveTo": 3}}})
    assert tidy(clean) == clean
    d = _hostile("ballot out of range")
    d["summary"]["speeches1"]["4"] = "y" * 5000
    before = copy.deepcopy(d)
    got = tidy(d)["summary"]
    assert d == before  # not changed in place
    assert got["votes"] == {}
    assert len(got["speeches1"]["4"]) == SPEECH_READ
    got = tidy(_hostile("fine of a seat without a store"))["summary"]
    assert "punishResult" not in got
    got = tidy(_hostile("seat without a store"))["summary"]
    assert got["aliveSeats"] == [0, 1, 2, 3, 4, 5]
    assert tidy(_hostile("store not finite"))["summary"]["foods"] == [4.0, 4.0, 4.0, 0.0, 4.0, 4.0]
    got = tidy(_hostile("a hundred thousand seats"))["summary"]  # a table has six seats
    assert got["foods"] == [4.0] * 6 and got["aliveSeats"] == [0, 1, 2, 3, 4, 5]
