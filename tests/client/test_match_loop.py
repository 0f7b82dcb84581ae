"""The seat loop (Harvest Watch §2.8, "Client loop"): poll-after, one store per beat,
refusals answered by a fresh GET, transport errors, several seats at once."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import httpx

from sunbot import strategies
from sunbot.client import MatchClient, SeatTicket
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.runs.seat_http import play_match
from sunbot.runs.seats import fallback_command
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from tests.conftest import FAST_RETRY, LoopbackServer

BEATS = {"speech": 400, "vote": 400, "action": 400, "diary": 400}


class Recorder:
    """Counts requests by (method, path) and can fail some of them."""

    def __init__(self, app: Any, fail: Any = None) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.fail = fail or (lambda req, n: None)
        self.seen: list[httpx.Request] = []
        self.posts: Counter[tuple[str, int]] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        if request.url.path.endswith("/commands"):
            body = request.read()
            import json

            b = json.loads(body)
            self.posts[(b["token"], b["round"])] += 1
        before = self.fail(request, len(self.seen))
        if before == "before":
            raise httpx.ConnectError("refused", request=request)
        resp = await self.inner.handle_async_request(request)
        if before == "after":  # delivered, but the answer is lost
            raise httpx.ReadTimeout("lost answer", request=request)
        return resp


def transport_of(rec: Recorder) -> httpx.AsyncBaseTransport:
    class T(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            return await rec.handle_async_request(request)

    return T()


def fake_sleep(clock: FakeClock, sleeps: list[float]):
    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(max(1, int(seconds * 1000)))  # real time never stands still

    return sleep


def mirrored(mirrors: dict[int, MatchMirror]):
    def on_event(seat: int, kind: str, record: dict[str, Any]) -> None:
        m = mirrors.setdefault(seat, MatchMirror(seat))
        if kind == "view":
            m.check(record)
        elif isinstance(record.get("answer"), dict) and record["answer"].get("ok"):
            m.note_command(record["round"], record["actions"])

    return on_event


async def test_full_match_three_seats_fake_clock_no_divergence():
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)
    rec = Recorder(app)
    sleeps: list[float] = []
    mirrors: dict[int, MatchMirror] = {}
    async with MatchClient(transport=transport_of(rec), policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create(
            "harvest-watch", seats=3, seed=21, beat_ms=BEATS, start_ms=300
        )
        players = [(t, strategies.create("harvest-watch", "coalition", random.Random(i)))
                   for i, t in enumerate(tickets)]  # fmt: skip
        results = await play_match(mc, mid, players, on_event=mirrored(mirrors),
                                   sleep=fake_sleep(clock, sleeps))  # fmt: skip
    assert all(r.error is None for r in results)
    ranks = results[0].ranks
    assert ranks is not None and all(r.ranks == ranks for r in results) and min(ranks) == 1
    assert all(m.divergences == [] for m in mirrors.values())
    assert sum(m.beats_checked for m in mirrors.values()) > 20
    assert max(rec.posts.values()) == 1  # one POST per seat per round, never a re-send
    assert sleeps and all(0 <= s <= 0.5 for s in sleeps)  # pollAfterMs, at most 500 ms
    assert sum(r.refusals.total() for r in results) == 0


class IllegalThenFine:
    """Sends a non-legal act on action beats; everything else the example."""

    def choose(self, data: dict[str, Any], legal: list[Any]) -> Any:
        if data["phase"] == "action":
            return {"act": "steal", "target": data["summary"]["you"]}
        return fallback_command(data)


async def test_illegal_command_gets_one_retry_with_legal0():
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)
    rec = Recorder(app)
    async with MatchClient(transport=transport_of(rec), policy=FAST_RETRY) as mc:
        mid, (t,) = await mc.create("harvest-watch", seed=4, beat_ms=BEATS, start_ms=0)
        (res,) = await play_match(mc, mid, [(t, IllegalThenFine())], sleep=fake_sleep(clock, []))
    assert res.error is None and res.ranks is not None
    assert res.refusals["illegal_command"] >= 1
    match = app.state.matches.get(mid)
    applied = [e["applied"][str(t.seat)] for e in match.state["log"]
               if e["phase"] == "action" and str(t.seat) in e["applied"]]  # fmt: skip
    assert applied and all(a == {"act": "farm"} for a in applied)  # legal[0] after the refusal
    assert max(rec.posts.values()) == 2  # the refused one and the single retry


class Slow:
    """Its first speech takes longer than the beat (the clock passes the deadline)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock, self.slow = clock, True

    def choose(self, data: dict[str, Any], legal: list[Any]) -> Any:
        if self.slow:
            self.slow = False
            self.clock.advance(BEATS["speech"] + 50)
        return fallback_command(data)


async def test_stale_round_is_answered_by_a_fresh_view():
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)
    async with MatchClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY) as mc:
        mid, (t,) = await mc.create("harvest-watch", seed=5, beat_ms=BEATS, start_ms=0)
        (res,) = await play_match(mc, mid, [(t, Slow(clock))], sleep=fake_sleep(clock, []))
    assert res.refusals == Counter({"stale_round": 1}) and res.ranks is not None
    log = app.state.matches.get(mid).state["log"]
    assert log[0]["applied"][str(t.seat)] == {"speech": "…"}  # missed: the default applied
    assert log[1]["applied"][str(t.seat)] == {"speech": "…"} and log[1]["round"] == 2


async def test_transport_errors_get_retried_gets_and_no_blind_reposts():
    clock = FakeClock()
    app = create_app(TokenCodec(), clock=clock)

    def fail(req: httpx.Request, n: int) -> str | None:
        if req.method == "GET" and n % 7 == 0:
            return "before"
        if req.url.path.endswith("/commands") and n % 5 == 0:
            return "after"  # stored, answer lost: the loop must re-read, not re-send
        return None

    rec = Recorder(app, fail)
    async with MatchClient(transport=transport_of(rec), policy=FAST_RETRY) as mc:
        mid, tickets = await mc.create("harvest-watch", seats=2, seed=9, beat_ms=BEATS, start_ms=0)
        players = [(t, strategies.create("harvest-watch", "coalition", random.Random(1)))
                   for t in tickets]  # fmt: skip
        results = await play_match(mc, mid, players, sleep=fake_sleep(clock, []))
        assert mc.retries > 0
    assert all(r.error is None and r.ranks for r in results)
    assert sum(r.post_failures for r in results) > 0
    assert max(rec.posts.values()) == 1
    assert sum(r.refusals["already_stored"] for r in results) == 0


async def test_join_and_view_errors_surface():
    app = create_app(TokenCodec(), clock=FakeClock())
    async with MatchClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY) as mc:
        mid, _ = await mc.create("harvest-watch", seats=6, seed=1, start_ms=0)
        try:
            await mc.join(mid)
        except Exception as exc:
            assert "409" in str(exc) and "full" in str(exc)
        else:
            raise AssertionError("joined a full match")
        (res,) = await play_match(mc, mid, [(SeatTicket(0, "forged"), IllegalThenFine())])
        assert res.error is not None and "403" in res.error


async def test_real_time_match_on_loopback_short_beats():
    app = create_app(TokenCodec())
    with LoopbackServer(app) as srv:
        async with MatchClient(srv.url, policy=FAST_RETRY) as mc:
            mid, tickets = await mc.create(
                "harvest-watch", seats=2, seed=7, start_ms=50,
                beat_ms={"speech": 150, "vote": 150, "action": 150, "diary": 150},
            )  # fmt: skip
            players = [(t, strategies.create("harvest-watch", "coalition", random.Random(i)))
                       for i, t in enumerate(tickets)]  # fmt: skip
            mirrors: dict[int, MatchMirror] = {}
            results = await play_match(mc, mid, players, on_event=mirrored(mirrors))
    assert all(r.error is None and r.ranks for r in results)
    assert all(m.divergences == [] for m in mirrors.values())
    assert sum(r.polls for r in results) > 0


def seat_views(seed: int) -> tuple[int, list[tuple[dict[str, Any], list[Any] | None]]]:
    """One seat's views of a whole match (fallback commands), with what it stored."""
    from sunbot.server.match_state import Match

    m, [(seat, _)] = Match.create(seed=seed, seats=1, beat_ms=BEATS, start_ms=0, now=0)
    out: list[tuple[dict[str, Any], list[Any] | None]] = []
    while True:
        v = m.view(seat, 0)
        if v["status"] == "done" or v["next"]["rel"] != "act":
            out.append((v, None))
            if v["status"] == "done":
                return seat, out
            m.catch_up(m.deadline)
            continue
        cmd = [fallback_command(v["data"])]
        out.append((v, cmd))
        assert m.store(seat, v["data"]["round"], cmd, 0) is None


def replay(seat: int, views: list[tuple[dict[str, Any], list[Any] | None]]) -> MatchMirror:
    mirror = MatchMirror(seat)
    for v, cmd in views:
        mirror.check(v)
        if cmd is not None:
            mirror.note_command(v["data"]["round"], cmd)
    return mirror


def test_mirror_passes_a_true_match_and_flags_tampered_fines_and_food():
    import copy

    seat, views = seat_views(3)
    clean = replay(seat, views)
    assert clean.divergences == [] and clean.beats_checked >= 20
    # a share changed after a vote: the vote beat is recomputed exactly from the ballots
    i = next(i for i, (v, _) in enumerate(views) if v["data"]["phase"] == "action")
    bad = copy.deepcopy(views)
    other = next(s for s in bad[i][0]["data"]["summary"]["aliveSeats"] if s != seat)
    bad[i][0]["data"]["summary"]["foods"][other] += 0.1
    found = replay(seat, bad).divergences
    rnd = bad[i][0]["data"]["round"]
    assert (found[0].step, found[0].path) == (rnd, f"data.summary.foods[{other}]")
    # the night after starts from the wrong store: no joint action explains it, naming that
    # seat (or all of them when no single seat does)
    night = [(rnd + 1, p) for p in ("data.summary.foods", f"data.summary.foods[{other}]")]
    assert [(d.step, d.path) for d in found[1:]] in ([], *([n] for n in night))
    # our own food after a night off by 0.1: unreachable by the rules for our act
    j = next(j for j, (v, _) in enumerate(views) if v["data"]["phase"] == "diary")
    bad = copy.deepcopy(views)
    s = bad[j][0]["data"]["summary"]
    s["food"] = round(s["food"] + 0.1, 1)
    s["foods"][seat] = s["food"]
    paths = {d.path for d in replay(seat, bad).divergences}
    assert "data.summary.food" in paths
