"""The ``sunbot bench`` command: run a benchmark, or compare two stored runs.

    sunbot bench GAME --strategy A --strategy B [--seeds 1-500 | --seeds-file F]
                 [--cap voyages=20|days=30] [--workers N] [--backend local|ray]
                 [--ray-address ADDR] [--out DIR] [--run LABEL] [--resume]
    sunbot bench harvest-watch -s A [--table guard,guard,guard,guard,guard]...
                 [--seating shuffled|server]
    sunbot bench --compare RUN_A RUN_B [--out DIR]

Without ``--cap`` runs are capped at the game's ``default_cap`` (the games table), exactly as
``sunbot play`` caps them (Naptuft and Sunloaf runs need one to end).

Files under ``--out`` (default ``bench-out``; a directory, created if missing):
``bench.sqlite`` (every run's rows) and, per run, ``<run>/results.csv``, ``<run>/report.html``
and its PNGs. A run label is a file name: 1 to 64 letters, digits, ``.``, ``_`` or ``-``,
starting with a letter or digit (:data:`RUN_LABEL`), so a run's files stay under ``--out``.

Harvest Watch: ``--table`` names the other five seats (strategy names, ``house`` for the
server's house bots; missing names are house bots), repeatable for one result group per
table; ``--seating shuffled`` (default) shuffles all six seats uniformly from the seed,
``server`` seats us where the match RNG draws a one-seat match
(:func:`sunbot.bench.jobs.seating`).

Exit codes: 0 done; 1 some job ended on an error or timed out (``--job-timeout``), or the
backend failed; 2 bad usage (an
unwritable ``--out`` included); 130 interrupted by Ctrl-C, 143 by SIGTERM (the finished jobs
are stored: rerun with ``--resume``; :mod:`sunbot.cli.signals`).
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import sqlite3
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypeVar

import typer
from rich.markup import escape
from rich.text import Text

import sunbot
from sunbot import strategies
from sunbot._text.atomic_write import WriteFailed
from sunbot._text.terminal import printable
from sunbot.api import check_server, unknown_game
from sunbot.bench.backends import MAX_WORKERS, BackendError, default_workers, run_jobs
from sunbot.bench.jobs import (
    HOUSE,
    HOUSE_TABLE,
    MATCH_SEATS,
    Job,
    Result,
    group_label,
    group_of,
    job_key,
)
from sunbot.bench.parse import Cap, Seeds, parse_cap, parse_seeds, read_seeds_file
from sunbot.bench.status import STATUS_NAME, RunStatus, StatusFile
from sunbot.bench.store import RunMismatch, Store, after_failure, export_csv
from sunbot.cli.console import Exit, make_console, result_stdout, stdout_to_stderr
from sunbot.cli.llm_options import (
    LlmCache,
    LlmMaxTokens,
    LlmModeOption,
    LlmPrice,
    LlmPrompt,
    LlmTemperature,
    LlmTimeout,
    LlmUrl,
    llm_options,
)
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging
from sunbot.cli.search_options import (
    AllowPeekOption,
    EngineOption,
    LookaheadBudgetOption,
    LookaheadOption,
    ObjectiveOption,
    search_job_options,
)
from sunbot.cli.signals import StopSignals, exit_code, raise_interrupt
from sunbot.cli.spend_options import (
    DailyRequests,
    DailyTokens,
    DailyUsd,
    OnCap,
    OnCapOption,
    SpendStore,
    next_day,
    spend_caps,
    wait_for_next_day,
)
from sunbot.games import GAMES, GameInfo, generic_game, get_game
from sunbot.generic.index import check_slug
from sunbot.spend.caps import SpendCaps

if TYPE_CHECKING:
    from rich.console import Console

console = make_console()
err_console = make_console(stderr=True)
DEFAULT_SEEDS = "1-100"
STORE_NAME = "bench.sqlite"
#: What ``--run`` accepts: a plain file name, so ``<out>/<run>/`` stays inside ``--out``.
RUN_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
T = TypeVar("T")


class Seating(StrEnum):
    """How a Harvest Watch job seats the six players (:func:`sunbot.bench.jobs.seating`)."""

    shuffled = "shuffled"
    server = "server"


class BackendName(StrEnum):
    """Where jobs run."""

    local = "local"
    ray = "ray"


def fail(message: str, code: int = Exit.USAGE) -> typer.Exit:
    """Print ``error: message`` on standard error (one line, printed as plain text) and
    return the ``typer.Exit(code)`` to raise (default: the usage error, 2)."""
    # escaped: messages quote paths, labels and hints such as 'sunbot[ray]' verbatim
    err_console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def option_parser(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as a typer option parser: its ``ValueError`` becomes a usage error (exit 2)
    with the parser's own message."""

    @functools.wraps(parse)
    def parser(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    return parser


def plural(n: int, word: str) -> str:
    """``"1 job"``, ``"2 jobs"``, ``"0 jobs"``, ``"2 matches"``."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}{'es' if word.endswith('ch') else 's'}"


def check_run_label(label: str) -> str:
    """``label`` if it is a valid run label (:data:`RUN_LABEL`).

    Raises:
        typer.Exit: usage error (2) naming the label.
    """
    if RUN_LABEL.fullmatch(label) is None:
        raise fail(
            f"--run {label!r} is not a run label: use 1 to 64 letters, digits, '.', '_' or '-',"
            " starting with a letter or digit (it names the run's directory under --out)"
        )
    return label


def ensure_out_dir(out: Path) -> None:
    """Make sure ``--out`` is a writable directory, creating it if missing.

    Raises:
        typer.Exit: usage error (2) naming the path.
    """
    if out.exists() and not out.is_dir():
        raise fail(f"--out {out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"--out {out}: cannot create the directory ({exc.strerror or exc})") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise fail(f"--out {out}: the directory is not writable")


def open_store(path: Path) -> Store:
    """The benchmark store at ``path``; a usage error (2) naming it if it cannot be opened."""
    try:
        return Store(path)
    except (OSError, sqlite3.Error) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise fail(f"cannot open the benchmark store {path}: {detail}") from None


def bench_command(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="Game slug: keelhold, sunloaf, naptuft, harvest-watch, or any game --server lists."
        ),
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="Strategy name or bot file (path/bot.py:Class); repeat for several.",
        ),
    ] = None,
    seeds: Annotated[
        Seeds | None,
        typer.Option(
            parser=option_parser(parse_seeds),
            metavar="1-500|1,2,5-9",
            help="Seeds (default 1-100); signed 64-bit, negative ones as --seeds=-3,5 or -5--1.",
        ),
    ] = None,
    seeds_file: Annotated[
        Path | None, typer.Option(help="File of seeds and ranges (commas, spaces, lines).")
    ] = None,
    cap: Annotated[
        Cap | None,
        typer.Option(
            parser=option_parser(parse_cap),
            metavar="voyages=N|days=N|steps=N",
            help=(
                "End runs at this cap: voyages (Keelhold), days (Sunloaf, Naptuft) or steps"
                " (any game; default: the game's default cap, as sunbot play)."
            ),
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_WORKERS,
            help=f"Parallel workers, 1..{MAX_WORKERS} (default: the cores; never more than"
            " the jobs).",
        ),
    ] = None,
    backend: Annotated[BackendName, typer.Option(help="Where jobs run.")] = BackendName.local,
    ray_address: Annotated[
        str | None, typer.Option(help="Ray: an existing cluster's address (default: local).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Store and reports directory.")] = Path("bench-out"),
    run: Annotated[
        str | None,
        typer.Option(
            help="Run label: letters, digits, '.', '_', '-' (default: GAME-date-time;"
            " --resume: latest)."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Run only the jobs the run has not stored yet.")
    ] = False,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(metavar="RUN_A RUN_B", help="Show two stored runs side by side."),
    ] = None,
    wide: Annotated[
        bool,
        typer.Option("--wide", help="One summary table of every column (default: two tables)."),
    ] = False,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="table|md|csv|json",
            help="How the summary is written to standard output; md, csv and json write only"
            " the summary there (the other lines go to standard error).",
        ),
    ] = "table",
    replays: Annotated[
        int,
        typer.Option(min=0, help="Keep transcripts and replay pages of N jobs per strategy."),
    ] = 0,
    table: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME,NAME,...",
            help="Harvest Watch: the other five seats, e.g. guard,guard,guard,guard,guard"
            " (strategy names; 'house' = the server's house bots; missing names are house"
            " bots). Repeat for several tables, one result group each (default: 5 house).",
        ),
    ] = None,
    seating: Annotated[
        Seating | None,
        typer.Option(
            help="Harvest Watch: 'shuffled' (default): all six seats shuffled uniformly by"
            " random.Random('sunbot-bench-seating/SEED'), so a seed always seats the same;"
            " 'server': our seat drawn by the match RNG as the server draws it, the table in"
            " the other seats in ascending order.",
        ),
    ] = None,
    job_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            max=86_400,
            help="Stop a job after this many seconds; its row is stored as timed out (no"
            " score) and the bench goes on.",
        ),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(
            help="Play every job on this Gameboard server (any game it lists; default: the"
            " engines in-process, no HTTP)."
        ),
    ] = None,
    move_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.001, max=3600, help="Seconds one decision may take (the fallback is played)."
        ),
    ] = None,
    isolate: Annotated[
        bool, typer.Option("--isolate", help="Run each strategy or bot file in a child process.")
    ] = False,
    llm_url: LlmUrl = None,
    llm_price: LlmPrice = None,
    llm_prompt: LlmPrompt = None,
    llm_max_tokens: LlmMaxTokens = None,
    llm_temperature: LlmTemperature = None,
    llm_timeout: LlmTimeout = None,
    llm_mode: LlmModeOption = None,
    llm_cache: LlmCache = None,
    llm_variant: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=FILE",
            help="llm:MODEL: play once per prompt template (labelled llm:MODEL@NAME), and"
            " the first once more (NAME-again: the noise floor). Repeat for each.",
        ),
    ] = None,
    max_fallback_rate: Annotated[
        float | None,
        typer.Option(
            min=0,
            max=1,
            help="Exit 1 when a model's fallback decisions pass this share in any phase.",
        ),
    ] = None,
    llm_concurrency: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_WORKERS,
            help="llm:MODEL: at most this many jobs call the endpoint at once.",
        ),
    ] = 2,
    budget_tokens: Annotated[
        int | None,
        typer.Option(
            min=1, help="Stop once the stored jobs used this many model tokens (rows kept)."
        ),
    ] = None,
    budget_usd: Annotated[
        float | None,
        typer.Option(min=0, help="Stop once the stored jobs cost this many USD (--llm-price)."),
    ] = None,
    engine: EngineOption = None,
    lookahead: LookaheadOption = None,
    lookahead_budget: LookaheadBudgetOption = None,
    allow_peek: AllowPeekOption = False,
    objective: ObjectiveOption = None,
    daily_requests: DailyRequests = None,
    daily_tokens: DailyTokens = None,
    daily_usd: DailyUsd = None,
    spend_store: SpendStore = None,
    on_cap: OnCapOption = OnCap.stop,
    auto_resume: Annotated[
        bool,
        typer.Option(
            help="With --run: resume the run if it holds jobs, else start it (a service"
            " that restarts after a crash or a reboot)."
        ),
    ] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Benchmark strategies on many seeds on the engines (no HTTP); or --compare two runs."""
    setup_logging(verbose, log_level, console, err_console)
    from sunbot.cli.bench_output import FORMATS

    if fmt not in FORMATS:
        raise fail(f"--format {fmt!r}: one of {', '.join(FORMATS)}")
    talk = console if fmt == "table" else err_console  # stdout keeps the summary alone
    # what a strategy, bot or model of the user's prints goes to stderr meanwhile
    ctx.with_resource(stdout_to_stderr(fmt != "table"))
    if compare is not None:
        if game is not None or strategy or resume:
            raise fail("--compare takes only RUN_A RUN_B (and --out)")
        _compare(out / STORE_NAME, *compare)
        return
    if game is None:
        raise fail("missing GAME (or --compare RUN_A RUN_B); see sunbot bench --help")
    try:
        info = get_game(game)
    except KeyError:
        if server is None:
            raise fail(unknown_game(game)) from None
        try:
            check_server(server, "--server")
            check_slug(game)
        except ValueError as exc:
            raise fail(str(exc)) from None
        info = generic_game(game)  # any game the server lists: generic checks, steps caps
    if server is not None:
        try:
            check_server(server, "--server")
        except ValueError as exc:
            raise fail(str(exc)) from None
    names = check_strategies(info, strategy or [])
    llm = any(n.startswith("llm:") for n in names)
    try:
        given = llm_options(
            llm, "-s llm:MODEL", url=llm_url, price=llm_price, prompt=llm_prompt,
            max_tokens=llm_max_tokens, temperature=llm_temperature, timeout=llm_timeout,
            mode=llm_mode, cache=llm_cache,
        )  # fmt: skip
    except ValueError as exc:
        raise fail(str(exc)) from None
    options = _agent_options(given, budget_usd, isolate)
    from sunbot.cli.bench_models import expand_variants, parse_variants

    if llm_variant and llm_prompt is not None:
        raise fail("--llm-prompt and --llm-variant: give the prompt as a variant")
    if llm_variant and not llm:
        raise fail("--llm-variant applies to -s llm:MODEL")
    try:
        variants = parse_variants(llm_variant or [])
    except ValueError as exc:
        raise fail(str(exc)) from None
    names, per_label, twins = expand_variants(names, variants, dict(options))
    try:
        caps = spend_caps(daily_requests, daily_tokens, daily_usd, spend_store, llm_price)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if llm:  # the endpoint's concurrency: one model call per job at a time
        workers = llm_concurrency if workers is None else min(workers, llm_concurrency)
    tables = _tables(info, table or [], seating)
    seat_mode = (seating or Seating.shuffled).value if info.kind == "match" else ""
    seed_list = pick_seeds(seeds, seeds_file)
    options += search_job_options(
        info.slug, names, seed_list.values[0], server, engine=engine, lookahead=lookahead,
        lookahead_budget=lookahead_budget, allow_peek=allow_peek, objective=objective,
        talk=talk, fail=fail,
    )  # fmt: skip
    cap_value = run_cap(info, cap)
    if ray_address is not None and backend is not BackendName.ray:
        raise fail("--ray-address needs --backend ray")
    if run is not None:
        check_run_label(run)
    if auto_resume:
        if run is None:
            raise fail("--auto-resume needs --run LABEL (the run to resume or start)")
        resume = False  # set below: whether the store holds the run
    if workers is None and ray_address:  # the run_jobs defaults
        slots = "the cluster's CPUs as workers"
    else:
        slots = plural(workers or default_workers(), "worker")
    ensure_out_dir(out)
    with open_store(out / STORE_NAME) as store:
        if auto_resume and run is not None:
            resume = store.run_info(run) is not None
        label = run_label(store, info.slug, run, resume)
        if (out / label).exists() and not (out / label).is_dir():
            raise fail(f"{out / label} (the run's directory) exists and is not a directory")
        try:
            store.check_run(label, info.slug, cap_value, seat_mode)
            if "search" in names:  # one label, one model: a resume must not pool two
                store.check_setup(label, "search", _search_setup(info.slug, options))
        except RunMismatch as exc:
            raise fail(f"{exc}; choose another --run") from None
        jobs = [
            Job(
                info.slug,
                s,
                seed,
                cap_value,
                t,
                seat_mode or Seating.shuffled.value,
                job_timeout,
                server,
                move_timeout,
                tuple(per_label[s].items()) if s in per_label else options,
                spend=caps,
            )
            for seed in seed_list.values  # seed by seed: a bench cut short stays paired
            for s in names
            for t in tables
        ]
        stored = store.done(label)
        todo = [j for j in jobs if job_key(j) not in stored]
        if len(todo) < len(jobs) and not resume:
            raise fail(
                f"run {label!r} already holds {len(jobs) - len(todo)} of these jobs;"
                " add --resume to run only the missing ones, or pick another --run"
            )
        if backend is BackendName.local:  # run_local starts no more workers than jobs
            slots = plural(max(1, min(workers or default_workers(), len(todo))), "worker")
        talk.print(
            f"run [bold]{label}[/]: {plural(len(jobs), 'job')}, {len(jobs) - len(todo):,}"
            f" already stored, {len(todo):,} to run on {backend.value} with {slots}"
        )
        budget = Budget(budget_tokens, budget_usd)
        if todo and budget.limited:  # a resumed run: what its stored rows already spent
            for row in store.results(label):
                budget.spend(row)
            if budget.reached():
                talk.print(
                    f"[yellow]budget reached[/] ({escape(budget.said())}) by the stored rows:"
                    f" {plural(len(todo), 'job')} not run; a larger budget runs them"
                )
                todo = []
        status = open_status(out, label, "bench", info.slug, len(jobs), len(jobs) - len(todo), caps)
        elapsed, ran, stopped = run_to_the_caps(
            store,
            label,
            todo,
            lambda jobs: execute(
                store, label, jobs, backend.value, workers, ray_address, talk, budget, status
            ),
            on_cap,
            status,
            talk,
        )
        status.set("stopped" if stopped else "done", stopped)
        wanted = {job_key(j) for j in jobs}
        missing = len(wanted - store.done(label))
        whole = store.results(label)  # the run's files cover the whole run
        results = [r for r in whole if (r.strategy, r.table, r.seed) in wanted]
        results.sort(key=lambda r: (names.index(r.strategy), r.table, r.seed))
        # in the command's order: strategies as given, then tables as given; a clairvoyant
        # search's rows are a group of their own (group_of), named as its rows name it
        named = {(r.strategy, r.table): group_of(r) for r in results}
        groups = list(
            dict.fromkeys(named.get(job_key(j)[:2], group_label(*job_key(j)[:2])) for j in jobs)
        )
    if ran:
        talk.print(
            f"{plural(ran, 'job')} in {elapsed:.2f} s = {ran / elapsed:,.1f} jobs/s"
            f" ({backend.value}, {slots})"
        )
    meta = {
        "run": label,
        "game": info.slug,
        "strategies": ", ".join(names),
        **({"tables": "; ".join(",".join(t) for t in tables)} if seat_mode else {}),
        **({"seating": seat_mode} if seat_mode else {}),
        "seeds": f"{seed_list.text} ({plural(len(seed_list.values), 'seed')})",
        "cap": cap_text(info, cap_value, given=cap is not None),
        "backend": f"{backend.value}, {slots}",
        "sunbot": sunbot.__version__,
        "store": str(out / STORE_NAME),
    }
    if replays:
        from sunbot.bench.replays import keep_replays

        keep_replays(
            results,
            out / label,
            replays,
            lambda why: talk.print(f"[yellow]--replays:[/] {escape(why)}"),
        )
    if len(whole) > len(results):
        meta |= _whole_run_meta(whole, names, seed_list.text)
    lower, order_said = _score_order(info, server)
    shown = _Shown(fmt, wide, talk, lower, order_said)
    if lower:
        meta["score order"] = f"lower is better ({order_said})"
    errors = _show(info.slug, label, results, groups or names, out / label, meta, whole, shown)
    if llm:
        gate = _model_tables(info.slug, results, names, twins, fmt, max_fallback_rate)
        if gate:
            raise typer.Exit(Exit.ERROR)
    timed_out = [r for r in results if r.ended_by == "timeout"]
    if timed_out:
        late = min(timed_out, key=lambda r: (r.strategy, r.seed))
        err_console.print(
            f"[yellow]{plural(len(timed_out), 'job')} timed out and"
            f" {'is' if len(timed_out) == 1 else 'are'} left out of the score statistics[/];"
            f" first: {escape(printable(late.strategy))} seed {late.seed}: "
            f"{escape(printable(late.error or ''))}",
            soft_wrap=True,
        )
    if stopped:
        say_stopped(stopped, missing, label)
    if errors:
        count, first = errors
        err_console.print(
            f"[yellow]{plural(count, 'job')} ended on an error and"
            f" {'is' if count == 1 else 'are'} left out of the score statistics[/]"
            f" (the 'error' column of the CSV has each); first: {escape(printable(first))}",
            soft_wrap=True,
        )
        raise typer.Exit(Exit.ERROR)
    if timed_out:
        raise typer.Exit(Exit.ERROR)
    if stopped:
        raise typer.Exit(Exit.SPEND_CAP)


def open_status(
    out: Path,
    label: str,
    command: str,
    game: str,
    jobs: int,
    stored: int,
    caps: SpendCaps | None,
) -> StatusFile:
    """The run's status file ``OUT/LABEL/status.json`` (:mod:`sunbot.bench.status`), written
    now; with daily caps it shows today's spend ledger too."""
    status = RunStatus(
        command, label, game, jobs, stored, resume=f"the same command plus --resume --run {label}"
    )
    today = None
    if caps is not None:
        from sunbot.spend.meter import Meter

        meter = Meter(caps)
        today = meter.today_spent
    return StatusFile(out / label / STATUS_NAME, status, today)


def say_stopped(reason: str, missing: int, label: str) -> None:
    """The line a command stopped by a daily spend cap ends with."""
    err_console.print(
        f"[yellow]stopped:[/] {escape(reason)}; {plural(missing, 'job')} not run: continue"
        f" with the same command plus --resume --run {label} once the cap allows (the day"
        " turns at 00:00 UTC), or add --on-cap wait",
        soft_wrap=True,
    )


def _model_tables(
    game: str,
    results: list[Result],
    names: list[str],
    twins: list[tuple[str, str]],
    fmt: str,
    max_fallback_rate: float | None,
) -> list[str]:
    """A model bench's health table and noise floor (as tables only), and the phases over
    ``--max-fallback-rate`` (said on stderr); returns those phases."""
    from sunbot.bench.analysis import analyse
    from sunbot.cli.bench_models import fallback_problems, noise_lines, show_health

    if fmt == "table":
        show_health(console, game, results, names)
        if twins:
            for said in noise_lines(analyse(game, results, names), twins):
                console.print(Text(printable(said)), soft_wrap=True)
    over = [] if max_fallback_rate is None else fallback_problems(
        game, results, names, max_fallback_rate
    )  # fmt: skip
    for said in over:
        err_console.print(
            Text(printable(f"fallback over --max-fallback-rate {max_fallback_rate:g}: {said}")),
            soft_wrap=True,
        )
    return over


class Budget:
    """What the stored jobs of this bench may spend on a model: ``tokens`` (prompt +
    completion) and ``usd``; :meth:`spend` says when either is reached."""

    def __init__(self, tokens: int | None, usd: float | None) -> None:
        self.tokens, self.usd = tokens, usd
        self.used_tokens, self.used_usd = 0, 0.0

    @property
    def limited(self) -> bool:
        """Whether a budget was given at all."""
        return self.tokens is not None or self.usd is not None

    def spend(self, result: Result) -> bool:
        """Count ``result``'s tokens and cost; true once the budget is reached."""
        self.used_tokens += result.tokens or 0
        self.used_usd += result.cost_usd or 0.0
        return self.reached()

    def reached(self) -> bool:
        """Whether what was counted so far reaches the budget."""
        return (self.tokens is not None and self.used_tokens >= self.tokens) or (
            self.usd is not None and self.used_usd >= self.usd
        )

    def said(self) -> str:
        """``"12,400 of 10,000 tokens"``-style words for what was spent."""
        parts = []
        if self.tokens is not None:
            parts.append(f"{self.used_tokens:,} of {self.tokens:,} tokens")
        if self.usd is not None:
            parts.append(f"${self.used_usd:.4f} of ${self.usd:.4f}")
        return ", ".join(parts)


def _search_setup(game: str, options: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """What a bench's ``search`` rows are played with: its options by their flags
    (``--engine``, ``--lookahead``...), the model as its class and its file's hash (the
    same file named by another path is the same model; an edited one is another)."""
    from sunbot.bench.jobs import SEARCH_OPTIONS

    setup = {f"--{k.replace('_', '-')}": v for k, v in options if k in SEARCH_OPTIONS}
    engine = setup.get("--engine")
    if isinstance(engine, str):
        from sunbot.forward.load import load_model

        model = load_model(engine, game).identity
        setup["--engine"] = f"{model.name} (sha256 {(model.sha256 or 'none')[:12]})"
    return setup


def _agent_options(
    given: dict[str, Any], usd: float | None, isolate: bool
) -> tuple[tuple[str, Any], ...]:
    """The jobs' agent options (``Job.options``) from the ``--llm-*`` options ``given``;
    a usage error for ``--budget-usd`` without a price."""
    if usd is not None and "price" not in given:
        raise fail("--budget-usd needs --llm-price (the cost of a token)")
    out = list(given.items())
    if isolate:
        out.append(("isolate", True))
    return tuple(out)


def check_strategies(info: GameInfo, given: list[str]) -> list[str]:
    """``given`` without repeats (the game's default strategy when empty), each checked to
    build for ``info``'s game (:func:`sunbot.agents.spec.check_strategy`: a bot file is
    loaded once here, so a broken one fails up front).

    Raises:
        typer.Exit: usage error (2) naming an unknown strategy, or a game without any.
    """
    from sunbot.agents.spec import check_strategy

    valid = strategies.names(info.slug)
    if not valid:
        raise fail(f"no strategies for {info.slug} yet")
    chosen = list(dict.fromkeys(given)) or [valid[0]]
    for name in chosen:  # a bot file is loaded here once, so a broken one fails up front
        try:
            check_strategy(info.slug, name)
        except strategies.UnknownStrategy as exc:
            raise fail(str(exc)) from None
    return chosen


def _tables(info: GameInfo, given: list[str], seating: Seating | None) -> list[tuple[str, ...]]:
    """The ``--table`` values as tuples of five names, in order, without repeats."""
    if info.kind != "match":
        if given or seating is not None:
            raise fail(f"--table and --seating are for match games; {info.slug} has no table")
        return [()]
    out: list[tuple[str, ...]] = []
    for text in given or [",".join(HOUSE_TABLE)]:
        names = [n.strip() for n in text.split(",")]
        if len(names) > MATCH_SEATS - 1:
            raise fail(
                f"--table {text!r}: {len(names)} names, but a table has {MATCH_SEATS - 1} other"
                " seats (fewer names: the rest are house bots)"
            )
        for name in names:
            if not name:
                raise fail(f"--table {text!r}: an empty name; separate names with one comma")
            if name == HOUSE:
                continue
            try:
                strategies.check(info.slug, name)
            except strategies.UnknownStrategy as exc:
                raise fail(f"--table {text!r}: {exc}") from None
        names += [HOUSE] * (MATCH_SEATS - 1 - len(names))
        out.append(tuple(names))
    return list(dict.fromkeys(out))


def pick_seeds(seeds: Seeds | None, seeds_file: Path | None) -> Seeds:
    """``--seeds`` or the seeds of ``--seeds-file`` (default :data:`DEFAULT_SEEDS`).

    Raises:
        typer.Exit: usage error (2): both given, or a bad seeds file.
    """
    if seeds is not None and seeds_file is not None:
        raise fail("give --seeds or --seeds-file, not both")
    try:
        return read_seeds_file(seeds_file) if seeds_file else seeds or parse_seeds(DEFAULT_SEEDS)
    except ValueError as exc:
        raise fail(f"--seeds-file: {exc}") from None


def run_cap(info: GameInfo, cap: Cap | None) -> int | None:
    """The runs' cap: ``--cap``, else the game's ``default_cap`` (as ``sunbot play``).

    Raises:
        typer.Exit: usage error (2): the game has no cap, another unit, or out of bounds.
    """
    if cap is None:
        return info.default_cap
    if info.cap_field is None:
        raise fail(f"{info.slug} runs have no cap; drop --cap")
    if cap.field != info.cap_field:
        raise fail(f"--cap {cap.text} does not apply to {info.slug}: use {info.cap_field}s=N")
    try:
        info.check_cap(cap.value, "--cap")
    except ValueError as exc:
        raise fail(str(exc)) from None
    return cap.value


def cap_text(info: GameInfo, cap: int | None, *, given: bool) -> str:
    """The report's cap line: ``days=2``, ``... (the game's default cap)`` or ``none ...``."""
    if cap is None:
        return "none (runs end by the rules)"
    return f"{info.cap_field}s={cap}" + ("" if given else " (the game's default cap)")


def run_label(store: Store, game: str, run: str | None, resume: bool, prefix: str = "") -> str:
    """The run's label: ``run`` if given; with ``resume`` and no ``run``, the latest stored
    ``game`` run whose label starts with ``prefix``; else a new
    ``<prefix><game>-<date>-<time>`` (``-2``, ``-3``... if taken).

    Raises:
        typer.Exit: usage error (2): nothing stored to resume.
    """
    if run is not None:
        if resume and store.run_info(run) is None:
            raise fail(f"nothing stored under run {run!r} to resume in {store.path}")
        return run
    if resume:
        runs = [r for r in store.runs(game) if r.run.startswith(prefix)]
        if not runs:
            what = f"{prefix.rstrip('-')} {game}" if prefix else game
            raise fail(f"no stored {what} run to resume in {store.path}")
        return check_run_label(runs[-1].run)  # a label stored before labels were checked
    base = f"{prefix}{game}-{datetime.now():%Y%m%d-%H%M%S}"
    label, n = base, 1
    while store.run_info(label) is not None:
        n += 1
        label = f"{base}-{n}"
    return label


#: Seconds between progress lines when the output is not a terminal.
PROGRESS_S = 30.0


class Executed(NamedTuple):
    """What :func:`execute` did: ``elapsed`` seconds, ``done`` jobs stored, and
    ``stopped``, the reason a daily spend cap stopped it (``None`` if none did)."""

    elapsed: float
    done: int
    stopped: str | None = None


def execute(
    store: Store,
    label: str,
    todo: list[Job],
    backend: str,
    workers: int | None,
    ray_address: str | None,
    out: Console | None = None,
    budget: Budget | None = None,
    status: StatusFile | None = None,
) -> Executed:
    """Run ``todo`` on ``backend`` (:func:`~sunbot.bench.backends.run_jobs`), storing each
    row under ``label`` as it arrives, with a progress bar on ``out`` (default: standard
    output) or, when that or standard error is not a terminal, a progress line on standard
    error every :data:`PROGRESS_S` seconds or ~5% of the jobs
    (:func:`~sunbot.cli.bench_output.progress`). SIGINT and SIGTERM stop it, keeping the
    stored rows. Once the stored rows reach ``budget`` (model tokens or USD), the running
    jobs are stopped and the command goes on with the rows it has; so too when a job says
    a daily spend cap stopped it (``ended_by == "spend"``: that row is not stored, and the
    job runs again on ``--resume``). ``status`` (the run's status file) counts each
    stored row and says how it ended.

    Raises:
        typer.Exit: 1 when the backend fails or a row cannot be stored; 130/143 when
            interrupted (after a line saying how to resume).
    """
    from sunbot.cli.bench_output import progress

    started = time.perf_counter()
    if not todo:
        return Executed(0.0, 0)
    done = 0
    stopped: str | None = None
    stop = StopSignals(raise_interrupt)  # SIGTERM too, and even where SIGINT was ignored
    results = run_jobs(todo, backend, workers, ray_address)
    shown = out or console
    wave = max(1, min(workers or default_workers(), len(todo)))
    try:
        with stop, progress(shown, err_console, label, len(todo), wave, PROGRESS_S) as advance:
            try:
                for result in results:
                    if result.ended_by == "spend":  # a daily cap stopped it: run it again
                        stopped = result.error or "a daily spend cap was reached"
                        break
                    store.add(label, result)
                    done += 1
                    advance()
                    if status is not None:
                        status.add(result)
                    if budget is not None and budget.spend(result):
                        err_console.print(
                            f"[yellow]budget reached[/] ({escape(budget.said())}): {done:,}"
                            f" of {plural(len(todo), 'job')} stored; the rest not run"
                        )
                        break
            finally:
                if isinstance(results, Generator):
                    results.close()  # stops the workers now, not when garbage-collected
    except BackendError as exc:
        if status is not None:
            status.set("failed", str(exc))
        raise fail(str(exc), Exit.ERROR) from None
    except sqlite3.Error as exc:  # a full disk, a lock, a damaged file: each its own advice
        if status is not None:
            status.set("failed", f"cannot store a result: {exc}")
        raise fail(
            f"cannot store a result in {store.path}: {exc}; {done:,} of"
            f" {plural(len(todo), 'job')} stored; {after_failure(exc, label)}",
            Exit.ERROR,
        ) from None
    except KeyboardInterrupt:  # it can land between a row's store and its count: ask the store
        done = len({job_key(j) for j in todo} & store.done(label))
        if status is not None:
            status.status.stored = len(store.done(label))
            status.set("interrupted", f"stopped by signal {stop.signum or 'SIGINT'}")
        err_console.print(
            f"[yellow]interrupted:[/] {done:,} of {plural(len(todo), 'job')} stored;"
            f" continue with the same command plus --resume --run {label}"
        )
        raise typer.Exit(exit_code(stop.signum)) from None
    return Executed(time.perf_counter() - started, done, stopped)


def run_to_the_caps(
    store: Store,
    label: str,
    todo: list[Job],
    run: Callable[[list[Job]], Executed],
    on_cap: OnCap,
    status: StatusFile | None,
    talk: Console,
) -> Executed:
    """``run(todo)`` (:func:`execute`); when a daily spend cap stops it and ``on_cap`` is
    ``wait``, sleep until the day turns and run the jobs still missing, day after day,
    until they are done or a whole day stores none (a cap too small for one job).

    Raises:
        typer.Exit: as :func:`execute`; 130/143 when a signal stops the wait.
    """
    total = run(todo)
    elapsed, done, stopped = total
    fresh_day = False  # a run that started as the day turned and stored nothing: give up
    while stopped is not None and on_cap is OnCap.wait and not (fresh_day and not total.done):
        wake = next_day()
        if status is not None:
            status.set("waiting", f"{stopped}; going on at {wake:%Y-%m-%d %H:%M} UTC")
        talk.print(
            f"[yellow]daily cap reached[/]: {escape(stopped)}; waiting until"
            f" {wake:%Y-%m-%d %H:%M} UTC (--on-cap wait)",
            soft_wrap=True,
        )
        stop = StopSignals(raise_interrupt)
        try:
            with stop:
                wait_for_next_day()
        except KeyboardInterrupt:
            if status is not None:
                status.set("interrupted", f"stopped by signal {stop.signum or 'SIGINT'}")
            err_console.print(
                f"[yellow]interrupted[/] while waiting for the day to turn; continue with the"
                f" same command plus --resume --run {label}"
            )
            raise typer.Exit(exit_code(stop.signum)) from None
        if status is not None:
            status.set("running")
        stored = store.done(label)
        todo = [j for j in todo if job_key(j) not in stored]
        total, fresh_day = run(todo), True
        elapsed, done, stopped = elapsed + total.elapsed, done + total.done, total.stopped
    return Executed(elapsed, done, stopped)


@dataclass(frozen=True)
class _Shown:
    """How ``_show`` prints: ``fmt`` (``--format``), ``wide`` (``--wide``), and ``talk``,
    the console for the lines around the summary (standard error unless ``fmt`` is
    ``table``; ``None``: standard output)."""

    fmt: str = "table"
    wide: bool = False
    talk: Console | None = None
    lower_is_better: bool = False
    order_said: str = ""


def _score_order(info: GameInfo, server: str | None) -> tuple[bool, str]:
    """Whether a lower score is better, and where that was read: for a game sunbot has no
    engine for, from the spec its server serves (a ``scoreOrder`` of ``ascending``, or
    scoring words such as "fewer moves is better", as ``search`` reads them); a game whose
    spec says nothing, or that cannot be read, is taken as higher-is-better."""
    if info.slug in GAMES or server is None:
        return False, ""
    from sunbot.generic.index import rules_on
    from sunbot.search.objective import spec_direction

    try:
        spec = asyncio.run(rules_on(server, info.slug, retry_seconds=10))
    except Exception:  # the bench ran; only its verdict's direction is unknown
        return False, ""
    direction, said = spec_direction(spec)
    return direction == "min", said


def _show(
    game: str,
    label: str,
    results: list[Result],
    names: list[str],
    where: Path,
    meta: dict[str, str],
    whole: list[Result] | None = None,
    shown: _Shown | None = None,
) -> tuple[int, str] | None:
    """Print the tables of ``results`` (this command's jobs) as ``shown`` says, write the
    CSV and the report of ``whole`` (every row the run has stored; default ``results``);
    returns how many of this command's jobs errored and the first error (``strategy seed
    N: message``), or ``None``."""
    from sunbot.bench.analysis import analyse
    from sunbot.bench.report import write_report
    from sunbot.bench.verdict import bench_verdict
    from sunbot.cli.bench_output import paired_table, summary_tables, summary_text

    shown = shown or _Shown()
    talk = shown.talk or console
    lower, said = shown.lower_is_better, shown.order_said
    analysis = analyse(game, results, names, lower_is_better=lower, order_said=said)
    if shown.fmt == "table":
        for table in summary_tables(analysis, f"{game} · run {label}", wide=shown.wide):
            console.print(table)
        if analysis.pairs:
            console.print(paired_table(analysis))
        console.print(escape(printable(f"verdict: {bench_verdict(analysis)}")), soft_wrap=True)
    else:
        out = result_stdout()
        out.write(summary_text(analysis, shown.fmt, meta))
        out.flush()
    rows = results if whole is None or len(whole) == len(results) else whole
    # the command's groups first, then the run's others in stored order
    on_file = (
        analysis
        if rows is results
        else analyse(game, rows, names, lower_is_better=lower, order_said=said)
    )
    if rows is not results:
        talk.print(
            escape(
                f"the run holds {plural(len(rows) - len(results), 'more row')} than this"
                " command asked for: the CSV and report cover the whole run (strategies"
                f" {meta['strategies']}; {meta['seeds']})"
            ),
            soft_wrap=True,
        )
    csv_path = where / "results.csv"
    try:
        export_csv(rows, csv_path)
        report = write_report(on_file, where, {**meta, "verdict": bench_verdict(on_file)})
    except OSError as exc:
        why = (
            str(exc)
            if isinstance(exc, WriteFailed)
            else f"cannot write in {where}: {exc.strerror or exc}"
        )
        raise fail(
            f"{why} (the rows are stored: rerun with --resume to write the CSV and report)",
            Exit.ERROR,
        ) from None
    talk.print(escape(f"store {meta['store']} · csv {csv_path} · report {report}"))
    count = sum(s.errors for s in analysis.strategies)
    first = next((f"{s.name} {s.first_error}" for s in analysis.strategies if s.first_error), "")
    return (count, first) if count else None


def _whole_run_meta(whole: list[Result], names: list[str], seeds_text: str) -> dict[str, str]:
    """The report's ``strategies`` and ``seeds`` lines for a run that holds more rows than
    the command asked for (an earlier command's strategies or seeds)."""
    strategies = list(dict.fromkeys([*names, *(r.strategy for r in whole)]))
    seeds = {r.seed for r in whole}
    return {
        "strategies": ", ".join(strategies),
        "seeds": f"{plural(len(seeds), 'seed')} stored ({plural(len(whole), 'row')};"
        f" this command: {seeds_text})",
    }


def _compare(path: Path, run_a: str, run_b: str) -> None:
    from sunbot.bench.analysis import analyse
    from sunbot.cli.bench_output import compare_table

    if not path.exists():
        raise fail(f"no benchmark store at {path}")
    with open_store(path) as store:
        infos = [store.run_info(r) for r in (run_a, run_b)]
        missing = [r for r, i in zip((run_a, run_b), infos, strict=True) if i is None]
        if missing:
            known = ", ".join(i.run for i in store.runs()) or "none"
            raise fail(f"no stored run {missing[0]!r} in {path}; stored runs: {known}")
        a, b = (i for i in infos if i is not None)
        if a.game != b.game:
            raise fail(f"{run_a} is {a.game} and {run_b} is {b.game}: compare runs of one game")
        rows = [store.results(i.run) for i in (a, b)]
        analyses = [
            analyse(i.game, r, list(dict.fromkeys(group_of(x) for x in r)))
            for i, r in zip((a, b), rows, strict=True)
        ]
    for i in (a, b):
        cap = "none" if i.cap is None else str(i.cap)
        console.print(
            escape(f"{i.run}: {i.game}, cap {cap}, {plural(i.rows, 'row')}, {i.first} .. {i.last}")
        )
    console.print(compare_table(run_a, analyses[0], run_b, analyses[1]))
