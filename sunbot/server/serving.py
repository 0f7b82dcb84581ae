"""How ``sunbot serve`` runs the app under uvicorn: one place for its settings.

- Logging: uvicorn's own config with :class:`~sunbot.server.redaction.RedactTokens` on
  every handler (see :func:`~sunbot.server.redaction.uvicorn_log_config`), any level.
- Idle and slow clients are bounded by uvicorn's own settings: an idle keep-alive
  connection is closed after :data:`KEEP_ALIVE_S`; at most :data:`MAX_CONNECTIONS`
  connections and requests at once (more are answered 503 at once, the fault a client
  retries); a request line plus headers over :data:`MAX_HEAD_BYTES` is refused (h11).
"""

from __future__ import annotations

from typing import Any

import uvicorn

from sunbot.server.redaction import uvicorn_log_config

#: Seconds an idle keep-alive connection stays open (our client drops idle ones at 2 s).
KEEP_ALIVE_S = 5
#: Connections plus running requests at once before uvicorn answers 503 (kept well under
#: the usual 1024 open files, so new clients get an answer rather than a stall).
MAX_CONNECTIONS = 512
#: Largest request head (request line and headers) h11 buffers, bytes: room for a 60 KB
#: request target, and a bound on what one slow client can make the server hold.
MAX_HEAD_BYTES = 80 * 1024


def serve_config(app: Any, *, host: str, port: int, log_level: str) -> uvicorn.Config:
    """The :class:`uvicorn.Config` of ``sunbot serve`` for ``app`` (any ASGI app)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=uvicorn_log_config(),
        http="h11",
        timeout_keep_alive=KEEP_ALIVE_S,
        limit_concurrency=MAX_CONNECTIONS,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
    )
