"""Fault injection for the local server (off by default): ``sunbot serve --faults ...``.

A plan is a comma-separated list of ``kind=probability`` and settings::

    429=0.05,503=0.05,slow=0.02,drop=0.02,garbage=0.01,retry-after=1,slow-seconds=20

Per request to ``/api/``, one uniform draw picks at most one fault:

- ``429``: HTTP 429 with ``Retry-After`` (seconds, ``retry-after``), nothing processed.
- ``429-bad``: HTTP 429 with a malformed ``Retry-After`` (``²``), nothing processed.
- ``503``: HTTP 503 with an HTML page, nothing processed.
- ``slow``: the request is processed, then the answer waits ``slow-seconds`` (longer than
  the client's timeout), so the client gives up and retries.
- ``drop``: the answer starts and the connection closes mid-body (over a real socket the
  client sees the connection drop; the request may or may not have been processed).
- ``garbage``: HTTP 200 with a truncated JSON body or an HTML page, nothing processed.

Two scenarios, not drawn:

- ``outage=SECONDS``: every ``/api/`` request answers 503 until SECONDS after the first.
- ``trickle=N``: the N-th ``/api/`` answer is sent one byte every ``trickle-seconds``
  (default 1: one byte a second), after the request was processed.

The single-player API is stateless (an action is a pure function of token and action), so
every one of these is safe to retry; the client must still apply each answer exactly once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KINDS = ("429", "429-bad", "503", "slow", "drop", "garbage")
#: Settings: name -> FaultPlan field.
SETTINGS = {
    "retry-after": "retry_after",
    "slow-seconds": "slow_seconds",
    "outage": "outage_seconds",
    "trickle": "trickle_request",
    "trickle-seconds": "trickle_seconds",
}
#: A ``Retry-After`` that ``str.isdigit`` accepts and ``float`` refuses.
BAD_RETRY_AFTER = "\u00b2".encode()


@dataclass(frozen=True)
class FaultPlan:
    """Probabilities per fault kind (summing to at most 1) and the settings."""

    rates: dict[str, float]
    retry_after: int = 1
    slow_seconds: float = 20.0
    outage_seconds: float = 0.0
    trickle_request: int = 0
    trickle_seconds: float = 1.0

    @classmethod
    def parse(cls, text: str) -> FaultPlan:
        """Parse ``429=0.05,503=0.05,...``.

        Raises:
            ValueError: unknown kind, a probability outside 0..1, or a total above 1.
        """
        rates: dict[str, float] = {}
        settings: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise ValueError(f"fault {part!r}: expected kind=value")
            try:
                number = float(value)
            except ValueError:
                raise ValueError(f"fault {key!r}: {value!r} is not a number") from None
            if key in SETTINGS:
                if not 0 <= number <= 86_400:
                    raise ValueError(f"fault setting {key}: {number} outside 0..86400")
                field = SETTINGS[key]
                settings[field] = int(number) if field in _INTS else number
            elif key in KINDS:
                if not 0 <= number <= 1:
                    raise ValueError(f"fault {key}: probability {number} outside 0..1")
                rates[key] = number
            else:
                raise ValueError(f"unknown fault {key!r}; kinds: {', '.join(KINDS)}")
        if sum(rates.values()) > 1:
            raise ValueError("fault probabilities add up to more than 1")
        return cls(rates, **settings)

    def pick(self, u: float) -> str | None:
        """The fault for a uniform draw ``u`` in [0, 1), or ``None``."""
        edge = 0.0
        for kind in KINDS:
            edge += self.rates.get(kind, 0.0)
            if u < edge:
                return kind
        return None


_INTS = ("retry_after", "trickle_request")


class FaultInjector:
    """ASGI middleware applying a :class:`FaultPlan` to ``/api/`` requests.

    ``counts`` tallies the faults injected, by kind.
    """

    def __init__(
        self,
        app: ASGIApp,
        plan: FaultPlan,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.plan = plan
        self.rng = random.Random(seed)
        self.clock = clock
        self.counts: dict[str, int] = dict.fromkeys((*KINDS, "outage", "trickle"), 0)
        self.requests = 0
        self.first_at: float | None = None

    def _scenario(self) -> str | None:
        """``outage`` or ``trickle`` when the plan's scenario covers this request."""
        self.requests += 1
        now = self.clock()
        if self.first_at is None:
            self.first_at = now
        if now - self.first_at < self.plan.outage_seconds:
            return "outage"
        if self.requests == self.plan.trickle_request:
            return "trickle"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/api/"):
            await self.app(scope, receive, send)
            return
        kind = self._scenario() or self.plan.pick(self.rng.random())
        if kind is None:
            await self.app(scope, receive, send)
            return
        self.counts[kind] += 1
        if kind == "429":
            headers = [(b"retry-after", str(self.plan.retry_after).encode())]
            await _answer(send, 429, b'{"ok":false,"reason":"rateLimited"}', headers)
        elif kind == "429-bad":
            headers = [(b"retry-after", BAD_RETRY_AFTER)]
            await _answer(send, 429, b'{"ok":false,"reason":"rateLimited"}', headers)
        elif kind in ("503", "outage"):
            await _answer(send, 503, b"<html><body>Service Unavailable</body></html>", [])
        elif kind == "trickle":
            await self.app(scope, receive, _trickled(send, self.plan.trickle_seconds))
        elif kind == "garbage":
            body = b'{"ok": true, "state": {"tu' if self.rng.random() < 0.5 else b"<html>oops"
            await _answer(send, 200, body, [])
        elif kind == "slow":
            await self.app(scope, receive, _delayed(send, self.plan.slow_seconds))
        else:
            await self.app(scope, receive, _dropping(send))


async def _answer(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-length", str(len(body)).encode()), *headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _delayed(send: Send, seconds: float) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            await asyncio.sleep(seconds)
        await send(message)

    return wrapped


def _trickled(send: Send, interval: float) -> Send:
    """Send the body one byte every ``interval`` seconds."""

    async def wrapped(message: Message) -> None:
        if message["type"] != "http.response.body":
            await send(message)
            return
        body = bytes(message.get("body", b""))
        more = bool(message.get("more_body", False))
        for i in range(len(body)):
            last = i == len(body) - 1
            await send(
                {
                    "type": "http.response.body",
                    "body": body[i : i + 1],
                    "more_body": more or not last,
                }
            )
            await asyncio.sleep(interval)
        if not body:
            await send(message)

    return wrapped


def _dropping(send: Send) -> Send:
    """Send the head and half the body, then stop: the server closes the connection."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.body":
            body = bytes(message.get("body", b""))
            await send({"type": "http.response.body", "body": body[: len(body) // 2]})
            raise ConnectionAbortedError("fault injection: connection dropped")
        await send(message)

    return wrapped
