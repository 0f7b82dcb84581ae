"""429s on every route of the other server, deterministically: every ``every``-th request.

Odd-numbered refusals carry ``Retry-After: 0``, even-numbered ones none, so a client meets
both forms. A request refused this way was not processed, so it is always safe to retry;
two refusals in a row never hit the same retried request (``every >= 2``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Throttle:
    """ASGI middleware: HTTP 429 on every ``every``-th ``/api/`` request (0: never).

    ``refused`` counts the 429s sent, ``seen`` the ``/api/`` requests.
    """

    def __init__(self, app: ASGIApp, every: int) -> None:
        if every == 1:
            raise ValueError("every must be 0 (off) or at least 2")
        self.app = app
        self.every = every
        self.seen = 0
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/api/"):
            await self.app(scope, receive, send)
            return
        self.seen += 1
        if not self.every or self.seen % self.every:
            await self.app(scope, receive, send)
            return
        self.refused += 1
        headers = [(b"content-type", b"application/json")]
        if self.refused % 2:
            headers.append((b"retry-after", b"0"))
        body = json.dumps({"ok": False, "reason": "slow down"}).encode()
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})
