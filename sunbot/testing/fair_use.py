"""What the FastAPI test servers share around their routes: the ``{ok: false, reason}``
refusal, 4xx answers for a request FastAPI cannot read, and fair-use throttling (a 429
with ``Retry-After`` on every k-th ``/api/`` request), as the platform's overview allows
("we may rate-limit").

Used by :mod:`sunbot.testing.unseen` and :mod:`sunbot.testing.platform`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

Next = Callable[[Request], Awaitable[Response]]


def refuse(status: int, reason: str, **extra: Any) -> JSONResponse:
    """``{ok: false, reason, **extra}`` with HTTP ``status``."""
    return JSONResponse({"ok": False, "reason": reason, **extra}, status_code=status)


def check_every(rate_limit_every: int | None) -> None:
    """Refuse a throttle period that would refuse every request, or a negative one.

    Raises:
        ValueError: ``rate_limit_every`` is 1 or negative.
    """
    if rate_limit_every is not None and (rate_limit_every < 0 or rate_limit_every == 1):
        raise ValueError("rate_limit_every must be None, 0 or at least 2")


def install(app: FastAPI, *, rate_limit_every: int | None, retry_after_s: int = 1) -> None:
    """Add the throttle and the 4xx handlers to ``app``.

    Every k-th request under ``/api/`` (``rate_limit_every``; ``None`` or 0: never) is
    answered 429 ``{ok: false, reason}`` with ``Retry-After: retry_after_s`` and not
    processed. ``app.state.requests`` counts the ``/api/`` requests, ``app.state.throttled``
    the 429s. A request FastAPI cannot validate is 400, an ``HTTPException`` its own status,
    both as ``{ok: false, reason}``.

    Raises:
        ValueError: ``rate_limit_every`` is 1 or negative.
    """
    check_every(rate_limit_every)
    app.state.requests = app.state.throttled = 0

    @app.middleware("http")
    async def fair_use(request: Request, call_next: Next) -> Response:
        if not request.url.path.startswith("/api/"):
            return await call_next(request)
        app.state.requests += 1
        if rate_limit_every and app.state.requests % rate_limit_every == 0:
            app.state.throttled += 1
            response = refuse(429, "fair use: slow down")
            response.headers["Retry-After"] = str(retry_after_s)
            return response
        return await call_next(request)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return refuse(400, f"bad request: {where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(HTTPException)
    async def _http(_: Request, exc: HTTPException) -> JSONResponse:
        return refuse(exc.status_code, str(exc.detail))
