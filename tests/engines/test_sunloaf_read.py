"""Reading a Sunloaf position from a server that leaves out keys the rule text never
promises (sunbot.engines.sunloaf_read): filled by hand-checked values, and the strategies,
the view and the replay page play and draw on such a position as on ours."""

from __future__ import annotations

import copy
import random
from typing import Any

from rich.console import Console

from sunbot.engines import sunloaf as sl
from sunbot.engines import sunloaf_gen as gen
from sunbot.engines.sunloaf_read import readable
from sunbot.html import sunloaf as html_sunloaf
from sunbot.strategies.sunloaf import Planner, Reference
from sunbot.views import sunloaf as view

UNSENT = ("bandWidth", "dogs", "result", "rng", "seed")


def day_start(seed: int, day: int) -> dict[str, Any]:
    s = sl.init(seed)
    s.update(day=day - 1, phase="sunset", turn=s["turnsInDay"])
    return sl.step(s, {"type": "NEXT_DAY"})


def stripped(state: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(state)
    for key in UNSENT:
        out.pop(key)
    del out["layout"]["dogSpeed"], out["layout"]["latticeParity"]
    for cat in out["cats"]:
        del cat["big"]
    return out


def test_filled_values_by_hand():
    s = day_start(3, 24)  # two dogs, speed 2, five cats; latticeParity set from day 16
    for _ in range(5):
        s = sl.step(s, {"type": "REST"})
    assert s["turn"] == 5 and s["phase"] == "day"
    loops = s["layout"]["dogLoops"]
    got = readable(stripped(s))
    assert got["bandWidth"] == 2 and got["result"] is None
    assert got["layout"]["dogSpeed"] == 2 and got["layout"]["latticeParity"] is None
    assert [c["big"] for c in got["cats"]] == [False, False, False, True, False]
    # the last resolved turn is 4: index (4 * 2) % len
    assert got["dogs"] == [loop[8 % len(loop)] for loop in loops] == s["dogs"]
    assert (got["bandDwell"], got["turnsInDay"], got["mult"]) == (2, 14, 905)
    assert readable(stripped(day_start(3, 6)))["layout"]["dogSpeed"] == 1


def test_sent_keys_are_kept_and_the_input_untouched():
    s = day_start(5, 16)
    s["bandWidth"] = 3
    s["cats"][0]["big"] = True
    before = copy.deepcopy(s)
    got = readable(s)
    assert s == before and got == s  # nothing left out: the same position


def test_strategies_and_view_read_a_stripped_position():
    s = day_start(8, 20)
    legal = sl.legal_actions(s)
    ours = [
        Planner(random.Random(1)).choose(s, legal),
        Reference(random.Random(1)).choose(s, legal),
    ]
    theirs = stripped(s)
    theirs["layout"]["latticeParity"] = s["layout"]["latticeParity"]  # promised from day 16
    got = [
        Planner(random.Random(1)).choose(theirs, legal),
        Reference(random.Random(1)).choose(theirs, legal),
    ]
    assert got == ours
    console = Console(width=120, record=True)
    console.print(view.render(theirs))
    assert f"day {s['day']}" in console.export_text()
    assert gen.day_params(20).dogs == len(s["layout"]["dogLoops"]) == 2


def test_replay_frame_of_a_position_without_unpromised_keys():
    """A run from another server that leaves out keys the text never promises (band width,
    dogs, which cat is big, the dogs' speed) is drawn as ours is (sunloaf_read.readable)."""
    s = day_start(8, 20)
    for _ in range(3):
        s = sl.step(s, {"type": "REST"})
    theirs = stripped(s)
    theirs["layout"]["latticeParity"] = s["layout"]["latticeParity"]  # promised from day 16
    theirs["result"] = None
    assert html_sunloaf.frame(theirs) == html_sunloaf.frame(s)
