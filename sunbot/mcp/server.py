"""The MCP server (the official SDK's :class:`~mcp.server.fastmcp.FastMCP`): its tools and
resources, over stdio or streamable HTTP.

Tools (typed input schemas, structured output; the text content is what an assistant reads,
the structured content the same as JSON): ``list_games``, ``rules``, ``start_game``,
``observe``, ``act``, ``end_game``, ``resume_game``, and ``suggest`` when the server is
started with it. Resources: ``sunbot://replay/{game}`` (a game's HTML replay page) and
``sunbot://transcript/{game}`` (its JSON Lines transcript).

What the client sends is judged, never trusted: arguments are validated by their schemas
(the SDK answers a wrong type with a tool error), a refused action is a normal result with
the reason and the legal actions, every other problem is a tool error of one line, and a
client names games by their ids and servers by the names the operator configured, never by
paths or new URLs. Each session (:class:`sunbot.mcp.host.Session`) lives as long as the
MCP session: the SDK's lifespan, entered once per session, opens it and stops its games
when it ends.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, TypeVar

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import CallToolResult, ContentBlock, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from sunbot.games import GAMES, MAX_SEED, MIN_SEED, available
from sunbot.mcp.game import McpGame
from sunbot.mcp.host import EMBEDDED, BudgetSpent, Host, McpOptions, Session
from sunbot.mcp.models import (
    ActOutcome,
    Ended,
    GameEntry,
    GameList,
    Position,
    Rules,
    StepVerdict,
    Suggestion,
)
from sunbot.mcp.render import position, text_of

__all__ = ["INSTRUCTIONS", "create_server"]

INSTRUCTIONS = (
    "sunbot plays the Gameboard agent games and checks every move. list_games shows the "
    "games, rules explains one, start_game starts it and returns the position with its legal "
    "actions; play with act(game, choice=N) until the status is over; observe shows the "
    "position again. Every game is checked by sunbot's rules engine where it has one, "
    "recorded in a transcript, and can be rated beside sunbot's own strategies."
)
_Fn = TypeVar("_Fn", bound=Callable[..., Any])
#: Seconds a ``suggest`` may take.
SUGGEST_S = 10.0

_Game = Annotated[str, Field(max_length=200, description="the game id start_game returned")]
_Server = Annotated[
    str,
    Field(
        max_length=2000,
        description="'embedded' (sunbot's own server, in-process) or a server URL this "
        "sunbot was started with (sunbot mcp --server URL)",
    ),
]


def _result(model: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structuredContent=model.model_dump(mode="json"),
    )


def _session(ctx: Context[Any, Session, Any]) -> Session:
    """The calling session's state, after counting the call against its budget."""
    session = ctx.request_context.lifespan_context
    try:
        session.request()
    except BudgetSpent as exc:
        raise ToolError(f"stopped: {exc}") from None
    return session


def _game(session: Session, game_id: str) -> McpGame:
    try:
        return session.game(game_id)
    except ValueError as exc:
        raise ToolError(str(exc)) from None


class _Once(logging.Filter):
    """Let a log message through once a minute per text template: the SDK warns on every
    call of an unknown tool, and a client repeating one would fill the host's log (rich
    formatting each line costs more than answering the call)."""

    def __init__(self) -> None:
        super().__init__()
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        key = str(record.msg)
        if now - self._last.get(key, -math.inf) < 60:
            return False
        self._last[key] = now
        return True


def _quiet_repeats() -> None:
    sdk = logging.getLogger("mcp.server.lowlevel.server")
    if not any(isinstance(f, _Once) for f in sdk.filters):
        sdk.addFilter(_Once())


class _McpServer(FastMCP[Session]):
    """FastMCP whose tool errors are one line each: an argument that fails its schema is
    named with what it should be (never echoed: it may be a megabyte), any other error
    is clipped."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any]
    ) -> Sequence[ContentBlock] | dict[str, Any]:
        """:meth:`FastMCP.call_tool`, its errors made one line (class doc)."""
        try:
            return await super().call_tool(name, arguments)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                wrong = "; ".join(
                    f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}"
                    for e in cause.errors()[:3]
                )
                raise ToolError(f"bad arguments for {name[:64]}: {wrong}") from None
            raise ToolError(_line(exc)) from None


def create_server(
    options: McpOptions, *, host: str = "127.0.0.1", port: int = 8765, **settings: Any
) -> FastMCP[Session]:
    """The MCP server of ``options`` (``host``/``port``/``settings``: FastMCP's, for the
    streamable HTTP app; its token verifier and auth settings among them).

    Raises:
        ValueError: options the SDK refuses.
    """
    state = Host(options)
    _quiet_repeats()

    @asynccontextmanager
    async def lifespan(_: FastMCP[Session]) -> AsyncIterator[Session]:
        session = state.open_session()
        try:
            yield session
        finally:
            await asyncio.shield(session.close())

    mcp: FastMCP[Session] = _McpServer(
        "sunbot",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        host=host,
        port=port,
        log_level="WARNING",
        **settings,
    )
    mcp.sunbot_host = state  # type: ignore[attr-defined]
    _tools(mcp, state)
    _resources(mcp, state)
    return mcp


def _tools(mcp: FastMCP[Session], state: Host) -> None:
    readonly = ToolAnnotations(readOnlyHint=True, openWorldHint=False)

    def tool(annotations: ToolAnnotations | None = None) -> Callable[[_Fn], _Fn]:
        """Register a tool, its docstring made one paragraph (a host shows it as is)."""

        def add(fn: _Fn) -> _Fn:
            text = " ".join(inspect.cleandoc(fn.__doc__ or "").split())
            mcp.add_tool(fn, description=text, annotations=annotations)
            return fn

        return add

    @tool(readonly)
    async def list_games(
        ctx: Context[Any, Session, Any], server: _Server = EMBEDDED
    ) -> Annotated[CallToolResult, GameList]:
        """List the games a server offers (default: sunbot's embedded server), with whether
        sunbot knows each one's rules (every answer re-checked) or plays it on the
        protocol alone."""
        _session(ctx)
        try:
            url = state.server_of(server)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        suggest = state.options.suggest
        if url is None:
            games = [
                GameEntry(
                    slug=g.slug,
                    name=g.name,
                    kind=g.kind,
                    support="rules",
                    description=g.description,
                    suggest=suggest,
                )
                for g in available()
            ]
        else:
            from sunbot.generic.index import games_on

            try:
                listed = await games_on(url, retry_seconds=10)
            except Exception as exc:
                raise ToolError(f"cannot read the games of {server}: {_line(exc)}") from None
            games = [
                GameEntry(
                    slug=g.slug,
                    name=g.name,
                    description=g.description,
                    support=g.support,
                    kind=GAMES[g.slug].kind if g.slug in GAMES else "single",
                    suggest=suggest and g.support == "rules",
                )
                for g in listed
            ]
        out = GameList(server=server, games=games)
        text = "\n".join([f"Games on {server}:", *(_entry_line(g) for g in games)])
        return _result(out, text + "\n")

    @tool(readonly)
    async def rules(
        ctx: Context[Any, Session, Any],
        game: Annotated[str, Field(max_length=64, description="the game's slug")],
        server: _Server = EMBEDDED,
    ) -> Annotated[CallToolResult, Rules]:
        """A game's rules and action grammar as the server serves them (its spec)."""
        _session(ctx)
        from sunbot.generic.index import check_slug, describe_spec, rules_on

        try:
            url = state.server_of(server)
            check_slug(game)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        if url is None:
            info = GAMES.get(game)
            if info is None:
                raise ToolError(f"unknown game {game!r} on the embedded server")
            spec = info.spec
        else:
            try:
                spec = await rules_on(url, game, retry_seconds=10)
            except Exception as exc:
                raise ToolError(f"no rules of {game} on {server}: {_line(exc)}") from None
        out = Rules(slug=game, server=server, text=describe_spec(spec), spec=spec)
        return _result(out, f"{game} on {server}\n\n{out.text}")

    @tool()
    async def start_game(
        ctx: Context[Any, Session, Any],
        game: Annotated[str, Field(max_length=64, description="the game's slug (list_games)")],
        seed: Annotated[
            int | None,
            Field(ge=MIN_SEED, le=MAX_SEED, description="the run's seed (default: a new one)"),
        ] = None,
        server: _Server = EMBEDDED,
        agent: Annotated[
            str,
            Field(
                max_length=40,
                description="who plays: a label for the transcript and the ratings "
                "(letters, digits, '.', '_', '-')",
            ),
        ] = "assistant",
        cap: Annotated[
            int | None,
            Field(
                ge=1,
                le=100_000,
                description="end the run after this many voyages (Keelhold), days "
                "(Sunloaf, Naptuft) or steps (other games); default: the game's own",
            ),
        ] = None,
        seat: Annotated[
            int | None,
            Field(
                ge=0, le=5, description="Harvest Watch: your seat (default: drawn from the seed)"
            ),
        ] = None,
        others: Annotated[
            str | None,
            Field(
                max_length=64,
                description="Harvest Watch: the sunbot strategy in the other five seats "
                "(default: the game's default strategy)",
            ),
        ] = None,
    ) -> Annotated[CallToolResult, Position]:
        """Start a game; returns its id and first position with the legal actions. Every
        answer is checked and the game is recorded as a transcript."""
        session = _session(ctx)
        try:
            started = await state.start(
                session, game, seed=seed, server=server, agent=agent, cap=cap, seat=seat,
                others=others,
            )  # fmt: skip
        except BudgetSpent as exc:
            raise ToolError(f"stopped: {exc}") from None
        except (ValueError, OSError) as exc:
            raise ToolError(_line(exc)) from None
        pos = position(started)
        return _result(pos, text_of(started, pos, f"Started game {started.id}."))

    @tool(readonly)
    async def observe(
        ctx: Context[Any, Session, Any], game: _Game
    ) -> Annotated[CallToolResult, Position]:
        """The game's current position: the view, the legal actions, or how it ended."""
        found = _game(_session(ctx), game)
        pos = position(found)
        return _result(pos, text_of(found, pos))

    @tool()
    async def act(
        ctx: Context[Any, Session, Any],
        game: _Game,
        choice: Annotated[
            int | None,
            Field(ge=0, le=100_000, description="the index of a legal action (observe lists them)"),
        ] = None,
        action: Annotated[
            Any,
            Field(description="the action itself, as JSON (one of legalActions, unchanged)"),
        ] = None,
    ) -> Annotated[CallToolResult, ActOutcome]:
        """Play one action: give choice (an index into legalActions) or action (JSON).
        A refused action is answered with the reason and the legal actions; nothing is
        played then. Returns what the server answered, its check, and the next position."""
        session = _session(ctx)
        found = _game(session, game)
        if (choice is None) == (action is None):
            raise ToolError("give exactly one of choice (an index) and action (JSON)")
        if found.lock.locked():
            raise ToolError("an action for this game is still being played: wait for it")
        async with found.lock:
            turn = found.turn
            if turn is None:
                pos = position(found)
                note = "Not your turn: nothing was sent." if not found.finished else None
                outcome = ActOutcome(sent=False, accepted=False, refused=note, position=pos)
                return _result(outcome, text_of(found, pos, note))
            if choice is not None:
                if choice >= len(turn.legal_actions):
                    raise ToolError(
                        f"choice {choice} is not an index of the {len(turn.legal_actions)} "
                        "legal actions"
                    )
                action = turn.legal_actions[choice]
            why = found.check(action)
            if why is not None:
                pos = position(found)
                note = f"Refused, nothing was sent: {why}."
                outcome = ActOutcome(sent=False, accepted=False, refused=why, position=pos)
                return _result(outcome, text_of(found, pos, note))
            try:
                session.step()
            except BudgetSpent as exc:
                raise ToolError(f"stopped: {exc}") from None
            done = await found.act(action, state.options.act_wait_s)
        pos = position(found)
        verdict = StepVerdict(**done.verdict) if done.verdict is not None else None
        outcome = ActOutcome(
            sent=done.sent, accepted=done.accepted, refused=done.refused, answer=verdict,
            position=pos,
        )  # fmt: skip
        return _result(outcome, text_of(found, pos, _note(outcome)))

    @tool()
    async def end_game(
        ctx: Context[Any, Session, Any], game: _Game
    ) -> Annotated[CallToolResult, Ended]:
        """Stop a game now. Its transcript stays whole; a single-player game can be
        continued later with resume_game."""
        found = _game(_session(ctx), game)
        found.stop("ended by the client (end_game)")
        await found.wait_stopped(10)
        pos = position(found)
        resumable = found.kind != "match" and pos.status == "stopped"
        return _result(Ended(position=pos, resumable=resumable), text_of(found, pos))

    @tool()
    async def resume_game(
        ctx: Context[Any, Session, Any],
        game: _Game,
        server: Annotated[
            str | None,
            Field(max_length=2000, description="where to continue (default: where it was played)"),
        ] = None,
    ) -> Annotated[CallToolResult, Position]:
        """Continue a stopped single-player game from its transcript (its id is the one
        start_game gave)."""
        session = _session(ctx)
        try:
            resumed = await state.resume(session, game, server)
        except BudgetSpent as exc:
            raise ToolError(f"stopped: {exc}") from None
        except (ValueError, OSError) as exc:
            raise ToolError(_line(exc)) from None
        pos = position(resumed)
        return _result(pos, text_of(resumed, pos, f"Resumed game {resumed.id}."))

    if state.options.suggest:

        @tool(readonly)
        async def suggest(
            ctx: Context[Any, Session, Any], game: _Game
        ) -> Annotated[CallToolResult, Suggestion]:
            """What sunbot's own strategy for this game would play now (a hint; you
            still choose)."""
            found = _game(_session(ctx), game)
            name = GAMES[found.slug].default_strategy if found.slug in GAMES else None
            if name is None:
                raise ToolError(f"sunbot has no strategy for {found.slug}")
            turn = found.turn
            try:
                move = await asyncio.wait_for(asyncio.to_thread(found.suggestion, name), SUGGEST_S)
            except TimeoutError:
                raise ToolError(f"{name} took more than {SUGGEST_S:g} s") from None
            except Exception as exc:
                raise ToolError(_line(exc)) from None
            legal = turn.legal_actions if turn is not None else []
            key = json.dumps(move, sort_keys=True)
            index = next(
                (i for i, a in enumerate(legal) if json.dumps(a, sort_keys=True) == key), None
            )
            out = Suggestion(strategy=name, action=move, choice=index)
            shown = json.dumps(move, ensure_ascii=False)
            return _result(
                out,
                f"{name} would play {shown}"
                + (f" (choice {index})" if index is not None else "")
                + "\n",
            )


def _entry_line(g: GameEntry) -> str:
    checks = "rules checked" if g.support == "rules" else "generic checks"
    about = f" - {g.description}" if g.description else ""
    return f"- {g.slug}: {g.name} ({g.kind}, {checks}){about}"


def _note(outcome: ActOutcome) -> str:
    """What became of an action, in one line."""
    if outcome.refused:
        return f"Refused: {outcome.refused}."
    if outcome.accepted is None:
        return "Sent; the beat decides." if outcome.sent else "Not sent."
    verdict = outcome.answer
    checked = ""
    if verdict is not None:
        n = len(verdict.divergences)
        checked = " Checked: ok." if verdict.ok else f" Checked: {n} divergences."
    return f"Played.{checked}"


def _line(exc: BaseException) -> str:
    from sunbot._text.safe import safe

    return safe(" ".join(str(exc).split()) or type(exc).__name__)


def _resources(mcp: FastMCP[Session], state: Host) -> None:
    @mcp.resource("sunbot://replay/{game}", mime_type="text/html")
    def replay(game: str) -> str:
        """A game's replay page: one self-contained HTML document (no network)."""
        from sunbot.html import replay_page
        from sunbot.transcripts.jsonl import read_transcript

        return replay_page(read_transcript(state.path_of(game)))

    @mcp.resource("sunbot://transcript/{game}", mime_type="application/jsonl")
    def transcript(game: str) -> str:
        """A game's transcript (JSON Lines, docs/transcripts.md)."""
        return state.path_of(game).read_text(encoding="utf-8")
