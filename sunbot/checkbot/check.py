"""Is a bot fit to bench? :func:`check_bot` plays a few short seeded runs of each game it
plays and reports, per game, what a benchmark needs of it.

The runs go through :func:`sunbot.api.play_async`: a game sunbot knows plays on its engine
in-process (``server="engine"``: fast, no HTTP) for :data:`SHORT_CAP` voyages or days;
Harvest Watch plays one seed as a short match on the embedded server; a game sunbot does not
know plays on ``server`` for at most :data:`GENERIC_STEPS` steps. The first seed is played a
second time, with a freshly built bot, to see that the bot is deterministic for a fixed
seed. A run may take :func:`run_budget` seconds; one cut there ends the game's check. The
bot is wrapped so that each decision's answer and time are recorded, whatever the
bot is: a bot file, a strategy name, ``exec:``, ``http(s)://`` or ``llm:``
(:func:`sunbot.agents._recorded.recorded`).

A game's :class:`GameCheck` is fit (:attr:`GameCheck.fit`) when no run ended in an error,
no action was refused, no decision passed the deadline, the 95th percentile of the decision
times is under it, and both runs of the first seed chose the same actions. The command is
``sunbot check-bot`` (:mod:`sunbot.cli.check_bot`); the guide ``docs/guide-check-bot.md``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any

from sunbot import api, bots, strategies
from sunbot._text.safe import describe, safe
from sunbot.agents._recorded import recorded
from sunbot.agents.spec import agent_kind, check_strategy
from sunbot.checkbot.report import (
    DEFAULT_MOVE_TIMEOUT,
    FIRST_SEED,
    BotCheck,
    GameCheck,
    RunRecord,
)
from sunbot.client.http import public_url
from sunbot.games import GAMES, available
from sunbot.generic.index import check_slug, games_on
from sunbot.runs.summary import RunSummary

__all__ = [
    "DEFAULT_MOVE_TIMEOUT",
    "DEFAULT_SEEDS",
    "FIRST_SEED",
    "GENERIC_STEPS",
    "MAX_SEEDS",
    "RUN_BUDGET_DEADLINES",
    "RUN_BUDGET_MIN_S",
    "SHORT_CAP",
    "BadCheck",
    "BotCheck",
    "GameCheck",
    "RunRecord",
    "check_bot",
    "declared_games",
    "games_to_check",
    "run_budget",
    "shown_bot",
]

#: Voyages (Keelhold) or days (Sunloaf, Naptuft) of one run of a game sunbot knows.
SHORT_CAP = 2
#: Most steps of one run of a game sunbot does not know.
GENERIC_STEPS = 200
#: Seeds per game by default, and at most; the seeds are ``FIRST_SEED, FIRST_SEED + 1, ...``.
DEFAULT_SEEDS, MAX_SEEDS = 3, 20
#: A run of the check may take this many deadlines (``--move-timeout``), and at least
#: :data:`RUN_BUDGET_MIN_S` seconds (:func:`run_budget`).
RUN_BUDGET_DEADLINES, RUN_BUDGET_MIN_S = 40, 30.0
#: Seeds of Harvest Watch (each match takes a few seconds): one, played twice.
_MATCH_SEEDS = 1


class BadCheck(ValueError):
    """The check cannot be run as asked (bad usage): an unknown game, a bot that does not
    play a game named, a game sunbot does not know without a server, a bad option."""


def declared_games(bot: str) -> tuple[str, ...] | None:
    """The games ``bot`` declares: a bot file's ``games``/``game`` (``"*"``: any game); a
    strategy name, the games sunbot knows that name a strategy so (with ``"*"`` when it
    plays any game, as ``random`` and ``first`` do); ``None`` for an agent (``exec:``,
    ``http(s)://``, ``llm:``) or a bot file that declares nothing.

    Raises:
        BadCheck: a bot file that cannot be loaded.
    """
    if agent_kind(bot) is not None:
        return None
    if bots.is_file_spec(bot):
        try:
            obj = bots.load_file(bot)
        except bots.UnknownStrategy as exc:
            raise BadCheck(str(exc)) from None
        games = getattr(obj, "games", None) or getattr(obj, "game", None) or ()
        found = (games,) if isinstance(games, str) else tuple(str(g) for g in games)
        return found or None
    known = tuple(g.slug for g in available() if bot in strategies.names(g.slug))
    anywhere = bot in strategies.names("*")  # "*" is no slug: the any-game strategies
    return (*known, "*") if anywhere else known


def _refusal(game: str, bot: str) -> str | None:
    """Why ``bot`` cannot play ``game`` (``None``: it can)."""
    try:
        check_strategy(game, bot)
    except ValueError as exc:
        return str(exc)
    return None


def games_to_check(
    bot: str, games: Sequence[str] = (), *, server: str | None = None, listed: Sequence[str] = ()
) -> list[GameCheck]:
    """The games to check, in order, as empty :class:`GameCheck` (``skipped`` set for a
    declared game that cannot be played here). ``games`` named: each, checked. None named:
    the games the bot declares (:func:`declared_games`) that sunbot knows, those it
    declares that it does not know (played on ``server``), and, for a bot of any game
    (``"*"``), every game ``listed`` on ``server``; a bot that declares none: the games
    sunbot knows that it accepts.

    Raises:
        BadCheck: a game named is not a slug, is unknown without ``server``, or the bot
            does not play it; no game is left to check.
    """
    if games:
        out: list[GameCheck] = []
        for g in dict.fromkeys(games):
            if g not in GAMES:
                if server is None:
                    raise BadCheck(api.unknown_game(g))
                try:
                    check_slug(g)
                except ValueError as exc:
                    raise BadCheck(str(exc)) from None
            try:
                check_strategy(g, bot)
            except ValueError as exc:
                raise BadCheck(str(exc)) from None
            out.append(GameCheck(g))
        return out
    declared = declared_games(bot)
    if declared == ():
        raise BadCheck(
            f"unknown strategy {shown_bot(bot)!r}: no game has a strategy of that name "
            "(sunbot games lists them); give a bot file path.py:Class or an agent"
        )
    known = [g.slug for g in available()]
    if declared is None or "*" in declared:
        wanted = [*known, *(s for s in listed if s not in GAMES and "*" in (declared or ()))]
    else:
        wanted = list(declared)
    out = []
    why: list[str] = []
    for g in dict.fromkeys(wanted):
        if g not in GAMES and server is None:
            out.append(GameCheck(g, skipped="sunbot has no engine for it: give --server URL"))
        elif (refused := _refusal(g, bot)) is None:
            out.append(GameCheck(g))
        else:
            why.append(refused)
    if any(c.skipped is None for c in out):
        return out
    if out:  # games it declares, all unknown to sunbot, and no server
        unknown = ", ".join(c.game for c in out)
        raise BadCheck(f"{shown_bot(bot)} plays {unknown}, which sunbot has no engine for: "
                       "give --server URL")  # fmt: skip
    if declared is not None and "*" in declared and server is None:
        raise BadCheck(
            f"{shown_bot(bot)} plays games sunbot has no engine for: give --server URL "
            "(and the games, or every game it lists is checked)"
        )
    raise BadCheck(why[0] if why else f"{shown_bot(bot)} plays none of {', '.join(wanted)} here")


def _where(game: str, server: str | None) -> str | None:
    """The ``server`` argument of a check run of ``game``."""
    info = GAMES.get(game)
    if info is None:
        return server
    return None if info.kind == "match" else api.ENGINE


def _caps(game: str) -> dict[str, Any]:
    """The short cap of a check run: :data:`SHORT_CAP` voyages or days, or
    :data:`GENERIC_STEPS` steps for a game sunbot does not know."""
    info = GAMES.get(game)
    if info is None:
        return {"max_steps": GENERIC_STEPS}
    cap = min(SHORT_CAP, info.default_cap or SHORT_CAP)
    return {"voyage": {"max_voyages": cap}, "day": {"max_days": cap}}.get(info.cap_field or "", {})


def run_budget(move_timeout: float) -> float:
    """Seconds one run of a check may take: :data:`RUN_BUDGET_DEADLINES` deadlines, at
    least :data:`RUN_BUDGET_MIN_S` (a bot that hangs, or a Harvest Watch seat whose late
    decisions each hold a whole beat, cannot hold the check for long)."""
    return max(RUN_BUDGET_MIN_S, RUN_BUDGET_DEADLINES * move_timeout)


async def _one_run(
    game: str,
    bot: str,
    seed: int,
    server: str | None,
    move_timeout: float,
    options: dict[str, Any] | None,
) -> tuple[RunSummary, list[str], list[float], bool]:
    """One run of ``bot`` (built afresh for ``seed``) and whether it was cut at the
    :func:`run_budget`; a bot that cannot be built or a run that cannot start is the
    summary's error."""
    wrapped = None
    budget = run_budget(move_timeout)
    summary: RunSummary | None = None
    cut = False
    try:
        _, make = api.resolve_strategy(game, bot, seed=seed, options=options)
        wrapped = recorded(make(random.Random(seed)))
        run = api.play_async(
            game, seed=seed, strategy=wrapped, server=server, move_timeout=move_timeout,
            **_caps(game),
        )  # fmt: skip
        summary = await asyncio.wait_for(run, budget)
        cut = summary.ended_by == "interrupted"  # a match stops so when cancelled
    except TimeoutError:
        cut = True
    except Exception as exc:  # the bot's constructor, a setup failure: this run's error
        error = f"the run could not start: {describe(exc)}"
        summary = RunSummary(game, seed, shown_bot(bot), ended_by="error", error=error)
    finally:
        if wrapped is not None:
            wrapped.close()
    if cut or summary is None:  # a cancelled match's summary keeps its seed and label
        summary = summary or RunSummary(game, seed, shown_bot(bot))
        summary.ended_by = "error"
        summary.error = f"stopped after {budget:g} s, the most a run of the check may take"
    actions, times = wrapped.snapshot() if wrapped is not None else ([], [])
    return summary, actions, times, cut


def _record(summary: RunSummary, seed: int, repeat: bool) -> RunRecord:
    error = summary.error if summary.ended_by == "error" else None
    if summary.ended_by in ("strict", "interrupted"):
        error = f"the run ended by {summary.ended_by}"
    return RunRecord(
        seed, float(summary.score), summary.steps, summary.refused, summary.timeouts,
        summary.ended_by, error, repeat,
    )  # fmt: skip


async def _check_game(
    check: GameCheck,
    bot: str,
    seeds: int,
    server: str | None,
    move_timeout: float,
    options: dict[str, Any] | None,
) -> None:
    where = _where(check.game, server)
    check.where = (
        "embedded" if where is None else where if where == api.ENGINE else public_url(where)
    )
    check.deadline_s = move_timeout
    count = _MATCH_SEEDS if check.game in GAMES and GAMES[check.game].kind == "match" else seeds
    plan = [*range(FIRST_SEED, FIRST_SEED + count), FIRST_SEED]
    first: list[str] = []
    for i, seed in enumerate(plan):
        repeat = i == len(plan) - 1
        summary, actions, times, cut = await _one_run(
            check.game, bot, seed, where, move_timeout, options
        )
        check.runs.append(_record(summary, seed, repeat))
        check.times_ms += times
        if cut:  # the next runs would be cut too: the game is not fit anyway
            break
        if i == 0:
            first = actions
        elif repeat:
            check.deterministic = actions == first
            if not check.deterministic:
                check.differs_at = _first_difference(first, actions)


def shown_bot(bot: str) -> str:
    """``bot`` as a report may show it: an HTTP bot's URL without credentials, query or
    fragment (:func:`sunbot.agents.http.public_label`); any text scrubbed of the secrets we
    hold and clipped to 200 characters."""
    if agent_kind(bot) == "http":
        import httpx

        from sunbot.agents.http import public_label

        try:
            bot = public_label(httpx.URL(bot.strip()))
        except httpx.InvalidURL:
            bot = "<unreadable URL>"
    return safe(bot, 200)


def _first_difference(a: list[str], b: list[str]) -> int:
    """The first decision (1-based) where ``a`` and ``b`` differ (one may be shorter)."""
    for k, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return k
    return min(len(a), len(b)) + 1


async def check_bot(
    bot: str,
    games: Sequence[str] = (),
    *,
    seeds: int = DEFAULT_SEEDS,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
    server: str | None = None,
    agent_options: dict[str, Any] | None = None,
    on_game: Callable[[GameCheck], None] | None = None,
) -> BotCheck:
    """Check ``bot`` (any strategy text) on ``games`` (see :func:`games_to_check` for the
    default) with ``seeds`` seeds each (Harvest Watch: one), every decision under a
    ``move_timeout`` second deadline. ``on_game`` is called as each game's check ends.
    A run that fails is reported in its :class:`RunRecord`, never raised.

    Raises:
        BadCheck: bad usage (:func:`games_to_check`; ``seeds`` not 1 to :data:`MAX_SEEDS`;
            ``move_timeout`` not a positive number; ``server`` not an http(s) URL).
        sunbot.client.ClientError, httpx.HTTPError: ``server``'s index could not be read
            (asked only for a bot of any game, with no game named).
    """
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= MAX_SEEDS:
        raise BadCheck(f"seeds must be 1 to {MAX_SEEDS}, got {seeds!r:.40}")
    if server == api.ENGINE:
        raise BadCheck("server: give an http(s) URL (known games play on the engine anyway)")
    try:
        api.check_move_timeout(move_timeout, "move timeout")
        api.check_server(server, "server")
    except ValueError as exc:
        raise BadCheck(str(exc)) from None
    listed: list[str] = []
    if server is not None and not games and "*" in (declared_games(bot) or ()):
        listed = [g.slug for g in await games_on(server)]
    report = BotCheck(shown_bot(bot))
    for check in games_to_check(bot, games, server=server, listed=listed):
        report.games.append(check)
        if check.skipped is None:
            await _check_game(check, bot, seeds, server, move_timeout, agent_options)
        if on_game is not None:
            on_game(check)
    return report
