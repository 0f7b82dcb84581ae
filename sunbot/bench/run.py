"""``sunbot.bench(...)``: a benchmark from Python, through the same jobs and backends as
``sunbot bench`` (no typer, no rich, nothing printed, nothing stored)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sunbot import strategies as _strategies
from sunbot.bench.backends import run_jobs
from sunbot.bench.jobs import Job, Result
from sunbot.games import get_game, seed_problem

__all__ = ["BenchRow", "bench", "run_bench"]

#: One job's row: the bench :class:`~sunbot.bench.jobs.Result` (score, progress, ended_by,
#: error, decision times, wall time ...).
BenchRow = Result


def bench(
    game: str,
    strategies: Sequence[str] = (),
    seeds: Iterable[int] = range(1, 21),
    cap: int | None = None,
    workers: int | None = None,
    *,
    backend: str = "local",
    timeout_s: float | None = None,
) -> list[BenchRow]:
    """Play every strategy on every seed of ``game`` on the engines and return the rows.

    Args:
        game: a game slug sunbot knows (``keelhold``, ``sunloaf``, ``naptuft``,
            ``harvest-watch``; Harvest Watch: one match per seed at a table of house bots).
        strategies: built-in names or bot files (``path/bot.py:Class``); empty: the game's
            default strategy.
        seeds: run seeds (signed 64-bit integers), in order.
        cap: end each run at this many voyages (Keelhold) or days (Sunloaf, Naptuft);
            ``None``: the game's default cap, as ``sunbot play`` and ``sunbot bench``.
        workers: parallel worker processes (default: the cores, never more than the jobs).
        backend: ``"local"`` (a process pool) or ``"ray"``.
        timeout_s: stop a job after this many seconds of wall time (its row then says
            ``ended_by == "timeout"``).

    Returns:
        One :data:`BenchRow` per (seed, strategy), seed by seed and each seed's strategies
        in the order given. A run that failed is a row with ``ended_by == "error"``.

    Raises:
        ValueError: an unknown game or strategy, a seed that is not a 64-bit integer, a cap
            out of the game's range, or bad ``workers``/``backend``.
        sunbot.bench.backends.BackendError: Ray missing or unreachable.
    """
    try:
        info = get_game(game)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None
    names = list(strategies) or [_strategies.default_name(info.slug)]
    for name in names:
        try:
            _strategies.check(info.slug, name)
        except (KeyError, ValueError, ImportError) as exc:
            raise ValueError(str(exc.args[0] if exc.args else exc)) from None
    seed_list = list(seeds)
    for seed in seed_list:
        problem = seed_problem(seed)
        if problem is not None:
            raise ValueError(problem)
    if cap is not None:
        if info.cap_field is None:
            raise ValueError(f"{info.slug} runs have no cap; give cap=None")
        if (
            isinstance(cap, bool)
            or not isinstance(cap, int)
            or not 1 <= cap <= (info.max_cap or cap)
        ):
            raise ValueError(f"cap must be 1..{info.max_cap} {info.cap_field}s, got {cap!r}")
    run_cap = info.default_cap if cap is None else cap
    jobs = [
        Job(info.slug, name, seed, run_cap, timeout_s=timeout_s)
        for seed in seed_list
        for name in names
    ]
    if not jobs:
        return []
    order = {(j.strategy, j.seed): i for i, j in enumerate(jobs)}
    rows = list(run_jobs(jobs, backend, workers))
    return sorted(rows, key=lambda r: order.get((r.strategy, r.seed), len(order)))


#: :func:`bench` under the name ``sunbot.run_bench`` (``sunbot.bench`` is the package, made
#: callable; a type checker sees this one's signature).
run_bench = bench
