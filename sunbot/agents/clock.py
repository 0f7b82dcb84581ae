"""The move clock: :class:`Decider` asks a strategy for one decision within a deadline.

Which strategies get which treatment (``docs/guide-other-processes.md``):

- no move timeout, no budget and not ``blocking``: ``choose`` runs directly on the loop's
  thread, as a plain strategy always has (a planner makes millions of decisions);
- a move timeout, a per-decision budget (Harvest Watch's ``remainMs``) or a ``blocking``
  strategy (a bot in another process, on another machine): ``choose`` runs on the Decider's
  one worker thread, so the strategy's calls stay in order. Past the deadline the decision is
  the loop's ``fallback`` (``timed_out=True``); the late call keeps running and its answer is
  dropped, and while it runs later decisions wait for it only up to their own deadlines.

A bot cannot end the run silently: ``SystemExit`` or ``KeyboardInterrupt`` raised in
``choose``, and ``os._exit``/``os.fork`` (also ``os.forkpty``) called from it, raise
:class:`BotEscape` naming the call, on either path (:mod:`sunbot.agents._guard`). A real
Ctrl-C (a ``KeyboardInterrupt`` raised by the process's signal handler) is never taken for
the bot's. :func:`owner_pid` and :func:`in_forked_child` let the transcript writer make sure
a forked copy of the run never writes a result line.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from sunbot.agents._guard import (
    BotError,
    BotEscape,
    guarded_call,
    in_forked_child,
    install_guard,
    owner_pid,
)

log = logging.getLogger("sunbot.agents.clock")
Action = Any
#: Elapsed times kept for the p50/p95 counters (the most recent decisions).
TIMES_KEPT = 10_000


class DecisionTimeout(TimeoutError):
    """Raised by a deadline-aware strategy's ``choose_by`` when the deadline passed before the
    bot answered. The strategy stays usable: it drops the late answer when it comes."""


@runtime_checkable
class DeadlineAware(Protocol):
    """A strategy that can bound its own wait: ``choose_by(observation, legal_actions,
    deadline)`` where ``deadline`` is a :func:`time.monotonic` instant or ``None`` (no clock).
    Raises :class:`DecisionTimeout` past the deadline. The Decider prefers it to ``choose``."""

    def choose_by(
        self, observation: Any, legal_actions: list[Any], deadline: float | None, /
    ) -> Any: ...


def ms_left(deadline: float | None, now: float | None = None) -> int | None:
    """Whole milliseconds from ``now`` (default :func:`time.monotonic`) to ``deadline`` (a
    monotonic instant), floored and never below 0: the ``deadlineMs`` an exec or HTTP bot is
    sent (``docs/guide-other-processes.md``); ``None`` when there is no deadline."""
    if deadline is None:
        return None
    left = deadline - (time.monotonic() if now is None else now)
    return max(0, math.floor(left * 1000))


@dataclass(frozen=True)
class Decision:
    """One decision: ``action`` (the bot's, or the fallback's when ``timed_out`` or when
    ``error`` is set), ``elapsed_ms`` (wall time the loop waited), ``error`` (what ``choose``
    raised, e.g. a :class:`BotError` of an exec bot; the loop ends the run with it)."""

    action: Action
    timed_out: bool
    elapsed_ms: float
    error: BaseException | None


# ---------------------------------------------------------------- the Decider


class _Worker:
    """One daemon thread running submitted calls in order. A daemon, so a call stuck forever
    never keeps the process from exiting (a ``ThreadPoolExecutor`` thread would)."""

    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue[
            tuple[Callable[[], Any], concurrent.futures.Future[Any]] | None
        ] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[], Any]) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._calls.put((fn, future))
        return future

    def stop(self) -> None:
        """Let the thread end after the call it runs (if any); does not wait for it."""
        self._calls.put(None)

    def _run(self) -> None:
        while (item := self._calls.get()) is not None:
            fn, future = item
            if not future.set_running_or_notify_cancel():
                continue  # its decision gave up while it waited in the queue
            try:
                future.set_result(fn())
            except BaseException as exc:  # handed to the waiting decision, if any
                future.set_exception(exc)


def _smaller(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


def _rank(sorted_ms: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile of ``sorted_ms`` (``None`` when empty)."""
    if not sorted_ms:
        return None
    return sorted_ms[max(math.ceil(q * len(sorted_ms)) - 1, 0)]


class Decider:
    """Asks ``strategy`` for decisions under the move clock (module doc: which kinds of
    strategy run where).

    Args:
        strategy: any object with ``choose(observation, legal_actions)``; a ``blocking``
            one runs on the worker thread; one with ``choose_by`` (:class:`DeadlineAware`)
            is given each decision's deadline.
        move_timeout_s: seconds one decision may take (``None``: no clock), > 0.
        isolate: the strategy must be an :class:`~sunbot.agents.isolate.IsolatedStrategy`
            (built from a strategy name or bot file, playing in a child process).

    Raises:
        ValueError: ``move_timeout_s`` is not a positive finite number, or ``isolate`` is
            asked of an object that cannot be rebuilt in a child process.
    """

    def __init__(
        self, strategy: Any, *, move_timeout_s: float | None = None, isolate: bool = False
    ) -> None:
        if move_timeout_s is not None and not (0 < move_timeout_s < math.inf):
            raise ValueError(
                f"move timeout must be a positive number of seconds, got {move_timeout_s!r}"
            )
        if isolate and not getattr(strategy, "isolated", False):  # an IsolatedStrategy
            raise ValueError(
                f"isolate plays a strategy name or bot file in a child process; "
                f"{type(strategy).__name__} is an object and cannot be rebuilt there"
            )
        install_guard()
        self.strategy = strategy
        self.move_timeout_s = move_timeout_s
        self.blocking = bool(getattr(strategy, "blocking", False))
        choose_by = getattr(strategy, "choose_by", None)
        self._choose_by: Callable[[Any, list[Any], float | None], Any] | None = (
            choose_by if callable(choose_by) else None
        )
        self._worker: _Worker | None = None
        self._escaped: BotEscape | None = None
        self._last: Decision | None = None
        self._times: collections.deque[float] = collections.deque(maxlen=TIMES_KEPT)
        self.decisions = 0
        self.timeouts = 0
        self.errors = 0
        self.max_ms = 0.0

    async def decide(
        self,
        observation: Any,
        legal_actions: list[Any],
        *,
        budget_s: float | None = None,
        fallback: Callable[[], Action],
    ) -> Decision:
        """One decision. The deadline is the smaller of the move timeout and ``budget_s``
        (seconds left for this decision, e.g. Harvest Watch's ``remainMs / 1000``; 0 or less:
        the fallback at once, without asking the bot).

        Returns:
            A :class:`Decision`; on a timeout or an error of ``choose``, its action is
            ``fallback()``.

        Raises:
            BotEscape: the bot tried to end the run (now, or in a late call since).
        """
        if self._escaped is not None:
            raise self._escaped
        self.decisions += 1
        number = self.decisions
        limit = _smaller(self.move_timeout_s, budget_s)
        started = time.perf_counter()
        if limit is None and not self.blocking:
            try:
                action = guarded_call(
                    lambda: self.strategy.choose(observation, legal_actions), number
                )
            except BotEscape:
                raise
            except Exception as exc:
                return self._done(started, fallback(), False, exc)
            return self._done(started, action, False, None)
        if limit is not None and limit <= 0:
            return self._done(started, fallback(), True, None)
        deadline = None if limit is None else time.monotonic() + limit
        worker = self._worker or self._start_worker()
        waiter = asyncio.wrap_future(
            worker.submit(
                functools.partial(self._call, observation, legal_actions, number, deadline)
            )
        )
        try:
            done, _ = await asyncio.wait({waiter}, timeout=limit)
        except asyncio.CancelledError:  # the run stopped: a queued call must not start
            waiter.cancel()
            raise
        if not done:
            waiter.cancel()  # a call still queued never starts; a running one runs on
            return self._done(started, fallback(), True, None)
        try:
            action = waiter.result()
        except DecisionTimeout:
            return self._done(started, fallback(), True, None)
        except BotEscape:
            raise
        except Exception as exc:
            return self._done(started, fallback(), False, exc)
        return self._done(started, action, False, None)

    def _start_worker(self) -> _Worker:
        self._worker = _Worker(f"sunbot-decider-{type(self.strategy).__name__}")
        return self._worker

    def _call(self, observation: Any, legal: list[Any], number: int, deadline: float | None) -> Any:
        """On the worker thread: the strategy's ``choose_by`` or ``choose``, guarded."""
        by = self._choose_by
        try:
            if by is not None:
                return guarded_call(by, number, observation, legal, deadline)
            return guarded_call(self.strategy.choose, number, observation, legal)
        except BotEscape as exc:
            self._escaped = exc  # a late call's escape ends the run at the next decision
            raise

    def _done(
        self, started: float, action: Action, timed_out: bool, error: BaseException | None
    ) -> Decision:
        ms = (time.perf_counter() - started) * 1000
        self.timeouts += timed_out
        self.errors += error is not None
        self.max_ms = max(self.max_ms, ms)
        self._times.append(ms)
        self._last = Decision(action, timed_out, ms, error)
        return self._last

    def counters(self) -> dict[str, Any]:
        """``{decisions, timeouts, errors, maxMs, p50Ms, p95Ms}``; the percentiles (nearest
        rank, milliseconds) over the last :data:`TIMES_KEPT` decisions, ``None`` before any."""
        times = sorted(self._times)
        p50, p95 = _rank(times, 0.5), _rank(times, 0.95)
        return {
            "decisions": self.decisions,
            "timeouts": self.timeouts,
            "errors": self.errors,
            "maxMs": round(self.max_ms, 3),
            "p50Ms": None if p50 is None else round(p50, 3),
            "p95Ms": None if p95 is None else round(p95, 3),
        }

    def last_decision(self) -> dict[str, Any] | None:
        """What to record under the step's ``agent`` key: the strategy's own
        ``last_decision()`` plus ``ms`` (and ``timedOut: true`` for a fallback); ``None`` for
        an on-time decision of a strategy that records nothing and ran on the loop's thread."""
        last = self._last
        if last is None:
            return None
        if last.timed_out:
            return {"ms": round(last.elapsed_ms, 3), "timedOut": True}
        own = getattr(self.strategy, "last_decision", None)
        mine = own() if callable(own) else None
        if mine is None and not self.blocking and self.move_timeout_s is None:
            return None
        return {**(mine or {}), "ms": round(last.elapsed_ms, 3)}

    def totals(self) -> dict[str, Any]:
        """The strategy's ``totals()`` (or ``{"kind": "in-process"}``) with ``clock``:
        :meth:`counters`."""
        own = getattr(self.strategy, "totals", None)
        base = own() if callable(own) else None
        return {**(base or {"kind": "in-process"}), "clock": self.counters()}

    def close_worker(self) -> None:
        """Stop the worker thread without waiting for a stuck call (the strategy is left
        open: its owner closes it). Safe to call twice."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None

    def close(self) -> None:
        """Stop the worker thread without waiting for a stuck call, then call the strategy's
        ``close()`` (if it has one). Safe to call twice."""
        self.close_worker()
        close = getattr(self.strategy, "close", None)
        if callable(close):
            close()


# ---------------------------------------------------------------- fallbacks


def default_fallback(game: str, observation: Any, legal_actions: list[Any]) -> Action | None:
    """The action to play when a bot missed its deadline: a cheap, safe one.

    Keelhold: ``first-safe``'s choice (the lowest safe bay; at port CAST_OFF while
    ``castOffSafe``, else END_RUN). Sunloaf: the rules' reference policy (NEXT_DAY at sunset).
    Naptuft: the legal care of the lowest need (next-day at a day break). Harvest Watch:
    ``None``, "send nothing": the beat's default applies (``docs/rules/harvest-watch.md``,
    clock and defaults). Any other game, or an observation the safe choice cannot read: the
    first legal action. Never raises on a malformed observation.

    Raises:
        ValueError: ``legal_actions`` is empty (outside Harvest Watch): nothing to fall back on.
    """
    from sunbot.games import GAMES, resolve

    info = GAMES.get(game)
    if info is not None and info.kind == "match":
        return None
    if not legal_actions:
        raise ValueError(f"no legal action to fall back on in {game}")
    safe = resolve(info.fallback_ref) if info is not None and info.fallback_ref else None
    if safe is not None:
        try:
            action = safe(observation, legal_actions)
        except Exception as exc:  # an observation the safe choice cannot read
            log.debug("safe fallback of %s failed (%s): first legal action", game, exc)
        else:
            if action in legal_actions:
                return action
    return legal_actions[0]


__all__ = [
    "TIMES_KEPT",
    "BotError",
    "BotEscape",
    "DeadlineAware",
    "Decider",
    "Decision",
    "DecisionTimeout",
    "default_fallback",
    "guarded_call",
    "in_forked_child",
    "install_guard",
    "ms_left",
    "owner_pid",
]
