"""Request limits for the local server: a body over :data:`MAX_BODY_BYTES` is refused with
413 ``{ok: false, reason}`` before the app reads it, so no request can make the server
buffer or parse an unbounded body; a JSON body nested deeper than :data:`MAX_JSON_DEPTH`
is refused with 400 before any route or rule recurses into it (the deepest document of
the protocol is an action inside a request: 4 levels)."""

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


def json_too_deep(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``body``, read as JSON, nests arrays/objects more than ``limit`` deep.

    Parsed by :mod:`json` (which raises ``RecursionError`` itself on extreme depths), then
    walked without recursion. A body that is not JSON is not "too deep": its route refuses
    it with its own 400.
    """
    try:
        value = json.loads(body)
    except RecursionError:
        return True
    except ValueError:
        return False
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
    """ASGI middleware: 413 for a declared or streamed body over ``limit`` bytes, 400 for
    a JSON body nested deeper than ``max_depth``."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY_BYTES, max_depth: int = MAX_JSON_DEPTH
    ) -> None:
        self.app = app
        self.limit = limit
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
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
        if body.strip() and json_too_deep(body, self.max_depth):
            reason = f"badRequest: JSON nested deeper than {self.max_depth} levels"
            await self._answer(send, 400, reason)
            return
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
