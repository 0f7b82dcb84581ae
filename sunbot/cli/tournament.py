"""The ``sunbot tournament`` command: rate strategies against each other on the engines.

    sunbot tournament harvest-watch -s A -s B [-s C ...] --matches N [--seed S]
    sunbot tournament GAME -s A -s B [--seeds 1-50 | --seeds-file F] [--cap days=N]
    ... [--workers N] [--backend local|ray] [--ray-address ADDR] [--out DIR] [--run LABEL]
        [--resume] [--json] [--report/--no-report] [--transcripts DIR]

Harvest Watch: ``--matches`` drawn tables (:func:`sunbot.bench.tournament.schedule_matches`:
balanced seats, repeats allowed, seats shuffled from ``--seed``), each one bench job
(:func:`~sunbot.bench.tournament.draw_job`), rated by OpenSkill Plackett-Luce on the
matches' ranks (:func:`sunbot.bench.ratings.rate_matches`) with a crosstable of head-to-head
finishes. Single-player games: every entrant on the same ``--seeds`` through bench jobs,
ranked by paired scores (:func:`~sunbot.bench.ratings.rank_paired`,
:func:`~sunbot.bench.ratings.paired_win_matrix`).

The jobs run on bench's machinery (:mod:`sunbot.cli.bench`: the process pool or Ray, the
progress bar, stop signals) and their rows go to the bench store ``--out/bench.sqlite``
under the run label (default ``tournament-GAME-date-time``), so ``--resume`` plays only
what is missing; the report page is ``--out/<run>/tournament.html``. Matches (runs) that
ended on an error are left out of the standings and named in the output.

``--transcripts DIR`` rates what transcripts recorded beside the strategies played here (an
assistant that played over MCP, ``sunbot mcp``; :mod:`sunbot.bench.recorded`): each finished
run or match becomes the row its job would have made, stored under the run label; each
strategy label in them is an entrant. Single-player games: the entrants play the seeds and
the cap of the recorded runs (unless ``--seeds``/``--cap`` say otherwise); Harvest Watch:
the recorded matches are rated with the ``--matches`` drawn ones (default none).

``--json`` prints only the standings on standard output, as one JSON object
(:func:`standings_json`); the progress and messages go to standard error.

Exit codes (as ``sunbot bench``): 0 done; 1 a match or run ended on an error (the others
are rated), the backend failed, or nothing could be ranked; 2 bad usage; 130/143
interrupted (the finished jobs are stored: rerun with ``--resume``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

import sunbot
import sunbot.cli.bench as bench_cli
from sunbot._text.atomic_write import WriteFailed
from sunbot._text.safe import clip
from sunbot.api import check_server
from sunbot.bench.backends import MAX_WORKERS, default_workers
from sunbot.bench.jobs import LINEUP_SEATING, Job, Result, job_key
from sunbot.bench.parse import Cap, Seeds, parse_cap, parse_seeds
from sunbot.bench.recorded import Recorded, read_recorded
from sunbot.bench.store import Store
from sunbot.bench.tournament import (
    MAX_MATCHES,
    TableDraw,
    draw_job,
    schedule_matches,
    schedule_seeds,
)
from sunbot.cli.bench import BackendName, fail, option_parser, plural
from sunbot.cli.console import Exit
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
from sunbot.cli.spend_options import DailyTokens, OnCap, OnCapOption, SpendStore, spend_caps
from sunbot.games import GameInfo, generic_game, get_game
from sunbot.generic.index import check_slug

if TYPE_CHECKING:  # the standings import openskill and SciPy: only when a tournament ends
    from sunbot.bench.tournament_standings import Standings

#: Most entrants one tournament takes.
MAX_ENTRANTS = 64
#: Most single-player jobs (entrants x seeds) one tournament runs.
MAX_RUNS = 1_000_000
#: The default ``--seed`` of a Harvest Watch tournament.
DEFAULT_SEED = 1
#: What a default run label starts with (``tournament-GAME-date-time``).
RUN_PREFIX = "tournament-"


def tournament_command(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME",
            help="Game slug: harvest-watch, keelhold, sunloaf, naptuft, or any --server lists.",
        ),
    ],
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="An entrant: strategy name or bot file (path/bot.py:Class); at least two."
            " Harvest Watch: 'house' is the server's house bots.",
        ),
    ] = None,
    matches: Annotated[
        int | None,
        typer.Option(help=f"Harvest Watch: matches to play, 1..{MAX_MATCHES:,} (required)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help=f"Harvest Watch: match m plays seed SEED + m and its seats are drawn from"
            f" SEED and m (default {DEFAULT_SEED})."
        ),
    ] = None,
    seeds: Annotated[
        Seeds | None,
        typer.Option(
            parser=option_parser(parse_seeds),
            metavar="1-50|1,2,5-9",
            help="Single-player games: the seeds every entrant plays (default 1-100).",
        ),
    ] = None,
    seeds_file: Annotated[
        Path | None, typer.Option(help="Single-player games: a file of seeds and ranges.")
    ] = None,
    cap: Annotated[
        Cap | None,
        typer.Option(
            parser=option_parser(parse_cap),
            metavar="voyages=N|days=N|steps=N",
            help="Single-player games: end runs at this cap (default: the game's default"
            " cap, as sunbot play).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1, max=MAX_WORKERS, help=f"Parallel workers, 1..{MAX_WORKERS} (default: the cores)."
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
            help="Run label: letters, digits, '.', '_', '-' (default: tournament-GAME-date-time;"
            " --resume: the latest tournament of GAME)."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Play only the matches (runs) the run has not stored yet.")
    ] = False,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print only the standings, as JSON, on standard output."),
    ] = False,
    report: Annotated[
        bool, typer.Option(help="Write the report page OUT/RUN/tournament.html.")
    ] = True,
    move_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.001, max=3600, help="Seconds one decision may take (the fallback is played)."
        ),
    ] = None,
    job_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            max=86_400,
            help="Stop a match (run) after this many seconds; it is left out of the standings.",
        ),
    ] = None,
    llm_url: LlmUrl = None,
    llm_price: LlmPrice = None,
    llm_prompt: LlmPrompt = None,
    llm_max_tokens: LlmMaxTokens = None,
    llm_temperature: LlmTemperature = None,
    llm_timeout: LlmTimeout = None,
    llm_mode: LlmModeOption = None,
    llm_cache: LlmCache = None,
    server: Annotated[
        str | None,
        typer.Option(
            help="Single-player games: play every run on this Gameboard server (any game it"
            " lists; default: the engines in-process)."
        ),
    ] = None,
    engine: EngineOption = None,
    lookahead: LookaheadOption = None,
    lookahead_budget: LookaheadBudgetOption = None,
    allow_peek: AllowPeekOption = False,
    objective: ObjectiveOption = None,
    transcripts: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Rate the finished runs (matches) recorded in this folder's transcripts too"
            " (an assistant that played over sunbot mcp): each label in them is an entrant.",
        ),
    ] = None,
    daily_tokens: DailyTokens = None,
    spend_store: SpendStore = None,
    on_cap: OnCapOption = OnCap.stop,
    auto_resume: Annotated[
        bool,
        typer.Option(
            help="With --run: resume the tournament if it holds jobs, else start it (a"
            " service that restarts after a crash or a reboot)."
        ),
    ] = False,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Rate strategies against each other: Harvest Watch by OpenSkill on drawn tables,
    single-player games by paired scores on the same seeds."""
    setup_logging(verbose, log_level, bench_cli.console, bench_cli.err_console)
    shown = bench_cli.err_console if json_out else bench_cli.console  # stdout: JSON only
    try:
        info = get_game(game)
    except KeyError as exc:
        if server is None:
            raise fail(str(exc.args[0])) from None
        try:
            check_slug(game)
        except ValueError as bad:
            raise fail(str(bad)) from None
        info = generic_game(game)  # any game the server lists, ranked on paired scores
    if server is not None:
        try:
            check_server(server, "--server")
        except ValueError as exc:
            raise fail(str(exc)) from None
    recorded = _recorded(info, transcripts)
    names = _entrants(info, strategy or [], recorded.labels if recorded else [])
    played = [n for n in names if n in (strategy or [])] if recorded is not None else names
    if info.kind == "match":
        if seeds is not None or seeds_file is not None:
            raise fail("--seeds is for single-player games; Harvest Watch plays --matches N")
        pairs = (("--server", server), ("--engine", engine), ("--lookahead", lookahead))
        given = [n for n, v in (*pairs, ("--objective", objective)) if v]
        if given:
            raise fail(f"{', '.join(given)}: single-player games only")
        bench_cli.run_cap(info, cap)  # says the game has no cap
        if recorded is not None and matches is None:
            matches = 0
        plan = _match_plan(
            played, matches, DEFAULT_SEED if seed is None else seed, move_timeout, job_timeout,
            recorded,
        )  # fmt: skip
    else:
        if matches is not None or seed is not None:
            raise fail(f"--matches and --seed are for Harvest Watch; {info.slug} plays --seeds")
        if recorded is not None:
            seeds, cap = _recorded_seeds(info, recorded, seeds, seeds_file, cap)
        chosen = bench_cli.pick_seeds(seeds, seeds_file)
        options = search_job_options(
            info.slug, played, chosen.values[0], server, engine=engine, lookahead=lookahead,
            lookahead_budget=lookahead_budget, allow_peek=allow_peek, objective=objective,
            talk=shown, fail=fail,
        )  # fmt: skip
        plan = _seed_plan(
            info, played, chosen, cap, move_timeout, job_timeout, recorded, server, options
        )
    if ray_address is not None and backend is not BackendName.ray:
        raise fail("--ray-address needs --backend ray")
    try:
        llm = llm_options(
            any(n.startswith("llm:") for n in names), "an llm:MODEL entrant", url=llm_url,
            price=llm_price, prompt=llm_prompt, max_tokens=llm_max_tokens,
            temperature=llm_temperature, timeout=llm_timeout, mode=llm_mode, cache=llm_cache,
        )  # fmt: skip
    except ValueError as exc:
        raise fail(str(exc)) from None
    if llm:  # the entrants' agent options beside the search's (a strategy ignores them)
        plan = replace(
            plan,
            jobs=[replace(j, options=tuple({**dict(j.options), **llm}.items())) for j in plan.jobs],
        )
    if run is not None:
        bench_cli.check_run_label(run)
    if auto_resume and run is None:
        raise fail("--auto-resume needs --run LABEL (the tournament to resume or start)")
    try:
        caps = spend_caps(None, daily_tokens, None, spend_store)
    except ValueError as exc:
        raise fail(str(exc)) from None
    plan = replace(plan, jobs=[replace(j, spend=caps) for j in plan.jobs])
    bench_cli.ensure_out_dir(out)
    with bench_cli.open_store(out / bench_cli.STORE_NAME) as store:
        if auto_resume and run is not None:
            resume = store.run_info(run) is not None
        label = bench_cli.run_label(store, info.slug, run, resume, prefix=RUN_PREFIX)
        if (out / label).exists() and not (out / label).is_dir():
            raise fail(f"{out / label} (the run's directory) exists and is not a directory")
        try:
            store.check_run(label, info.slug, plan.cap, plan.seating)
        except ValueError as exc:
            raise fail(f"{exc}; choose another --run") from None
        stored = store.done(label)
        if recorded is not None:
            stored |= _store_recorded(store, label, recorded, stored)
        todo = [j for j in plan.jobs if job_key(j) not in stored]
        done = len(plan.jobs) - len(todo) - plan.recorded
        if done and not resume:
            raise fail(
                f"run {label!r} already holds {plural(done, plan.unit)} of this tournament;"
                " add --resume to play only the missing ones, or pick another --run"
            )
        slots = _slots(backend, workers, ray_address, len(todo))
        shown.print(
            escape(
                f"run {label}: {plural(len(plan.jobs), plan.unit)}, {done:,} already stored,"
                f" {len(todo):,} to play on {backend.value} with {slots}"
            )
        )
        status = bench_cli.open_status(
            out, label, "tournament", info.slug, len(plan.jobs), done, caps
        )
        elapsed, ran, stopped = bench_cli.run_to_the_caps(
            store,
            label,
            todo,
            lambda jobs: bench_cli.execute(
                store, label, jobs, backend.value, workers, ray_address, shown, None, status
            ),
            on_cap,
            status,
            shown,
        )
        status.set("stopped" if stopped else "done", stopped)
        missing = len({job_key(j) for j in plan.jobs} - store.done(label))
        try:
            rows = _rows_of(store.results(label), plan.jobs)
        except sqlite3.Error as exc:
            raise fail(f"cannot read the run from {store.path}: {exc}", Exit.ERROR) from None
    if ran:
        shown.print(f"{plural(ran, plan.unit)} in {elapsed:.2f} s ({backend.value}, {slots})")
    meta = {
        "run": label,
        "game": info.slug,
        "entrants": ", ".join(names),
        **plan.meta,
        **({"recorded": _recorded_line(recorded, transcripts)} if recorded else {}),
        "backend": f"{backend.value}, {slots}",
        "sunbot": sunbot.__version__,
        "store": str(out / bench_cli.STORE_NAME),
    }
    from sunbot.bench.tournament_standings import match_standings, paired_standings
    from sunbot.bench.verdict import standings_verdict
    from sunbot.cli.tournament_output import show_errors, show_standings

    if plan.unit == "match":
        result = match_standings(info.slug, plan.draws, rows, names, meta)
    else:
        result = paired_standings(info.slug, plan.jobs, rows, meta)
    result.meta["verdict"] = standings_verdict(result)
    page = _write_page(result, out / label) if report else None
    if json_out:
        record = {**result.json(label, page), "verdict": result.meta["verdict"]}
        typer.echo(json.dumps(record, allow_nan=False))
    else:
        show_standings(bench_cli.console, result, label, page)
    if recorded is not None:
        for name, why in recorded.skipped[:20]:
            bench_cli.err_console.print(f"[yellow]left out:[/] {escape(name)}: {escape(why)}")
    if result.errors:
        show_errors(bench_cli.err_console, result)
    if result.failed is not None:  # stopped by a cap: too few rows yet, which is no error
        said = "[yellow]not yet:[/]" if stopped else "[bold red]error:[/]"
        bench_cli.err_console.print(f"{said} {escape(result.failed)}")
    if stopped:
        bench_cli.say_stopped(stopped, missing, label)
    if result.errors or (result.failed is not None and not stopped):
        raise typer.Exit(Exit.ERROR)
    if stopped:
        raise typer.Exit(Exit.SPEND_CAP)


@dataclass(frozen=True)
class _Plan:
    """What a tournament plays: its jobs, the unit they are counted in (``match``/``run``),
    the store's cap and seating for the run, report lines, and the draws (Harvest Watch)."""

    jobs: list[Job]
    unit: str
    cap: int | None
    seating: str
    meta: dict[str, str]
    draws: list[TableDraw] = field(default_factory=list)
    recorded: int = 0


def _entrants(info: GameInfo, given: list[str], recorded: list[str] | None = None) -> list[str]:
    """The entrants: those given (each once, each a strategy of the game), then the labels
    the transcripts add; two to :data:`MAX_ENTRANTS` in all (a usage error otherwise)."""
    extra = [n for n in recorded or [] if n not in given]
    if len(given) + len(extra) < 2:
        raise fail(f"a tournament needs at least two entrants (-s A -s B), got {len(given)}")
    if len(given) + len(extra) > MAX_ENTRANTS:
        raise fail(f"at most {MAX_ENTRANTS} entrants, got {len(given) + len(extra)}")
    dup = sorted({n for n in given if given.count(n) > 1})
    if dup:
        raise fail(f"entrant named more than once: {clip(', '.join(dup))}")
    bad = next((n for n in given if "," in n or not n.strip()), None)
    if bad is not None:
        raise fail(f"entrant {clip(bad)!r}: a strategy name is not empty and holds no ','")
    return [*(bench_cli.check_strategies(info, given) if given else []), *extra]


def _recorded(info: GameInfo, folder: Path | None) -> Recorded | None:
    """``--transcripts``: what the folder recorded of the game (``None`` without it)."""
    if folder is None:
        return None
    try:
        found = read_recorded(folder, info)
    except ValueError as exc:
        raise fail(f"--transcripts: {exc}") from None
    if not found.rows:
        why = f" ({found.skipped[0][0]}: {found.skipped[0][1]})" if found.skipped else ""
        raise fail(f"--transcripts: no finished {info.slug} run in {folder}{why}")
    return found


def _recorded_seeds(
    info: GameInfo,
    recorded: Recorded,
    seeds: Seeds | None,
    seeds_file: Path | None,
    cap: Cap | None,
) -> tuple[Seeds | None, Cap | None]:
    """The seeds and cap the entrants play beside recorded runs: the runs' own, unless
    given (then the recorded runs must share the cap)."""
    caps = recorded.caps
    if len(caps) > 1:
        shown = ", ".join(sorted(str(c) for c in caps))
        raise fail(f"--transcripts: the recorded runs have different caps ({shown}): one each")
    held = next(iter(caps))
    given = bench_cli.run_cap(info, cap) if cap is not None else held
    if given != held:
        raise fail(f"--cap {cap.text if cap else ''}: the recorded runs are capped at {held}")
    if cap is None and held is not None and info.cap_field is not None:
        cap = parse_cap(f"{info.cap_field}s={held}")
    if seeds is None and seeds_file is None:
        values = sorted({r.seed for r in recorded.rows})
        seeds = parse_seeds(",".join(map(str, values)))
    return seeds, cap


def _store_recorded(
    store: Store, label: str, recorded: Recorded, stored: set[tuple[str, str, int]]
) -> set[tuple[str, str, int]]:
    """Store the recorded rows the run does not hold yet; returns every recorded key."""
    keys = set()
    for row in recorded.rows:
        key = (row.strategy, row.table, row.seed)
        keys.add(key)
        if key not in stored:
            try:
                store.add(label, row)
            except sqlite3.Error as exc:
                raise fail(f"cannot store the recorded runs in {store.path}: {exc}", 1) from None
    return keys


def _recorded_line(recorded: Recorded, folder: Path | None) -> str:
    unit = "match" if recorded.lineups else "run"
    line = f"{plural(len(recorded.rows), unit)} from {folder}"
    if recorded.skipped:
        line += f" ({len(recorded.skipped)} transcripts left out)"
    return line


def _match_plan(
    names: list[str],
    matches: int | None,
    seed: int,
    move_timeout: float | None = None,
    job_timeout: float | None = None,
    recorded: Recorded | None = None,
) -> _Plan:
    """The Harvest Watch jobs: one per drawn match, then one per recorded match (stored,
    never played)."""
    if matches is None:
        raise fail("missing --matches N: how many Harvest Watch matches to play")
    least = 0 if recorded is not None else 1
    if not least <= matches <= MAX_MATCHES:
        raise fail(f"--matches must be from {least} to {MAX_MATCHES:,}, got {matches:,}")
    try:
        draws = schedule_matches(names, matches, seed) if matches else []
    except ValueError as exc:
        raise fail(f"--seed: {exc}" if "seed" in str(exc) else str(exc)) from None
    meta = {
        "matches": f"{matches:,} drawn (match m plays seed {seed} + m)",
        "seed": str(seed),
        "ratings": "OpenSkill Plackett-Luce on each match's ranks",
    }
    jobs = [replace(draw_job(d), move_timeout=move_timeout, timeout_s=job_timeout) for d in draws]
    extra = [
        TableDraw(len(draws) + i, row.seed, lineup)
        for i, (row, lineup) in enumerate(zip(recorded.rows, recorded.lineups, strict=True))
    ] if recorded is not None else []  # fmt: skip
    jobs += [draw_job(d) for d in extra]
    return _Plan(jobs, "match", None, LINEUP_SEATING, meta, [*draws, *extra], len(extra))


def _seed_plan(
    info: GameInfo,
    names: list[str],
    seeds: Seeds,
    cap: Cap | None,
    move_timeout: float | None = None,
    job_timeout: float | None = None,
    recorded: Recorded | None = None,
    server: str | None = None,
    options: tuple[tuple[str, object], ...] = (),
) -> _Plan:
    """The single-player jobs: every entrant on every seed, seed by seed (on ``server``
    when given, with the search ``options``); an entrant the transcripts recorded has the
    jobs of the seeds it played (stored, never played here)."""
    kept = [r for r in recorded.rows if r.strategy not in names] if recorded is not None else []
    played = {(r.strategy, r.seed) for r in kept}
    labels = list(dict.fromkeys(r.strategy for r in kept))
    if len(names) * len(seeds.values) > MAX_RUNS:
        raise fail(
            f"{len(names)} entrants x {len(seeds.values):,} seeds is more than {MAX_RUNS:,}"
            " runs; give fewer seeds"
        )
    cap_value = bench_cli.run_cap(info, cap)
    try:
        draws = schedule_seeds([*names, *labels], seeds.values)
    except ValueError as exc:
        raise fail(str(exc)) from None
    draws = [d for d in draws if d.strategy in names or (d.strategy, d.seed) in played]
    jobs = [
        Job(
            info.slug,
            d.strategy,
            d.seed,
            cap_value,
            timeout_s=job_timeout,
            move_timeout=move_timeout,
            server=server,
            options=options,
        )
        for d in draws
    ]
    meta = {
        "seeds": f"{seeds.text} ({plural(len(seeds.values), 'seed')})",
        "cap": bench_cli.cap_text(info, cap_value, given=cap is not None),
        "ranking": "mean score on the seeds every entrant finished, paired per seed",
    }
    return _Plan(jobs, "run", cap_value, "", meta, recorded=len(kept))


def _slots(backend: BackendName, workers: int | None, ray_address: str | None, jobs: int) -> str:
    """The workers line, as bench words it."""
    if backend is BackendName.local:  # run_local starts no more workers than jobs
        return plural(max(1, min(workers or default_workers(), jobs)), "worker")
    if workers is None and ray_address:
        return "the cluster's CPUs as workers"
    return plural(workers or default_workers(), "worker")


def _rows_of(whole: list[Result], jobs: list[Job]) -> dict[tuple[str, str, int], Result]:
    """The run's rows of this command's jobs, by job key (a run may hold more: an earlier,
    longer schedule or other entrants; those are left out)."""
    wanted = {job_key(j) for j in jobs}
    return {k: r for r in whole if (k := (r.strategy, r.table, r.seed)) in wanted}


def _write_page(result: Standings, where: Path) -> Path:
    """Write the report page; exit 1 with one line if it cannot be written."""
    try:
        path = result.write(where)
    except OSError as exc:
        why = (
            str(exc)
            if isinstance(exc, WriteFailed)
            else f"cannot write in {where}: {exc.strerror or exc}"
        )
        raise fail(
            f"{why} (the rows are stored: rerun with --resume to write the report)", Exit.ERROR
        ) from None
    return path
