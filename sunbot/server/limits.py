"""Request limits for the local server: a request head (request line and headers) over
:data:`MAX_HEAD_BYTES` is refused with 431, a body over :data:`MAX_BODY_BYTES` with 413
``{ok: false, reason}`` before the app reads it, so no request can make the server
buffer or parse an unbounded body; a JSON body nested deeper than :data:`MAX_JSON_DEPTH`
is refused with 400 before any route or rule recurses into it (the deepest document of
the protocol is an action inside a request: 4 levels), and so is one that repeats a key
in an object (JSON parsers disagree on which copy wins, so the server takes neither).

A body that passes is handed on with its parsed value in the scope (:data:`PARSED_BODY`),
so a route can use it without parsing the body again."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Largest request body accepted, in bytes (a whole Keelhold state is a few KiB).
MAX_BODY_BYTES = 1024 * 1024
#: Deepest nesting of arrays and objects accepted in a JSON body.
MAX_JSON_DEPTH = 32
#: Largest request head (request line and headers, as sent) accepted, in bytes: room for
#: a 60 KB request target. ``sunbot serve``'s protocol bounds what it buffers of a head by it too.
MAX_HEAD_BYTES = 80 * 1024
#: The scope key under which :class:`BodyLimit` hands on a JSON body it parsed: a 1-tuple
#: of the value (as the standard library's ``json.loads`` reads it), absent when the body
#: is empty or not JSON.
PARSED_BODY = "sunbot.parsed_body"


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def json_problem(body: bytes, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``body`` is refused before any route reads it: JSON nested deeper than
    ``max_depth``, or an object that repeats a key; ``None`` otherwise (a body that is not
    JSON is its route's to refuse)."""
    return parse_checked(body, max_depth)[1]


def parse_checked(
    body: bytes, max_depth: int = MAX_JSON_DEPTH
) -> tuple[tuple[Any] | None, str | None]:
    """``body`` parsed and checked: ``((value,), None)`` for JSON the server takes (the
    value as ``json.loads`` reads it), ``(None, why)`` for JSON it refuses
    (:func:`json_problem`), ``(None, None)`` for a body that is not JSON."""
    deep = f"JSON nested deeper than {max_depth} levels"
    try:
        value = json.loads(body, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as exc:
        return None, f"duplicate key {str(exc.args[0])[:40]!r} in a JSON object"
    except RecursionError:
        return None, deep
    except ValueError:
        return None, None
    return (None, deep) if _deeper_than(value, max_depth) else ((value,), None)


def head_bytes(scope: Scope) -> int:
    """The size of the request head as HTTP/1.1 sends it: request line and header lines."""
    target = len(scope.get("raw_path") or scope.get("path", "").encode())
    query = scope.get("query_string", b"")
    line = len(scope.get("method", "")) + 1 + target + (1 + len(query) if query else 0) + 11
    return line + sum(len(n) + len(v) + 4 for n, v in scope.get("headers", [])) + 2


def _deeper_than(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in children)
    return False


class BodyLimit:
    """ASGI middleware: 431 for a request head over ``max_head`` bytes, 413 for a declared
    or streamed body over ``limit`` bytes, 400 for a JSON body nested deeper than
    ``max_depth`` or repeating a key in an object."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY_BYTES,
        max_depth: int = MAX_JSON_DEPTH,
        max_head: int = MAX_HEAD_BYTES,
    ) -> None:
        self.app = app
        self.limit = limit
        self.max_depth = max_depth
        self.max_head = max_head

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if head_bytes(scope) > self.max_head:
            reason = f"badRequest: request head (line and headers) over {self.max_head} bytes"
            await self._answer(send, 431, reason)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        chunks: list[bytes] = []
        seen = 0
        while True:  # read the whole body first (at most `limit` bytes), then hand it on
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # a disconnect: let the app see it
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        parsed, problem = parse_checked(body, self.max_depth) if body.strip() else (None, None)
        if problem is not None:
            await self._answer(send, 400, f"badRequest: {problem}")
            return
        if parsed is not None:
            scope[PARSED_BODY] = parsed
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        await self._answer(send, 413, f"badRequest: body larger than {self.limit} bytes")

    async def _answer(self, send: Send, status: int, reason: str) -> None:
        body = json.dumps({"ok": False, "reason": reason}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
