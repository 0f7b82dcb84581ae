"""What one ``sunbot mcp`` server holds: its options, its sessions and their games.

A :class:`Session` is one MCP session (one stdio connection, or one streamable HTTP
session): its budgets (games, steps, requests) and the games it started. When the session
ends, whatever ended it (the client closed stdin, sent DELETE, went away, the server
stops), its games still running are stopped, each transcript whole
(:meth:`sunbot.mcp.game.McpGame.stop`). :class:`Host` starts and resumes games: it turns a
client's request into a run planned by :mod:`sunbot.api`, and it is the only place that
makes a file name. Transcripts live in one folder, named by sunbot
(:func:`sunbot.transcripts.jsonl.default_path`); a game id the client sends is checked to
be one of those names before it is read (no path from a client is ever used as one).
"""

from __future__ import annotations

import logging
import random
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from sunbot import api, strategies
from sunbot.games import GAMES, GameInfo
from sunbot.generic.index import check_slug
from sunbot.mcp.game import McpGame
from sunbot.transcripts.bounds import DEFAULT_MAX_TRANSCRIPT_MB
from sunbot.transcripts.jsonl import default_path
from sunbot.transcripts.resume import NoInitAnswer, load_resume

__all__ = [
    "EMBEDDED",
    "LABEL",
    "Budget",
    "BudgetSpent",
    "Host",
    "McpOptions",
    "Session",
    "agent_label",
]

log = logging.getLogger("sunbot.mcp")

#: The ``server`` value of the embedded server (in-process, no network).
EMBEDDED = "embedded"
#: What an agent label may look like: it names the agent in transcripts and ratings.
LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
#: What a game id may look like (a transcript's file name without ``.jsonl``).
_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
#: Games of one session running at once.
MAX_LIVE = 8
#: Seconds a stopped game's task is waited for when its session closes.
STOP_WAIT_S = 5.0
#: What an MCP agent's strategy label starts with in a transcript header.
PREFIX = "mcp:"


class BudgetSpent(Exception):
    """A session's budget is spent; the message is the stop reason the client is told."""


@dataclass(frozen=True)
class Budget:
    """What one MCP session may use: ``games`` started (or resumed), ``steps`` (actions
    sent to a game server) and ``requests`` (tool calls)."""

    games: int = 100
    steps: int = 100_000
    requests: int = 100_000


@dataclass(frozen=True)
class McpOptions:
    """How ``sunbot mcp`` serves.

    Attributes:
        transcripts: the folder of every game's transcript (made on the first game).
        servers: Gameboard servers (URLs) a client may name besides the embedded one.
        budget: per session.
        suggest: offer the ``suggest`` tool (a sunbot strategy's move).
        idle_s: a decision waits this long for the client; then the game is stopped.
        act_wait_s: ``act`` waits at most this long for what the action led to.
        beat_ms: a Harvest Watch beat's length on the embedded server, milliseconds.
        max_transcript_mb: one transcript's size limit.
    """

    transcripts: Path
    servers: tuple[str, ...] = ()
    budget: Budget = field(default_factory=Budget)
    suggest: bool = False
    idle_s: float = 600.0
    act_wait_s: float = 30.0
    beat_ms: int = 60_000
    max_transcript_mb: int = DEFAULT_MAX_TRANSCRIPT_MB


def agent_label(text: str) -> str:
    """``text`` if it is a usable agent label (:data:`LABEL`).

    Raises:
        ValueError: one line saying what a label may hold.
    """
    if not LABEL.fullmatch(text):
        raise ValueError(
            "agent must be 1-40 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    return text


class Session:
    """One MCP session's budgets and games (module doc)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.games: dict[str, McpGame] = {}
        self.started = 0
        self.steps = 0
        self.requests = 0
        self.spent: str | None = None

    def request(self) -> None:
        """Count one tool call.

        Raises:
            BudgetSpent: this or an earlier call spent a budget (the session's games
                running are stopped with the same reason).
        """
        budget = self.host.options.budget
        self.requests += 1
        if self.spent is None and self.requests > budget.requests:
            self._spend(f"the session's request budget ({budget.requests:,} tool calls) is spent")
        if self.spent is not None:
            raise BudgetSpent(self.spent)

    def step(self) -> None:
        """Count one action about to be sent.

        Raises:
            BudgetSpent: the step budget is spent.
        """
        budget = self.host.options.budget
        if self.steps >= budget.steps:
            self._spend(f"the session's step budget ({budget.steps:,} actions) is spent")
            raise BudgetSpent(self.spent)
        self.steps += 1

    def _spend(self, reason: str) -> None:
        self.spent = reason
        for game in self.games.values():
            game.stop(reason)

    def game(self, game_id: str) -> McpGame:
        """This session's game ``game_id``.

        Raises:
            ValueError: no such game in this session.
        """
        found = self.games.get(game_id)
        if found is None:
            raise ValueError(
                f"no game {game_id[:200]!r} in this session (start_game gives the id;"
                " resume_game continues a stopped one)"
            )
        return found

    def _room(self) -> None:
        budget = self.host.options.budget
        if self.started >= budget.games:  # the games running play on
            raise BudgetSpent(f"the session's game budget ({budget.games:,} games) is spent")
        live = sum(not g.finished for g in self.games.values())
        if live >= MAX_LIVE:
            raise ValueError(f"{live} games are running in this session: end one first")

    async def close(self) -> None:
        """Stop this session's running games (their client is gone) and wait for their
        transcripts' last lines (bounded)."""
        running = [g for g in self.games.values() if not g.finished]
        for game in running:
            game.stop("the client's session ended")
        for game in running:
            await game.wait_stopped(STOP_WAIT_S)


class Host:
    """A server's options and what its sessions share (module doc)."""

    def __init__(self, options: McpOptions) -> None:
        self.options = options
        self.folder = options.transcripts
        self.live: dict[str, McpGame] = {}
        self.servers = {s.rstrip("/"): s for s in options.servers}

    def open_session(self) -> Session:
        """A new session's state."""
        return Session(self)

    def server_of(self, name: str) -> str | None:
        """The server a client named: ``None`` for the embedded one, else one of the
        configured URLs.

        Raises:
            ValueError: any other value (a client cannot point sunbot at a server the
                operator did not name).
        """
        if name == EMBEDDED:
            return None
        url = self.servers.get(name.rstrip("/"))
        if url is None:
            named = ", ".join([EMBEDDED, *self.servers]) if self.servers else EMBEDDED
            raise ValueError(
                f"server {name[:200]!r} is not one this sunbot serves: {named} (its operator"
                " adds others with sunbot mcp --server URL)"
            )
        return url

    def path_of(self, game_id: str) -> Path:
        """The transcript of game ``game_id`` in the folder.

        Raises:
            ValueError: not a game id (a path, a name sunbot never makes), or no such file.
        """
        if not _GAME_ID.fullmatch(game_id) or ".." in game_id:
            raise ValueError(f"{game_id[:200]!r} is not a game id")
        path = self.folder / f"{game_id}.jsonl"
        if not path.is_file() or path.resolve().parent != self.folder.resolve():
            raise ValueError(f"no game {game_id!r} in the transcript folder")
        return path

    def _new_path(self, slug: str, seed: int, label: str) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return default_path(slug, seed, f"mcp-{label}", self.folder)

    def _game(
        self, session: Session, slug: str, kind: str, seed: int, label: str, path: Path,
        seat: int | None = None,
    ) -> McpGame:  # fmt: skip
        return McpGame(
            game_id=path.stem, slug=slug, kind=kind, seed=seed, label=label, path=path,
            idle_s=self.options.idle_s, seat=seat,
            max_transcript_bytes=self.options.max_transcript_mb << 20,
        )  # fmt: skip

    def _register(self, session: Session, game: McpGame) -> None:
        session.started += 1
        session.games[game.id] = game
        self.live[game.id] = game
        assert game.task is not None
        game.task.add_done_callback(lambda _: self.live.pop(game.id, None))

    async def start(
        self,
        session: Session,
        slug: str,
        *,
        seed: int | None,
        server: str,
        agent: str,
        cap: int | None = None,
        seat: int | None = None,
        others: str | None = None,
    ) -> McpGame:
        """Start a game for ``session`` and return it once it waits for the client's first
        decision (or ended, or ``act_wait_s`` passed).

        Raises:
            BudgetSpent: the session's game budget is spent.
            ValueError: a bad slug, seed, server, cap, seat or strategy (one line).
            OSError: the transcript cannot be created.
        """
        label = agent_label(agent)
        url = self.server_of(server)
        info = GAMES.get(slug)
        if info is None:
            check_slug(slug)
            if url is None:
                raise ValueError(api.unknown_game(slug).replace("--server URL", "server=URL"))
        session._room()
        if seed is None:
            seed = api.new_seed()
        if info is not None and info.kind == "match":
            game = self._start_match(session, info, seed, label, url, cap, seat, others)
        else:
            if seat is not None or others is not None:
                raise ValueError("seat and others are for Harvest Watch, a match game")
            game = self._start_single(session, slug, info, seed, label, url, cap)
        self._register(session, game)
        await game.wait(self.options.act_wait_s)
        return game

    def _start_single(
        self, session: Session, slug: str, info: GameInfo | None, seed: int, label: str,
        url: str | None, cap: int | None,
    ) -> McpGame:  # fmt: skip
        unit = info.cap_field if info is not None else None
        voyages = cap if unit == "voyage" else None
        days = cap if unit == "day" else None
        steps = cap if unit not in ("voyage", "day") else None
        kind = "rules" if info is not None else "generic"
        path = self._new_path(slug, seed, label)
        game = self._game(session, slug, kind, seed, label, path)
        plan = api.plan_run(
            slug, seed=seed, strategy=game.bridge, server=url,
            max_voyages=voyages, max_days=days, max_steps=steps, cap_names=("cap", "cap"),
        )  # fmt: skip
        game.start_single(replace(plan, strategy=f"{PREFIX}{label}"))
        return game

    def _start_match(
        self, session: Session, info: GameInfo, seed: int, label: str, url: str | None,
        cap: int | None, seat: int | None, others: str | None,
    ) -> McpGame:  # fmt: skip
        if url is not None:
            raise ValueError(f"a {info.slug} seat is played on the embedded server")
        if cap is not None:
            raise ValueError(f"cap does not apply to {info.slug}: a match plays to its end")
        names = strategies.names(info.slug)
        others = others or strategies.default_name(info.slug)
        if others not in names:
            raise ValueError(f"others must be one of {', '.join(names)}, got {others[:80]!r}")
        if seat is None:  # drawn from the seed, so a replayed start sits where it sat
            seat = random.Random(f"sunbot-mcp-seat/{seed}").randrange(6)
        plan = api.plan_match(info.slug, seed=seed, strategy=others, seats=6)
        path = self._new_path(info.slug, seed, label)
        game = self._game(session, info.slug, "match", seed, label, path, seat)
        game.start_match(plan, others, self.options.beat_ms)
        return game

    async def resume(self, session: Session, game_id: str, server: str | None) -> McpGame:
        """Continue the stopped single-player game ``game_id`` from its transcript, for
        ``session``; ``server`` names where (default: where it was played, if this sunbot
        serves that server).

        Raises:
            BudgetSpent: the session's game budget is spent.
            ValueError: no such game, one still running, a match, a finished run, a
                transcript that is not an MCP game's or cannot be trusted.
        """
        path = self.path_of(game_id)
        running = self.live.get(game_id)
        if running is not None:
            if session.games.get(game_id) is running:
                return running
            raise ValueError(f"game {game_id} is still running in another session")
        session._room()
        fresh = False
        try:
            resumed = load_resume(path)
            head = resumed.header
        except NoInitAnswer as exc:
            resumed, head, fresh = None, exc.header, True
        recorded = str(head.get("strategy", ""))
        if not recorded.startswith(PREFIX):
            raise ValueError(f"{path.name} is not a game played over MCP")
        label = recorded[len(PREFIX) :]
        slug = str(head["game"])
        info = GAMES.get(slug)
        where = str(head.get("server", EMBEDDED)) if server is None else server
        url = self.server_of(where)
        seed = int(head["seed"])
        kind = "rules" if info is not None else "generic"
        game = self._game(session, slug, kind, seed, label, path)
        plan = api.plan_run(slug, seed=seed, strategy=game.bridge, server=url)
        plan = replace(plan, strategy=recorded, cap=head.get("cap"))
        game.start_single(plan, resume=resumed, fresh=fresh)
        self._register(session, game)
        await game.wait(self.options.act_wait_s)
        return game
