"""The client's one retry policy (tenacity), configured here and nowhere else.

Retried: connection errors, timeouts, dropped connections (``httpx.TransportError``), HTTP
429, 502, 503 and 504, and a success status whose body is not a valid answer (truncated or
HTML: a stateless call is safe to repeat). Not retried: every other 4xx and 500.
Waits grow exponentially with full jitter; a ``Retry-After`` header (seconds or an HTTP date)
sets the minimum wait. Attempts and total time are both bounded.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_random_exponential,
)
from tenacity.stop import stop_base
from tenacity.wait import wait_base

#: Statuses that mean "try again later".
RETRY_STATUSES = frozenset({429, 502, 503, 504})


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
    """A 4xx (other than 429) or 500 answer: the request itself is wrong; never retried."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"HTTP {status}: {reason}")
        self.status = status
        self.reason = reason


class MalformedResponse(ClientError):
    """A success status whose body is not valid JSON or not the documented shape."""


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    Returns ``None`` for a missing or unreadable header; never negative.
    """
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now_dt = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    return max(0.0, (when - now_dt).total_seconds())


def is_retryable(exc: BaseException) -> bool:
    """The retry predicate: transport failures, throttling/gateway statuses, broken bodies."""
    if isinstance(exc, httpx.TransportError):
        return not isinstance(exc, httpx.UnsupportedProtocol)
    return isinstance(exc, TransientHTTPError | MalformedResponse)


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


class stop_total_budget(stop_base):
    """Stop when the time spent so far plus the next wait would pass ``budget`` seconds.

    Time spent is the larger of the wall clock and the sum of waits, so the bound holds
    with a test's fake sleep too.
    """

    def __init__(self, budget: float) -> None:
        self.budget = budget

    def __call__(self, retry_state: RetryCallState) -> bool:
        spent = max(retry_state.seconds_since_start or 0.0, retry_state.idle_for)
        return spent + (retry_state.upcoming_sleep or 0.0) >= self.budget


@dataclass(frozen=True)
class RetryPolicy:
    """Bounds of the retry loop.

    Attributes:
        attempts: tries in all (first call included).
        total_seconds: no retry starts if its wait would pass this budget.
        initial_wait: backoff scale in seconds (jittered, doubling).
        max_wait: cap of one backoff wait, seconds.
        max_retry_after: cap on a server's ``Retry-After``, seconds.
        sleep: the coroutine used to wait (tests pass a fake one).
    """

    attempts: int = 6
    total_seconds: float = 60.0
    initial_wait: float = 0.2
    max_wait: float = 10.0
    max_retry_after: float = 30.0
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep)

    def retrying(self, on_retry: Callable[[RetryCallState], None] | None = None) -> AsyncRetrying:
        """A fresh tenacity ``AsyncRetrying`` for one call."""
        return AsyncRetrying(
            stop=stop_after_attempt(self.attempts) | stop_total_budget(self.total_seconds),
            wait=wait_retry_after(
                wait_random_exponential(multiplier=self.initial_wait, max=self.max_wait),
                self.max_retry_after,
            ),
            retry=retry_if_exception(is_retryable),
            sleep=self.sleep,
            before_sleep=on_retry,
            reraise=True,
        )
