"""The job function: one ``(game, strategy, seed, cap)`` played on the engine -> one row.

A single-player job is the one run loop (:func:`sunbot.runs.loop.play_loop`) over the engine
backend (:class:`sunbot.runs.backends.EngineBackend`: no HTTP, trusted answers), exactly as
``sunbot play`` steps a run over a server: the strategy's optional ``on_start``, ``init(seed)``,
then until the run is over the games table's ``cap_action`` (the run's cap) or the strategy's
choice, then ``step``. A refused action changes nothing and counts as refused; the loop's
refusal limit, or any exception from the strategy or engine, ends the job with
``ended_by == "error"`` and the reason in ``error`` (the row is still written).

Match games (Harvest Watch) are whole matches: our strategy in one seat, the job's
``table`` in the other five (house bots, ``house_command``, or named strategies), or a
given six-seat ``lineup`` (a tournament's draw); see :func:`run_match` and :func:`seating`.

Determinism: the strategy gets the ``random.Random`` that ``sunbot play`` gives it (``seed``;
matches: ``seed * 1000``, the table's k-th strategy ``seed * 1000 + k``; a lineup's seat
``s``: ``seed * 1000 + s``); everything in a
:class:`Result` except :data:`TIMING_FIELDS` depends on the job alone.
This module is what workers import: it must stay free of SciPy and matplotlib.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from sunbot import strategies
from sunbot._text.safe import clip, describe
from sunbot._version import __version__
from sunbot.bench.engine_match import HOUSE as HOUSE  # re-exported: the table's names
from sunbot.bench.engine_match import MATCH_SEATS as MATCH_SEATS
from sunbot.bench.engine_match import MAX_MATCH_BEATS as MAX_MATCH_BEATS
from sunbot.bench.engine_match import MatchTooLong, SeatError, play_seats
from sunbot.games import GAMES, GameInfo, generic_game, get_game
from sunbot.spend import meter as spending
from sunbot.spend.caps import SpendCaps

EndedBy = Literal["rules", "cap", "error", "timeout", "spend"]
#: Fields of a :class:`Result` that are measurements and differ from run to run.
TIMING_FIELDS: tuple[str, ...] = ("decision_p50_ms", "decision_p95_ms", "wall_s")
#: The default table: five house bots, as a one-seat match on the server.
HOUSE_TABLE: tuple[str, ...] = (HOUSE,) * (MATCH_SEATS - 1)
#: How a match job seats the players: ``shuffled`` (a uniform shuffle of all six seats from
#: the seed, :func:`seating`) or ``server`` (our seat drawn by the match RNG as the local
#: server draws a one-seat match; the table fills the other seats in ascending order).
SEATINGS: tuple[str, ...] = ("shuffled", "server")
#: The seating of a job that gives its six-seat ``lineup`` (every seat as given).
LINEUP_SEATING = "lineup"


@dataclass(frozen=True)
class Job:
    """One unit of work.

    Attributes:
        game: game slug (``sunbot.games.GAMES``).
        strategy: strategy name for that game (``strategies.names(game)``).
        seed: the run's (or match's) seed.
        cap: end the run once this many voyages/days are done (the games table's
            ``cap_field``); ``None`` plays until the rules end the run.
        table: match games: the strategies of the other five seats (:data:`HOUSE` for a
            house bot; :data:`HOUSE_TABLE` when empty); ignored by single-player games.
        seating: match games: one of :data:`SEATINGS` (default ``shuffled``).
        timeout_s: stop the job after this many seconds of wall time (``sunbot bench
            --job-timeout``); its row then says ``ended_by == "timeout"`` and has no score.
        server: play on this Gameboard server (a URL, or ``"embedded"``) through the client
            with the game's mirror (the generic checks for a game sunbot does not know);
            ``None``: the engine in-process. A game sunbot does not know needs one.
        move_timeout: seconds one decision may take (the fallback action is played after).
        options: an agent's options as ``(name, value)`` pairs (``llm:MODEL``: ``base_url``,
            ``price``, ...), built in the worker (an agent holds connections).
        max_steps: end the run after this many steps (a game sunbot does not know).
        lineup: match games: the strategy in each of seats 0-5, played as given (names may
            repeat; :data:`HOUSE` is a house bot); ``strategy`` must be one of them: the
            row reports on its first seat. ``table`` and ``seating`` are then ignored: the
            row's table is the other five seats in seat order and its seating is
            :data:`LINEUP_SEATING`. Empty (the default): ``strategy`` against ``table``.
        spend: the daily spend caps the job counts against (:mod:`sunbot.spend`: model
            tokens and money, requests to ``server``), shared with every other job and run.
    """

    game: str
    strategy: str
    seed: int
    cap: int | None = None
    table: tuple[str, ...] = ()
    seating: str = "shuffled"
    timeout_s: float | None = None
    server: str | None = None
    move_timeout: float | None = None
    options: tuple[tuple[str, Any], ...] = ()
    max_steps: int | None = None
    lineup: tuple[str, ...] = ()
    spend: SpendCaps | None = None


@dataclass(frozen=True)
class Result:
    """One job's row.

    Attributes:
        score: the game's score at the end (Harvest Watch: seats ranked strictly below ours,
            0-5).
        progress: voyage (Keelhold) or day (others) the run reached; Harvest Watch: the
            night our seat went out, or the last day if it was still living.
        progress_field: ``"voyage"`` or ``"day"``.
        cause: the game's own word for how it ended (``cause``/``result``; Harvest Watch:
            ``win``, ``draw`` or ``lost``), ``None`` while the run was not over.
        ended_by: ``rules``, ``cap``, ``error`` (then ``error`` says why) or ``timeout``
            (stopped at the job's ``timeout_s``; its ``score`` is 0 and is no score: the
            statistics leave it out); ``spend``: a daily spend cap stopped the job
            (``error`` says which): such a row is never stored, and the job runs again
            on ``--resume``.
        steps: actions sent, refused ones included (Harvest Watch: beats our seat played).
        refused: actions the rules refused.
        decisions: ``choose`` calls.
        seat, rank: Harvest Watch: our seat and its final rank (1 is best); else ``None``.
        table: Harvest Watch: the other five seats' strategies as asked, comma-separated
            (``house`` = a house bot); ``""`` for single-player games.
        seating: Harvest Watch: ``shuffled`` or ``server`` (:data:`SEATINGS`), or
            ``lineup`` for a job that gave its lineup; else ``""``.
        lineup: Harvest Watch: the strategy in each of seats 0-5, comma-separated (ours is
            at ``seat``); else ``""``.
        win_share: Harvest Watch: ``1/k`` when our seat shares rank 1 with ``k - 1`` others
            (1.0 a sole win), else 0.0; the mean over matches is the win share (a table of
            identical strategies averages 1/6 a seat); ``None`` for single-player games.
        decision_p50_ms, decision_p95_ms: ``choose`` time percentiles in milliseconds
            (``None`` without decisions).
        wall_s: the job's wall time in seconds.
        version: ``sunbot.__version__`` of the process that ran the job.
        timeouts: decisions past the move timeout (the fallback action played).
        tokens: a language-model agent's prompt + completion tokens (``None`` otherwise).
        cost_usd: its cost, when a price was given (``None`` otherwise).
        ranks: Harvest Watch: every seat's final rank, seats 0-5, comma-separated
            (``"1,3,3,2,5,6"``; 1 best, equal ranks a tie); ``""`` when the match did not
            finish, and for single-player games. With a default, as the fields above, so
            code that builds rows without it keeps working (the store adds the column).
        health: a language-model agent's decisions per phase as compact JSON
            (``{"care": {"decisions": 10, "illegal": 0, ..., "fallback": 1}}``,
            :mod:`sunbot.agents.health`); ``""`` for other strategies.
        requests: ``search --lookahead``: the requests its lookahead sent the server
            (``None`` for a strategy that sent none of its own).
        clairvoyant: ``search --allow-peek`` looked ahead through answers holding what the
            player cannot see: the row's group is labelled ``(clairvoyant)``
            (:func:`group_of`), so its scores are never pooled with honest ones.
    """

    game: str
    strategy: str
    seed: int
    cap: int | None
    score: int | float
    progress: int
    progress_field: str
    cause: str | None
    ended_by: EndedBy
    error: str | None
    steps: int
    refused: int
    decisions: int
    seat: int | None
    rank: int | None
    table: str
    seating: str
    lineup: str
    win_share: float | None
    decision_p50_ms: float | None
    decision_p95_ms: float | None
    wall_s: float
    version: str
    timeouts: int = 0
    tokens: int | None = None
    cost_usd: float | None = None
    ranks: str = ""
    health: str = ""
    requests: int | None = None
    clairvoyant: bool = False

    def to_row(self) -> dict[str, Any]:
        """The row as a dict, field order as declared (the store's column order)."""
        return asdict(self)

    def deterministic(self) -> dict[str, Any]:
        """The row without :data:`TIMING_FIELDS`: equal for equal jobs on any backend."""
        return {k: v for k, v in asdict(self).items() if k not in TIMING_FIELDS}


#: Column names of a result row, in order.
RESULT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Result))


@dataclass
class _Tally:
    steps: int = 0
    refused: int = 0
    error: str | None = None
    ended_by: EndedBy = "rules"
    seat: int | None = None
    rank: int | None = None
    lineup: tuple[str, ...] = ()
    ranks: tuple[int, ...] = ()
    bot: Any = None
    timeouts: int = 0
    agent: dict[str, Any] = field(default_factory=dict)


def job_key(job: Job) -> tuple[str, str, int]:
    """``(strategy, table, seed)``: what identifies ``job`` in a run (the store's key).

    ``table`` is :func:`table_of` comma-joined for a match game, ``""`` otherwise.
    """
    info = GAMES.get(job.game)
    match = info is not None and info.kind == "match"
    return job.strategy, ",".join(table_of(job)) if match else "", job.seed


def table_label(table: str) -> str:
    """A table as people say it: ``"5 house"``, ``"2 house + 2 guard + random"``."""
    counts: dict[str, int] = {}
    for name in table.split(","):
        counts[name] = counts.get(name, 0) + 1
    return " + ".join(name if n == 1 else f"{n} {name}" for name, n in counts.items())


def group_label(strategy: str, table: str) -> str:
    """A result group's name: the strategy, and its table if it has one
    (``"coalition vs 5 guard"``)."""
    return f"{strategy} vs {table_label(table)}" if table else strategy


#: What marks the group (and the tournament entrant) of a clairvoyant row.
CLAIRVOYANT = " (clairvoyant)"


def entrant(result: Result) -> str:
    """The row's strategy as its statistics name it: ``search (clairvoyant)`` for a run
    that looked ahead through hidden information, else the strategy."""
    return result.strategy + (CLAIRVOYANT if result.clairvoyant else "")


def group_of(result: Result) -> str:
    """The group a row's statistics belong to (:func:`group_label`; a clairvoyant row's
    strategy marked, so it is never pooled with honest rows)."""
    return group_label(entrant(result), result.table)


class JobTimedOut(BaseException):
    """Raised in a worker's main thread when its job passes ``timeout_s`` (a
    ``BaseException``, so a strategy's ``except Exception`` cannot swallow it)."""


def _alarm(signum: int, frame: object) -> None:
    raise JobTimedOut


def run_job(job: Job) -> Result:
    """Play ``job`` on its engine and return its row (never raises for a failing run).

    A job with ``timeout_s`` is stopped by an alarm in this process's main thread (where
    pool and Ray workers run jobs) once that many seconds have passed: the row then has
    ``ended_by == "timeout"``. Python code is stopped wherever it is (a ``time.sleep``
    included); a bot stuck inside C code is stopped when it returns to Python, and one in
    another process (``exec:``, ``--isolate``) when its wait ends.

    Raises:
        KeyError: unknown or unavailable game (a bad job, not a failing run).
        ValueError: a match job whose table has more than five names, or whose lineup is
            not six names holding ``job.strategy`` (:func:`table_of`; a bad job too).
    """
    import signal
    import threading

    timed = (
        job.timeout_s is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not timed:
        return _run_job(job)
    started = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, float(job.timeout_s or 0))
    try:
        return _run_job(job)
    except JobTimedOut:
        return _timed_out(job, time.perf_counter() - started)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _timed_out(job: Job, wall_s: float) -> Result:
    """The row of a job stopped at its ``timeout_s``: no score, no progress."""
    info = GAMES.get(job.game) or generic_game(job.game)
    match = info.kind == "match"
    return Result(
        game=job.game, strategy=job.strategy, seed=job.seed, cap=job.cap, score=0,
        progress=0, progress_field=info.cap_field or "day", cause=None, ended_by="timeout",
        error=f"timed out after {job.timeout_s:g} s (--job-timeout)", steps=0, refused=0,
        decisions=0, seat=None, rank=None, table=",".join(table_of(job)) if match else "",
        seating=_seating_of(job) if match else "", lineup=",".join(job.lineup), win_share=None,
        decision_p50_ms=None, decision_p95_ms=None, wall_s=wall_s, version=__version__,
    )  # fmt: skip


def _run_job(job: Job) -> Result:
    info = GAMES.get(job.game)
    if info is None and job.server is None:
        raise KeyError(f"unknown game {job.game!r}: a game sunbot does not know needs a server")
    if info is not None:
        get_game(job.game)  # an unavailable game is a bad job (KeyError)
    meter = spending.active(job.spend)  # this worker's meter of the shared daily caps
    if meter is not None:
        meter.begin()
    result = _played(info, job)
    if meter is not None and meter.stopped is not None:  # a cap, not the job, ended it
        return replace(result, ended_by="spend", error=meter.stopped, score=0)
    return result


def _played(info: GameInfo | None, job: Job) -> Result:
    """Play ``job`` (of ``info``'s game, ``None`` for one sunbot does not know)."""
    started = time.perf_counter()
    timings: list[float] = []
    tally = _Tally()
    share = None
    score: int | float
    if info is not None and info.kind == "match":
        final = run_match(info, job, timings, tally)
        score, progress, cause = _match_outcome(final, tally)
        share = _win_share(final, tally)
    else:
        score, progress, cause = _run_single(info, job, timings, tally)
    match = info is not None and info.kind == "match"
    p50, p95 = _percentiles(timings)
    agent = tally.agent
    tokens = agent.get("promptTokens", 0) + agent.get("completionTokens", 0) if agent else 0
    return Result(
        game=job.game,
        strategy=job.strategy,
        seed=job.seed,
        cap=job.cap,
        score=score,
        progress=progress,
        progress_field=(info.cap_field or "day") if info is not None else "step",
        cause=cause,
        ended_by=tally.ended_by,
        error=tally.error,
        steps=tally.steps,
        refused=tally.refused,
        decisions=len(timings),
        seat=tally.seat,
        rank=tally.rank,
        table=",".join(table_of(job)) if match else "",
        seating=_seating_of(job) if match else "",
        lineup=",".join(tally.lineup),
        ranks=",".join(map(str, tally.ranks)),
        win_share=share,
        decision_p50_ms=p50,
        decision_p95_ms=p95,
        wall_s=time.perf_counter() - started,
        version=__version__,
        timeouts=tally.timeouts,
        tokens=int(tokens) if agent.get("kind") == "llm" else None,
        cost_usd=agent.get("costUsd") if agent.get("kind") == "llm" else None,
        health=_health(agent),
        requests=_requests(agent),
        clairvoyant=agent.get("clairvoyant") is True,
    )


def _health(agent: dict[str, Any]) -> str:
    """A model's per-phase health (``agent["health"]``) as compact JSON, else ``""``."""
    health = agent.get("health") if agent.get("kind") == "llm" else None
    if not isinstance(health, dict):
        return ""
    import json

    return json.dumps(health, sort_keys=True, separators=(",", ":"))


def _requests(agent: dict[str, Any]) -> int | None:
    """The requests a search's lookahead sent (``None`` without a lookahead)."""
    look = agent.get("lookahead")
    value = look.get("requests") if isinstance(look, dict) else None
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _seating_of(job: Job) -> str:
    """A match job's row ``seating``: :data:`LINEUP_SEATING` for a lineup, else its own."""
    return LINEUP_SEATING if job.lineup else job.seating


def run_chunk(jobs: list[Job]) -> list[Result]:
    """:func:`run_job` on each of ``jobs`` in order (backends send short jobs in chunks)."""
    return [run_job(job) for job in jobs]


def _percentiles(timings: list[float]) -> tuple[float | None, float | None]:
    """p50 and p95 in ms, linear interpolation (``numpy.percentile``'s default method, via
    the stdlib so workers need not import NumPy)."""
    if not timings:
        return None, None
    ms = [t * 1000.0 for t in timings]
    if len(ms) == 1:
        return round(ms[0], 4), round(ms[0], 4)
    cuts = statistics.quantiles(ms, n=20, method="inclusive")  # 5%, 10%, ..., 95%
    return round(cuts[9], 4), round(cuts[18], 4)


#: The options only ``search`` takes (``--engine``, ``--lookahead``...).
SEARCH_OPTIONS = frozenset({"engine", "lookahead", "lookahead_budget", "allow_peek", "objective"})


def _start(job: Job) -> strategies.Strategy:
    """The strategy as ``sunbot play`` builds it: ``random.Random(seed)``. A job whose
    options name an ``agent`` (a prompt variant's, labelled ``llm:MODEL@NAME``) builds
    that agent text, with the other options; a ``search`` that looks ahead asks the job's
    server."""
    from sunbot.agents.spec import create_agent

    options = dict(job.options)
    text = str(options.pop("agent", job.strategy))
    # a bench's options go to every job: the search options only to search, the others
    # (an ``llm:MODEL``'s) only to the other agents
    searching = text.strip() == "search"
    options = {
        k: v for k, v in options.items() if k == "isolate" or (k in SEARCH_OPTIONS) == searching
    }
    if job.strategy == "search" and "lookahead" in options:
        options["server"] = None if job.server in (None, "embedded") else job.server
    return create_agent(job.game, text, random.Random(job.seed), seed=job.seed, **options)


def _run_single(
    info: GameInfo | None, job: Job, timings: list[float], tally: _Tally
) -> tuple[int | float, int, str | None]:
    """The one run loop on the engine backend (or on ``job.server``); returns the row's
    ``(score, progress, cause)``."""
    from sunbot.runs.loop import Run, play_loop

    try:
        bot = tally.bot = _start(job)
        backend, checks = _backend(info, job)
    except Exception as exc:  # a failing run is a row saying why, not a lost benchmark
        tally.ended_by, tally.error = "error", f"{type(exc).__name__}: {exc}"
        return 0, 0, None
    run = Run(backend, job.game, job.seed, strategy_name=job.strategy, cap=job.cap, checks=checks)
    steps = job.max_steps or (job.cap if info is None else None)  # an unknown game: steps
    loop = play_loop(run, bot, timings=timings, move_timeout=job.move_timeout, step_cap=steps)
    if backend.trusted and job.move_timeout is None and not getattr(bot, "blocking", False):
        from sunbot.runs.backends import drive

        summary = drive(loop)  # the engine never suspends: no event loop needed
    else:
        import asyncio

        summary = asyncio.run(_closing(loop, backend))
    tally.steps, tally.refused, tally.timeouts = summary.steps, summary.refused, summary.timeouts
    tally.agent = summary.agent
    if summary.ended_by == "error":
        tally.ended_by, tally.error = "error", summary.error
    elif summary.divergences:  # a server's answer the rules (or the platform) do not allow
        first = summary.divergences[0]
        tally.ended_by = "error"
        tally.error = f"{len(summary.divergences)} divergence(s); first: {first}"
    elif summary.ended_by == "cap":
        tally.ended_by = "cap"
    pos = run.position
    if pos is None:
        return 0, 0, None
    if info is None:
        return summary.score, summary.steps, None
    state = pos.state if isinstance(pos.state, dict) else pos.observation
    progress = state.get(info.cap_field or "day", 0)
    raw = state.get("cause") or state.get("result")
    return summary.score, int(progress) if isinstance(progress, int) else 0, _str(raw)


def _str(value: Any) -> str | None:
    return str(value) if value is not None else None


async def _closing(loop: Any, backend: Any) -> Any:
    """Await the run, then close the backend's connections."""
    try:
        return await loop
    finally:
        await backend.aclose()


def _backend(info: GameInfo | None, job: Job) -> tuple[Any, Any]:
    """``(backend, checks)`` of a job: the engine (trusted, unchecked), or ``job.server``
    through the client with the game's mirror (the generic checks for an unknown game)."""
    if job.server is None:
        from sunbot.runs.backends import EngineBackend

        assert info is not None
        return EngineBackend(info), None
    from sunbot.api import open_backend

    backend = open_backend(None if job.server == "embedded" else job.server, info)
    if info is not None:
        from sunbot.mirror import Mirror

        return backend, Mirror(info.slug)
    engine = dict(job.options).get("engine")
    if isinstance(engine, str):  # a modelled game: its model checks every answer
        from sunbot.api import model_checks
        from sunbot.forward.load import load_model

        return backend, model_checks(load_model(engine, job.game), job.game, job.seed)
    from sunbot.generic.checks import GenericChecks

    return backend, GenericChecks(job.game)


def table_of(job: Job) -> tuple[str, ...]:
    """The five other seats of ``job``'s match: its ``table`` padded with :data:`HOUSE`;
    for a job with a ``lineup``, the lineup without our seat (its first seat of
    ``job.strategy``), in seat order.

    Raises:
        ValueError: more than five names; a lineup that is not six names or does not
            hold ``job.strategy``.
    """
    if job.lineup:
        seat = _lineup_seat(job)
        return (*job.lineup[:seat], *job.lineup[seat + 1 :])
    if len(job.table) > MATCH_SEATS - 1:
        raise ValueError(f"a table has at most {MATCH_SEATS - 1} other seats, not {len(job.table)}")
    return (*job.table, *(HOUSE,) * (MATCH_SEATS - 1 - len(job.table)))


def _lineup_seat(job: Job) -> int:
    """Our seat in ``job.lineup``: the first holding ``job.strategy`` (``ValueError`` if the
    lineup is not six names or does not hold it)."""
    names = job.lineup
    if len(names) != MATCH_SEATS or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"a lineup is {MATCH_SEATS} strategy names, got {len(names)}")
    if job.strategy not in names:
        raise ValueError(f"strategy {job.strategy!r} has no seat in the lineup")
    return names.index(job.strategy)


def seating(seed: int, mode: str, match_rng: random.Random) -> list[int]:
    """Where the six players sit: element 0 is our seat, element ``k`` the table's k-th's.

    Both modes first draw a seat from the match RNG exactly as the match server draws a
    one-seat match (``sorted(match_rng.sample(range(6), 1))``), so the house bots see the
    server's RNG stream. ``server``: we sit there and the table fills the other seats in
    ascending order. ``shuffled``: all six players are shuffled uniformly by
    ``random.Random(f"sunbot-bench-seating/{seed}").sample(range(6), 6)``, from the seed
    alone (reproducible, independent of the match RNG).

    Raises:
        ValueError: ``mode`` not in :data:`SEATINGS`.
    """
    drawn = sorted(match_rng.sample(range(MATCH_SEATS), 1))[0]
    if mode == "server":
        return [drawn, *(s for s in range(MATCH_SEATS) if s != drawn)]
    if mode == "shuffled":
        return random.Random(f"sunbot-bench-seating/{seed}").sample(range(MATCH_SEATS), MATCH_SEATS)
    raise ValueError(f"unknown seating {mode!r}: use one of {', '.join(SEATINGS)}")


def _players(
    job: Job, match_rng: random.Random
) -> tuple[tuple[str, ...], int, list[tuple[int, int]]]:
    """``(lineup, our seat, [(strategy seat, its rng seed), ...] in build order)`` of
    ``job``'s match, after the match RNG's seat draw (see :func:`run_match`); every other
    seat is a house bot."""
    if job.lineup:
        seat = _lineup_seat(job)
        strategy_seats = [s for s, n in enumerate(job.lineup) if n != HOUSE]
        match_rng.sample(range(MATCH_SEATS), len(strategy_seats))  # as the server seats them
        return job.lineup, seat, [(s, job.seed * 1000 + s) for s in strategy_seats]
    table = table_of(job)
    seats = seating(job.seed, job.seating, match_rng)
    lineup = [""] * MATCH_SEATS
    for s, name in zip(seats, (job.strategy, *table), strict=True):
        lineup[s] = name
    others = [(s, job.seed * 1000 + k) for k, s in enumerate(seats[1:], 1) if lineup[s] != HOUSE]
    return tuple(lineup), seats[0], [*others, (seats[0], job.seed * 1000)]


def run_match(
    info: GameInfo, job: Job, timings: list[float], tally: _Tally
) -> dict[str, Any] | None:
    """One Harvest Watch match: our strategy in one seat, :func:`table_of` in the other five,
    or the job's six-seat ``lineup`` as given, played by
    :func:`sunbot.bench.engine_match.play_seats` (the beat loop, the hooks, refusals).
    Returns the last state (``None`` if the match never started); ``tally`` gets our seat,
    the lineup, every seat's rank, our steps and refusals, and the error if any.

    The match RNG is ``random.Random(seed)``; it first draws seats as the match server
    would, so the house bots see the server's RNG stream: a ``table`` job draws one seat,
    as for a one-seat match, and :func:`seating` places everyone; a ``lineup`` job draws as
    many seats as the lineup has strategy seats, then everyone sits as given. Strategies:
    ours is built with ``random.Random(seed * 1000)`` (as ``sunbot play`` builds its first
    seat's strategy), the table's k-th (1-5) with ``random.Random(seed * 1000 + k)``; in a
    lineup, seat ``s``'s with ``random.Random(seed * 1000 + s)``.

    A strategy that raises ends the job as an error row: a table seat's error names it
    (``RuntimeError: table seat 3 (name): Type: message``); in a lineup job every seat's
    error is one scrubbed, bounded line ``seat 3 (name): Type: message``.
    """
    try:
        match_rng = random.Random(job.seed)
        tally.lineup, tally.seat, builds = _players(job, match_rng)
    except ValueError as exc:  # a bad table or lineup is a row saying why
        tally.ended_by, tally.error = "error", f"{type(exc).__name__}: {exc}"
        return None
    played = play_seats(
        tally.lineup, job.seed, match_rng, builds, watch=tally.seat, timings=timings,
        word=lambda exc: _error_text(exc, job, tally.seat), move_timeout=job.move_timeout,
    )  # fmt: skip
    tally.steps, tally.refused, tally.ranks = played.steps, played.refused, played.ranks
    tally.timeouts = played.timeouts
    if played.error is not None:
        tally.ended_by, tally.error = "error", played.error
    elif played.ranks:
        tally.rank = played.ranks[tally.seat]
    return played.state


def _error_text(exc: Exception, job: Job, seat: int | None) -> str:
    """The row's ``error`` for a match that ``exc`` ended (see :func:`run_match`)."""
    if isinstance(exc, MatchTooLong):
        return str(exc)
    if not isinstance(exc, SeatError):
        return f"{type(exc).__name__}: {exc}"
    cause = exc.cause
    if job.lineup:
        return " ".join(f"seat {exc.seat} ({clip(exc.name)}): {describe(cause)}".split())
    if exc.seat == seat or exc.phase == "build":  # as they always read in a bench row
        return f"{type(cause).__name__}: {cause}"
    return f"RuntimeError: table seat {exc.seat} ({exc.name}): {type(cause).__name__}: {cause}"


def _win_share(final: dict[str, Any] | None, tally: _Tally) -> float | None:
    """1/k for a rank 1 shared by k seats, 0.0 below rank 1, ``None`` without a result."""
    if final is None or tally.rank is None:
        return None
    ranks: list[int] = final["result"]["ranks"]
    return 1.0 / ranks.count(1) if tally.rank == 1 else 0.0


def _match_outcome(final: dict[str, Any] | None, tally: _Tally) -> tuple[int, int, str | None]:
    """(score, progress, cause) of a match: seats beaten, our last day, win/draw/lost."""
    if final is None or tally.seat is None:
        return 0, 0, None
    seat = tally.seat
    out = final["outNight"][seat]
    progress = int(out) if out is not None else int(final["day"])
    if tally.rank is None:
        return 0, progress, None
    ranks: list[int] = final["result"]["ranks"]
    beaten = sum(r > tally.rank for r in ranks)
    cause = "lost" if tally.rank != 1 else "win" if ranks.count(1) == 1 else "draw"
    return beaten, progress, cause
