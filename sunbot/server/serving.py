"""How ``sunbot serve`` runs the app under uvicorn: one place for its settings.

- Logging: uvicorn's own config with :class:`~sunbot._text.redaction.RedactTokens` on
  every handler (see :func:`~sunbot.server.redaction.uvicorn_log_config`), any level.
- HTTP/1.1 is parsed by httptools (llhttp, in C): h11, uvicorn's pure-Python parser,
  cost a fifth of the server's CPU per request (docs/decisions.md). The writes of one pass
  of the event loop (an answer's head and body) leave in one send
  (:class:`~sunbot.server.batched_writes.BatchedWrites`).
- Idle and slow clients are bounded by uvicorn's own settings: an idle keep-alive
  connection is closed after :data:`KEEP_ALIVE_S`; at most :data:`MAX_CONNECTIONS`
  connections and requests at once (more are answered 503 at once, the fault a client
  retries); a request line plus headers over :data:`MAX_HEAD_BYTES` is refused with 431
  (by :class:`RequestDeadlineHttpTools` while it arrives, by the app once whole).
- A client that never finishes its request (slowloris: half a head, or a byte a second
  forever) is closed by :class:`RequestDeadlineHttpTools`: uvicorn itself has no such timeout
  (its keep-alive timer only runs between requests and every byte received resets it).
- Past :func:`connection_budget` connections, each new one closes a connection waiting for
  a request (idle or slow), so waiting sockets can never use up the process's open files:
  at that point the server could not accept anyone, and every client stalled until the
  deadline freed some. It is the oldest one of the peer address holding the most waiting
  connections (:mod:`sunbot.server.connection_share`), so one address's half-sent heads
  cost that address its own connections, not another client's. The budget leaves room for
  the bursts asyncio accepts before any of them can close one (at most
  :func:`accept_backlog` at a time, the listen backlog).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from sunbot.server import limits
from sunbot.server.batched_writes import BatchedWrites
from sunbot.server.connection_share import connection_to_shed
from sunbot.server.redaction import uvicorn_log_config

#: Seconds an idle keep-alive connection stays open (our client drops idle ones at 2 s).
KEEP_ALIVE_S = 5
#: Connections plus running requests at once before uvicorn answers 503 (kept well under
#: the usual 1024 open files, so new clients get an answer rather than a stall).
MAX_CONNECTIONS = 512
#: Largest request head (request line and headers) the protocol buffers, bytes: room for a
#: 60 KB request target, and a bound on what one slow client can make the server hold. It
#: only bounds a head still arriving (a bigger one that arrives whole within a read passes
#: it), so the app refuses any head over it too (431, :class:`~sunbot.server.limits.BodyLimit`).
MAX_HEAD_BYTES = limits.MAX_HEAD_BYTES
#: Seconds a client has to send one whole request (head and body, at most 1 MiB) from the
#: moment the server waits for it: a new connection, or the first byte after keep-alive.
REQUEST_DEADLINE_S = 10.0

#: Open files the process needs besides its connections (the listening socket, standard
#: streams, the key file, the event loop's own), kept free under a low open-file limit.
FILE_MARGIN = 32
#: Most connections the kernel queues for the server to accept (the listen backlog; uvicorn's
#: own default is 2048). asyncio accepts as many as are queued at once, each an open file,
#: before any of them can close a waiting one, so this bounds how far one burst of
#: connections can overshoot the budget.
BACKLOG = 128
#: Accept bursts that can land before the first of them has closed its waiting connections
#: (measured under a churning attack: the open files peaked about 3 backlogs past the budget).
ACCEPT_BURSTS = 4

log = logging.getLogger("uvicorn.error")


def _file_room() -> int | None:
    """Open files left for connections (the soft ``RLIMIT_NOFILE`` less
    :data:`FILE_MARGIN`), or ``None`` when unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft - FILE_MARGIN


def accept_backlog() -> int:
    """The listen backlog: :data:`BACKLOG`, or less under a low open-file limit, so that
    :data:`ACCEPT_BURSTS` bursts take at most half the files left for connections; at
    least 8."""
    room = _file_room()
    return BACKLOG if room is None else max(8, min(BACKLOG, room // (2 * ACCEPT_BURSTS)))


def connection_budget() -> int:
    """Connections held before a waiting one is closed: 7/8 of :data:`MAX_CONNECTIONS`
    (the 503 past it is then for busy connections, not idle ones), or fewer when the
    process may open fewer files: the files left for connections less
    :data:`ACCEPT_BURSTS` accept bursts of :func:`accept_backlog`, so a burst never runs
    the process out of files (asyncio would then stop accepting anyone for a second, and
    log a traceback per refused accept); at least 16. With the usual 1024 open files it
    is 448, with 256 it is 112."""
    budget = MAX_CONNECTIONS * 7 // 8
    room = _file_room()
    if room is not None:
        budget = min(budget, room - ACCEPT_BURSTS * accept_backlog())
    return max(16, budget)


def _refusal_bytes(status: int, phrase: str, reason: str | None) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection: ``{ok: false, reason}`` when
    ``reason`` is given, else no body."""
    body = json.dumps({"ok": False, "reason": reason}).encode() if reason is not None else b""
    head = f"HTTP/1.1 {status} {phrase}\r\n"
    if body:
        head += "content-type: application/json\r\n"
    head += f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    return head.encode("ascii") + body


#: What a client that sent no whole request in time gets before the connection closes.
_TIMED_OUT = _refusal_bytes(408, "Request Timeout", None)
#: What a client whose request head outgrows :data:`MAX_HEAD_BYTES` while it arrives gets.
_HEAD_TOO_LARGE = _refusal_bytes(
    431,
    "Request Header Fields Too Large",
    f"badRequest: request head (line and headers) over {MAX_HEAD_BYTES} bytes",
)


class RequestDeadlineHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol (HTTP/1.1 parsed by llhttp, in C) with a
    request-receipt deadline and a bound on a head still arriving.

    From ``connection_made`` (and from the first byte of each later request on a kept-alive
    connection) the client has :attr:`deadline_s` seconds to send its whole request; past
    that the server answers ``408`` when the request's head is not wholly in (once it is,
    the request is the app's, which sees the client disconnect), and closes the connection
    either way. The timer is disarmed as soon as the request is wholly in, so
    the time the app takes to answer never counts. A request head still incomplete after
    :data:`MAX_HEAD_BYTES` is answered 431 and the connection closed, so a slow client
    cannot make the server buffer an endless head (a bigger head that arrives whole in one
    read reaches the app, which refuses it with 431 too). Past :attr:`max_open`
    connections, a new one closes a connection waiting for its next request (idle
    keep-alive or slow): the oldest of the peer address holding the most waiting
    connections (:func:`~sunbot.server.connection_share.connection_to_shed`). Set both per
    server with :func:`with_request_deadline`.
    """

    deadline_s: float = REQUEST_DEADLINE_S
    max_open: int = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._since = 0.0  # when this connection began to wait for a request (loop time)
        self._whole = False  # the request being received is wholly in
        self._head_done = False  # the head of the request being received is wholly in
        self._head_seen = 0  # bytes received while that head is not

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # an answer's head and body leave in one send (one wake-up of the client, not two)
        self.transport = BatchedWrites(transport, self.loop)
        self._arm()
        if len(self.connections) > self.max_open:
            self._shed()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._whole = False

    def on_headers_complete(self) -> None:
        self._head_done = True
        self._head_seen = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._whole = True
        self._head_done = False
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._since = self.loop.time()  # idle from now on (keep-alive) until its next request

    def _busy(self) -> bool:
        """The request received is wholly in and its answer not yet complete."""
        return self._whole and self.cycle is not None and not self.cycle.response_complete

    def _waiting(self) -> bool:
        return not self.transport.is_closing() and not self._busy()

    def _peer(self) -> str:
        """The client's address (the socket's peer; ``""`` when unknown)."""
        return self.client[0] if self.client else ""

    def _shed(self) -> None:
        """Close a connection (not this one) waiting for a request: the oldest of the peer
        holding the most waiting connections."""
        waiting = (
            c
            for c in self.connections
            if isinstance(c, RequestDeadlineHttpTools) and c is not self and c._waiting()
        )
        shed = connection_to_shed(waiting, RequestDeadlineHttpTools._peer, lambda c: c._since)
        if shed is not None:
            log.info(
                "%d connections open: closed the longest-waiting one of %s, the client"
                " holding the most waiting connections",
                len(self.connections),
                shed._peer(),
            )
            shed.transport.close()
            # it no longer counts (uvicorn drops it only once the loop reports it lost): in a
            # burst of new connections the count behind the 503 limit would otherwise climb
            # past MAX_CONNECTIONS with ones already closed, and a normal request get a 503
            self.connections.discard(shed)

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and not self._busy():
            self._arm()
        if not self._head_done:
            self._head_seen += len(data)
        super().data_received(data)
        if self._busy():
            self._disarm()
        elif (
            not self._head_done
            and self._head_seen > MAX_HEAD_BYTES
            and not self.transport.is_closing()
        ):
            log.info("closed a connection whose request head passed %d bytes", MAX_HEAD_BYTES)
            self.transport.write(_HEAD_TOO_LARGE)
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._since = self.loop.time()
        self._deadline = self.loop.call_later(self.deadline_s, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self._busy():
            return
        log.info("closed a connection that sent no whole request within %g s", self.deadline_s)
        if not self._head_done:  # no request begun, so no answer: say why (408) first
            self.transport.write(_TIMED_OUT)
        self.transport.close()


def with_request_deadline(
    seconds: float, max_open: int = MAX_CONNECTIONS
) -> type[RequestDeadlineHttpTools]:
    """A :class:`RequestDeadlineHttpTools` subclass whose deadline is ``seconds`` (> 0) and that
    holds at most ``max_open`` connections before closing a waiting one (the oldest of the
    peer holding the most)."""
    if not seconds > 0:
        raise ValueError(f"the request deadline must be above 0 s, got {seconds}")
    attrs = {"deadline_s": float(seconds), "max_open": max_open}
    return type("RequestDeadlineHttpTools", (RequestDeadlineHttpTools,), attrs)


def serve_config(
    app: Any,
    *,
    host: str,
    port: int,
    log_level: str,
    request_deadline_s: float = REQUEST_DEADLINE_S,
) -> uvicorn.Config:
    """The :class:`uvicorn.Config` of ``sunbot serve`` for ``app`` (any ASGI app);
    ``request_deadline_s``: see :class:`RequestDeadlineHttpTools`.

    Raises:
        ValueError: ``request_deadline_s`` is not above 0.
    """
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=uvicorn_log_config(),
        http=with_request_deadline(request_deadline_s, connection_budget()),
        timeout_keep_alive=KEEP_ALIVE_S,
        limit_concurrency=MAX_CONNECTIONS,
        # the client is the socket's peer: uvicorn would otherwise believe X-Forwarded-For
        # from 127.0.0.1, letting a local client pick its own address (and dodge the
        # per-client match limit); a proxy in front of sunbot serve is not supported
        proxy_headers=False,
        backlog=accept_backlog(),
    )
