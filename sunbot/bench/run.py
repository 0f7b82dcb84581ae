"""``sunbot.bench(...)`` and ``sunbot.tournament(...)``: benchmarks from Python, through the
same jobs and backends as ``sunbot bench`` and ``sunbot tournament`` (no typer, no rich,
nothing printed, nothing stored).

Both work from a plain script with no ``if __name__ == "__main__":`` guard and from a
notebook: one worker (``workers=1``) or one job runs in this process; more run on the local
pool, whose workers are forked where that is safe and so never re-import the calling
script (:func:`sunbot.bench.backends.start_method`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from sunbot import strategies as _strategies
from sunbot.bench.backends import run_jobs
from sunbot.bench.jobs import Job, Result, group_of, job_key, run_chunk
from sunbot.bench.result import BenchResult, TournamentResult
from sunbot.games import GameInfo, get_game, seed_problem

__all__ = ["BenchResult", "BenchRow", "TournamentResult", "bench", "run_bench", "tournament"]

#: One job's row: the bench :class:`~sunbot.bench.jobs.Result` (score, progress, ended_by,
#: error, decision times, wall time ...).
BenchRow = Result


def _game(game: str) -> GameInfo:
    try:
        return get_game(game)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None


def _checked(info: GameInfo, names: Sequence[str]) -> list[str]:
    if isinstance(names, str):
        raise ValueError(f"strategies must be a list of names, got the string {names!r}")
    out = list(names) or [_strategies.default_name(info.slug)]
    for name in out:
        try:
            _strategies.check(info.slug, name)
        except (KeyError, ValueError, ImportError) as exc:
            raise ValueError(str(exc.args[0] if exc.args else exc)) from None
    return out


def _seeds(seeds: Iterable[int]) -> list[int]:
    out = list(seeds)
    for seed in out:
        problem = seed_problem(seed)
        if problem is not None:
            raise ValueError(problem)
    return out


def _cap(info: GameInfo, cap: int | None) -> int | None:
    if cap is None:
        return info.default_cap
    if info.cap_field is None:
        raise ValueError(f"{info.slug} runs have no cap; give cap=None")
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= (info.max_cap or cap):
        raise ValueError(f"cap must be 1..{info.max_cap} {info.cap_field}s, got {cap!r}")
    return cap


def _run(jobs: list[Job], backend: str, workers: int | None) -> list[Result]:
    """The jobs' rows in the jobs' order: in this process for one worker or one job on the
    local backend, else on ``backend``'s workers."""
    if not jobs:
        return []
    if backend == "local" and (workers == 1 or len(jobs) == 1):
        return run_chunk(jobs)
    order = {job_key(j): i for i, j in enumerate(jobs)}
    rows = list(run_jobs(jobs, backend, workers))
    return sorted(rows, key=lambda r: order.get(_key(r), len(order)))


def _key(row: Result) -> tuple[str, str, int]:
    """A row's :func:`~sunbot.bench.jobs.job_key`: ``(strategy, table, seed)``."""
    return row.strategy, row.table, row.seed


def _by_key(rows: Sequence[Result]) -> dict[tuple[str, str, int], Result]:
    return {_key(r): r for r in rows}


def bench(
    game: str,
    strategies: Sequence[str] = (),
    seeds: Iterable[int] = range(1, 21),
    cap: int | None = None,
    workers: int | None = None,
    *,
    backend: str = "local",
    timeout_s: float | None = None,
) -> BenchResult:
    """Play every strategy on every seed of ``game`` on the engines; return the rows and
    the statistics ``sunbot bench`` prints.

    Works from a plain script without a main guard and from a notebook (module docstring).

    Args:
        game: a game slug sunbot knows (``keelhold``, ``sunloaf``, ``naptuft``,
            ``harvest-watch``; Harvest Watch: one match per seed at a table of house bots).
        strategies: built-in names or bot files (``path/bot.py:Class``); empty: the game's
            default strategy.
        seeds: run seeds (signed 64-bit integers), in order.
        cap: end each run at this many voyages (Keelhold) or days (Sunloaf, Naptuft);
            ``None``: the game's default cap, as ``sunbot play`` and ``sunbot bench``.
        workers: parallel worker processes (default: the cores, never more than the jobs);
            ``1`` plays every job in this process.
        backend: ``"local"`` (this process or a process pool) or ``"ray"``.
        timeout_s: stop a job after this many seconds of wall time (its row then says
            ``ended_by == "timeout"``).

    Returns:
        A :class:`~sunbot.bench.result.BenchResult`: per strategy the mean score with its
        95% CI, the median and quartiles; per pair the paired difference, the ratio of
        means, the Wilcoxon p and W-L-T; the ``verdict`` sentence; ``to_pandas()``. As a
        sequence it is the rows, one :data:`BenchRow` per (seed, strategy), seed by seed
        and each seed's strategies in the order given (also ``.rows``). A run that failed
        is a row with ``ended_by == "error"``, left out of the statistics.

    Raises:
        ValueError: an unknown game or strategy, a seed that is not a 64-bit integer, a cap
            out of the game's range, or bad ``workers``/``backend``.
        sunbot.bench.backends.BackendError: Ray missing or unreachable.
    """
    from sunbot.bench.analysis import analyse
    from sunbot.bench.verdict import bench_verdict

    info = _game(game)
    names = _checked(info, strategies)
    seed_list = _seeds(seeds)
    run_cap = _cap(info, cap)
    jobs = [
        Job(info.slug, name, seed, run_cap, timeout_s=timeout_s)
        for seed in seed_list
        for name in names
    ]
    rows = _run(jobs, backend, workers)
    # a Harvest Watch job's group is its strategy at its table ("adaptive vs 5 house")
    groups = list(dict.fromkeys(group_of(r) for r in rows)) or names
    analysis = analyse(info.slug, rows, groups)
    return BenchResult(info.slug, rows, analysis, bench_verdict(analysis), run_cap)


#: :func:`bench` under the name ``sunbot.run_bench`` (``sunbot.bench`` is the package, made
#: callable; a type checker sees this one's signature).
run_bench = bench

#: The matches a Harvest Watch tournament plays when none are given.
DEFAULT_MATCHES = 30


def tournament(
    game: str,
    strategies: Sequence[str],
    *,
    matches: int = DEFAULT_MATCHES,
    seed: int = 1,
    seeds: Iterable[int] = range(1, 21),
    cap: int | None = None,
    workers: int | None = None,
    backend: str = "local",
    timeout_s: float | None = None,
) -> TournamentResult:
    """Rate strategies against each other as ``sunbot tournament`` does, and return the
    standings with their verdict.

    Harvest Watch: ``matches`` drawn tables (match ``m`` plays seed ``seed + m``), rated by
    OpenSkill with each entrant's 95% interval. Single-player games: every entrant on the
    same ``seeds`` (with ``cap``), ranked by mean score, paired per seed.

    Args:
        game: a game slug sunbot knows.
        strategies: two or more entrants, each once (names or bot files; Harvest Watch:
            ``house`` is the server's house bots).
        matches, seed: Harvest Watch: how many matches, and the tournament seed.
        seeds, cap: single-player games: the seeds every entrant plays, and the run cap
            (``None``: the game's default).
        workers, backend, timeout_s: as :func:`bench`.

    Returns:
        A :class:`~sunbot.bench.result.TournamentResult` (``ratings`` or ``ranking``,
        ``verdict``, ``rows``, ``errors``, ``to_pandas()``).

    Raises:
        ValueError: an unknown game or entrant, fewer than two entrants or one named twice,
            ``matches`` out of 1..100,000, a bad seed or cap.
    """
    from sunbot.bench.tournament import draw_job, schedule_matches, schedule_seeds
    from sunbot.bench.tournament_standings import match_standings, paired_standings
    from sunbot.bench.verdict import ranking_verdict, rating_verdict

    info = _game(game)
    names = list(strategies)
    if isinstance(strategies, str) or len(names) < 2:
        raise ValueError(f"a tournament needs at least two entrants, got {names!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"an entrant is named more than once: {names!r}")
    if info.kind == "match":
        names = [n if n == "house" else _checked(info, [n])[0] for n in names]
        if isinstance(matches, bool) or not isinstance(matches, int) or not 1 <= matches <= 100_000:
            raise ValueError(f"matches must be 1..100,000, got {matches!r}")
        draws = schedule_matches(names, matches, seed)
        jobs = [replace(draw_job(d), timeout_s=timeout_s) for d in draws]
        rows = _run(jobs, backend, workers)
        s = match_standings(info.slug, draws, _by_key(rows), names, {})
        return TournamentResult(
            info.slug,
            ratings=TournamentResult.rating_stats(s.ratings),
            rows=rows,
            errors=[f"{e.label()}: {e.error}" for e in s.errors],
            verdict=rating_verdict(s.ratings),
        )
    names = _checked(info, names)
    run_cap = _cap(info, cap)
    jobs = [
        Job(info.slug, d.strategy, d.seed, run_cap, timeout_s=timeout_s)
        for d in schedule_seeds(names, _seeds(seeds))
    ]
    rows = _run(jobs, backend, workers)
    s = paired_standings(info.slug, jobs, _by_key(rows), {})
    return TournamentResult(
        info.slug,
        ranking=s.ranking,
        rows=rows,
        errors=[f"{e.label()}: {e.error}" for e in s.errors],
        verdict=s.failed or ranking_verdict(s.ranking),
    )
