"""The engine seat backend: a match on the engine in-process, its stores checked as our
server checks them, a beat resolved once every living seat stored, missed or left, and the
one seat loop playing on it exactly as on a server."""

from __future__ import annotations

import asyncio
import random
import warnings
from typing import Any

import pytest

from sunbot import strategies
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import house_commands
from sunbot.runs.seat_engine import EngineTable, MatchTooLong, TableStopped, play_table, run_sync
from sunbot.runs.seats import play_seat

GUARD = {"act": "guard"}


def table(seed: int = 3, house: tuple[int, ...] = (1, 2, 3, 4, 5)) -> EngineTable:
    return EngineTable(seed, random.Random(seed), list(house))


def to_action_beat(t: EngineTable, seat: int = 0) -> None:
    """Store the example on every beat until the first action beat (day 1: speech1,
    vote, speech2, then action)."""
    while t.state["phase"] != "action":
        t.store(seat, t.state["round"], [hw.default_command(t.state["phase"])])


def test_house_seats_store_as_the_beat_opens_and_a_lone_store_resolves_it():
    t = table()
    assert t.state["phase"] == "speech1" and sorted(t.stored) == [1, 2, 3, 4, 5]
    assert t.view(0).can_act and not t.view(0).finished
    round_ = t.state["round"]
    assert t.store(0, round_, [{"speech": "hello"}]) is None
    assert t.state["round"] == round_ + 1 and t.beats == 1  # every living seat stored


def test_stores_are_refused_as_our_server_refuses_them():
    t = table(house=(1, 2, 3, 4))  # seats 0 and 5 are ours: a store of 0 alone waits
    r = t.state["round"]
    assert t.store(0, r + 1, [{"speech": "x"}]) == "stale_round"
    assert t.store(0, r, [{"speech": "x"}] * 11) == "too_many_commands"
    assert t.store(0, r, [{"act": "fly"}]) == "illegal_command"
    assert t.store(0, r, [{"speech": "x"}]) is None
    assert t.store(0, r, [{"speech": "y"}]) == "already_stored"
    assert not t.view(0).can_act and t.view(0).data["pending"] == [{"speech": "x"}]
    assert t.state["round"] == r  # seat 5 has not stored yet
    t.miss(5, r)  # seat 5 takes the beat's default
    assert t.state["round"] == r + 1


def test_the_house_draws_are_the_servers():
    # the table's house seats draw from the match RNG as a server's do as each beat opens
    t = table(7)
    rng, memory = random.Random(7), {s: {} for s in (1, 2, 3, 4, 5)}
    state = hw.init(7, 6)
    assert t.stored == house_commands(state, [1, 2, 3, 4, 5], memory, rng)


def test_a_seat_that_left_takes_every_default_and_an_all_house_table_plays_out():
    t = table()
    t.leave(0)
    assert t.done and t.state["result"]["ranks"]  # nobody to wait for: played to the end
    alone = EngineTable(5, random.Random(5), [0, 1, 2, 3, 4, 5])
    assert alone.done  # house seats only, as a server's match starts and runs to its end


def test_a_failure_stops_the_match_for_every_seat():
    t = table(house=(2, 3, 4, 5))
    t.leave(0, KeyError("boom"))
    assert t.stopped_by == 0 and isinstance(t.error, KeyError)
    with pytest.raises(TableStopped, match="KeyError"):
        t.view(1)


def test_a_match_past_its_bound_is_too_long():
    t = EngineTable(3, random.Random(3), [1, 2, 3, 4, 5], max_beats=3)
    with pytest.raises(MatchTooLong, match="not over after 3 beats"):
        to_action_beat(t)
    assert isinstance(t.error, MatchTooLong)


class Fly:
    """Sends an illegal act on every action beat, the example otherwise."""

    def choose(self, data: dict[str, Any], legal: list[Any]) -> Any:
        return {"act": "fly"} if data["phase"] == "action" else legal[0]


def test_the_seat_loop_answers_a_refusal_once_with_the_first_legal_command():
    t = table(4)
    res = asyncio.run(play_seat(t.seat(0), Fly()))
    assert t.done and res.ranks == t.state["result"]["ranks"]
    # one refusal a night it was in: each answered by legal[0], which the rules accept
    out = t.state["outNight"][0]
    nights = out if out is not None else t.state["day"]
    assert res.refusals == {"illegal_command": nights} and res.error is None


def test_a_table_of_strategies_plays_to_its_end_as_a_bench_match():
    t = EngineTable(9, random.Random(9), [3, 4, 5])
    bots = [
        (s, strategies.create("harvest-watch", "coalition", random.Random(s))) for s in (0, 1, 2)
    ]
    played = run_sync(play_table(t, bots))
    ranks = t.state["result"]["ranks"]
    assert t.done and t.error is None
    assert {s: r.ranks for s, r in played.results.items()} == {s: ranks for s in (0, 1, 2)}


async def test_run_sync_works_inside_a_running_event_loop():
    t = EngineTable(9, random.Random(9), [1, 2, 3, 4, 5])
    played = run_sync(
        play_table(t, [(0, strategies.create("harvest-watch", "guard", random.Random(0)))])
    )
    assert played.results[0].ranks == t.state["result"]["ranks"]


def test_the_seat_loops_old_names_import_for_one_release_with_a_warning():
    from sunbot.runs.seat_http import play_match
    from sunbot.runs.seats import fallback_command

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from sunbot.client import play_match as old_play_match
        from sunbot.client.matches import fallback_command as old_fallback
    assert old_play_match is play_match and old_fallback is fallback_command
    assert caught and all(w.category is DeprecationWarning for w in caught)
    assert "import it from sunbot.runs.seat_http" in str(caught[0].message)
