"""``sunbot play``: one run (or match) with a live view, a summary and a transcript.

Every mistake in the command line is a usage error (exit 2) with a message, not a
traceback; Ctrl-C stops a run after the current step (a second Ctrl-C stops it at once),
and either way the transcript is whole and ``--resume`` continues it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text

from sunbot import api, strategies, views
from sunbot._text.atomic_write import WriteFailed
from sunbot._text.terminal import printable, printable_lines, tidy
from sunbot.bench.reference import yardstick
from sunbot.bots import is_file_spec
from sunbot.cli.agent_rows import agent_rows
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
from sunbot.cli.log import LogLevelOption, Verbose, setup_logging, show_traceback
from sunbot.cli.replay_page import after_run, page_after_run
from sunbot.cli.search_options import (
    AllowPeekOption,
    EngineOption,
    LookaheadBudgetOption,
    LookaheadOption,
    ObjectiveOption,
    option_words,
)
from sunbot.cli.signals import HARD_STOP_S, HardStop, StopSignals, exit_code
from sunbot.cli.spend_options import DailyRequests, DailyTokens, DailyUsd, SpendStore, spend_caps
from sunbot.games import GAMES, GameInfo, get_game, seed_problem
from sunbot.html import is_replay_page
from sunbot.runs.summary import RunSummary, result_record
from sunbot.spend import meter as spending
from sunbot.transcripts.bounds import DEFAULT_MAX_TRANSCRIPT_MB, MAX_UNKNOWN_FIELD_BYTES
from sunbot.transcripts.jsonl import (
    MIB,
    TranscriptWriter,
    check_regular_file,
    default_path,
    is_unstarted,
)
from sunbot.transcripts.resume import (
    NoInitAnswer,
    Resume,
    ServerNotConfirmed,
    load_resume,
    resume_server,
)
from sunbot.views.common import line, live_view, summary_table, unknown_line

if TYPE_CHECKING:
    from sunbot.mirror import Divergence
    from sunbot.runs.backends import Answer, Backend

console = make_console()
err_console = make_console(stderr=True)

#: Exit codes of ``sunbot play``.


def fail(message: str, code: int = Exit.USAGE) -> typer.Exit:
    """Print ``error: message`` on standard error and return the ``typer.Exit`` to raise."""
    err_console.print(line(("error:", "bold red"), " ", printable(message)), soft_wrap=True)
    return typer.Exit(code)


class _LatestView:
    """A renderable that draws the latest position only when rich refreshes the screen."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        self.state: dict[str, Any] | None = None
        self.known = slug in GAMES
        self.answer: Answer | None = None
        self.step = 0
        #: our words for a run the cap ended (``capped at voyage 30``), as in the summary
        self.ended: str | None = None

    def __rich__(self) -> RenderableType:
        if self.state is None:
            return "starting…"
        if not self.known and self.answer is not None:  # the generic view: score, step, ...
            from sunbot.views import generic

            a = self.answer
            return generic.render(
                tidy(a.observation), score=a.score, step=self.step,
                legal=len(a.legal_actions), over=a.game_over,
            )  # fmt: skip
        return views.render(self.slug, self.state, ended=self.ended)


#: Seconds a run asked to stop by SIGTERM may take to finish its step before it is
#: stopped at once (a model or bot stuck in a call must not outlive ``timeout``,
#: ``docker stop`` or systemd, which send SIGTERM once).
TERM_GRACE_S = 3.0


class StopOnInterrupt:
    """While active, the first Ctrl-C or SIGTERM asks the run to stop after its current step
    (and calls :attr:`on_request`, which cuts a retry wait short); the second raises
    ``KeyboardInterrupt`` at once. After SIGTERM the step has :data:`TERM_GRACE_S` seconds
    (a SIGALRM timer) before ``KeyboardInterrupt`` is raised without a second signal.
    A run that this ``KeyboardInterrupt`` has not ended within
    :data:`~sunbot.cli.signals.HARD_STOP_S` more seconds (a model or bot that catches it)
    is ended at once (:class:`~sunbot.cli.signals.HardStop`): ``writer``'s file is cut to
    its whole lines and the process exits 143 (SIGTERM) or 130 (SIGINT); that transcript has
    no result line, and ``sunbot replay`` and ``--resume`` take it as they take a killed
    run's. ``resume_hint`` is the command that continues the run (``None``: none).
    :attr:`signum` is the signal received (for the exit code,
    :func:`sunbot.cli.signals.exit_code`). Works only in the main thread (elsewhere it does
    nothing)."""

    def __init__(
        self, writer: TranscriptWriter | None = None, resume_hint: str | None = None
    ) -> None:
        self.requested = False
        self.on_request: Callable[[], object] | None = None
        self._signals = StopSignals(self._handle)
        self._alarm: Any = None
        self._resume_hint = resume_hint
        self.hard = HardStop(
            lambda: exit_code(self.signum),
            self._hard_message,
            writer.make_whole if writer is not None else None,
        )

    def __call__(self) -> bool:
        return self.requested

    @property
    def signum(self) -> int | None:
        """The stop signal received last (``None`` before any)."""
        return self._signals.signum

    def _hard_message(self) -> str:
        where = (
            f"; the transcript is whole but has no result line: {self._resume_hint}"
            if self._resume_hint is not None
            else ""
        )
        return (
            f"stopped at once: the step did not end within {HARD_STOP_S:g} s of the stop"
            f" (the model or bot caught the interrupt){where}"
        )

    def _interrupt(self, signum: int = 0, frame: FrameType | None = None) -> None:
        """Stop at once: raise ``KeyboardInterrupt``, bounded by :attr:`hard` (also the
        SIGALRM handler that ends the grace)."""
        self.hard.arm()
        raise KeyboardInterrupt

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            self._interrupt()
        self.requested = True
        if self.on_request is not None:
            self.on_request()
        if signum == signal.SIGTERM and self._arm():
            err_console.print(
                f"[yellow]stopping after this step[/] (at once if it takes over {TERM_GRACE_S:g} s)"
            )
            return
        err_console.print("[yellow]stopping after this step[/] (Ctrl-C again to stop at once)")

    def _arm(self) -> bool:
        """Raise ``KeyboardInterrupt`` in :data:`TERM_GRACE_S` seconds (``False`` where
        there is no SIGALRM timer, or off the main thread)."""
        if not hasattr(signal, "setitimer"):
            return False
        try:
            self._alarm = signal.signal(signal.SIGALRM, self._interrupt)
        except ValueError:  # not the main thread
            return False
        signal.setitimer(signal.ITIMER_REAL, TERM_GRACE_S)
        return True

    def __enter__(self) -> StopOnInterrupt:
        self._signals.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.hard.cancel()  # out of the run's block: the stop worked
        if self._alarm is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._alarm)
            self._alarm = None
        self._signals.__exit__(*exc)


def check_server_url(server: str | None) -> None:
    """Refuse a ``--server`` that is not an absolute http(s) URL (exit 2)."""
    if server == api.ENGINE:
        raise fail("--server: give an http(s) URL (the engine backend is for the Python API)")
    try:
        api.check_server(server, "--server")
    except ValueError as exc:
        raise fail(str(exc)) from None


def play_command(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="Game slug: keelhold, sunloaf, naptuft, harvest-watch, or any game --server lists."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Run seed (random when omitted).")] = None,
    strategy: Annotated[
        str | None,
        typer.Option(help="Strategy name (default per game) or a bot file, path/bot.py:Class."),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(help="Server origin, e.g. https://gameboard.gg (default: embedded)."),
    ] = None,
    max_voyages: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Keelhold: END_RUN at port after voyage N "
            f"(default {GAMES['keelhold'].default_cap}).",
        ),
    ] = None,
    max_days: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Sunloaf/Naptuft: end after day N (default "
            f"{GAMES['sunloaf'].default_cap} / {GAMES['naptuft'].default_cap}).",
        ),
    ] = None,
    transcript: Annotated[
        Path | None,
        typer.Option(
            help="Transcript path (default: a new file in transcripts/ named for the game, seed,"
            " strategy and UTC time)."
        ),
    ] = None,
    no_transcript: Annotated[
        bool, typer.Option("--no-transcript", help="Write no transcript.")
    ] = False,
    max_transcript_mb: Annotated[
        int,
        typer.Option(
            min=1,
            max=1 << 20,
            help="End the run, its transcript whole, before the transcript passes this many"
            " MiB (with --resume too).",
        ),
    ] = DEFAULT_MAX_TRANSCRIPT_MB,
    strict: Annotated[
        bool, typer.Option("--strict", help="Stop at the first mirror divergence (exit 3).")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", help="No live view; print only the summary.")
    ] = False,
    seats: Annotated[
        int, typer.Option(min=1, max=6, help="Match games: seats our strategy plays.")
    ] = 1,
    match: Annotated[
        str | None, typer.Option(help="Match games: join this match id on --server.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Continue the run recorded in this transcript (a run recorded on another"
            " server than the embedded one: name it with --server URL, or answer yes).",
        ),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="After the run, write its replay page here (drawn from the run's transcript,"
            " so not with --no-transcript).",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the summary as one JSON object; no live view."),
    ] = False,
    wait: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=3600,
            help="Match games: create the match on --server, print its id, and wait this many"
            " seconds for others to join (sunbot play harvest-watch --server URL --match ID).",
        ),
    ] = None,
    move_timeout: Annotated[
        float | None,
        typer.Option(
            min=0.001,
            max=3600,
            help="Seconds one decision may take; a late one plays the game's fallback action"
            " (Harvest Watch: nothing is sent, the beat's default applies) and is counted."
            " search checks it between model calls: one call that never returns is not"
            " interrupted (SIGTERM still stops the run within 3 s).",
        ),
    ] = None,
    isolate: Annotated[
        bool,
        typer.Option(
            "--isolate", help="Run the strategy or bot file in a child process (untrusted bots)."
        ),
    ] = False,
    max_steps: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=100_000,
            help="End the run after N steps (any game; a game sunbot does"
            " not know stops at 1,000 steps unless given this).",
        ),
    ] = None,
    llm_url: LlmUrl = None,
    llm_prompt: LlmPrompt = None,
    llm_price: LlmPrice = None,
    llm_max_tokens: LlmMaxTokens = None,
    llm_temperature: LlmTemperature = None,
    llm_timeout: LlmTimeout = None,
    llm_mode: LlmModeOption = None,
    llm_cache: LlmCache = None,
    engine: EngineOption = None,
    lookahead: LookaheadOption = None,
    lookahead_budget: LookaheadBudgetOption = None,
    allow_peek: AllowPeekOption = False,
    objective: ObjectiveOption = None,
    llm_dry_run: Annotated[
        bool,
        typer.Option(
            "--llm-dry-run", help="Print the first decision's prompt and exit; no model is called."
        ),
    ] = False,
    daily_requests: DailyRequests = None,
    daily_tokens: DailyTokens = None,
    daily_usd: DailyUsd = None,
    spend_store: SpendStore = None,
    verbose: Verbose = 0,
    log_level: LogLevelOption = None,
) -> None:
    """Play one run (or match) and print its summary.

    Exit 0 when the run ended by the rules or at its cap (--max-voyages, --max-days or the
    game's default cap), 1 on an error, 2 on bad usage, 3 on a mirror divergence under
    --strict, 6 when a daily spend cap stopped it (resumable), 130 when interrupted
    (resumable)."""
    setup_logging(verbose, log_level, console, err_console)
    try:
        caps = spend_caps(daily_requests, daily_tokens, daily_usd, spend_store, llm_price)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if spending.active(caps) is not None:  # this process's meter, until the command ends
        ctx.call_on_close(spending.deactivate)
    quiet = quiet or as_json
    # under --json, stdout holds the summary alone: what a model, strategy or bot of the
    # user's prints goes to stderr until the command ends
    ctx.with_resource(stdout_to_stderr(as_json))
    check_server_url(server)
    if seed is not None and (problem := seed_problem(seed, "--seed")) is not None:
        raise fail(problem)
    if transcript is not None and no_transcript:
        raise fail("--transcript and --no-transcript contradict each other")
    if html is not None and no_transcript:
        raise fail(
            "--html draws the page from the run's transcript: drop --no-transcript (or --html)"
        )
    if html is not None and html.is_dir():
        raise fail(f"--html {html} is a folder: give the page's file path")
    if html is not None and not html.parent.is_dir():
        raise fail(f"--html {html}: no folder {html.parent} (create it first)")
    if html is not None and html.exists() and not is_replay_page(html):
        raise fail(f"--html {html} exists and is not a replay page: choose another path")
    if resume is not None:
        given = [
            name
            for name, value in (
                ("--seed", seed),
                ("--max-voyages", max_voyages),
                ("--max-days", max_days),
                ("--transcript", transcript),
            )
            if value is not None
        ] + (["--no-transcript"] if no_transcript else [])
        if given:
            raise fail(
                f"--resume continues the recorded run with its own seed, strategy, cap and "
                f"transcript: drop {', '.join(given)}"
            )
        try:  # before opening it to append: a FIFO would block, a device never end
            check_regular_file(resume)
        except (ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        with page_after_run(html, resume, console):
            _resume_run(
                resume, game, server, strict, quiet, strategy, move_timeout, isolate,
                max_transcript_mb * MIB, as_json=as_json, engine=engine,
            )  # fmt: skip
        return
    if game is None:
        raise fail("give a GAME to play (or --resume FILE)")
    info: GameInfo | None
    try:
        info = get_game(game)
    except KeyError:
        if server is None:
            raise fail(api.unknown_game(game)) from None
        info = None  # any game the server lists: the generic checks
    if not no_transcript and transcript is not None and transcript.exists():
        if not is_unstarted(transcript):
            raise fail(f"{transcript} exists: pick another --transcript (or --resume a cut run)")
        err_console.print(
            line(("note:", "bold"), " ", printable(f"{transcript} holds no transcript line yet"
                 " (its run stopped before it began): it is used for this run")),
            soft_wrap=True,
        )  # fmt: skip
    if not no_transcript and transcript is not None and not transcript.parent.is_dir():
        raise fail(f"--transcript {transcript}: no folder {transcript.parent} (create it first)")
    try:
        options = llm_options(
            strategy is not None and strategy.startswith("llm:"), "--strategy llm:MODEL",
            url=llm_url, prompt=llm_prompt, price=llm_price, max_tokens=llm_max_tokens,
            temperature=llm_temperature, timeout=llm_timeout, mode=llm_mode, cache=llm_cache,
            flags=("--llm-dry-run",) if llm_dry_run else (),
        ) or None  # fmt: skip
    except ValueError as exc:
        raise fail(str(exc)) from None
    if info is not None and info.kind == "match":
        if max_voyages is not None or max_days is not None:
            raise fail(f"--max-voyages and --max-days do not apply to {info.slug}")
        if llm_dry_run:  # nothing is created, no model is called
            _dry_run_match(info.slug, api.new_seed() if seed is None else seed, llm_prompt)
            return
        if engine is not None:
            raise fail(
                f"--engine (a forward model) applies to single-player games, not {info.slug}"
            )
        from sunbot.cli.play_match import play_match_command

        if html is not None and transcript is None:  # the page needs to know the path
            seed = api.new_seed() if seed is None else seed
            chosen = strategy or strategies.default_name(info.slug)
            transcript = default_path(info.slug, seed, chosen, match_id=match)
        code = play_match_command(
            game=info.slug,
            seed=seed,
            strategy=strategy,
            server=server,
            match_id=match,
            seats=seats,
            transcript=None if no_transcript else transcript,
            write_transcript=not no_transcript,
            strict=strict,
            quiet=quiet,
            console=console,
            as_json=as_json,
            wait=wait,
            move_timeout=move_timeout,
            isolate=isolate,
            agent_options=options,
            max_transcript_bytes=max_transcript_mb * MIB,
        )
        written = after_run(html, transcript, console)
        raise typer.Exit(code or (0 if written else Exit.ERROR))
    if match is not None or seats != 1 or wait is not None:
        raise fail("--seats, --match and --wait apply to match games only")
    try:  # before the transcript exists: a usage error leaves no empty file behind
        plan = api.plan_run(
            game, seed=seed, strategy=strategy, server=server, max_voyages=max_voyages,
            max_days=max_days, strict=strict, cap_names=("--max-voyages", "--max-days"),
            move_timeout=move_timeout, isolate=isolate, agent_options=options,
            max_steps=max_steps, engine=engine, lookahead=lookahead,
            lookahead_budget=lookahead_budget, allow_peek=allow_peek, objective=objective,
        )  # fmt: skip
    except (ValueError, ImportError) as exc:
        raise fail(option_words(str(exc))) from None
    _guard(plan)
    if llm_dry_run:
        _dry_run(plan, llm_prompt)
        return
    path = (
        None if no_transcript else (transcript or default_path(plan.slug, plan.seed, plan.strategy))
    )
    writer = _open_writer(path, append=False, max_bytes=max_transcript_mb * MIB)
    with page_after_run(html, path, console):
        _run(plan, writer, quiet, None, as_json=as_json)


def _guard(plan: api.RunPlan) -> None:
    """The peek guard before a run that looks ahead through the server: its one line on
    standard error, or the refusal (exit 2) before any file is written."""
    if plan.lookahead is None:
        return
    from sunbot.search.peek import PeekRefused

    try:
        asyncio.run(api.peek_check(plan))
    except PeekRefused as exc:
        raise fail(str(exc)) from None
    except Exception as exc:  # the server could not be asked
        raise fail(f"the peek guard could not read the opening: {printable(exc)}", 1) from None
    err_console.print(
        line(("note:", "bold"), " ", printable(plan.lookahead["guard"])), soft_wrap=True
    )


def _dry_run(plan: api.RunPlan, prompt: Path | None) -> None:
    """Print the first decision's messages (system, then user), as sent; no model call."""
    try:
        messages = asyncio.run(api.first_prompt(plan, prompt))
    except (ValueError, ImportError) as exc:
        raise fail(str(exc)) from None
    except Exception as exc:  # the server could not be reached
        raise fail(f"the dry run could not read the init answer: {printable(exc)}", 1) from None
    _print_messages(messages)


def _print_messages(messages: list[dict[str, str]]) -> None:
    for m in messages:
        console.print(line((f"--- {m['role']} ---", "bold")), soft_wrap=True)
        console.print(Text(printable_lines(m["content"])), soft_wrap=True, markup=False)


def _dry_run_match(slug: str, seed: int, prompt: Path | None) -> None:
    """Print a model seat's first messages of a match (seat 0 at the first beat of the match
    the engine deals from ``seed``); no match is created, no model called."""
    try:
        messages = api.first_match_prompt(slug, seed, prompt)
    except (ValueError, ImportError) as exc:
        raise fail(str(exc)) from None
    _print_messages(messages)


def _resume_run(
    path: Path,
    game: str | None,
    server: str | None,
    strict: bool,
    quiet: bool,
    strategy: str | None = None,
    move_timeout: float | None = None,
    isolate: bool = False,
    max_bytes: int | None = DEFAULT_MAX_TRANSCRIPT_MB * MIB,
    *,
    as_json: bool = False,
    engine: str | None = None,
) -> None:
    writer = _open_writer(path, append=True, max_bytes=max_bytes)
    assert writer is not None
    resumed: Resume | None
    try:
        resumed = load_resume(path)
        head = resumed.header
    except NoInitAnswer as exc:  # killed before the init answer: run it again, same file
        resumed, head = None, exc.header
    except (ValueError, OSError) as exc:
        writer.close()
        raise fail(str(exc)) from None
    recorded = str(head["strategy"])
    if recorded.startswith("mcp:"):  # an assistant's moves: only its MCP session can go on
        writer.close()
        raise fail(
            f"this run was played over MCP by {recorded[4:]!r}: continue it from an MCP"
            " client with sunbot mcp's resume_game tool (its game id is the file's name"
            " without .jsonl)"
        )
    if strategy is not None and strategy != recorded:
        writer.close()
        raise fail("--resume continues the recorded run with its own strategy: drop --strategy")
    if is_file_spec(recorded) and strategy != recorded:
        writer.close()  # a shared transcript must not run code its reader never chose
        raise fail(
            f"this run's strategy is the bot file {recorded!r}: resuming runs its code; "
            f"add --strategy {recorded!r} to confirm"
        )
    if game is not None and game != head["game"]:
        writer.close()
        raise fail(f"{path} is a {head['game']} run, not {game}")
    model = head.get("model")
    spec = str(model.get("spec")) if isinstance(model, dict) and model.get("spec") else None
    if engine != spec:
        writer.close()  # a model file is code: run only the one the recorded run used
        raise fail(
            f"this run searched through the forward model {spec!r}: resuming runs its code; "
            f"add --engine {spec!r} to confirm"
            if spec is not None and engine is None
            else f"--engine {engine!r} is not the model this run was recorded with ({spec!r})"
        )
    # a game sunbot knows by its engine, else any game the server lists (plan_run checks)
    slug = str(head["game"])
    with contextlib.suppress(KeyError):
        slug = get_game(slug).slug
    try:  # the header's server is the file's word: sent there only if the user says so
        server = resume_server(path, head, server, _asker())
    except ServerNotConfirmed as exc:
        writer.close()
        raise fail(str(exc)) from None
    try:
        plan = api.plan_run(
            slug, seed=head["seed"], strategy=recorded, server=server, strict=strict,
            move_timeout=move_timeout, isolate=isolate, engine=engine,
        )  # fmt: skip
    except (ValueError, ImportError) as exc:
        writer.close()
        raise fail(str(exc)) from None
    plan.cap = head.get("cap")  # the recorded run's own cap, whatever the default is now
    writer.truncate(resumed.offset if resumed is not None else 0)
    _run(plan, writer, quiet, resumed, as_json=as_json)


def _asker() -> Callable[[str], bool] | None:
    """How to ask the user a yes/no question: on the terminal (default no), or ``None``
    when standard input is not a terminal (nobody to ask)."""
    if not sys.stdin.isatty():
        return None
    return lambda question: bool(typer.confirm(printable(question), default=False, err=True))


def _transcript_failed(exc: WriteFailed, writer: TranscriptWriter | None) -> None:
    """One line: the transcript could not be written, and what of it is kept."""
    kept = (
        f"; its {writer.lines} whole lines are kept: sunbot play --resume {writer.path}"
        if writer is not None and writer.lines > 1  # more than the header: a run to resume
        else ""
    )
    err_console.print(line(("error:", "bold red"), " ", printable(str(exc) + kept)), soft_wrap=True)


def _open_writer(
    path: Path | None, *, append: bool, max_bytes: int | None = DEFAULT_MAX_TRANSCRIPT_MB * MIB
) -> TranscriptWriter | None:
    if path is None:
        return None
    try:
        return TranscriptWriter(path, append=append, max_bytes=max_bytes)
    except FileExistsError:
        raise fail(f"{path} exists: pick another --transcript (or --resume a cut run)") from None
    except OSError as exc:
        raise fail(f"cannot write the transcript {path}: {exc.strerror or exc}") from None


def _run(
    plan: api.RunPlan,
    writer: TranscriptWriter | None,
    quiet: bool,
    resume: Resume | None,
    *,
    as_json: bool = False,
) -> None:
    hint = api.resume_command(writer.path, plan.server) if writer is not None else None
    stop = StopOnInterrupt(writer, hint)
    try:
        try:
            with stop:
                summary = asyncio.run(_play(plan, writer, quiet, resume, stop))
        except api.SetupError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            where = f": {api.resume_command(writer.path, plan.server)}" if writer else ""
            err_console.print(f"[yellow]interrupted[/]; the transcript is whole{escape(where)}")
            raise typer.Exit(exit_code(stop.signum)) from None
        except WriteFailed as exc:  # the header or the result line (a full disk)
            _transcript_failed(exc, writer)
            raise typer.Exit(Exit.ERROR) from None
    finally:
        if writer is not None:
            writer.close()  # stopped before a whole header: it leaves no file
    _print_summary(summary, plan.cap, as_json=as_json)
    if writer is not None and writer.failed is not None:
        _transcript_failed(writer.failed, writer)
        raise typer.Exit(Exit.ERROR)
    if summary.stop_reason is not None:  # a daily spend cap: resumable once it allows
        again = (
            f"; resume once the cap allows (the day turns at 00:00 UTC) with:"
            f" {api.resume_command(summary.transcript, plan.server)}"
            if summary.transcript is not None
            else ""
        )
        err_console.print(f"[yellow]stopped:[/] {escape(summary.stop_reason + again)}")
        raise typer.Exit(Exit.SPEND_CAP)
    if summary.ended_by == "interrupted":
        if summary.transcript is not None:
            err_console.print(
                f"resume with: {escape(api.resume_command(summary.transcript, plan.server))}"
            )
        else:
            err_console.print(
                "interrupted; no transcript was kept (--no-transcript): nothing to resume"
            )
        raise typer.Exit(exit_code(stop.signum))
    if summary.ended_by == "error":
        show_traceback(summary.error_traceback, summary.transcript, summary.error)
        raise typer.Exit(Exit.ERROR)
    if summary.ended_by == "strict" or (plan.strict and summary.divergences):
        raise typer.Exit(Exit.DIVERGED)


async def _play(
    plan: api.RunPlan,
    writer: TranscriptWriter | None,
    quiet: bool,
    resume: Resume | None,
    stop: StopOnInterrupt,
) -> RunSummary:
    view = _LatestView(plan.slug)
    loop = asyncio.get_running_loop()  # a retry wait ends at the first Ctrl-C, not in 60 s

    def wire(backend: Backend) -> None:
        stop.on_request = lambda: loop.call_soon_threadsafe(backend.interrupt)

    with live_view(console, view, quiet) as live:

        def on_position(pos: Answer, step: int, found: list[Divergence]) -> None:
            view.state, view.answer, view.step = pos.shown, pos, step
            for d in found[:5]:
                out = live.console if live else err_console
                out.print(line(("mirror divergence", "yellow"), " ", printable(d)))

        summary = await api.run_plan(
            plan, writer=writer, resume=resume, on_position=on_position, should_stop=stop,
            on_backend=wire,
        )  # fmt: skip
        if summary.ended_by == "cap":  # the last frame says what the summary says
            view.ended = _ended_row(summary, None, None).get("ended")
        return summary


def _ended_row(s: RunSummary, result: object, cause: object) -> dict[str, str]:
    """One ``ended`` row for the game's own words (``result``, ``cause``): ``capped at day
    10`` for a capped run (its END_RUN is a "win" or "ended" in the rules' words, which
    misleads), else ``fatal (zero:food): food fell to 0``-style (the words explained by
    :meth:`sunbot.games.GameInfo.explain`), and ``ended (END_RUN by the strategy)`` when the
    strategy sent the game's end action itself; no row when the game said nothing. A game
    sunbot does not know: a ``result`` row, what its server served read generically
    (:mod:`sunbot.generic.outcome`)."""
    info = GAMES.get(s.game)
    if info is None:  # a game sunbot does not know: what its server served, read generically
        out = {"ended": f"capped at step {s.steps}"} if s.ended_by == "cap" else {}
        return {**out, "result": s.outcome} if s.outcome else out
    field = info.cap_field
    if s.ended_by == "cap" and field and s.final_state and field in s.final_state:
        return {"ended": f"capped at {field} {s.final_state[field]}"}
    words = list(dict.fromkeys(str(w) for w in (result, cause) if w is not None))
    end = (info.end_action or {}).get("type")
    if s.strategy_ended and end is not None:  # "ended (ended)" said nothing of who ended it
        words = [*(w for w in words if w.lower() != str(end).lower()), f"{end} by the strategy"]
    if not words:
        return {}
    said = words[0] + (f" ({'; '.join(words[1:])})" if len(words) > 1 else "")
    # the game's own word, explained (the words of an end action the strategy sent say it)
    meaning = (
        None
        if s.strategy_ended
        else next((m for w in reversed(words) if (m := info.explain(w))), None)
    )
    return {"ended": f"{said}: {meaning}" if meaning else said}


def _yardstick_row(s: RunSummary, cap: int | None) -> dict[str, str]:
    """A ``yardstick`` row: the measured reference means at this run's cap, or that none
    was measured there (:func:`sunbot.bench.reference.yardstick`); for a game sunbot does
    not know, the command that measures one; none for a known game without references, or
    a run that ended on an error or was interrupted (its score is not a whole run's)."""
    info = GAMES.get(s.game)
    if s.ended_by not in ("rules", "cap"):
        return {}
    if info is None:  # nothing measured here; how to measure it
        return {
            "yardstick": f"none measured for {s.game}; sunbot bench {s.game} --server URL"
            " -s random -s first --seeds 1-20 measures one"
        }
    said = yardstick(s.game, cap, info.cap_field)
    return {"yardstick": said} if said else {}


def _cut_row(s: RunSummary) -> dict[str, str]:
    """A ``cut`` row when the server's answers had unknown fields cut for their size."""
    if not s.cut_fields:
        return {}
    over = f"over {MAX_UNKNOWN_FIELD_BYTES // 1024} KiB each"
    return {"cut": f"{s.cut_fields} oversized unknown fields ({over}; see the transcript)"}


#: The summary's row of answers checked, by what checked them.
_CHECKED = {"generic": "generic checks", "model": "model checked"}


def _rules_row(s: RunSummary) -> dict[str, str]:
    """The ``rules`` row of a game sunbot has no engine for: not checked, or checked by the
    forward model's predictions (not the rules themselves)."""
    if s.checks == "generic":
        return {"rules": "not checked (sunbot has no rules engine for this game)"}
    if s.checks == "model":
        return {"rules": "predicted by the forward model (--engine), not by a rules engine"}
    return {}


def _print_summary(s: RunSummary, cap: int | None = None, *, as_json: bool = False) -> None:
    """Print the run's summary: a table, or with ``as_json`` (``--json``) one JSON object on
    stdout (an argument, not module state: a Python caller's earlier ``--json`` run must not
    turn the next summary into JSON)."""
    if as_json:
        # a single-player strategy is seeded with the run's seed (random.Random(seed))
        record = {"game": s.game, "seed": s.seed, "strategySeed": s.seed, "strategy": s.strategy}
        record.update(result_record(s))
        record["transcript"] = str(s.transcript) if s.transcript else None
        print(json.dumps(record), file=result_stdout())
        return
    rows: dict[str, Any] = {"score": s.score, **_yardstick_row(s, cap)}
    if s.final_state and s.game in GAMES:
        rows.update(views.summary(s.game, s.final_state))
    rows.update(_ended_row(s, rows.pop("result", None), rows.pop("cause", None)))
    rows.update(
        {
            "steps": s.steps,
            "refused": s.refused,
            **({"timeouts": s.timeouts} if s.timeouts else {}),
            "ended by": s.ended_by
            + (f" ({s.error})" if s.error else "")
            + (f" ({s.stop_reason})" if s.stop_reason else "")
            + (" (the strategy's end action)" if s.strategy_ended else ""),
            **({"clairvoyant": "yes (--allow-peek)"} if s.clairvoyant else {}),
            **agent_rows(s.agent),
            **_rules_row(s),
            _CHECKED.get(s.checks, "mirror checked"): s.responses_checked,
            "divergences": len(s.divergences),
            **_cut_row(s),
            "retries": s.retries,
            "time": f"{s.elapsed_s:.2f} s",
        }
    )
    console.print(summary_table(f"{s.game} · seed {s.seed} · {s.strategy}", rows))
    if s.unknown_fields:
        console.print(unknown_line(s.unknown_fields), soft_wrap=True)
    if s.transcript:
        console.print(line(f"transcript: {printable(s.transcript)}"), soft_wrap=True)
