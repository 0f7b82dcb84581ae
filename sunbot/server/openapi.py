"""What the local server's OpenAPI document says, so that it is the truth: every route's
request body and every status it answers (fuzzed by schemathesis with all its checks).

- :func:`answers` declares a route's refusal statuses with the ``{ok: false, reason}``
  body; :data:`ALWAYS` are the statuses any route may answer (413 a body over 1 MiB, 431 a
  request head over 80 KiB, or 400 nested too deep or a repeated key, from
  :mod:`sunbot.server.limits`; 503 from uvicorn's connection limit under ``sunbot serve``).
- :func:`json_body` declares a request body read by hand (the match routes read theirs
  themselves, to answer ``bad_request`` in the pinned form) from its pydantic model.
- :func:`finish` drops FastAPI's default 422 (this server answers 400 instead).
- :func:`allowed_methods` gives a 405's ``Allow`` header from every route on the path
  (``/api/matches/{slug}`` POST and ``/api/matches/{match_id}`` GET share one URL form).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict
from starlette.routing import Match
from starlette.types import Scope


class RefusalBody(BaseModel):
    """A refusal: ``{ok: false, reason}`` (match commands add ``round``, single-player
    refusals ``legalActions``)."""

    model_config = ConfigDict(extra="allow")

    ok: Literal[False]
    reason: str


WHY = {
    400: "Malformed request (bad field, not JSON, nested too deep, a key repeated in a JSON"
    " object, bad state token).",
    403: "The seat token is not one of this match's.",
    404: "No such game or match (or the match expired).",
    409: "The match is full or has started.",
    413: "Request body larger than 1 MiB.",
    431: "Request line and headers larger than 80 KiB.",
    429: "Too many open matches on this server; try again later (Retry-After).",
    503: "The server is at its connection limit; try again.",
}
#: Statuses any route may answer.
ALWAYS = (400, 413, 431, 503)


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route answering ``statuses`` besides 200 and :data:`ALWAYS`."""
    codes = sorted({*statuses, *ALWAYS})
    return {code: {"model": RefusalBody, "description": WHY[code]} for code in codes}


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def json_body(model: type[BaseModel], *, required: bool) -> dict[str, Any]:
    """``openapi_extra=`` declaring a JSON request body of ``model`` (its sub-models
    inlined, so the schema stands on its own inside the document)."""
    schema = model.model_json_schema()
    body = _inline(schema, schema.get("$defs", {}))
    content = {"application/json": {"schema": body}}
    return {"requestBody": {"required": required, "content": content}}


def finish(app: FastAPI) -> None:
    """Make ``app.openapi()`` build the document once without FastAPI's unused 422s."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            for item in doc.get("paths", {}).values():
                for op in item.values():
                    op.get("responses", {}).pop("422", None)
            for name in ("HTTPValidationError", "ValidationError"):
                doc.get("components", {}).get("schemas", {}).pop(name, None)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def allowed_methods(app: FastAPI, scope: Scope) -> str:
    """The ``Allow`` header for ``scope``'s path: every method of every route it matches."""
    methods: set[str] = set()
    routes = list(app.router.routes)
    while routes:
        route = routes.pop()
        inner = getattr(route, "original_router", None)  # an included APIRouter
        if inner is not None:
            routes.extend(inner.routes)
            continue
        match, _ = route.matches(scope)
        if match is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))
