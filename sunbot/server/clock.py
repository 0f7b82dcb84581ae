"""Time sources for the match server (Harvest Watch §2.5, "Clock, early resolution, defaults").

Every match deadline is an integer number of milliseconds on one :class:`Clock`. The
server reads the clock once per request; nothing in the match code sleeps, so a test that
passes a :class:`FakeClock` drives a whole match by calling :meth:`FakeClock.advance`.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """A monotonic time source in integer milliseconds (only differences matter)."""

    def now_ms(self) -> int:
        """The current time, ms; never goes backwards."""
        ...


class MonotonicClock:
    """The real clock: ``time.monotonic()`` in whole milliseconds."""

    def now_ms(self) -> int:
        """Milliseconds on the monotonic clock."""
        return time.monotonic_ns() // 1_000_000


class FakeClock:
    """A clock that moves only when told to (tests, benchmarks).

    Args:
        start: the initial reading, ms.
    """

    def __init__(self, start: int = 0) -> None:
        self._now = start

    def now_ms(self) -> int:
        """The current fake time, ms."""
        return self._now

    def advance(self, ms: int) -> int:
        """Move time forward by ``ms`` (>= 0) and return the new reading.

        Raises:
            ValueError: ``ms`` is negative (a clock never goes backwards).
        """
        if ms < 0:
            raise ValueError("a clock never goes backwards")
        self._now += ms
        return self._now
