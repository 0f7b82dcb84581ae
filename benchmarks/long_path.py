"""How long one client's request with a very long path delays every other client of
``sunbot serve`` (issue 12: the old redaction took 28 s on a 60 KB path at --log-level info).

    python benchmarks/long_path.py --bytes 60000 --log-level trace

Starts ``sunbot serve`` (its log goes to /dev/null, but is formatted and redacted all the
same), runs one prober that GETs ``/api/games`` back to back, and after a second sends
``--requests`` GETs whose paths are ``--bytes`` long (several shapes: one character
repeated, ``/a.`` repeated, a query with quotes and a spelled-out token). Prints the
prober's worst and median latency while they ran, and the long requests' statuses.
Bounded: the prober stops after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_process import start_serve

SHAPES = ("a", "/a.", "%2F", "-")


async def main(size: int, requests: int, seconds: float, level: str) -> None:
    proc, url = start_serve(log_level=level)
    try:
        async with (
            httpx.AsyncClient(base_url=url, timeout=60) as probe,
            httpx.AsyncClient(base_url=url, timeout=60) as attacker,
        ):
            lat: list[tuple[float, float]] = []
            stop = time.monotonic() + seconds

            async def prober() -> None:
                while time.monotonic() < stop:
                    t0 = time.monotonic()
                    await probe.get("/api/games")
                    lat.append((t0, time.monotonic() - t0))

            async def long_paths() -> list[tuple[int, float]]:
                await asyncio.sleep(1.0)
                out = []
                for i in range(requests):
                    shape = SHAPES[i % len(SHAPES)]
                    path = "/api/games/" + shape * (size // len(shape))
                    if i % 5 == 4:
                        path = "/api/matches/m?x='&to%6Ben=" + "S" * size
                    t0 = time.monotonic()
                    r = await attacker.get(path)
                    out.append((r.status_code, time.monotonic() - t0))
                return out

            task = asyncio.create_task(prober())
            sent = await long_paths()
            attack_end = time.monotonic()
            await task
        during = [d for t0, d in lat if t0 <= attack_end]
        print(f"sunbot serve --log-level {level}; {requests} GETs with {size}-byte paths")
        print(
            f"long requests: statuses {sorted({s for s, _ in sent})}, "
            f"slowest {max(d for _, d in sent) * 1000:.0f} ms"
        )
        print(
            f"other client while they ran: {len(during)} requests, worst "
            f"{max(during) * 1000:.0f} ms, median {statistics.median(during) * 1000:.1f} ms"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bytes", type=int, default=60_000)
    ap.add_argument("--requests", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--log-level", default="trace")
    a = ap.parse_args()
    asyncio.run(main(a.bytes, a.requests, a.seconds, a.log_level))
