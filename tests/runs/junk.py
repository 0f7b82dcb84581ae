"""A lying proxy for tests: an ASGI wrapper that adds ``{"junk": {N keys}}`` (or any
extra fields) to every JSON object a server answers, as a hostile proxy in front of a
faithful server would (issue 26, point 1)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def junk(keys: int) -> dict[str, Any]:
    """``{"junk": {"k0": 0, ..., "k<keys-1>": keys-1}}``."""
    return {"junk": {f"k{i}": i for i in range(keys)}}


class AddFields:
    """``app`` with ``extra`` merged into every JSON object it answers: a dict of fields,
    or a function that changes the answer in place."""

    def __init__(self, app: Any, extra: dict[str, Any] | Callable[[dict[str, Any]], None]) -> None:
        self.app = app
        self.extra = extra
        self.answers = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        body = bytearray()

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            body.extend(message.get("body", b""))
            if message.get("more_body"):
                return
            data = bytes(body)
            try:
                obj = json.loads(data)
            except ValueError:
                obj = None
            if isinstance(obj, dict):
                if callable(self.extra):
                    self.extra(obj)
                else:
                    obj.update(self.extra)
                data = json.dumps(obj).encode()
                self.answers += 1
            headers = [
                (k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"
            ]
            headers.append((b"content-length", str(len(data)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": data})

        await self.app(scope, receive, capture)
