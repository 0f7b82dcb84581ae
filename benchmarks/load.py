"""Load test: concurrent single-player sessions and Harvest Watch matches against
``sunbot serve`` on loopback, for a bounded time.

    python benchmarks/load.py --sessions 50 --matches 10 --seconds 60

Starts ``sunbot serve`` as a separate process on a free loopback port, then from this
process runs ``--sessions`` Keelhold sessions (init, then first-safe moves until the run
ends, then a new run) and ``--matches`` six-seat Harvest Watch matches (all seats played
from here, short beats, a new match when one ends) until the time is up. Every request is
timed by the transport; nothing is retried (one attempt), so every error counts. Prints
throughput, p50/p99 latency per kind, and the errors.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections import Counter, defaultdict

import httpx
import typer
from serve_process import start_serve

from sunbot import strategies
from sunbot.client import GameboardClient, Position, RetryPolicy
from sunbot.client.http import KEEPALIVE_S
from sunbot.client.matches import MatchClient
from sunbot.runs.seat_http import play_match

app = typer.Typer(add_completion=False)
ONE_TRY = RetryPolicy(attempts=1)
BEATS = {"speech": 150, "vote": 150, "action": 150, "diary": 100}


class Recorder:
    """Latency samples (seconds) by kind, and errors, shared by every client."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.last_error = ""

    def transport(self) -> TimedTransport:
        """A fresh transport (one per client: a client closes its transport when done)."""
        return TimedTransport(self)


class TimedTransport(httpx.AsyncHTTPTransport):
    """Records (kind, seconds, status or error) of every request into a :class:`Recorder`."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__(limits=httpx.Limits(keepalive_expiry=KEEPALIVE_S))
        self.samples = recorder.samples
        self.errors = recorder.errors
        self.recorder = recorder

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        kind = "match" if "/api/matches" in request.url.path else "single"
        t0 = time.perf_counter()
        try:
            resp = await super().handle_async_request(request)
            await resp.aread()
        except httpx.TransportError as exc:
            self.errors[f"{kind}: {type(exc).__name__}"] += 1
            took = time.perf_counter() - t0
            self.recorder.last_error = (
                f"{request.method} {request.url.path}: {exc!r} ({took:.3f} s)"
            )
            raise
        self.samples[kind].append(time.perf_counter() - t0)
        if resp.status_code >= 400 and resp.status_code != 409:
            self.errors[f"{kind}: HTTP {resp.status_code}"] += 1
        return resp


async def session(url: str, rec: Recorder, deadline: float, seed0: int, done: Counter[str]) -> None:
    client = GameboardClient(url, transport=rec.transport(), policy=ONE_TRY, timeout=30)
    seed = seed0
    async with client:
        while time.monotonic() < deadline:
            bot = strategies.create("keelhold", "first-safe", random.Random(seed))
            try:
                pos = await client.init("keelhold", seed)
                while not pos.game_over and time.monotonic() < deadline:
                    action = bot.choose(pos.observation, pos.legal_actions)
                    answer = await client.act("keelhold", pos, action)
                    if isinstance(answer, Position):
                        pos = answer
                done["runs"] += 1 if pos.game_over else 0
            except Exception as exc:
                rec.errors[f"single: {type(exc).__name__}"] += 1
            seed += 1000


async def match_loop(
    url: str, rec: Recorder, deadline: float, seed0: int, done: Counter[str]
) -> None:
    client = MatchClient(url, transport=rec.transport(), policy=ONE_TRY, timeout=30)
    seed = seed0
    async with client:
        while time.monotonic() < deadline:
            try:
                match_id, tickets = await client.create(
                    "harvest-watch", seats=6, beat_ms=BEATS, start_ms=0, seed=seed
                )
                players = [
                    (
                        t,
                        strategies.create(
                            "harvest-watch", "coalition", random.Random(seed * 10 + t.seat)
                        ),
                    )
                    for t in tickets
                ]
                results = await play_match(client, match_id, players)  # type: ignore[arg-type]
                done["matches"] += 1
                for r in results:
                    if r.error:
                        rec.errors[f"match: {r.error.split(':')[0]}"] += 1
            except Exception as exc:
                rec.errors[f"match: {type(exc).__name__}"] += 1
            seed += 1


def _pct(xs: list[float], q: float) -> float:
    return (
        statistics.quantiles(xs, n=100, method="inclusive")[int(q) - 1] * 1000
        if len(xs) > 1
        else 0.0
    )


@app.command()
def main(sessions: int = 50, matches: int = 10, seconds: float = 60.0) -> None:
    """Run the load and print throughput, p50/p99 latency and errors."""
    server, url = start_serve()
    try:
        rec = Recorder()
        done: Counter[str] = Counter()

        async def run() -> float:
            t0 = time.monotonic()
            deadline = t0 + seconds
            await asyncio.gather(
                *(session(url, rec, deadline, i + 1, done) for i in range(sessions)),
                *(match_loop(url, rec, deadline, 10_000 + 100 * i, done) for i in range(matches)),
            )
            return time.monotonic() - t0

        wall = asyncio.run(run())
    finally:
        server.terminate()
        server.wait(timeout=10)
    total = sum(len(v) for v in rec.samples.values())
    print(
        f"load: {sessions} sessions + {matches} matches for {seconds:.0f} s (wall {wall:.1f} s) "
        f"against sunbot serve on loopback"
    )
    print(
        f"requests: {total} = {total / wall:,.0f} req/s; finished runs {done['runs']}, "
        f"matches {done['matches']}"
    )
    for kind, xs in sorted(rec.samples.items()):
        print(
            f"  {kind:6s} {len(xs):7d} requests  "
            f"p50 {_pct(xs, 50):7.1f} ms  p99 {_pct(xs, 99):7.1f} ms"
        )
    allx = [x for xs in rec.samples.values() for x in xs]
    print(f"  all    p50 {_pct(allx, 50):.1f} ms  p99 {_pct(allx, 99):.1f} ms")
    print(f"errors: {sum(rec.errors.values())} {dict(rec.errors) or ''}")
    if rec.last_error:
        print(f"last error: {rec.last_error}")


if __name__ == "__main__":
    app()
