"""A hostile match server cannot make a seat hammer it, fill the disk or crash the run:
the poll floor holds near a deadline, a stall is judged on the round and real time (a
status flip is not progress), repeated views are written as ``sameAs`` lines, and final
ranks that are not whole numbers end the seat with a one-line error and a result line."""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from sunbot import strategies
from sunbot.client import MatchClient, SeatTicket
from sunbot.client.pacing import POLL_MIN_MS, STALL_GRACE_S, Stalled, StallWatch
from sunbot.runs.match import MatchRecorder, run_match
from sunbot.runs.seat_http import play_match, play_seat
from sunbot.runs.seats import seat_score
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript
from sunbot.transcripts.replay import replay
from tests.client.test_match_bounds import ViewRewrite
from tests.client.test_match_loop import BEATS, fake_sleep, seat_views
from tests.conftest import FAST_RETRY

SUMMARY = {"phase": "speech1", "day": 1, "aliveSeats": [0, 1, 2, 3, 4, 5]}


def waiting_view(status: str = "running") -> dict[str, Any]:
    """A view that says the beat ends in 1 ms and asks to be polled at once."""
    return {
        "status": status,
        "remainMs": 1,
        "pollAfterMs": 0,
        "next": {"rel": "poll", "method": "GET", "href": "/x"},
        "data": {"round": 1, "phase": "speech1", "summary": SUMMARY},
    }


class Scripted(httpx.AsyncBaseTransport):
    """A fake match server: create gives one seat, every GET answers ``view(n)``."""

    def __init__(self, view: Any, seat: int = 0) -> None:
        self.view, self.seat, self.gets = view, seat, 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            seats = [{"seat": self.seat, "token": "tok-0"}]
            return httpx.Response(200, json={"matchId": "m1", "seats": seats}, request=request)
        self.gets += 1
        return httpx.Response(200, json=self.view(self.gets), request=request)


def counting_sleep(sleeps: list[float]) -> Any:
    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    return sleep


@pytest.mark.parametrize("flip", [False, True])
async def test_a_frozen_or_flipping_view_is_polled_at_the_floor_then_given_up(flip):
    def view(n: int) -> dict[str, Any]:
        return waiting_view("starting" if flip and n % 2 else "running")

    transport, sleeps = Scripted(view), []
    bot = strategies.create("harvest-watch", "adaptive", random.Random(1))
    async with MatchClient(transport=transport, policy=FAST_RETRY) as mc:
        res = await play_seat(mc, "m1", SeatTicket(0, "tok-0"), bot, sleep=counting_sleep(sleeps))
    assert res.error is not None and "the server stopped advancing: round 1" in res.error
    assert min(sleeps) == POLL_MIN_MS / 1000  # pollAfterMs 0 with 1 ms left: still 50 ms
    # a minute past the promised deadline at 20 polls a second, not 24,000 requests (the
    # flip's first "running" ends the countdown: one more poll, then no more progress)
    expected = STALL_GRACE_S * 1000 / POLL_MIN_MS + flip
    assert expected <= transport.gets <= expected + 2
    assert "after 60 s of polling" in res.error


def test_stall_time_is_real_time_and_a_status_flip_is_not_progress():
    now = [100.0]
    watch = StallWatch(clock=lambda: now[0])
    watch.see(4, "running", 2_000)
    now[0] += 30.0  # slow answers: half a minute passed though nothing was slept
    for status in ("starting", "running") * 10:
        watch.see(4, status, 1)  # neither the flip nor "1 ms left" moves the deadline
        watch.check()
    now[0] += STALL_GRACE_S - 28.0  # the deadline (2 s) plus the grace is now behind us
    with pytest.raises(Stalled, match=r"round 4 \(running\) unchanged after 62 s"):
        watch.check()
    watch.see(5, "running", 2_000)  # a new round is progress
    watch.check()


def test_the_countdown_ending_is_progress_once():
    now = [0.0]
    watch = StallWatch(clock=lambda: now[0])
    watch.see(1, "starting", 10_000)
    now[0] += 65.0
    watch.see(1, "running", 500)  # the match started: round 1 still, a fresh deadline
    watch.check()
    now[0] += STALL_GRACE_S + 1.0
    watch.see(1, "starting", 500)
    with pytest.raises(Stalled):
        watch.check()


@functools.cache
def true_match() -> tuple[int, dict[str, Any]]:
    """A seat of a whole match played on our server, and its done view."""
    seat, views = seat_views(3)
    return seat, views[-1][0]


def done_view(ranks: Any) -> dict[str, Any]:
    """The true done view with ``ranks`` in its result."""
    view = copy.deepcopy(true_match()[1])
    view["data"]["result"]["ranks"] = ranks
    return view


@pytest.mark.parametrize(
    "ranks", [[6, 4, None, 3, 5, 1], ["a", None, -1, 10**30, 1.5, []], [True] * 6, []]
)
async def test_ranks_that_are_not_whole_numbers_end_the_seat_with_one_line(ranks):
    transport = Scripted(lambda n: done_view(ranks))
    bot = strategies.create("harvest-watch", "adaptive", random.Random(1))
    async with MatchClient(transport=transport, policy=FAST_RETRY) as mc:
        res = await play_seat(mc, "m1", SeatTicket(true_match()[0], "tok-0"), bot)
    assert res.ranks is None and res.error_traceback is None
    assert res.error == f"the server's final ranks are not whole numbers from 1: {ranks!r}"
    assert seat_score(2, ranks) == 0 and seat_score(2, [3, 1, 2, 4, 4, 5]) == 4


async def test_bad_ranks_still_give_a_whole_result_line(tmp_path: Path):
    path = tmp_path / "hw.jsonl"
    writer = TranscriptWriter(path)
    try:
        result = await run_match(
            game="harvest-watch", seed=7, strategy="adaptive", server=None, match_id=None,
            seats=1, writer=writer, strict=False, transport=Scripted(lambda n: done_view(
                [6, 4, None, 3, 5, 1]), true_match()[0]), policy=FAST_RETRY,
        )  # fmt: skip
    finally:
        writer.close()
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "result" and last["endedBy"] == "error" and last["score"] == 0
    assert last["ranks"] is None and "not whole numbers" in last["error"]
    assert result["errorTraceback"] is None and last["seats"][0]["rank"] is None


async def test_a_whole_match_with_bad_ranks_is_a_divergence_and_an_error():
    def rewrite(body: dict[str, Any]) -> dict[str, Any]:
        if body["status"] == "done":
            body["data"]["result"]["ranks"][2] = None
        return body

    clock = FakeClock()
    transport = ViewRewrite(create_app(TokenCodec(), clock=clock), rewrite)
    rec = MatchRecorder(None, strict=False)
    async with MatchClient(transport=transport, policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create("harvest-watch", seats=2, seed=5, beat_ms=BEATS, start_ms=0)
        players = [(t, strategies.create("harvest-watch", "coalition", random.Random(i)))
                   for i, t in enumerate(tickets)]  # fmt: skip
        results = await play_match(
            mc, mid, players, on_event=rec.on_event, sleep=fake_sleep(clock, [])
        )
    for r in results:
        assert r.ranks is None and r.error_traceback is None
        assert r.error is not None and r.error.startswith("the server's final ranks are not")
    assert {d.path for d in rec.divergences} == {"data.result.ranks"}


def test_repeated_views_are_written_as_same_as_and_read_back_whole(tmp_path: Path):
    seat, views = seat_views(3)
    a, b, c = (copy.deepcopy(v) for v, _ in views[:3])
    fed = [a, a, b, a, b, c, a, c]  # A B flip, then C pushes A out of the two remembered
    path = tmp_path / "rep.jsonl"
    writer = TranscriptWriter(path)
    rec = MatchRecorder(writer, strict=False)
    writer.header("harvest-watch", 3, "adaptive", "embedded")
    for v in fed:
        rec.on_event(seat, "view", v)
    writer.close()
    lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    assert [x.get("sameAs") for x in lines] == [None, 1, None, 1, 3, None, None, 6]
    assert all(("body" in x) != ("sameAs" in x) for x in lines)
    assert len(path.read_text()) < 5 * len(json.dumps(a)) + 3 * len(json.dumps(c))
    t = read_transcript(path)
    assert t.error is None and [x["body"] for x in t.views] == fed
    report = replay(t)
    assert report.checked == len(fed) == sum(m.responses_checked for m in rec.mirrors.values())
    assert [d.to_json() for d in report.divergences] == [d.to_json() for d in rec.divergences]


def test_a_same_as_pointing_nowhere_leaves_the_view_without_a_body(tmp_path: Path):
    path = tmp_path / "bad.jsonl"
    writer = TranscriptWriter(path)
    writer.header("harvest-watch", 3, "adaptive", "embedded")
    writer.write({"type": "view", "seat": 0, "index": 1, "sameAs": 7, "mirror": {"ok": True}})
    writer.close()
    t = read_transcript(path)
    assert t.error is None and t.views[0]["body"] is None
