"""The seat loop: one seat of a match, beat by beat, over a seat backend (Harvest Watch §2.8
"Client loop"; its rules: ``docs/rules/harvest-watch.md``).

Every beat-driven thing plays its seats through :func:`play_seat` here: ``sunbot play`` and
:func:`sunbot.play` on any match server (:mod:`sunbot.runs.seat_http`), and ``sunbot
bench``, tournaments and the PettingZoo environment on the engine in-process
(:mod:`sunbot.runs.seat_engine`). The loop reads a view, asks the strategy for the beat's
command through the move clock (:class:`sunbot.agents.clock.Decider`) when the seat may
act, sends it, and waits for the beat to move; a backend does the rest. No other module
resolves a beat or polls a view.

The loop's rules, whatever the backend:

- one decision a beat: a decision past its deadline sends nothing (the rules' default for a
  missed beat applies), counts in ``timeouts`` and is not asked again in that beat;
- a refused command (``illegal_command``) is answered by a fresh view and, once,
  :func:`fallback_command` (``legal[0]`` or ``schema.example``); after
  :data:`MAX_REFUSALS_PER_BEAT` refusals the seat waits for the next beat;
- a command whose fate is unknown (:class:`CommandLost`) is never re-sent blindly: the loop
  re-reads the view;
- whatever goes wrong ends this seat with ``error`` set, never its siblings, and the
  strategy's ``on_end`` and ``close`` are called however it ended.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sunbot._text.safe import describe, safe, traceback_text
from sunbot.agents.clock import Decider
from sunbot.observations.harvest_watch import legal_actions
from sunbot.strategies import Outcome, notify_end

log = logging.getLogger("sunbot.runs.seats")

#: Refused stores in one beat after which the seat stops acting and waits for the beat.
MAX_REFUSALS_PER_BEAT = 2
#: Most views and commands one seat's loop handles in a match (a 30-day match at the
#: slowest beats is a few thousand polls at the clamped interval): every loop is bounded.
MAX_SEAT_REQUESTS = 200_000


@dataclass
class SeatView:
    """One view of a seat, whatever served it.

    Attributes:
        raw: the view as received (what transcripts record and the mirror reads).
        data: the observation a strategy gets: the view's ``data`` with ``phase`` from
            ``summary.phase`` (:func:`sunbot.client.matches.observation_of`).
        round: the view's ``data.round``.
        finished: the match is over.
        can_act: the seat may store a command for this beat now.
        budget_s: seconds a clocked decision may take on this beat (a server's ``remainMs``
            less the time to reach it); ``None``: the beat has no clock of its own.
    """

    raw: dict[str, Any]
    data: dict[str, Any]
    round: int
    finished: bool
    can_act: bool
    budget_s: float | None = None


@dataclass
class Sent:
    """The answer to a command: the seat's new ``view`` when it was stored, else the
    rules' ``refused`` reason (nothing was stored); ``raw`` as received."""

    raw: dict[str, Any]
    view: SeatView | None = None
    refused: str | None = None


class CommandLost(Exception):
    """The command may or may not have been stored (a dropped connection, a 500, a
    502/504): the loop re-reads the view and never re-sends it blindly."""


class SeatBackend(Protocol):
    """Where a seat's views come from and its commands go: a match server over HTTP
    (:class:`sunbot.runs.seat_http.HttpSeat`) or the engine in-process
    (:class:`sunbot.runs.seat_engine.EngineSeat`)."""

    seat: int

    async def view(self) -> SeatView:
        """The seat's current view."""
        ...

    async def command(self, round_: int, actions: list[Any]) -> Sent:
        """Store ``actions`` for round ``round_``.

        Raises:
            CommandLost: its fate is unknown.
        """
        ...

    async def wait(self, view: SeatView) -> SeatView:
        """Wait for the match to move on from ``view`` (a server's ``pollAfterMs``; the
        engine's next beat) and return the new view."""
        ...

    def missed(self, round_: int) -> None:
        """The seat sends nothing more in round ``round_``: the beat's default applies (a
        server's clock resolves it anyway; the engine stops waiting for the seat)."""
        ...

    def leave(self, error: BaseException | None = None) -> None:
        """The seat's loop has ended (on ``error`` when it failed): it sends nothing more in
        this match."""
        ...


class MatchStrategy(Protocol):
    """What the loop needs of a strategy: the one contract of every game,
    ``choose(observation, legal_actions) -> command`` for the current beat (``observation``
    is the view's ``data`` object, ``legal_actions`` its
    :func:`~sunbot.observations.harvest_watch.legal_actions`; see
    :class:`sunbot.strategies.Strategy` for the optional hooks)."""

    def choose(self, observation: dict[str, Any], legal_actions: list[Any], /) -> Any:
        """One command for the current beat."""
        ...


#: ``on_event(seat, kind, record)``: ``kind`` is ``view`` (every view read or returned),
#: ``command`` (``{round, actions, answer}``, refusals and failures included, and ``agent``:
#: the decision's record when there is one) or ``timeout`` (``{round, agent}``: a decision
#: past its deadline, so nothing was sent).
OnEvent = Callable[[int, str, dict[str, Any]], None]


@dataclass
class SeatResult:
    """How one seat's loop ended: ``ranks`` once done; ``error`` when it stopped early;
    ``agent``: the agent's totals with the move clock's counters, as a single-player run's
    (:meth:`~sunbot.agents.clock.Decider.totals`), ``{}`` for an unclocked in-process one.
    ``commands`` counts commands sent, ``timeouts`` decisions past their deadline (nothing
    sent), ``refusals`` the rules' reasons."""

    seat: int
    ranks: list[int] | None = None
    last: dict[str, Any] | None = None
    commands: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    post_failures: int = 0
    polls: int = 0
    clamped_polls: int = 0
    error: str | None = None
    error_traceback: str | None = None
    timeouts: int = 0
    agent: dict[str, Any] = field(default_factory=dict)
    #: the exception that ended the loop (``None`` when it ended by the rules)
    exception: BaseException | None = field(default=None, repr=False)


def fallback_command(data: dict[str, Any]) -> Any:
    """``legal[0]`` on the action beat, else ``schema.example`` (§2.8's one retry)."""
    legal = data.get("legal")
    if legal:
        return legal[0]
    return (data.get("schema") or {}).get("example", {"speech": "\u2026"})


def final_ranks(raw: dict[str, Any], seat: int) -> list[int]:
    """``data.result.ranks`` of a finished view: one positive whole number per seat.

    Raises:
        ValueError: missing, not a list, too short for ``seat``, or an entry that is not a
            whole number from 1 (a bool, a float, null, a string, ...); the message shows
            the value. The rule text's Finish section ranks every seat from 1.
    """
    data = raw.get("data")
    result = data.get("result") if isinstance(data, dict) else None
    ranks = result.get("ranks") if isinstance(result, dict) else None
    if (
        not isinstance(ranks, list)
        or not 0 <= seat < len(ranks)
        or not all(type(r) is int and r >= 1 for r in ranks)
    ):
        raise ValueError(f"the server's final ranks are not whole numbers from 1: {ranks!r:.200}")
    return ranks


def seat_score(seat: int, ranks: list[int] | None) -> int:
    """Seats ranked strictly below ``seat`` (0-5): a match's score for one seat; 0 when
    ``ranks`` has no whole-number rank for every seat (see :func:`final_ranks`)."""
    if not ranks or not 0 <= seat < len(ranks) or not all(type(r) is int for r in ranks):
        return 0
    return sum(r > ranks[seat] for r in ranks)


async def play_seat(
    backend: SeatBackend,
    strategy: MatchStrategy,
    *,
    on_event: OnEvent | None = None,
    move_timeout: float | None = None,
    timings: list[float] | None = None,
) -> SeatResult:
    """Play ``backend``'s seat to the end of the match and return its :class:`SeatResult`
    (the loop's rules: the module doc).

    Decisions go through the move clock (:class:`sunbot.agents.clock.Decider`). With a
    ``move_timeout``, or a ``blocking`` agent (a model, another process), each is also
    bounded by the beat's own budget (:attr:`SeatView.budget_s`). A bot's ``SystemExit``,
    ``os._exit`` or ``fork`` ends the seat as its error. ``timings``, when given, gets each
    decision's wall time in seconds.

    Never raises for what a server, the rules or the strategy did: the result's ``error``
    says it (``error_traceback`` the trace), so sibling seats keep playing. Final ranks
    that are not one whole number from 1 per seat (:func:`final_ranks`) leave ``ranks``
    ``None`` and set ``error``.
    """
    seat = backend.seat
    res = SeatResult(seat)
    emit = on_event or (lambda *_: None)
    refused: Counter[int] = Counter()
    missed: set[int] = set()  # rounds whose decision ran out of time or was given up
    decider = Decider(strategy, move_timeout_s=move_timeout)
    clocked = move_timeout is not None or decider.blocking
    seen: SeatView | None = None  # the latest view (on_end gets its data on an error)
    try:
        view = await backend.view()
        for _ in range(MAX_SEAT_REQUESTS):
            seen = view
            res.last = view.raw
            emit(seat, "view", view.raw)
            if view.finished:
                try:
                    res.ranks = final_ranks(view.raw, seat)
                except ValueError as exc:  # the mirror reports it too; no traceback to show
                    res.error = safe(exc)
                _notify_end(strategy, view.data, res)
                return res
            rnd = view.round
            if not view.can_act or rnd in missed:  # one decision a beat
                view = await backend.wait(view)
                continue
            record = None
            if refused[rnd] == 0:
                t0 = time.perf_counter()
                decision = await decider.decide(
                    view.data, legal_actions(view.data),
                    budget_s=view.budget_s if clocked else None, fallback=lambda: None,
                )  # fmt: skip
                if timings is not None:
                    timings.append(time.perf_counter() - t0)
                if decision.error is not None:
                    raise decision.error
                record = decider.last_decision()
                if decision.timed_out:  # missed: the beat's default applies
                    missed.add(rnd)
                    res.timeouts += 1
                    emit(seat, "timeout", {"round": rnd, "agent": record})
                    backend.missed(rnd)
                    view = await backend.wait(view)
                    continue
                cmd = decision.action
            else:
                cmd = fallback_command(view.data)
            res.commands += 1
            try:
                got = await backend.command(rnd, [cmd])
            except CommandLost as exc:  # fate unknown: read again, never re-send
                res.post_failures += 1
                emit(seat, "command", {"round": rnd, "actions": [cmd], "error": safe(exc)})
                view = await backend.view()
                continue
            event: dict[str, Any] = {"round": rnd, "actions": [cmd], "answer": got.raw}
            if record:
                event["agent"] = record
            emit(seat, "command", event)
            if got.view is not None:
                view = got.view
                continue
            reason = safe(got.refused or "refused")
            res.refusals[reason] += 1
            if reason == "illegal_command":
                refused[rnd] += 1
                if refused[rnd] >= MAX_REFUSALS_PER_BEAT:  # given up: the beat's default
                    missed.add(rnd)
                    backend.missed(rnd)
            log.info("seat %d: %s on round %d", seat, reason, rnd)
            view = await backend.view()
        raise RuntimeError(f"no end of the match after {MAX_SEAT_REQUESTS} requests")
    except Exception as exc:  # one seat's failure must not stop its siblings
        res.exception = exc
        res.error = describe(exc)
        res.error_traceback = traceback_text(traceback.format_exc())
        _notify_end(strategy, seen.data if seen is not None else None, res)
        return res
    finally:
        backend.leave(res.exception)
        try:
            decider.close()
        except Exception:  # the match is over for this seat: its result still stands
            log.warning("seat %d: the strategy's close() failed", seat, exc_info=True)
        res.agent = _agent_totals(strategy, decider, clocked)


def _agent_totals(strategy: MatchStrategy, decider: Any, clocked: bool) -> dict[str, Any]:
    """The seat's ``agent`` totals, on the single-player path's terms
    (:meth:`sunbot.runs.loop.Run.finish`): when the strategy keeps ``totals()`` or ran
    under the clock; a ``totals()`` that raises is logged and leaves ``{}``."""
    if not (callable(getattr(strategy, "totals", None)) or clocked):
        return {}
    try:
        return dict(decider.totals())
    except Exception:
        log.warning("the agent's totals() failed", exc_info=True)
        return {}


def _notify_end(strategy: MatchStrategy, data: Any, res: SeatResult) -> None:
    """The strategy's optional ``on_end`` hook, with the seat's outcome."""
    outcome: Outcome = {
        "game": "harvest-watch",
        "score": seat_score(res.seat, res.ranks),
        "endedBy": "error" if res.error else "rules",
        "error": res.error,
    }
    notify_end(strategy, data if isinstance(data, dict) else None, outcome)


async def play_seats(
    players: Sequence[tuple[SeatBackend, MatchStrategy]],
    *,
    on_event: OnEvent | None = None,
    move_timeout: float | None = None,
    timings: dict[int, list[float]] | None = None,
) -> list[SeatResult]:
    """Play every ``(backend, strategy)`` of one match concurrently (asyncio); results in
    that order. ``timings[seat]``, when given, gets that seat's decision times."""
    import asyncio

    loops: list[Awaitable[SeatResult]] = [
        play_seat(
            b,
            s,
            on_event=on_event,
            move_timeout=move_timeout,
            timings=None if timings is None else timings.get(b.seat),
        )
        for b, s in players
    ]
    return list(await asyncio.gather(*loops))
