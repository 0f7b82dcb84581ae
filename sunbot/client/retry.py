"""The client's one retry policy (tenacity), configured here and nowhere else.

Retried: connection errors, timeouts, dropped connections (``httpx.TransportError``), HTTP
429, 502, 503 and 504, and a success status whose body is cut short (a stateless call is
safe to repeat); whole JSON of the wrong shape only for ``brief_seconds``. Not retried:
every other 4xx and 500, except that a match view read also retries a 500
(:func:`is_retryable_read`), and a body no retry can mend (over the size cap, nested too
deep, an integer of thousands of digits: :mod:`sunbot.client.answers`).
A web page or other text that is not JSON where the answer should be is retried only for
``brief_seconds`` (3 s): a glitch clears at once, a web site's origin never does.
Waits grow exponentially with full jitter, capped at a few seconds; a ``Retry-After``
header (seconds or an HTTP date; a malformed one is ignored) sets the minimum wait. The
bound is a time budget (tenacity's ``stop_after_delay``): by default a call rides out at
least 60 s of 503s, 429s or failed connections, however many attempts that takes; an
attempt cut by the client's per-attempt deadline (an answer trickling in) is a timeout and
is retried like any other. A safety cap on attempts keeps the loop bounded even with a
test's fake sleep. One exception to the budget: a server that has never answered this
client (every attempt so far failed to connect: a wrong address, a server not started)
gets only ``unreached_seconds`` (3 s: a few quick attempts) before the call fails, since
waiting a minute for a typo helps nobody; once any answer came, the whole budget applies
(``docs/decisions.md``, Fail fast on a server never reached).
"""

from __future__ import annotations

import asyncio
import email.utils
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    stop_before_delay,
    wait_random_exponential,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

#: Statuses that mean "try again later".
RETRY_STATUSES = frozenset({429, 502, 503, 504})
#: Statuses by which a server says it did not process the request at all (so even a
#: request that is not safe to repeat, such as a match command, can be sent again).
UNPROCESSED_STATUSES = frozenset({429, 503})
#: ``Retry-After`` as delta-seconds: ASCII digits (a decimal fraction tolerated).
_DELTA_SECONDS = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,6})?", re.ASCII)


class ClientError(Exception):
    """Base class of the client's errors."""


class TransientHTTPError(ClientError):
    """A 429/502/503/504 answer; ``retry_after`` is the server's hint in seconds, if any."""

    def __init__(self, status: int, reason: str, retry_after: float | None) -> None:
        super().__init__(f"HTTP {status}: {reason}")
        self.status = status
        self.reason = reason
        self.retry_after = retry_after


class ServerRefused(ClientError):
    """A 4xx (other than 429) or 500 answer: the request itself is wrong; not retried
    (but a match view's 500, see :func:`is_retryable_read`)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"HTTP {status}: {reason}")
        self.status = status
        self.reason = reason


#: How long a :class:`MalformedResponse` is retried: ``"full"`` the whole budget (a body
#: cut short), ``"brief"`` only :attr:`RetryPolicy.brief_seconds` (a web page or other text
#: that is not JSON, whole JSON of the wrong shape: a glitch clears at once, a web site's
#: origin or a server whose answers changed shape never does),
#: ``"none"`` not at all (over the size cap, nested too deep, an integer of thousands of
#: digits: :mod:`sunbot.client.answers`).
Retry = Literal["full", "brief", "none"]


class MalformedResponse(ClientError):
    """A success status whose body is not valid JSON or not the documented shape;
    ``retry`` says how long asking again may help (:data:`Retry`)."""

    def __init__(self, message: str, *, retry: Retry = "full") -> None:
        super().__init__(message)
        self.retry: Retry = retry


class CrossOriginRedirect(ClientError):
    """The server redirected a request to another scheme, host or port: not followed (the
    request carries a state or seat token); not retried."""


class RetryInterrupted(ClientError):
    """The user stopped the client (Ctrl-C) while a call waited to retry: the call did
    not complete (see :meth:`~sunbot.client.http.GameboardClient.interrupt`)."""


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    Returns ``None`` for a missing or unreadable header (``"²"``, ``"-1"``, ``"soon"``: the
    wait is then the policy's own backoff); never negative.
    """
    if not value:
        return None
    value = value.strip()
    if _DELTA_SECONDS.fullmatch(value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now_dt = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    return max(0.0, (when - now_dt).total_seconds())


def is_retryable(exc: BaseException) -> bool:
    """The retry predicate: transport failures, throttling/gateway statuses, broken bodies."""
    if isinstance(exc, httpx.TransportError):
        return not isinstance(exc, httpx.UnsupportedProtocol)
    if isinstance(exc, MalformedResponse):
        return exc.retry != "none"
    return isinstance(exc, TransientHTTPError)


def is_retryable_read(exc: BaseException) -> bool:
    """The retry predicate of a read that changes with the server's clock (a match view):
    :func:`is_retryable`, plus a 500. Repeating a GET is safe, and a view that fails on
    one beat's state (issue 12 case 1: a seat's hostile speech broke every view for the
    rest of the day) can answer again once the beat moves on; a 500 that lasts the whole
    budget still ends the call."""
    return is_retryable(exc) or (isinstance(exc, ServerRefused) and exc.status == 500)


def is_unprocessed(exc: BaseException) -> bool:
    """The retry predicate of a request that is not safe to repeat blindly: only a 429 or
    503 answer, by which the server says it did nothing (a dropped connection leaves the
    request's fate unknown, so the caller re-reads instead)."""
    return isinstance(exc, TransientHTTPError) and exc.status in UNPROCESSED_STATUSES


def never(exc: BaseException) -> bool:
    """The retry predicate of a request sent exactly once."""
    return False


class wait_retry_after(wait_base):
    """Jittered exponential backoff, but never shorter than the server's ``Retry-After``."""

    def __init__(self, backoff: wait_base, max_retry_after: float) -> None:
        self.backoff = backoff
        self.max_retry_after = max_retry_after

    def __call__(self, retry_state: RetryCallState) -> float:
        wait = float(self.backoff(retry_state))
        outcome = retry_state.outcome
        exc = outcome.exception() if outcome is not None else None
        if isinstance(exc, TransientHTTPError) and exc.retry_after is not None:
            wait = max(wait, min(exc.retry_after, self.max_retry_after))
        return wait


class stop_if_never_answered(stop_base):
    """Stop when the last attempt could not connect and ``answered()`` says no answer of
    the server ever came (combined with a short ``stop_before_delay``)."""

    def __init__(self, answered: Callable[[], bool]) -> None:
        self.answered = answered

    def __call__(self, retry_state: RetryCallState) -> bool:
        outcome = retry_state.outcome
        exc = outcome.exception() if outcome is not None else None
        unreached = isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)
        return unreached and not self.answered()


class stop_if_brief(stop_base):
    """Stop when the last attempt failed with a :class:`MalformedResponse` retried only
    briefly (combined with a short ``stop_before_delay``)."""

    def __call__(self, retry_state: RetryCallState) -> bool:
        outcome = retry_state.outcome
        exc = outcome.exception() if outcome is not None else None
        return isinstance(exc, MalformedResponse) and exc.retry == "brief"


@dataclass(frozen=True)
class RetryPolicy:
    """Bounds of the retry loop.

    Attributes:
        total_seconds: the time budget: after a failed attempt, no retry once this many
            seconds have passed since the call began (``stop_after_delay``).
        attempts: safety cap on tries in all (first call included).
        initial_wait: backoff scale in seconds (full jitter, doubling).
        max_wait: cap of one backoff wait, seconds.
        max_retry_after: cap on a server's ``Retry-After``, seconds.
        unreached_seconds: the budget, seconds, while the server has never answered and
            every attempt failed to connect (no retry whose wait would end past it).
        brief_seconds: the budget, seconds, of an answer that is a web page or other text
            that is not JSON (no retry whose wait would end past it).
        sleep: the coroutine used to wait (tests pass a fake one).
    """

    total_seconds: float = 60.0
    attempts: int = 1000
    initial_wait: float = 0.25
    max_wait: float = 4.0
    max_retry_after: float = 30.0
    unreached_seconds: float = 3.0
    brief_seconds: float = 3.0
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep)

    def retrying(
        self,
        on_retry: Callable[[RetryCallState], None] | None = None,
        retry_on: Callable[[BaseException], bool] = is_retryable,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        answered: Callable[[], bool] | None = None,
    ) -> AsyncRetrying:
        """A fresh tenacity ``AsyncRetrying`` for one call; ``retry_on`` picks the failures
        that are retried (default :func:`is_retryable`); ``sleep`` replaces the policy's
        own wait (the client's interruptible one); ``answered`` tells whether the server
        ever answered (when it says no, connection failures get ``unreached_seconds``)."""
        stop = stop_after_delay(self.total_seconds) | stop_after_attempt(self.attempts)
        stop = stop | (stop_before_delay(self.brief_seconds) & stop_if_brief())
        if answered is not None:
            unreached = stop_before_delay(self.unreached_seconds) & stop_if_never_answered(answered)
            stop = stop | unreached
        return AsyncRetrying(
            stop=stop,
            wait=wait_retry_after(
                wait_random_exponential(multiplier=self.initial_wait, max=self.max_wait),
                self.max_retry_after,
            ),
            retry=retry_if_exception(retry_on),
            sleep=sleep or self.sleep,
            before_sleep=on_retry,
            reraise=True,
        )
