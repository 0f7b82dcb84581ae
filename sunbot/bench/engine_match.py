"""One Harvest Watch match on the engine, a strategy or a house bot in each of the six seats.

The beat loop behind every Harvest Watch bench job (:func:`sunbot.bench.jobs.run_match`,
which decides who sits where and with which random generator) and so behind every
tournament match. It mirrors the match server (``sunbot.server.match_state.Match``) with no
clock: the house bots store their commands in ascending seat order as each beat opens,
drawing from the match RNG, and partner only with house seats; every strategy seat follows
the strategy contract (``sunbot.strategies.Strategy``): ``on_start(game, seed)`` once, then
``choose(data, legal_actions(data)) -> command`` on every beat its seat is living, with
``data`` the view's ``data`` object that seat would be served
(``seat_data(..., can_act=True)``) and
:func:`~sunbot.observations.harvest_watch.legal_actions` of it; once the match got under way,
``on_end(last data, outcome)``; and ``close()`` however it ended. A command the rules refuse
takes the beat's default, as if the seat had missed the beat.

Like :mod:`sunbot.bench.jobs`, imported by workers: no SciPy, no openskill.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sunbot import strategies
from sunbot._text.safe import clip

log = logging.getLogger("sunbot.bench.engine_match")

#: The game this module plays.
GAME = "harvest-watch"
#: Seats at a Harvest Watch table (the published game).
MATCH_SEATS = 6
#: A table seat played by the server's house bots (spec §2.7), not by a strategy.
HOUSE = "house"
#: Beats after which a match gives up (:class:`MatchTooLong`). The rules end every match
#: (total food falls at least 0.5 per living seat each night: about 60 days, 300 beats at
#: most); this bound only keeps a broken engine from looping for ever.
MAX_MATCH_BEATS = 5_000


class SeatError(RuntimeError):
    """A seat's strategy raised ``cause`` while being built (``phase`` ``"build"``), in
    ``on_start`` (``"start"``) or in ``choose`` (``"choose"``)."""

    def __init__(self, seat: int, name: str, phase: str, cause: Exception) -> None:
        super().__init__(f"seat {seat} ({clip(name)}) {phase}: {type(cause).__name__}")
        self.seat, self.name, self.phase, self.cause = seat, name, phase, cause


class MatchTooLong(RuntimeError):
    """The match was not over after :data:`MAX_MATCH_BEATS` beats."""


@dataclass
class EngineMatch:
    """A played (or failed) match.

    Attributes:
        lineup: the strategy in each of seats 0-5 (:data:`HOUSE`: a house bot).
        state: the last engine state reached (the final one when the match ended by the
            rules); ``None`` when it never started.
        ranks: every seat's final rank (1 best, ties equal); ``()`` unless it finished.
        steps, refused: the watched seat's commands sent and refused by the rules.
        timeouts: the watched seat's decisions past the move timeout (nothing sent: the
            beat's default applied).
        error: why it ended early (worded by the caller's ``word``), else ``None``.
    """

    lineup: tuple[str, ...]
    state: dict[str, Any] | None = None
    ranks: tuple[int, ...] = ()
    steps: int = 0
    refused: int = 0
    timeouts: int = 0
    error: str | None = None
    bots: dict[int, Any] = field(default_factory=dict)


def play_seats(
    lineup: Sequence[str],
    seed: int,
    match_rng: random.Random,
    builds: Sequence[tuple[int, int]],
    *,
    watch: int,
    timings: list[float],
    word: Callable[[Exception], str],
    move_timeout: float | None = None,
) -> EngineMatch:
    """Play one match on the engine; never raises for a failing strategy.

    Args:
        lineup: six names; a seat in ``builds`` is that strategy, any other a house bot.
        seed: the match seed (``engine.init(seed, 6)``; ``on_start`` is told it).
        match_rng: the match RNG, after the caller's seat draw (the house bots' source).
        builds: ``(seat, rng seed)`` of each strategy seat, in the order to build them; the
            seat's strategy (any ``--strategy`` text:
            :func:`sunbot.agents.spec.create_agent`) gets ``random.Random(rng seed)``.
        watch: the seat whose ``choose`` time goes into ``timings`` and whose commands are
            counted in ``steps`` and ``refused``.
        timings: gets one entry (seconds) per ``choose`` of the watched seat.
        word: the ``error`` text of the exception that ended the match: a
            :class:`SeatError`, :class:`MatchTooLong`, or anything the engine raised.
        move_timeout: seconds one decision may take; every decision goes through the move
            clock (:class:`sunbot.agents.clock.Decider`, as in every run), and a late one
            sends nothing, so the beat's default applies, as on a server.

    Returns:
        The :class:`EngineMatch`; ``on_end`` and ``close`` have been called.
    """
    from sunbot.agents.spec import create_agent
    from sunbot.engines import harvest_watch as engine

    played = EngineMatch(tuple(lineup))
    try:
        for s, rng_seed in builds:
            name = played.lineup[s]
            rng = random.Random(rng_seed)
            build = functools.partial(create_agent, seed=seed)
            bot = _guarded(s, name, "build", build, GAME, name, rng)
            played.bots[s] = bot
        for s, bot in played.bots.items():
            _guarded(s, played.lineup[s], "start", strategies.notify_start, bot, GAME, seed, None)
        played.state = engine.init(seed, MATCH_SEATS)
        _beats(engine, played, seed, match_rng, watch, timings, move_timeout)
        played.ranks = tuple(int(r) for r in played.state["result"]["ranks"])
    except Exception as exc:  # a failing match is a result saying why
        played.error = word(exc)
    finally:
        _finish(played)
    return played


def _beats(
    engine: Any,
    played: EngineMatch,
    seed: int,
    match_rng: random.Random,
    watch: int,
    timings: list[float],
    move_timeout: float | None = None,
) -> None:
    """Resolve beats until the match is done, keeping ``played.state`` current."""
    import asyncio

    from sunbot.agents.clock import Decider

    deciders = {s: Decider(bot, move_timeout_s=move_timeout) for s, bot in played.bots.items()}
    clocked = move_timeout is not None or any(d.blocking for d in deciders.values())
    runner = asyncio.Runner() if clocked else None
    try:
        _resolve(engine, played, seed, match_rng, watch, timings, deciders, runner)
    finally:
        for d in deciders.values():
            d.close_worker()
        if runner is not None:
            runner.close()


def _resolve(
    engine: Any,
    played: EngineMatch,
    seed: int,
    match_rng: random.Random,
    watch: int,
    timings: list[float],
    deciders: dict[int, Any],
    runner: Any,
) -> None:
    from sunbot.engines.harvest_watch_seats import seat_data
    from sunbot.observations.harvest_watch import legal_actions
    from sunbot.runs.backends import drive

    def decide(s: int, data: dict[str, Any]) -> Any:
        coro = deciders[s].decide(data, legal_actions(data), fallback=lambda: None)
        decision = runner.run(coro) if runner is not None else drive(coro)
        if decision.error is not None:
            raise decision.error
        if decision.timed_out and s == watch:
            played.timeouts += 1
        return decision.action

    house = [s for s in range(MATCH_SEATS) if s not in played.bots]
    memories: dict[int, dict[str, Any]] = {s: {} for s in house}
    for _ in range(MAX_MATCH_BEATS):
        state = played.state
        assert state is not None
        if state["status"] == "done":
            return
        commands: dict[int, list[dict[str, Any]]] = {}
        for s in house:
            if state["alive"][s]:
                cmd = engine.house_command(state, s, memories[s], match_rng, house_seats=house)
                commands[s] = [cmd]
        for s in played.bots:
            if not state["alive"][s]:
                continue
            data = seat_data(state, s, can_act=True, pending=None)
            t0 = time.perf_counter()
            cmd = _guarded(s, played.lineup[s], "choose", decide, s, data)
            if s == watch:
                timings.append(time.perf_counter() - t0)
                played.steps += 1
            if cmd is None:  # missed its deadline: the beat's default applies
                continue
            if engine.validate_command(state, s, cmd) is None:
                commands[s] = [cmd]
            elif s == watch:
                played.refused += 1
        played.state = engine.resolve_beat(state, commands)
    if played.state is not None and played.state["status"] != "done":
        raise MatchTooLong(f"match on seed {seed} not over after {MAX_MATCH_BEATS:,} beats")


def _guarded(seat: int, name: str, phase: str, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``; an exception becomes a :class:`SeatError` naming the seat."""
    try:
        return call(*args)
    except Exception as exc:
        raise SeatError(seat, name, phase, exc) from exc


def _finish(played: EngineMatch) -> None:
    """``on_end`` for every strategy seat (once the match got under way: the outcome's
    ``score`` is the seats it beat) and ``close()``; an error in either is logged and
    ignored (the match is over)."""
    from sunbot.engines.harvest_watch_seats import seat_data

    state, ranks = played.state, played.ranks
    for s, bot in played.bots.items():
        if state is not None:
            outcome: strategies.Outcome = {
                "game": GAME,
                "score": sum(r > ranks[s] for r in ranks) if ranks else 0,
                "endedBy": "error" if played.error else "rules",
                "error": played.error,
            }
            strategies.notify_end(bot, seat_data(state, s, can_act=False, pending=None), outcome)
        close = getattr(bot, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                log.warning(
                    "seat %d (%s): close() failed", s, clip(played.lineup[s]), exc_info=True
                )
