"""Where jobs run: a local process pool (default) or Ray. Both run :func:`.jobs.run_job`.

Results come back in completion order (the caller stores each as it arrives); a row depends
only on its job, so the rows are the same whatever the backend and worker count. Jobs travel
in chunks (:func:`.jobs.run_chunk`) sized by :class:`ChunkSizer`: one job at a time until
results show how long a job takes, then as many as fill about :data:`CHUNK_TARGET_S`, so
millisecond jobs do not pay a round trip each and long ones keep the load balanced. At most
``4 * workers`` chunks are in flight, so a benchmark of any size keeps memory flat and stops
promptly when interrupted.

Local workers are forked (:func:`start_method`: Linux, and this process runs no other
thread), so a script that calls ``sunbot.bench(...)`` at module level, with no ``if
__name__ == "__main__":`` guard, is not run again in every worker (``spawn`` and
``forkserver`` both import the caller's main module in each worker), and a worker starts in
milliseconds with sunbot already imported; the pool starts when :func:`run_jobs` is called,
before a progress bar's thread does. A process that runs other threads (a notebook's
kernel, a test runner) spawns fresh interpreters instead, where a notebook's main module
has no file to import. Workers ignore SIGINT and SIGTERM, so Ctrl-C or ``timeout``
(which signal the whole process group) reach only the parent, which cancels what has not
started, kills the workers still running a job (their rows are not stored; a long job would
otherwise hold the exit for its whole length) and returns. A worker whose parent dies
(``kill -9``) exits too (:func:`_init_worker`) instead of running on, re-parented to init.
"""

from __future__ import annotations

import ctypes
import itertools
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import resource_tracker
from multiprocessing.util import Finalize
from typing import Any, Literal

from sunbot.bench.jobs import Job, Result, run_chunk

log = logging.getLogger(__name__)
Backend = Literal["local", "ray"]
BACKENDS: tuple[str, ...] = ("local", "ray")
#: Chunks in flight per worker.
IN_FLIGHT_PER_WORKER = 4
#: Wall time a chunk of short jobs aims at, seconds; and the most jobs in one chunk.
CHUNK_TARGET_S, CHUNK_MAX = 0.05, 64


class BackendError(RuntimeError):
    """The backend cannot run: Ray missing or not reachable; the message says what to do."""


def default_workers() -> int:
    """The CPU cores this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without sched_getaffinity
        return max(1, os.cpu_count() or 1)


MAX_WORKERS = 64
"""The most ``--workers`` accepted: each local worker is a process of its own."""


def run_jobs(
    jobs: Sequence[Job],
    backend: str = "local",
    workers: int | None = None,
    ray_address: str | None = None,
) -> Iterator[Result]:
    """Run ``jobs`` on ``backend`` and yield each result as it finishes.

    Args:
        workers: local: pool size (default: the cores); Ray: concurrent tasks (default:
            the local instance's ``num_cpus`` = the cores, or the cluster's CPUs).
        ray_address: Ray only: the address of an existing cluster (``ray.init(address=)``);
            ``None`` starts a local Ray instance for this benchmark and stops it after.

    Raises:
        ValueError: unknown backend, ``workers`` outside 1..:data:`MAX_WORKERS`, or
            ``ray_address`` without Ray.
        BackendError: Ray is not installed or cannot be started / reached.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; valid: {', '.join(BACKENDS)}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be 1..{MAX_WORKERS}, got {workers}")
    if backend == "local":
        if ray_address is not None:
            raise ValueError("--ray-address needs --backend ray")
        return run_local(jobs, workers or default_workers())
    return run_ray(jobs, workers, ray_address)


class ChunkSizer:
    """How many jobs the next chunk holds: 1 until a result is seen, then enough jobs of the
    mean wall time so far to fill :data:`CHUNK_TARGET_S` (1 to :data:`CHUNK_MAX`)."""

    def __init__(self) -> None:
        self.total_s = 0.0
        self.count = 0

    def observe(self, results: Sequence[Result]) -> None:
        """Account for finished results (their ``wall_s``)."""
        self.total_s += sum(r.wall_s for r in results)
        self.count += len(results)

    def size(self) -> int:
        """Jobs for the next chunk."""
        if self.count == 0:
            return 1
        mean = self.total_s / self.count
        return max(1, min(CHUNK_MAX, int(CHUNK_TARGET_S / max(mean, 1e-6))))

    def take(self, todo: Iterator[Job]) -> list[Job]:
        """The next chunk from ``todo`` (empty when it is exhausted)."""
        return list(itertools.islice(todo, self.size()))


#: Linux ``prctl`` option: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1
#: Seconds between a worker's checks that its parent is alive (where prctl is missing).
PARENT_CHECK_S = 1.0


def _init_worker(parent: int) -> None:
    """A pool worker's initializer: ignore SIGINT and SIGTERM (the parent stops the pool),
    and die with the parent ``parent`` (pid): on Linux the kernel sends SIGKILL when it dies
    (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon thread checks ``os.getppid()`` every
    :data:`PARENT_CHECK_S` seconds."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if not _kill_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before the above took effect
        os._exit(1)


def _kill_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Exit this process once ``parent`` is no longer its parent (bounded by its life)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(1)


def _stop_resource_tracker() -> None:
    """Stop multiprocessing's resource tracker and wait for it to exit.

    A spawned pool's locks start that helper process; left alone it exits only once it
    notices this process is gone, after it, so a command that has exited still has a
    process in its group for a while (a timing tool or a container sees it). Run as the
    last of multiprocessing's own exit finalizers, after the locks are released.
    """
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)  # CPython's own (3.8+), not a public API
    if stop is not None:
        try:
            stop()
        except Exception:  # pragma: no cover - never fail an exit over a helper process
            log.debug("the resource tracker did not stop", exc_info=True)


_TRACKER_STOP: list[Finalize] = []


def _stop_tracker_at_exit() -> None:
    """Have :func:`_stop_resource_tracker` run at exit (once)."""
    if not _TRACKER_STOP:
        _TRACKER_STOP.append(Finalize(None, _stop_resource_tracker, exitpriority=-100))


def start_method() -> str:
    """How the local pool starts its workers: ``fork`` on Linux when this process runs no
    other thread, else ``spawn``.

    ``fork`` copies this process as it is, so workers never import the caller's main
    module: a script without a main guard works, and a worker is ready in milliseconds.
    It is not safe with other threads running (a lock one of them holds stays held in the
    child), so a process that has them (a notebook kernel, pytest-xdist) spawns fresh
    interpreters; a notebook's main module has no file, so nothing is re-run there either.
    ``forkserver`` would not help: its workers import the main module too.
    """
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def run_local(jobs: Sequence[Job], workers: int) -> Iterator[Result]:
    """Run ``jobs`` on a pool of ``workers`` processes (:func:`start_method`); yield
    results as they finish.

    The pool starts and the first chunks are sent now, before the caller iterates (so a
    progress bar started afterwards is not running when the workers are forked); a
    result iterator dropped unstarted still stops the pool. No process of the pool
    outlives the command: the workers are joined (or killed, when stopped early), and a
    spawned pool's resource tracker is stopped at exit.
    """
    if not jobs:
        return iter(())
    _stop_tracker_at_exit()
    ctx = multiprocessing.get_context(start_method())
    workers = max(1, min(workers, len(jobs)))  # never more processes than jobs
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(os.getpid(),)
    )
    todo, sizer = iter(jobs), ChunkSizer()
    pending: set[Future[list[Result]]] = set()
    try:
        for _ in range(IN_FLIGHT_PER_WORKER * workers):
            chunk = sizer.take(todo)
            if not chunk:
                break
            pending.add(pool.submit(run_chunk, chunk))
    except BaseException:
        _stop_pool(pool)
        raise
    results = _drain(pool, pending, todo, sizer)
    weakref.finalize(results, _stop_pool, pool)
    return results


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Kill ``pool``'s workers and shut it down (idempotent)."""
    kill_workers(pool)
    pool.shutdown(wait=True, cancel_futures=True)


def _drain(
    pool: ProcessPoolExecutor,
    pending: set[Future[list[Result]]],
    todo: Iterator[Job],
    sizer: ChunkSizer,
) -> Iterator[Result]:
    """Yield the results of ``pending`` as they finish, sending the rest of ``todo``."""
    finished = False
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                results = fut.result()
                sizer.observe(results)
                chunk = sizer.take(todo)
                if chunk:
                    pending.add(pool.submit(run_chunk, chunk))
                yield from results
        finished = True
    finally:
        if not finished:  # interrupted, or the caller stopped early: stop the running jobs too
            kill_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """SIGKILL ``pool``'s worker processes (they ignore SIGINT and SIGTERM), so stopping a
    benchmark does not wait for jobs still running, however long they are; their results
    are simply not stored (the finished ones already are)."""
    processes = getattr(pool, "_processes", None) or {}
    for proc in list(processes.values()):
        if proc.is_alive():
            proc.kill()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(
            "Ray is not installed; install it with: pip install 'sunbot[ray]'"
        ) from None
    return ray


def sunbot_env() -> dict[str, str]:
    """This process's ``SUNBOT_*`` environment variables (strategy settings such as
    ``SUNBOT_SUNLOAF_BUDGET_MS``), which Ray tasks get too, so a cluster plays with the same
    settings as the local pool (whose workers inherit the environment)."""
    return {k: v for k, v in os.environ.items() if k.startswith("SUNBOT_")}


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail fast when a ``host:port`` (or ``ray://host:port``) Ray address does not answer.

    ``ray.init`` keeps retrying an unreachable address for minutes; this TCP check turns
    that into a clear error. Addresses without a port (``auto``, ``local``) are left to Ray.

    Raises:
        BackendError: nothing accepts TCP connections at that host and port.
    """
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout_s):
            pass
    except OSError as exc:
        raise BackendError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}"
            " (start one with `ray start --head`, or drop --ray-address for a local instance)"
        ) from None


def run_ray(
    jobs: Sequence[Job], workers: int | None = None, address: str | None = None
) -> Iterator[Result]:
    """Run ``jobs`` as Ray tasks; yield results as they finish.

    Without ``address`` a local Ray instance with ``workers`` CPUs (default: the cores) is
    started and shut down afterwards; with it, Ray connects to that cluster (whose nodes
    need sunbot installed) and leaves it running. If Ray is already initialised in this
    process, that instance is used as is. Tasks get :func:`sunbot_env`.

    Raises:
        BackendError: Ray missing, or the instance cannot be started or reached (raised on
            the first ``next()``, before any job runs).
    """
    ray = _import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        if address is not None:
            check_reachable(address)
        try:
            if address is not None:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(
                    address="local",  # a new instance, even if `ray start` left one running
                    num_cpus=workers or default_workers(),
                    include_dashboard=False,
                    logging_level=logging.ERROR,
                    log_to_driver=False,
                )
        except Exception as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise BackendError(f"cannot start or reach {where}: {exc}") from exc
    pending: list[Any] = []
    try:
        slots = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        options: dict[str, Any] = {"num_cpus": 1, "max_retries": 0}
        forwarded = sunbot_env()
        if forwarded:
            options["runtime_env"] = {"env_vars": forwarded}
        task = ray.remote(**options)(run_chunk)
        todo, sizer = iter(jobs), ChunkSizer()
        for _ in range(IN_FLIGHT_PER_WORKER * slots):
            chunk = sizer.take(todo)
            if not chunk:
                break
            pending.append(task.remote(chunk))
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results: list[Result] = ray.get(ref)
                sizer.observe(results)
                chunk = sizer.take(todo)
                if chunk:
                    pending.append(task.remote(chunk))
                yield from results
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started_here:
            ray.shutdown()
