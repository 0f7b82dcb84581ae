"""One Harvest Watch match of a bench job: a strategy or a house bot in each of the six seats.

The match behind every Harvest Watch bench job (:func:`sunbot.bench.jobs.run_match`, which
decides who sits where and with which random generator) and so behind every tournament
match. It is played on the engine in-process (:class:`sunbot.runs.seat_engine.EngineTable`,
no clock) by the one seat loop (:func:`sunbot.runs.seats.play_seat`), as a server's match
is: the house bots store their commands in ascending seat order as each beat opens,
drawing from the match RNG, and partner only with house seats; every strategy seat follows
the strategy contract (``sunbot.strategies.Strategy``): ``on_start(game, seed)`` once, then
``choose(data, legal_actions(data)) -> command`` on every beat its seat may act, with
``data`` the view's ``data`` object that seat would be served
(:func:`~sunbot.engines.harvest_watch_seats.seat_data`) and
:func:`~sunbot.observations.harvest_watch.legal_actions` of it; ``on_end(last data,
outcome)``; and ``close()`` however it ended. A command the rules refuse is answered as a
server answers it (the seat loop sends ``legal[0]`` or the example once, then the beat's
default applies).

Like :mod:`sunbot.bench.jobs`, imported by workers: no SciPy, no openskill.
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sunbot import strategies
from sunbot._text.safe import clip
from sunbot.runs.seat_engine import MATCH_SEATS as MATCH_SEATS
from sunbot.runs.seat_engine import MAX_MATCH_BEATS as MAX_MATCH_BEATS
from sunbot.runs.seat_engine import EngineTable, play_table, run_sync
from sunbot.runs.seat_engine import MatchTooLong as MatchTooLong

log = logging.getLogger("sunbot.bench.engine_match")

#: The game this module plays.
GAME = "harvest-watch"
#: A table seat played by the server's house bots (spec §2.7), not by a strategy.
HOUSE = "house"


class SeatError(RuntimeError):
    """A seat's strategy raised ``cause`` while being built (``phase`` ``"build"``), in
    ``on_start`` (``"start"``) or in ``choose`` (``"choose"``)."""

    def __init__(self, seat: int, name: str, phase: str, cause: BaseException) -> None:
        super().__init__(f"seat {seat} ({clip(name)}) {phase}: {type(cause).__name__}")
        self.seat, self.name, self.phase, self.cause = seat, name, phase, cause


@dataclass
class EngineMatch:
    """A played (or failed) match.

    Attributes:
        lineup: the strategy in each of seats 0-5 (:data:`HOUSE`: a house bot).
        state: the last engine state reached (the final one when the match ended by the
            rules); ``None`` when it never started.
        ranks: every seat's final rank (1 best, ties equal); ``()`` unless it finished.
        steps, refused: the watched seat's decisions and the commands the rules refused.
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
        watch: the seat whose decision times go into ``timings`` and whose decisions and
            refusals are counted in ``steps`` and ``refused``.
        timings: gets one entry (seconds) per decision of the watched seat.
        word: the ``error`` text of the exception that ended the match: a
            :class:`SeatError`, :class:`MatchTooLong`, or anything the engine raised.
        move_timeout: seconds one decision may take; every decision goes through the move
            clock (:class:`sunbot.agents.clock.Decider`, as in every run), and a late one
            sends nothing, so the beat's default applies, as on a server.

    Returns:
        The :class:`EngineMatch`; ``on_end`` and ``close`` have been called.
    """
    from sunbot.agents.spec import create_agent

    played = EngineMatch(tuple(lineup))
    looped = False  # the seat loops ran: they called on_end and close()
    try:
        for s, rng_seed in builds:
            name = played.lineup[s]
            rng = random.Random(rng_seed)
            build = functools.partial(create_agent, seed=seed)
            played.bots[s] = _guarded(s, name, "build", build, GAME, name, rng)
        for s, bot in played.bots.items():
            _guarded(s, played.lineup[s], "start", strategies.notify_start, bot, GAME, seed, None)
        house = [s for s in range(MATCH_SEATS) if s not in played.bots]
        table = EngineTable(seed, match_rng, house)
        played.state = table.state
        looped = True
        results = run_sync(
            play_table(
                table,
                list(played.bots.items()),
                move_timeout=move_timeout,
                timings={watch: timings},
            )
        ).results
        played.state = table.state
        if watch in results:
            mine = results[watch]
            played.steps = len(timings)
            played.refused = sum(mine.refusals.values())
            played.timeouts = mine.timeouts
        if table.error is not None:
            seat = table.stopped_by
            raise table.error if seat is None else _seat_error(seat, played, table.error)
        played.ranks = tuple(int(r) for r in table.state["result"]["ranks"])
    except Exception as exc:  # a failing match is a result saying why
        played.error = word(exc)
        if not looped:
            _close(played)
    return played


def _seat_error(seat: int, played: EngineMatch, cause: BaseException) -> SeatError:
    return SeatError(seat, played.lineup[seat], "choose", cause)


def _guarded(seat: int, name: str, phase: str, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``; an exception becomes a :class:`SeatError` naming the seat."""
    try:
        return call(*args)
    except Exception as exc:
        raise SeatError(seat, name, phase, exc) from exc


def _close(played: EngineMatch) -> None:
    """``close()`` the strategies of a match that failed before its seats played (the seat
    loops close theirs); an error in it is logged and ignored."""
    for s, bot in played.bots.items():
        close = getattr(bot, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                log.warning(
                    "seat %d (%s): close() failed", s, clip(played.lineup[s]), exc_info=True
                )
