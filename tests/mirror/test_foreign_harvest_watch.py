"""The Harvest Watch seat mirror against views paced, numbered and worded another way
(issue 11): other round numbers, another pollAfterMs within the bound, other lastPublic text,
legal commands in another order, a null nightCost before the night, a null fine when nobody
is fined and unknown fields are not divergences; a wrong food is."""

from __future__ import annotations

import copy
import random
from typing import Any

import httpx

from sunbot import strategies
from sunbot.client import MatchClient
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.runs.seat_http import play_match
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from tests.client.test_match_loop import BEATS, fake_sleep
from tests.conftest import FAST_RETRY

Event = tuple[int, str, dict[str, Any]]


async def record_match(seed: int = 21, seats: int = 3) -> list[Event]:
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)
    events: list[Event] = []

    def on_event(seat: int, kind: str, record: dict[str, Any]) -> None:
        events.append((seat, kind, copy.deepcopy(record)))

    transport = httpx.ASGITransport(app=app)
    async with MatchClient(transport=transport, policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create(
            "harvest-watch", seats=seats, seed=seed, beat_ms=BEATS, start_ms=300
        )
        players = [
            (t, strategies.create("harvest-watch", "coalition", random.Random(i)))
            for i, t in enumerate(tickets)
        ]
        await play_match(mc, mid, players, on_event=on_event, sleep=fake_sleep(clock, []))
    return events


def foreign(events: list[Event]) -> list[Event]:
    """The same match as another server might show it."""
    out: list[Event] = []
    for seat, kind, rec in copy.deepcopy(events):
        if kind == "view":
            data = rec.get("data") or {}
            if isinstance(data.get("round"), int):
                data["round"] = f"r-{data['round'] + 1000}"  # a round id of its own form
            data.pop("phase", None)  # our copy of summary.phase: not promised
            rec.pop("next", None)
            remain = rec.get("remainMs", 0)
            rec["pollAfterMs"] = remain // 3 if remain > 0 else 250
            rec["serverClock"] = "t+1"
            summary = data.get("summary")
            if isinstance(summary, dict):
                summary["lastPublic"] = "~ " + str(summary.get("lastPublic", ""))[::-1]
                summary["mood"] = "calm"
                for key in ("caught", "collided"):  # always sent, empty when nothing
                    summary.setdefault(key, [])
                if summary.get("phase") not in ("diary", "done"):
                    summary["nightCost"] = None  # fixed only on diary and done
                pr = summary.get("punishResult")
                if isinstance(pr, dict) and pr["punished"] is None:
                    pr["fine"] = None  # no value is fixed when nobody is fined
            if isinstance(data.get("legal"), list):
                data["legal"].reverse()
        elif kind == "command" and isinstance(rec.get("round"), int):
            rec["round"] = f"r-{rec['round'] + 1000}"
        out.append((seat, kind, rec))
    return out


def check(events: list[Event]) -> dict[int, MatchMirror]:
    mirrors: dict[int, MatchMirror] = {}
    for seat, kind, rec in events:
        m = mirrors.setdefault(seat, MatchMirror(seat))
        if kind == "view":
            m.check(rec)
        elif isinstance(rec.get("answer"), dict) and rec["answer"].get("ok"):
            m.note_command(rec["round"], rec["actions"])
    return mirrors


async def test_other_pacing_numbering_wording_and_fields_are_not_divergences() -> None:
    events = await record_match()
    ours = check(events)
    theirs = check(foreign(events))
    assert all(m.divergences == [] for m in ours.values())
    assert all(m.divergences == [] for m in theirs.values())
    beats = sum(m.beats_checked for m in theirs.values())
    assert beats == sum(m.beats_checked for m in ours.values()) > 20
    assert set.union(*(m.unknown_fields for m in theirs.values())) >= {"data.summary.mood"}


async def test_a_wrong_food_and_a_pace_past_the_clock_are_flagged() -> None:
    events = foreign(await record_match())
    views = [i for i, (_, kind, rec) in enumerate(events) if kind == "view"]
    # a view after a resolved vote: move 0.5 food from one seat to another in every copy
    target = next(
        i for i in views if events[i][2]["data"].get("summary", {}).get("phase") == "action"
    )
    seat = events[target][0]
    rec = events[target][2]
    rec["data"]["summary"]["food"] += 0.5
    rec["data"]["summary"]["foods"][seat] += 0.5
    running = next(i for i in views if events[i][2].get("remainMs", 0) > 0)
    events[running][2]["pollAfterMs"] = events[running][2]["remainMs"] + 1
    found = {(d.path) for m in check(events).values() for d in m.divergences}
    assert "pollAfterMs" in found
    assert any(p.startswith("data.summary.food") for p in found)


async def test_another_seats_food_after_a_night_must_be_explainable() -> None:
    events = await record_match()
    views = [i for i, (_, kind, rec) in enumerate(events) if kind == "view"]
    # the first diary view of some seat: the night has just resolved
    k = next(i for i in views if events[i][2]["data"].get("summary", {}).get("phase") == "diary")
    seat, rec = events[k][0], events[k][2]
    summary = rec["data"]["summary"]
    other = next(s for s in summary["aliveSeats"] if s != seat)
    summary["foods"][other] = round(summary["foods"][other] + 0.7, 1)  # food from nowhere
    found = {(d.path) for d in check(events)[seat].divergences}
    assert found & {f"data.summary.foods[{other}]", "data.summary.foods"}


async def test_data_phase_is_not_promised_so_another_value_there_is_no_divergence() -> None:
    # the text names summary.phase only; data.phase is our copy of it, which another
    # server may send with its own meaning (here: a beat label of its own)
    events = await record_match()
    for _, kind, rec in events:
        data = rec.get("data") if kind == "view" else None
        if isinstance(data, dict) and "phase" in data:
            data["phase"] = f"beat {data['round']}"
    mirrors = check(events)
    assert all(m.divergences == [] for m in mirrors.values())
    assert sum(m.beats_checked for m in mirrors.values()) > 20


async def test_a_view_of_a_hundred_thousand_seats_is_one_finding_and_the_next_still_checked() -> (
    None
):
    # a server listing 100,000 seats (found from outside: the seat-by-seat check was
    # quadratic, 60 s a view): one finding, a table has six seats, and the views after it
    # are checked as usual
    events = await record_match()
    views = [i for i, (_, kind, rec) in enumerate(events) if kind == "view"]
    k = next(i for i in views if events[i][2]["data"].get("summary", {}).get("phase") == "action")
    seat, summary = events[k][0], events[k][2]["data"]["summary"]
    summary["foods"] = [*summary["foods"], *([5.0] * 100_000)]
    summary["aliveSeats"] = list(range(100_006))
    mirror = check(events)[seat]
    assert [d.note for d in mirror.divergences] == [
        "cannot read this view: ValueError: summary.foods lists 100006 seats; a table has 6"
    ]
    assert mirror.beats_checked > 5
