"""The ``sunbot`` command line (typer + rich).

``sunbot play GAME`` plays one run on the embedded server (in-process, over the same HTTP
code path) or on ``--server URL``; ``sunbot serve`` runs the local server with uvicorn;
``sunbot games`` lists games and strategies. The CLI owns the event loop.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console, RenderableType
from rich.table import Table

import strategies
import sunbot
from sunbot import views
from sunbot.bench.cli import bench_command
from sunbot.cli_transcripts import export_command, replay_command
from sunbot.client import GameboardClient, Position
from sunbot.games import available, get_game
from sunbot.mirror import Divergence, Mirror
from sunbot.resume import Resume, cut_back, load_resume
from sunbot.runner import RunSummary, play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts import TranscriptWriter, default_path
from sunbot.views.common import live_view, summary_table

app = typer.Typer(
    name="sunbot",
    help="Play the Gameboard agent games: run a bot, serve the games locally, list them.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)

#: Exit codes of ``sunbot play``.
EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_DIVERGED = 0, 1, 2, 3


class _LatestView:
    """A renderable that draws the latest position only when rich refreshes the screen."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        self.state: dict[str, Any] | None = None

    def __rich__(self) -> RenderableType:
        if self.state is None:
            return "starting…"
        return views.render(self.slug, self.state)


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


@app.command()
def play(
    game: Annotated[
        str | None, typer.Argument(help="Game slug: keelhold, sunloaf, naptuft, harvest-watch.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Run seed (random when omitted).")] = None,
    strategy: Annotated[str | None, typer.Option(help="Strategy name (default per game).")] = None,
    server: Annotated[
        str | None,
        typer.Option(help="Server origin, e.g. https://gameboard.gg (default: embedded)."),
    ] = None,
    max_voyages: Annotated[
        int | None, typer.Option(min=1, help="Keelhold: END_RUN at port after voyage N.")
    ] = None,
    max_days: Annotated[
        int | None, typer.Option(min=1, help="Sunloaf/Naptuft: end after day N (Naptuft: 10).")
    ] = None,
    transcript: Annotated[
        Path | None, typer.Option(help="Transcript path (default: transcripts/<game>-seed…).")
    ] = None,
    no_transcript: Annotated[bool, typer.Option(help="Write no transcript.")] = False,
    strict: Annotated[
        bool, typer.Option(help="Stop at the first mirror divergence (exit 3).")
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No live view; print only the summary.")] = False,
    seats: Annotated[
        int, typer.Option(min=1, max=6, help="Match games: seats our strategy plays.")
    ] = 1,
    match: Annotated[
        str | None, typer.Option(help="Match games: join this match id on --server.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            exists=True, dir_okay=False, help="Continue the run recorded in this transcript."
        ),
    ] = None,
) -> None:
    """Play one run (or match) and print its summary. Exit 0 when it ended by the rules."""
    resumed: Resume | None = None
    if resume is not None:
        try:
            resumed = load_resume(resume)
        except (ValueError, OSError) as exc:
            raise _fail(str(exc)) from None
        head = resumed.header
        if game is not None and game != head["game"]:
            raise _fail(f"{resume} is a {head['game']} run, not {game}")
        game, seed, strategy = str(head["game"]), head["seed"], str(head["strategy"])
        if server is None and head["server"] != "embedded":
            server = str(head["server"])
        transcript, no_transcript = resume, False
    if game is None:
        raise _fail("give a GAME to play (or --resume FILE)")
    try:
        info = get_game(game)
    except KeyError as exc:
        raise _fail(str(exc.args[0])) from None
    if resumed is None and not no_transcript and transcript is not None and transcript.exists():
        raise _fail(f"{transcript} exists: pick another --transcript (or --resume a cut run)")
    if info.kind == "match":
        from sunbot.match_play import play_match_command

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
        )
        raise typer.Exit(code)
    if match is not None or seats != 1:
        raise _fail("--seats and --match apply to match games only")
    cap = _cap(info.slug, info.cap_field, max_voyages, max_days) or info.default_cap
    if resumed is not None:
        cap = resumed.header.get("cap")
    name = strategy or strategies.default_name(game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    try:
        bot = strategies.create(game, name, random.Random(seed))
    except strategies.UnknownStrategy as exc:
        raise _fail(str(exc)) from None
    path = None if no_transcript else (transcript or default_path(game, seed, name))
    if resumed is not None and path is not None:
        cut_back(path, resumed.offset)
    summary = asyncio.run(
        _play(info.slug, seed, name, bot, server, cap, path, strict, quiet, resumed)
    )
    _print_summary(summary)
    if summary.ended_by == "error":
        raise typer.Exit(EXIT_ERROR)
    if summary.ended_by == "strict" or (strict and summary.divergences):
        raise typer.Exit(EXIT_DIVERGED)


def _cap(slug: str, field: str | None, voyages: int | None, days: int | None) -> int | None:
    if voyages is not None and field != "voyage":
        raise _fail(f"--max-voyages does not apply to {slug}")
    if days is not None and field != "day":
        raise _fail(f"--max-days does not apply to {slug}")
    return voyages if voyages is not None else days


async def _play(
    slug: str,
    seed: int,
    name: str,
    bot: strategies.Strategy,
    server: str | None,
    cap: int | None,
    path: Path | None,
    strict: bool,
    quiet: bool,
    resume: Resume | None = None,
) -> RunSummary:
    if server:
        client = GameboardClient(server)
        label = server
    else:
        transport = httpx.ASGITransport(app=create_app(TokenCodec.embedded()))
        client = GameboardClient(transport=transport)
        label = "embedded"
    mirror = Mirror(slug)
    view = _LatestView(slug)
    writer = TranscriptWriter(path, append=resume is not None) if path else None
    try:
        with live_view(console, view, quiet) as live:

            def on_position(pos: Position, step: int, found: list[Divergence]) -> None:
                view.state = pos.state or pos.observation
                for d in found[:5]:
                    out = live.console if live else err_console
                    out.print(f"[yellow]mirror divergence[/] {d}")

            async with client:
                return await play_run(
                    client,
                    slug,
                    seed,
                    bot,
                    strategy_name=name,
                    cap=cap,
                    strict=strict,
                    mirror=mirror,
                    transcript=writer,
                    server_label=label,
                    on_position=on_position,
                    resume=resume,
                )
    finally:
        if writer is not None:
            writer.close()


def _print_summary(s: RunSummary) -> None:
    rows: dict[str, Any] = {"score": s.score}
    if s.final_state:
        rows.update(views.summary(s.game, s.final_state))
    rows.update(
        {
            "steps": s.steps,
            "refused": s.refused,
            "ended by": s.ended_by + (f" ({s.error})" if s.error else ""),
            "mirror checked": s.responses_checked,
            "divergences": len(s.divergences),
            "retries": s.retries,
            "time": f"{s.elapsed_s:.2f} s",
            "transcript": str(s.transcript) if s.transcript else "-",
        }
    )
    console.print(summary_table(f"{s.game} · seed {s.seed} · {s.strategy}", rows))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    key_file: Annotated[
        Path | None,
        typer.Option(
            help="File of Fernet keys, one a line (default: SUNBOT_SERVER_KEYS or fresh)."
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
    faults: Annotated[
        str | None,
        typer.Option(
            help="Inject faults, e.g. 429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01 "
            "(settings: retry-after=SECONDS, slow-seconds=SECONDS). Off by default."
        ),
    ] = None,
    fault_seed: Annotated[int | None, typer.Option(help="Seed of the fault draws.")] = None,
    token_ttl: Annotated[
        int | None,
        typer.Option(min=1, help="Seconds a state token stays valid (default: forever)."),
    ] = None,
) -> None:
    """Run the local Gameboard-compatible server with uvicorn."""
    import uvicorn

    from sunbot.server.faults import FaultInjector, FaultPlan

    codec = TokenCodec.from_environment(key_file, token_ttl)
    asgi: Any = create_app(codec)
    if faults:
        try:
            plan = FaultPlan.parse(faults)
        except ValueError as exc:
            raise _fail(str(exc)) from None
        asgi = FaultInjector(asgi, plan, fault_seed)
        console.print(f"fault injection on: {plan.rates}")
    console.print(f"sunbot {sunbot.__version__} serving on http://{host}:{port}/api/games")
    uvicorn.run(asgi, host=host, port=port, log_level=log_level, timeout_keep_alive=30)


@app.command()
def games() -> None:
    """List the games and their strategies (default first)."""
    table = Table(title="sunbot games")
    for col in ("slug", "name", "kind", "strategies"):
        table.add_column(col)
    for g in available():
        table.add_row(g.slug, g.name, g.kind, ", ".join(strategies.names(g.slug)) or "-")
    console.print(table)


app.command("replay")(replay_command)
app.command("export")(export_command)
app.command("bench")(bench_command)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
