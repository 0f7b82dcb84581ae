"""A divergence keeps only its bounded form: a server's huge value is not held for the run
(issue 38, "Unbounded memory from divergences")."""

from __future__ import annotations

import gc
import json
import tracemalloc

from sunbot._text.safe import MAX_TEXT
from sunbot.engines import keelhold as kh
from sunbot.games import get_game
from sunbot.mirror import Divergence, Mirror
from sunbot.server import TokenCodec
from sunbot.server.app import envelope

GAME = get_game("keelhold")
CODEC = TokenCodec()
BOGUS = 50_000


def _bloated(state):
    answer = envelope(GAME, state, CODEC)
    answer["legalActions"] = [{"type": "PLACE", "bay": 100 + i} for i in range(BOGUS)]
    return answer


def test_a_huge_value_is_kept_only_in_its_bounded_form():
    huge = list(range(100_000))
    d = Divergence(3, "legalActions", [1, 2], huge, "the legal actions, in any order")
    assert d.expected == [1, 2]  # short values stay as they are
    assert isinstance(d.got, str) and len(d.got) < MAX_TEXT + 40
    assert d.got.startswith(json.dumps(huge)[:MAX_TEXT])
    assert d.to_json()["got"] == d.got  # the transcript form is what is held


def test_divergences_of_bloated_answers_hold_no_server_value():
    """20 answers whose legalActions carry 50,000 bogus entries each: what the mirror keeps
    afterwards is a few kilobytes, not the ~14 MB a step it held before."""
    state = kh.init(5)
    mirror = Mirror("keelhold")
    prev = _bloated(state)
    assert [d.path for d in mirror.check_init(prev)] == ["legalActions"]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for step in range(1, 21):
            loading = state["phase"] == "loading"
            action = (
                {"type": "PLACE", "bay": state["safeBays"][0]} if loading else {"type": "CAST_OFF"}
            )
            state = kh.step(state, action)
            answer = _bloated(state)
            found = mirror.check_action(step, prev, action, answer)
            assert [d.path for d in found] == ["legalActions"]
            prev = answer
        del answer, found
        prev = None
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(mirror.divergences) == 21
    assert all(isinstance(d.got, str) for d in mirror.divergences)
    assert held < 2_000_000, f"the mirror still holds {held:,} bytes"
