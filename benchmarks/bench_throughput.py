"""`sunbot bench` backend figures quoted in the README (Benchmarking).

    python benchmarks/bench_throughput.py                 # local 1 and 2 workers, then Ray
    python benchmarks/bench_throughput.py --repeats 1 --no-ray

Two job sets, both run through :func:`sunbot.bench.backends.run_jobs` (no store, no report):

- ``issue``: the done-when set, Keelhold ``safe-greedy`` and ``first-safe`` on seeds 1-100
  (200 jobs, ~0.3 s and ~2 ms each);
- ``tiny``: Keelhold ``random`` on seeds 1-2000 (~1 ms each), where the per-job cost of a
  backend shows.

Per set, 1 and 2 local workers are timed in turn ``--repeats`` times (pool start included)
and the best of each is kept: jobs/s, the scaling efficiency ``jobs/s(2) / (2 * jobs/s(1))``
the pool's utilisation ``sum(job wall time) / (elapsed * workers)`` (how busy the workers
were kept; other processes' load slows the jobs themselves, not this) and the cores the
workers actually got (their CPU seconds per elapsed second: below 2 with 2 workers means
other processes took the rest, and the scaling figure says more about them). Then Ray on a local
instance with 2 CPUs: its start time, jobs/s and its overhead per job against the 2-worker
local pool ``(T_ray - T_local) / jobs``. Every backend's rows are checked equal (timings
aside). The load average is printed: on a busy 2-core machine the scaling figure mostly
measures the other processes.
"""

from __future__ import annotations

import os
import time
from typing import Any

import typer

from sunbot.bench.backends import run_jobs
from sunbot.bench.jobs import Job

app = typer.Typer(add_completion=False)

SETS: dict[str, list[Job]] = {
    "issue": [
        Job("keelhold", s, seed) for s in ("safe-greedy", "first-safe") for seed in range(1, 101)
    ],
    "tiny": [Job("keelhold", "random", seed) for seed in range(1, 2001)],
}

Rows = dict[tuple[str, int], dict[str, Any]]


def timed(jobs: list[Job], backend: str, workers: int) -> tuple[float, float, Rows, float]:
    """(elapsed s, sum of the jobs' wall s, deterministic rows, cores the workers got).

    Cores: CPU seconds of the (joined) worker processes per elapsed second; local pool
    only (Ray's workers are not our children): nan.
    """
    c0, t0 = os.times(), time.perf_counter()
    results = list(run_jobs(jobs, backend, workers))
    elapsed = time.perf_counter() - t0
    c1 = os.times()
    cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
    cores = cpu / elapsed if backend == "local" else float("nan")
    rows = {(r.strategy, r.seed): r.deterministic() for r in results}
    return elapsed, sum(r.wall_s for r in results), rows, cores


@app.command()
def main(repeats: int = 3, ray: bool = True) -> None:
    """Print jobs/s, scaling efficiency, pool utilisation and Ray's overhead per job."""
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()}")
    local: dict[str, tuple[float, Rows]] = {}
    for name, jobs in SETS.items():
        best: dict[int, tuple[float, float, Rows, float]] = {}
        for _ in range(repeats):
            for workers in (1, 2):
                run = timed(jobs, "local", workers)
                if workers not in best or run[0] < best[workers][0]:
                    best[workers] = run
        (t1, w1, rows1, c1), (t2, w2, rows2, c2) = best[1], best[2]
        assert rows1 == rows2, "worker counts disagree"
        local[name] = (t2, rows2)
        n = len(jobs)
        print(
            f"{name:5s} {n} jobs: 1 worker {t1:6.2f} s = {n / t1:7.1f} jobs/s"
            f" (busy {w1 / t1:.0%}, {c1:.2f} cores); 2 workers {t2:6.2f} s = {n / t2:7.1f} jobs/s"
            f" (busy {w2 / (2 * t2):.0%}, {c2:.2f} cores);"
            f" scaling efficiency {(n / t2) / (2 * n / t1):.0%}"
        )
    if not ray:
        return
    import ray as ray_lib

    t0 = time.perf_counter()
    ray_lib.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    start = time.perf_counter() - t0
    print(f"Ray local instance (2 CPUs) start: {start:.2f} s")
    try:
        for name, jobs in SETS.items():
            runs = [timed(jobs, "ray", 2) for _ in range(repeats)]
            tr, _, rows, _ = min(runs, key=lambda r: r[0])
            t2, rows2 = local[name]
            assert rows == rows2, "ray and local disagree"
            n = len(jobs)
            print(
                f"{name:5s} {n} jobs: ray 2 workers {tr:6.2f} s = {n / tr:7.1f} jobs/s;"
                f" overhead vs the local pool {1000 * (tr - t2) / n:+.2f} ms/job"
                f" ({1000 * (tr + start - t2) / n:+.2f} ms/job with the Ray start); rows identical"
            )
    finally:
        ray_lib.shutdown()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    app()
