"""Issue 11 point 6: match routes follow the one retry policy where a retry is safe
(create, view reads, a command the server did not store: 429 with or without Retry-After,
503, dropped connections); what still fails ends the match with a result line and a
one-line error, never a traceback."""

from __future__ import annotations

import json
from collections import Counter

import httpx

from sunbot.client import RetryPolicy
from sunbot.runs.match import run_match
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter


class Flaky(httpx.AsyncBaseTransport):
    """The embedded server behind a transport that fails some requests on purpose."""

    def __init__(self, fail_every: int = 0, always: str | None = None) -> None:
        self.inner = httpx.ASGITransport(app=create_app(TokenCodec()))
        self.n: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.fail_every, self.always = fail_every, always

    def _answer(self, request: httpx.Request, status: int, headers: dict[str, str]):
        return httpx.Response(status, headers=headers, content=b"busy", request=request)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        kind = "create" if request.url.path == "/api/matches/harvest-watch" else request.method
        if request.url.path.endswith("/commands"):
            kind = "command"
        self.n[kind] += 1
        k = self.n[kind]
        if self.always == kind:
            self.failed[kind] += 1
            return self._answer(request, 503, {})
        if kind == "create" and k <= 3:  # 429 without, then with, Retry-After; then a 503
            self.failed[kind] += 1
            status, headers = [(429, {}), (429, {"retry-after": "0"}), (503, {})][k - 1]
            return self._answer(request, status, headers)
        if self.fail_every and k % self.fail_every == 0:
            self.failed[kind] += 1
            if kind == "GET" and k % (2 * self.fail_every) == 0:
                raise httpx.RemoteProtocolError("peer closed connection", request=request)
            return self._answer(request, 429 if k % 3 else 503, {})
        return await self.inner.handle_async_request(request)


FAST = RetryPolicy(total_seconds=5, initial_wait=0.01, max_wait=0.05)


async def test_match_rides_out_429_503_and_drops_on_every_route(tmp_path):
    flaky = Flaky(fail_every=4)
    path = tmp_path / "hw.jsonl"
    with TranscriptWriter(path) as writer:
        result = await run_match(game="harvest-watch", seed=3, strategy="coalition",
                                 server=None, match_id=None, seats=2, writer=writer,
                                 strict=False, transport=flaky, policy=FAST)  # fmt: skip
    assert result["endedBy"] == "rules", result["error"]
    assert result["error"] is None and result["gameOver"] and result["divergences"] == 0
    assert flaky.failed["create"] >= 3 and flaky.failed["GET"] > 0 and flaky.failed["command"] > 0
    assert result["retries"] >= flaky.failed["create"] + flaky.failed["command"]
    assert all(s["postFailures"] == 0 for s in result["seats"])  # a 429/503 POST is re-sent
    assert json.loads(path.read_text().splitlines()[-1])["endedBy"] == "rules"


async def test_create_that_keeps_failing_ends_with_a_result_line(tmp_path):
    path = tmp_path / "hw.jsonl"
    policy = RetryPolicy(total_seconds=0.3, initial_wait=0.01, max_wait=0.05)
    with TranscriptWriter(path) as writer:
        result = await run_match(game="harvest-watch", seed=3, strategy="coalition",
                                 server=None, match_id=None, seats=1, writer=writer,
                                 strict=False, transport=Flaky(always="create"),
                                 policy=policy)  # fmt: skip
    assert result["endedBy"] == "error" and result["gameOver"] is False
    assert result["error"] == "TransientHTTPError: HTTP 503: busy"
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "result" and last["error"] == result["error"]


class Broken(httpx.AsyncBaseTransport):
    """The embedded server, but some views answer 500 or lose their connection, and some
    commands are stored and then answered 500 or lost (their fate unknown to the seat).
    ``from_get``: every GET from that one on answers 500 (a server broken for good)."""

    def __init__(self, from_get: int | None = None) -> None:
        self.inner = httpx.ASGITransport(app=create_app(TokenCodec()))
        self.n: Counter[str] = Counter()
        self.failed: Counter[str] = Counter()
        self.from_get = from_get

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        kind = "command" if request.url.path.endswith("/commands") else request.method
        self.n[kind] += 1
        k = self.n[kind]
        if kind == "GET" and (k % 3 == 0 or (self.from_get is not None and k >= self.from_get)):
            self.failed["GET 500"] += 1
            return httpx.Response(500, text="Internal Server Error", request=request)
        if kind == "GET" and k % 5 == 0:
            self.failed["GET reset"] += 1
            raise httpx.RemoteProtocolError("connection reset by peer", request=request)
        answer = await self.inner.handle_async_request(request)
        if kind == "command" and k % 4 == 0:  # stored, but the answer is a 500 or lost
            self.failed["command 500" if k % 8 else "command reset"] += 1
            if k % 8:
                return httpx.Response(500, text="Internal Server Error", request=request)
            raise httpx.RemoteProtocolError("connection reset by peer", request=request)
        return answer


async def test_seats_ride_out_500s_and_resets_on_polls_and_commands(tmp_path):
    """Issue 12 case 1 on the client's side: a 500 on a poll is retried by the one policy,
    a command answered 500 or cut off is answered by a fresh view (never re-sent), and
    both seats play the match to the end with every view checked."""
    broken = Broken()
    with TranscriptWriter(tmp_path / "hw.jsonl") as writer:
        result = await run_match(game="harvest-watch", seed=5, strategy="coalition",
                                 server=None, match_id=None, seats=2, writer=writer,
                                 strict=False, transport=broken, policy=FAST)  # fmt: skip
    assert result["endedBy"] == "rules", result["error"]
    assert result["error"] is None and result["gameOver"] and result["divergences"] == 0
    assert all(broken.failed[k] > 0 for k in ("GET 500", "GET reset", "command 500"))
    assert result["retries"] >= broken.failed["GET 500"] + broken.failed["GET reset"]
    post_failures = sum(s["postFailures"] for s in result["seats"])
    assert post_failures == broken.failed["command 500"] + broken.failed["command reset"]
    assert all(s["rank"] is not None and s["error"] is None for s in result["seats"])


async def test_a_500_that_lasts_the_budget_ends_the_match_with_one_line(tmp_path):
    """A server that answers every view 500 from the 4th on: each seat retries within the
    policy's budget, then stops; the match ends ``error`` with the reason on one line and
    the transcript's result line, never a traceback."""
    path = tmp_path / "hw.jsonl"
    broken = Broken(from_get=4)
    policy = RetryPolicy(total_seconds=0.5, initial_wait=0.01, max_wait=0.05)
    with TranscriptWriter(path) as writer:
        result = await run_match(game="harvest-watch", seed=5, strategy="coalition",
                                 server=None, match_id=None, seats=2, writer=writer,
                                 strict=False, transport=broken, policy=policy)  # fmt: skip
    assert result["endedBy"] == "error" and result["gameOver"] is False
    mid = result["matchId"]
    assert result["error"] == (
        f"ServerRefused: HTTP 500: the answer from GET http://sunbot.local/api/matches/{mid}"
        " is not JSON (text/plain, 21 bytes)"
    )  # the URL without its query: the seat token is not in it
    assert all(s["error"] == result["error"] for s in result["seats"])
    assert broken.failed["GET 500"] > 4  # retried, not given up at the first 500
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "result" and last["endedBy"] == "error"
    assert last["error"] == result["error"] and "\n" not in last["error"]
