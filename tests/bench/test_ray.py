"""Ray on a local instance gives the local pool's rows (marked: `pytest -m ray`, needs
`pip install '.[ray]'`; `.ci/run` runs it). Ray is imported inside the tests so the default
run collects this file without Ray installed."""

from __future__ import annotations

import pytest

from sunbot.bench.backends import run_jobs
from sunbot.bench.jobs import run_job
from sunbot.bench.store import Store
from tests.bench.test_backends import JOBS, _rows
from tests.bench.test_cli import bench

pytestmark = pytest.mark.ray


def test_ray_starts_and_stops_its_own_local_instance():
    import ray

    assert not ray.is_initialized()
    got = list(run_jobs(JOBS[:4], "ray", 1))
    assert _rows(got) == _rows(run_job(j) for j in JOBS[:4])
    assert not ray.is_initialized()


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_rows_equal_the_local_pool_rows(local_ray):
    on_ray = list(run_jobs(JOBS, "ray", 2))
    assert len(on_ray) == len(JOBS)
    assert _rows(on_ray) == _rows(run_jobs(JOBS, "local", 2))


def test_cli_backend_ray_stores_identical_rows(local_ray, tmp_path):
    out = tmp_path / "o"
    common = [
        "keelhold",
        "-s",
        "safe-greedy",
        "-s",
        "first-safe",
        "--seeds",
        "1-8",
        "--cap",
        "voyages=3",
    ]
    for run, backend in (("on-local", "local"), ("on-ray", "ray")):
        res = bench(
            *common, "--workers", "2", "--backend", backend, "--out", str(out), "--run", run
        )
        assert res.exit_code == 0, res.output
        assert f"16 to run on {backend} with 2 workers" in res.output
    # strategies named: a run's stored order is whichever finished first, which differs by backend
    with Store(out / "bench.sqlite") as store:
        local, ray_rows = (
            [r.deterministic() for r in store.results(run, ["safe-greedy", "first-safe"])]
            for run in ("on-local", "on-ray")
        )
    assert local == ray_rows and len(local) == 16
