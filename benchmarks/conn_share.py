"""Connection share under attack: one address holds half-sent heads while normal clients
play Keelhold from another, against ``sunbot serve`` on loopback, for a bounded time.

    python benchmarks/conn_share.py --attack 600 --sessions 8 --seconds 20 --reopen 0.5

Starts ``sunbot serve`` (soft open-file limit ``--files``; its connection budget is 448 with
1024 files, 112 with 256: ``sunbot.server.serving.connection_budget``) on a free loopback
port. From 127.0.0.2 (Linux routes 127.0.0.0/8 to loopback) ``--attack`` sockets each send
half a request head and open another ``--reopen`` seconds after the server closes one (0:
at once, a connect flood); from 127.0.0.1 ``--sessions`` Keelhold sessions play first-safe
moves, one attempt per request (every error counts). Prints the sessions' requests, errors
and latency (p50, p99, max), and how many attacking connections the server closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import statistics
import time
from collections import Counter

import typer
from load import Recorder, session
from serve_process import start_serve

app = typer.Typer(add_completion=False)
HALF_HEAD = b"GET /api/games HTTP/1.1\r\nHost: sunbot\r\nAccept: "
ATTACKER = "127.0.0.2"


async def attack_slot(
    host: str, port: int, deadline: float, reopen: float, tally: Counter[str]
) -> None:
    """Hold one half-sent head from :data:`ATTACKER` until ``deadline``, opening another
    ``reopen`` seconds after the server closes it (at most 10,000 times)."""
    for i in range(10_000):
        if i and reopen > 0:
            await asyncio.sleep(reopen)
        if time.monotonic() >= deadline:
            return
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(ATTACKER, 0))
        except OSError:
            tally["refused"] += 1
            await asyncio.sleep(0.1)
            continue
        tally["opened"] += 1
        try:
            writer.write(HALF_HEAD)
            got = await asyncio.wait_for(reader.read(), max(0.01, deadline - time.monotonic()))
            tally["answered 408" if got.startswith(b"HTTP/1.1 408") else "shed"] += 1
        except ConnectionError:
            tally["shed"] += 1
        except TimeoutError:
            return
        finally:
            writer.close()


def _ms(xs: list[float], q: int) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[q - 1] * 1000 if len(xs) > 1 else 0


@app.command()
def main(
    attack: int = 600,
    sessions: int = 8,
    seconds: float = 20.0,
    files: int = 1024,
    reopen: float = 0.5,
) -> None:
    """Run the attack and the sessions; print the sessions' latency and errors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))  # inherited by sunbot serve
    try:
        server, url = start_serve()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    host, port = url.removeprefix("http://").split(":")
    rec, done, tally = Recorder(), Counter[str](), Counter[str]()

    async def run() -> None:
        deadline = time.monotonic() + seconds
        slots = [
            asyncio.create_task(attack_slot(host, int(port), deadline, reopen, tally))
            for _ in range(attack)
        ]
        await asyncio.sleep(1.0)  # the attack is in place before the sessions start
        await asyncio.gather(*(session(url, rec, deadline, i + 1, done) for i in range(sessions)))
        for slot in slots:
            with contextlib.suppress(asyncio.CancelledError):
                await slot

    try:
        asyncio.run(run())
    finally:
        server.terminate()
        server.wait(timeout=10)
    xs = rec.samples.get("single", [])
    print(
        f"conn share: {attack} half-sent heads from {ATTACKER} vs {sessions} Keelhold sessions"
        f" from 127.0.0.1 for {seconds:.0f} s, reopened after {reopen:g} s; sunbot serve with"
        f" {files} open files"
    )
    worst = max(xs, default=0.0) * 1000
    print(
        f"sessions: {len(xs)} requests, {done['runs']} runs finished, "
        f"p50 {_ms(xs, 50):.1f} ms, p99 {_ms(xs, 99):.1f} ms, max {worst:.0f} ms"
    )
    print(f"errors: {sum(rec.errors.values())} {dict(rec.errors) or ''}")
    print(f"attacker: {dict(tally)}")


if __name__ == "__main__":
    app()
