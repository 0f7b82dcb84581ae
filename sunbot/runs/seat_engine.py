"""The engine seat backend: a Harvest Watch match on the rules engine in-process, no HTTP and
no clock (``sunbot bench``, tournaments, the PettingZoo environment).

:class:`EngineTable` is the match: the house seats store as each beat opens (§2.7, drawing
from the match RNG in ascending seat order:
:func:`~sunbot.engines.harvest_watch_seats.house_commands`), every other seat stores, misses
or leaves, and the beat resolves as soon as every living seat has done one of these (a
server's early resolution, §2.5, without a deadline to wait for). Stores are checked as our
server checks them (``stale_round``, ``already_stored``, ``too_many_commands``,
``illegal_command``, ...). :class:`EngineSeat` is one seat's backend for the one seat loop
(:func:`sunbot.runs.seats.play_seat`); :func:`play_table` plays a whole table of strategy
seats on it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import HousePolicy, house_commands, seat_data
from sunbot.runs.seats import (
    MatchStrategy,
    OnEvent,
    SeatResult,
    SeatView,
    Sent,
    play_seats,
)

#: Seats at a Harvest Watch table (the published game).
MATCH_SEATS = 6
#: Most commands in one stored list (§2.4, as our server).
MAX_COMMANDS = 10
#: Beats after which a match gives up (:class:`MatchTooLong`). The rules end every match
#: (total food falls at least 0.5 per living seat each night: about 60 days, 300 beats at
#: most); this bound only keeps a broken engine from looping for ever.
MAX_MATCH_BEATS = 5_000
#: Seconds a seat waits for the other seats of a beat before the match is called stuck
#: (every seat stores, misses or leaves each beat, so only a decision that never returns
#: without a move clock can reach it).
MAX_WAIT_S = 3_600.0


T = TypeVar("T")


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its result from synchronous code: on a fresh event loop, or,
    when this thread already runs one (a notebook cell), on a worker thread with its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sunbot-table") as pool:
        return pool.submit(asyncio.run, coroutine).result()


class MatchTooLong(RuntimeError):
    """The match was not over after :data:`MAX_MATCH_BEATS` beats."""


class TableStopped(RuntimeError):
    """The match was stopped (:meth:`EngineTable.stop`): the message says why."""


class EngineTable:
    """One match on the engine (the module doc). Build it, then play each strategy seat
    through :meth:`seat`.

    Args:
        seed: the match seed (``engine.init(seed, 6)``).
        rng: the match RNG, the house seats' source (after any seat draw of the caller).
        house: the seats the house bots play.
        house_policy: their policy (default: the rules' house bots).
        max_beats: the bound on beats (:class:`MatchTooLong`).
    """

    def __init__(
        self,
        seed: int,
        rng: random.Random,
        house: Sequence[int],
        *,
        house_policy: HousePolicy = hw.house_command,
        max_beats: int = MAX_MATCH_BEATS,
    ) -> None:
        self.seed = seed
        self.state: dict[str, Any] = hw.init(seed, MATCH_SEATS)
        self.rng = rng
        self.house = sorted(house)
        self.memory: dict[int, dict[str, Any]] = {s: {} for s in self.house}
        self.house_policy = house_policy
        self.max_beats = max_beats
        self.beats = 0
        self.stored: dict[int, list[Any]] = {}
        self.passed: set[int] = set()
        self.gone: set[int] = set()
        self.error: BaseException | None = None
        #: the seat whose failure stopped the match (``None``: the rules or nobody)
        self.stopped_by: int | None = None
        self._moved = asyncio.Event()
        self._open()
        self._settle()

    @property
    def done(self) -> bool:
        """The match is over."""
        return bool(self.state["status"] == "done")

    def seat(self, seat: int) -> EngineSeat:
        """The backend of ``seat`` (not a house seat)."""
        return EngineSeat(self, seat)

    def _open(self) -> None:
        self.stored = house_commands(
            self.state, self.house, self.memory, self.rng, policy=self.house_policy
        )
        alive = self.state["alive"]
        self.passed = {s for s in self.gone if alive[s]}

    def _ready(self) -> bool:
        alive = self.state["alive"]
        return all(s in self.stored or s in self.passed for s in range(MATCH_SEATS) if alive[s])

    def _settle(self) -> None:
        """Resolve every beat that every living seat has stored, missed or left."""
        moved = False
        try:
            while not self.done and self._ready():
                self.state = hw.resolve_beat(self.state, self.stored)
                self.beats += 1
                moved = True
                if not self.done:
                    if self.beats >= self.max_beats:
                        raise MatchTooLong(
                            f"match on seed {self.seed} not over after {self.max_beats:,} beats"
                        )
                    self._open()
        except Exception as exc:
            self.stop(exc)
            raise
        if moved:
            self._wake()

    def _wake(self) -> None:
        self._moved.set()
        self._moved = asyncio.Event()

    def stop(self, reason: BaseException, seat: int | None = None) -> None:
        """Stop the match (the first reason is kept, with the ``seat`` that failed, if one
        did): every seat's next view, store or wait raises :class:`TableStopped`."""
        if self.error is None:
            self.error, self.stopped_by = reason, seat
        self._wake()

    def _check(self) -> None:
        if self.error is not None:
            raise TableStopped(f"the match stopped: {type(self.error).__name__}: {self.error}")

    def view(self, seat: int) -> SeatView:
        """``seat``'s view now (:func:`~sunbot.engines.harvest_watch_seats.seat_data`)."""
        self._check()
        st = self.state
        running = not self.done
        waiting = seat not in self.stored and seat not in self.passed
        can_act = running and bool(st["alive"][seat]) and waiting
        pending = None
        if running and seat in self.stored:
            pending = self.stored[seat]
        data = seat_data(st, seat, can_act=can_act, pending=pending)
        raw = {"status": "done" if not running else "running", "data": data}
        return SeatView(raw, data, int(st["round"]), not running, can_act)

    def store(self, seat: int, round_: int, actions: list[Any]) -> str | None:
        """Store ``seat``'s list for the current beat, checked as our server checks it
        (:meth:`sunbot.server.match_state.Match.store`); the refusal reason or ``None``. A
        store may resolve the beat at once.

        Raises:
            TableStopped: the match was stopped.
            MatchTooLong: the match ran past its bound.
        """
        self._check()
        st = self.state
        if self.done:
            return "not_running"
        if not st["alive"][seat]:
            return "seat_out"
        if round_ != st["round"]:
            return "stale_round"
        if seat in self.stored or seat in self.passed:
            return "already_stored"
        if len(actions) > MAX_COMMANDS:
            return "too_many_commands"
        if any(hw.validate_command(st, seat, a) is not None for a in actions):
            return "illegal_command"
        self.stored[seat] = json.loads(json.dumps(actions))
        self._settle()
        return None

    def miss(self, seat: int, round_: int) -> None:
        """``seat`` sends nothing in round ``round_``: it takes the beat's default."""
        st = self.state
        live = self.error is None and not self.done and bool(st["alive"][seat])
        if live and round_ == st["round"] and seat not in self.stored:
            self.passed.add(seat)
            self._settle()

    def leave(self, seat: int, error: BaseException | None = None) -> None:
        """``seat`` plays no more: it takes every beat's default to the end; when it left
        on an ``error`` (its strategy failed), the match stops (:meth:`stop`): a table on
        the engine is a benchmark's, whose row is that error."""
        self.gone.add(seat)
        if error is not None and not self.done:
            self.stop(error, seat)
            return
        live = self.error is None and not self.done and bool(self.state["alive"][seat])
        if live and seat not in self.stored:
            self.passed.add(seat)
            self._settle()

    async def moved(self, round_: int) -> None:
        """Wait until the match is past round ``round_`` (or stopped).

        Raises:
            TableStopped: no beat resolved within :data:`MAX_WAIT_S` seconds.
        """
        if self.error is not None or self.done or self.state["round"] != round_:
            return
        try:
            await asyncio.wait_for(self._moved.wait(), MAX_WAIT_S)
        except TimeoutError:
            self.stop(RuntimeError(f"no beat resolved within {MAX_WAIT_S:.0f} s"))

    async def settled(self, seats: Sequence[int]) -> None:
        """Wait until each of ``seats`` (seats playing through their loops on this event
        loop) has stored, missed or left the current beat, or the match is over or
        stopped: what a caller that stores for the other seats itself (the PettingZoo
        environment) waits for before it does.

        Raises:
            TableStopped: not within :data:`MAX_WAIT_S` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MAX_WAIT_S
        spins = 0
        while self.error is None and not self.done:
            alive = self.state["alive"]
            if all(
                not alive[s] or s in self.stored or s in self.passed or s in self.gone
                for s in seats
            ):
                return
            if loop.time() > deadline:
                self.stop(RuntimeError(f"a seat did not store within {MAX_WAIT_S:.0f} s"))
                return
            spins += 1
            await asyncio.sleep(0 if spins < 100 else 0.001)  # a clocked seat's thread


class EngineSeat:
    """One seat of an :class:`EngineTable`: the seat loop's backend."""

    def __init__(self, table: EngineTable, seat: int) -> None:
        self.table = table
        self.seat = seat

    async def view(self) -> SeatView:
        """The seat's view now."""
        return self.table.view(self.seat)

    async def command(self, round_: int, actions: list[Any]) -> Sent:
        """Store ``actions``; the new view, or the refusal's reason."""
        reason = self.table.store(self.seat, round_, actions)
        view = self.table.view(self.seat)
        if reason is not None:
            return Sent({"ok": False, "reason": reason, "round": view.round}, refused=reason)
        return Sent({"ok": True, **view.raw}, view=view)

    async def wait(self, view: SeatView) -> SeatView:
        """Wait for the next beat (the other seats' stores), then the new view."""
        await self.table.moved(view.round)
        return self.table.view(self.seat)

    def missed(self, round_: int) -> None:
        """The beat's default for this seat (:meth:`EngineTable.miss`)."""
        self.table.miss(self.seat, round_)

    def leave(self, error: BaseException | None = None) -> None:
        """Every later beat's default; a failure stops the match (:meth:`EngineTable.leave`)."""
        self.table.leave(self.seat, error)


@dataclass
class TablePlay:
    """A played table: each strategy seat's :class:`SeatResult` (``results``), and the
    table itself: its final ``state``, and ``error`` / ``stopped_by`` when a failure (a
    seat's, or the engine's with ``stopped_by`` ``None``) stopped it."""

    table: EngineTable
    results: dict[int, SeatResult] = field(default_factory=dict)


async def play_table(
    table: EngineTable,
    players: Sequence[tuple[int, MatchStrategy]],
    *,
    move_timeout: float | None = None,
    timings: dict[int, list[float]] | None = None,
    on_event: OnEvent | None = None,
) -> TablePlay:
    """Play every ``(seat, strategy)`` on ``table`` through the one seat loop, concurrently
    (:func:`sunbot.runs.seats.play_seats`); the first seat that fails stops the match
    (:meth:`EngineTable.leave`)."""
    results = await play_seats(
        [(table.seat(seat), strategy) for seat, strategy in players],
        on_event=on_event, move_timeout=move_timeout, timings=timings,
    )  # fmt: skip
    return TablePlay(table, {r.seat: r for r in results})
