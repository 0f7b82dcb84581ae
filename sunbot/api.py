"""The Python API: :func:`play` and :func:`play_async`, one run (or match) in one call.

Defaults are the command line's: the embedded server (in-process, over the same HTTP code
path as a remote one), the mirror re-checking every answer, the game's default strategy,
the game's default cap. ``sunbot.play("keelhold", seed=7, max_voyages=3)`` scores what
``sunbot play keelhold --seed 7 --max-voyages 3`` scores.

:func:`play` works in a plain script and inside a running event loop (a notebook cell): with
a loop running in this thread it plays on a worker thread with a loop of its own and waits.
In async code, ``await play_async(...)`` instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from pathlib import Path
from typing import Any

import httpx

from sunbot import bots, strategies
from sunbot.bots import StrategyLike
from sunbot.client import GameboardClient
from sunbot.client.http import url_problem
from sunbot.games import GameInfo, get_game, seed_problem
from sunbot.mirror import Mirror
from sunbot.runner import MatchSeat, RunSummary, play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts import TranscriptWriter
from sunbot.views.harvest_watch import final_summary, winner_line


def run_cap(
    info: GameInfo,
    max_voyages: int | None,
    max_days: int | None,
    names: tuple[str, str] = ("max_voyages", "max_days"),
) -> int | None:
    """The run cap from ``max_voyages`` / ``max_days`` (else the game's default cap);
    ``names`` are the options' names in the error messages.

    Raises:
        ValueError: the option does not apply to this game, is below 1 or above the
            game's :attr:`~sunbot.games.GameInfo.max_cap`.
    """
    voyages, days = names
    for option, value, unit in ((voyages, max_voyages, "voyage"), (days, max_days, "day")):
        if value is None:
            continue
        if info.cap_field != unit:
            raise ValueError(f"{option} does not apply to {info.slug}")
        info.check_cap(value, option)
        return value
    return info.default_cap


def _resolve(game: str, strategy: StrategyLike | None) -> tuple[str, Any]:
    """``(label, make)`` where ``make(rng)`` builds the strategy for one run or seat."""
    if strategy is None:
        strategy = strategies.default_name(game)
    if isinstance(strategy, str):
        strategies.check(game, strategy)
        name = strategy
        return name, lambda rng: strategies.create(game, name, rng)
    label = bots.label(strategy)
    return label, lambda rng: bots.from_object(game, strategy, rng, name=label)


async def play_async(
    game: str,
    *,
    seed: int | None = None,
    strategy: StrategyLike | None = None,
    server: str | None = None,
    transcript: str | Path | None = None,
    max_voyages: int | None = None,
    max_days: int | None = None,
    strict: bool = False,
    mirror: bool = True,
    seats: int = 1,
    match: str | None = None,
) -> RunSummary:
    """Play one run of ``game`` (or one match of a match game) and return its summary.

    Args:
        game: a slug: ``keelhold``, ``sunloaf``, ``naptuft``, ``harvest-watch``.
        seed: the run's seed (random when ``None``).
        strategy: a strategy name (``sunbot games`` lists them), ``"path/bot.py:Class"``,
            a class, an object with ``choose``, or a function
            ``choose(observation, legal_actions)`` (:mod:`sunbot.bots`). ``None``: the
            game's default.
        server: a server origin such as ``https://gameboard.gg``; ``None``: embedded.
        transcript: a JSON Lines file to write (it must not exist); ``None``: none.
        max_voyages, max_days: end the run at port after that voyage (Keelhold) / after
            that day (Sunloaf, Naptuft; default 40 / 10).
        strict: stop at the first mirror divergence (``ended_by == "strict"``).
        mirror: re-check every answer with the local engine (single-player games; a match
            is always mirrored).
        seats, match: match games: seats our strategy plays; an existing match id to join
            on ``server``.

    Returns:
        A :class:`~sunbot.runner.RunSummary`. A run that fails midway (network, strategy
        error) is not raised: ``ended_by == "error"`` and ``error`` says why.

    Raises:
        ValueError: an unknown game or strategy, an option that does not apply, a seed
            that is not an integer of signed 64 bits (``"7"``, ``1.5`` and ``True`` are
            refused), a ``server`` that is not an absolute http(s) URL, a transcript in a
            folder that does not exist (it is not created, as ``sunbot play --transcript``).
        FileExistsError, OSError: the transcript cannot be created.
    """
    try:
        info = get_game(game)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    if transcript is not None and not Path(transcript).parent.is_dir():
        raise ValueError(
            f"transcript {transcript}: no folder {Path(transcript).parent} (create it first)"
        )
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    elif (problem := seed_problem(seed)) is not None:
        raise ValueError(problem)
    if server is not None and (problem := url_problem(server)) is not None:
        raise ValueError(f"server: {problem}")
    if info.kind == "match":
        if max_voyages is not None or max_days is not None:
            raise ValueError(f"max_voyages and max_days do not apply to {info.slug}")
        return await _play_match(info, seed, strategy, server, transcript, strict, seats, match)
    if seats != 1 or match is not None:
        raise ValueError("seats and match apply to match games only")
    cap = run_cap(info, max_voyages, max_days)
    name, make = _resolve(info.slug, strategy)
    bot = make(random.Random(seed))
    writer = TranscriptWriter(Path(transcript)) if transcript is not None else None
    try:
        if server:
            client = GameboardClient(server)
        else:
            transport = httpx.ASGITransport(app=create_app(TokenCodec.embedded()))
            client = GameboardClient(transport=transport)
        async with client:
            return await play_run(
                client,
                info.slug,
                seed,
                bot,
                strategy_name=name,
                cap=cap,
                strict=strict,
                mirror=Mirror(info.slug) if mirror else None,
                transcript=writer,
                server_label=server or "embedded",
            )
    finally:
        if writer is not None:
            writer.close()


async def _play_match(
    info: GameInfo,
    seed: int,
    strategy: StrategyLike | None,
    server: str | None,
    transcript: str | Path | None,
    strict: bool,
    seats: int,
    match: str | None,
) -> RunSummary:
    from sunbot.match_play import run_match

    if match is not None and server is None:
        raise ValueError("match needs server (the match lives there)")
    if not 1 <= seats <= 6:
        raise ValueError(f"seats must be 1 to 6, got {seats}")
    name, make = _resolve(info.slug, strategy)
    shared = not isinstance(strategy, str | type | None) and hasattr(strategy, "choose")
    if shared and seats > 1:
        raise ValueError("one strategy object cannot play several seats: pass its class")
    writer = TranscriptWriter(Path(transcript)) if transcript is not None else None
    try:
        result = await run_match(
            game=info.slug,
            seed=seed,
            strategy=name,
            server=server,
            match_id=match,
            seats=seats,
            writer=writer,
            strict=strict,
            make=make,
        )
    finally:
        if writer is not None:
            writer.close()
    final = result.get("final") or {}
    fs = final_summary(final)
    return RunSummary(
        game=info.slug,
        seed=seed if match is None else None,  # a joined match's seed is its creator's
        strategy=name,
        score=int(result["score"]),
        steps=int(result["steps"]),
        refused=int(result["refused"]),
        game_over=bool(result["gameOver"]),
        ended_by=result["endedBy"],
        error=result["error"],
        final_state=final.get("data"),
        responses_checked=int(result["responsesChecked"]),
        divergences=list(result["mirrorDivergences"]),
        retries=int(result["retries"]),
        elapsed_s=float(result["elapsedMs"]) / 1000,
        transcript=writer.path if writer is not None else None,
        match_id=result["matchId"],
        ranks=result["ranks"],
        seats=[
            MatchSeat(s["seat"], s["rank"], s["food"], s["alive"], s["outNight"])
            for s in result["seats"]
        ],
        outcome=winner_line(result["ranks"], fs.get("aliveSeats"), fs.get("day")),
    )


def play(
    game: str,
    *,
    seed: int | None = None,
    strategy: StrategyLike | None = None,
    server: str | None = None,
    transcript: str | Path | None = None,
    max_voyages: int | None = None,
    max_days: int | None = None,
    strict: bool = False,
    mirror: bool = True,
    seats: int = 1,
    match: str | None = None,
) -> RunSummary:
    """:func:`play_async` from synchronous code; arguments, result and errors are the same.

    Inside a running event loop (a notebook cell) it plays on a worker thread with its own
    loop and blocks until the run ends; from async code prefer ``await play_async(...)``.
    """
    run = play_async(
        game,
        seed=seed,
        strategy=strategy,
        server=server,
        transcript=transcript,
        max_voyages=max_voyages,
        max_days=max_days,
        strict=strict,
        mirror=mirror,
        seats=seats,
        match=match,
    )
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sunbot-play") as pool:
        return pool.submit(asyncio.run, run).result()


__all__ = ["play", "play_async", "run_cap"]
