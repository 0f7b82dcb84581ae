"""How often a seat polls a match view, and when it gives up on a server that stopped
advancing (Harvest Watch §2.3 ``pollAfterMs``, §2.8 "Client loop").

``pollAfterMs`` is the server's pacing, a local choice within the protocol's bounds (the
platform protocol, "What is known about the live platform"): we honour it inside a fixed
window, [:data:`POLL_MIN_MS`, :data:`POLL_MAX_MS`], whatever ``remainMs`` says, so no answer
can make us poll faster than 20 times a second or sleep through a match. A stall is judged
on the round (and the one move from the countdown to play), on the time that really passed,
and on the deadline the views announced; a status that flips back and forth is not progress.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: The window a server's ``pollAfterMs`` is clamped to, ms. The floor holds near a
#: deadline too: a server that answers ``remainMs: 1, pollAfterMs: 0`` forever gets 20
#: requests a second, not hundreds. A beat shorter than the floor may then be seen late.
POLL_MIN_MS, POLL_MAX_MS = 50, 5_000
#: Seconds without progress after which a seat stops whatever the views promise: the
#: longest beat a create may ask for is 600 s (§2.1), so twice that is a stalled server.
STALL_S = 1_200.0
#: Seconds past the deadline the views announced (``remainMs``) that a seat still waits
#: for the next round before calling the server stalled.
STALL_GRACE_S = 60.0


def clamp_poll_ms(value: int) -> int:
    """``pollAfterMs`` (ms) clamped to [:data:`POLL_MIN_MS`, :data:`POLL_MAX_MS`]."""
    return min(max(value, POLL_MIN_MS), POLL_MAX_MS)


def near_deadline(value: int, remain_ms: int) -> bool:
    """An ask below :data:`POLL_MIN_MS` that the protocol's own pacing gives near a
    deadline (ours is ``min(500, remainMs // 2)``, §2.3): raised to the floor without a
    warning, since every match ends its beats that way."""
    return value < POLL_MIN_MS and remain_ms < 2 * POLL_MIN_MS


class Stalled(RuntimeError):
    """The server stopped advancing: the message names the round and the true wait."""


@dataclass
class StallWatch:
    """Progress of one seat's match, fed every view it reads (:meth:`see`) and every
    sleep (:meth:`slept`).

    Progress is a new round, or the first view past the countdown (status other than
    ``starting``). The deadline is the ``remainMs`` of the first view after progress: a
    server that says "1 ms left" on every poll does not move it. The wait since progress is
    the larger of the seconds slept (what a fake clock in tests advances) and the seconds
    ``clock`` measured (what really passed).
    """

    clock: Callable[[], float] = time.monotonic
    key: tuple[int, bool] | None = None
    since: float = 0.0
    asleep: float = 0.0
    due: float = 0.0  # seconds after progress by which its first view said the beat ends
    started: bool = False
    _last: tuple[int, str] = field(default=(0, ""))

    def elapsed(self) -> float:
        """Seconds since the last progress."""
        return max(self.asleep, self.clock() - self.since)

    def see(self, round_: int, status: str, remain_ms: int) -> None:
        """Note a view: its ``data.round``, ``status`` and ``remainMs``."""
        self.started = self.started or status != "starting"
        key = (round_, self.started)
        if key != self.key:  # the deadline is the first view's: later views cannot move it
            self.key, self.since, self.asleep, self.due = key, self.clock(), 0.0, remain_ms / 1000
        self._last = (round_, status)

    def slept(self, seconds: float) -> None:
        """Note a sleep of ``seconds``."""
        self.asleep += seconds

    def check(self) -> None:
        """Raise :class:`Stalled` once the round stood still :data:`STALL_GRACE_S` past the
        deadline the views announced, or :data:`STALL_S` in all."""
        waited = self.elapsed()
        if waited >= STALL_S or waited >= self.due + STALL_GRACE_S:
            rnd, status = self._last
            raise Stalled(
                f"the server stopped advancing: round {rnd} ({status}) unchanged after "
                f"{waited:.0f} s of polling, {max(0.0, waited - self.due):.0f} s past the "
                "deadline its views announced"
            )
