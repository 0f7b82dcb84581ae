"""`sunbot bench` backend figures quoted in the README (Benchmarking).

    python benchmarks/bench_throughput.py                 # local 1 and 2 workers, then Ray
    python benchmarks/bench_throughput.py --repeats 1 --no-ray

Two job sets, both run through :func:`sunbot.bench.backends.run_jobs` (no store, no report):

- ``issue``: the done-when set, Keelhold ``safe-greedy`` and ``first-safe`` on seeds 1-100
  (200 jobs, ~0.3 s and ~2 ms each);
- ``tiny``: Keelhold ``random`` on seeds 1-2000 (~1 ms each), where the per-job cost of a
  backend shows.

Per set: jobs/s with 1 and 2 local workers (best of ``--repeats``; pool start included),
the scaling efficiency ``jobs/s(2) / (2 * jobs/s(1))``, then Ray on a local instance with 2
CPUs: its start time, jobs/s, and its overhead per job against the 2-worker local pool
``(T_ray - T_local) / jobs``. Every backend's rows are checked equal (timings aside).
The load average is printed: the figures mean little on a busy machine.
"""

from __future__ import annotations

import os
import time

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


def timed(
    jobs: list[Job], backend: str, workers: int
) -> tuple[float, dict[tuple[str, int], object]]:
    t0 = time.perf_counter()
    rows = {(r.strategy, r.seed): r.deterministic() for r in run_jobs(jobs, backend, workers)}
    return time.perf_counter() - t0, rows


def best(jobs: list[Job], backend: str, workers: int, repeats: int) -> tuple[float, dict]:
    runs = [timed(jobs, backend, workers) for _ in range(repeats)]
    return min(t for t, _ in runs), runs[0][1]


@app.command()
def main(repeats: int = 3, ray: bool = True) -> None:
    """Print jobs/s, scaling efficiency and Ray's overhead per job."""
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()}")
    local: dict[str, tuple[float, dict]] = {}
    for name, jobs in SETS.items():
        t1, rows1 = best(jobs, "local", 1, repeats)
        t2, rows2 = best(jobs, "local", 2, repeats)
        assert rows1 == rows2, "worker counts disagree"
        local[name] = (t2, rows2)
        n = len(jobs)
        eff = (n / t2) / (2 * n / t1)
        print(
            f"{name:5s} {n} jobs: local 1 worker {t1:6.2f} s = {n / t1:8.1f} jobs/s; "
            f"2 workers {t2:6.2f} s = {n / t2:8.1f} jobs/s; scaling efficiency {eff:.0%}"
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
            tr, rows = best(jobs, "ray", 2, repeats)
            t2, rows2 = local[name]
            assert rows == rows2, "ray and local disagree"
            n = len(jobs)
            print(
                f"{name:5s} {n} jobs: ray 2 workers {tr:6.2f} s = {n / tr:8.1f} jobs/s; "
                f"overhead vs local pool {1000 * (tr - t2) / n:+.2f} ms/job "
                f"({1000 * (tr + start - t2) / n:+.2f} ms/job with the Ray start); rows identical"
            )
    finally:
        ray_lib.shutdown()
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    app()
