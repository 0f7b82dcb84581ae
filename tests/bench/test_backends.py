"""Backends: the same rows whatever the worker count; clear errors; Ray when missing."""

from __future__ import annotations

import builtins
from dataclasses import replace

import pytest

from sunbot.bench import backends
from sunbot.bench.backends import BackendError, run_jobs
from sunbot.bench.jobs import Job, run_job

JOBS = [
    *(Job("keelhold", s, seed) for s in ("first-safe", "random") for seed in range(1, 13)),
    *(Job("keelhold", "safe-greedy", seed, cap=2) for seed in range(1, 5)),
    *(Job("naptuft", "random", seed) for seed in range(1, 4)),
]


def _rows(results):
    return {(r.game, r.strategy, r.seed): r.deterministic() for r in results}


@pytest.fixture(scope="module")
def inline():
    return _rows(run_job(j) for j in JOBS)


@pytest.mark.parametrize("workers", [1, 2])
def test_local_pool_gives_the_inline_rows(inline, workers):
    got = list(run_jobs(JOBS, "local", workers))
    assert len(got) == len(JOBS)
    assert _rows(got) == inline


def test_more_jobs_than_in_flight_slots(monkeypatch, inline):
    monkeypatch.setattr(backends, "IN_FLIGHT_PER_WORKER", 1)
    assert _rows(run_jobs(JOBS, "local", 2)) == inline


def test_no_jobs_and_bad_arguments():
    assert list(run_jobs([], "local", 2)) == []
    with pytest.raises(ValueError, match="unknown backend 'dask'"):
        run_jobs(JOBS, "dask")
    with pytest.raises(ValueError, match=r"workers must be 1\.\.64, got 0"):
        run_jobs(JOBS, "local", 0)
    with pytest.raises(ValueError, match="--ray-address needs --backend ray"):
        run_jobs(JOBS, "local", 1, "127.0.0.1:6379")


def test_default_workers_is_the_cores():
    assert backends.default_workers() >= 1


def test_ray_missing_says_how_to_install(monkeypatch):
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(BackendError, match=r"pip install 'sunbot\[ray\]'"):
        next(iter(run_jobs(JOBS, "ray", 1)))


def test_unreachable_ray_address_fails_fast():
    with pytest.raises(
        BackendError, match=r"cannot reach the Ray cluster at 127.0.0.1:1: .*ray start --head"
    ):
        backends.check_reachable("127.0.0.1:1", timeout_s=2)
    backends.check_reachable("auto")  # no port: left to Ray


def test_sunbot_settings_are_forwarded(monkeypatch):
    monkeypatch.setenv("SUNBOT_SUNLOAF_BUDGET_MS", "none")
    monkeypatch.setenv("OTHER_VAR", "x")
    env = backends.sunbot_env()
    assert env["SUNBOT_SUNLOAF_BUDGET_MS"] == "none" and "OTHER_VAR" not in env


def test_chunk_sizer_fills_the_target_with_short_jobs():
    sizer = backends.ChunkSizer()
    assert sizer.size() == 1  # nothing known yet
    one = run_job(Job("keelhold", "random", 1))
    sizer.observe([replace(one, wall_s=0.001)] * 4)
    assert sizer.size() == 50  # 0.05 s / 1 ms
    sizer.observe([replace(one, wall_s=0.401)] * 4)  # mean 0.201 s
    assert sizer.size() == 1
    fast = backends.ChunkSizer()
    fast.observe([replace(one, wall_s=1e-5)])
    assert fast.size() == backends.CHUNK_MAX
    todo = iter(JOBS)
    assert fast.take(todo) == JOBS  # fewer jobs than a chunk: all of them
    assert fast.take(todo) == []


def test_many_short_jobs_in_chunks_keep_their_rows():
    jobs = [Job("keelhold", "random", seed) for seed in range(1, 301)]
    got = list(run_jobs(jobs, "local", 2))
    assert sorted(r.seed for r in got) == list(range(1, 301))
    assert _rows(got) == _rows(run_job(j) for j in jobs)
