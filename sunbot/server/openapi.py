"""What the local server's OpenAPI document says, so that it is the truth: every route's
request body and every status it answers (fuzzed by schemathesis with all its checks).

- :func:`answers` declares a route's refusal statuses with the ``{ok: false, reason}``
  body; :data:`ALWAYS` are the statuses any route may answer (413 a body over 1 MiB, 431 a
  request head over 80 KiB, or 400 nested too deep or a repeated key, from
  :mod:`sunbot.server.limits`; 503 from uvicorn's connection limit under ``sunbot serve``).
- :func:`json_body` declares a request body read by hand (the match routes read theirs
  themselves, to answer ``bad_request`` in the pinned form) from its pydantic model.
- :func:`slug` declares a path's game slug as the list of games the route serves (any
  other answers 404), :data:`SEED_QUERY` the ``seed`` of init (a decimal signed 64-bit
  integer, given at most once), :data:`INIT_ENVELOPE` and :data:`ACTION_ANSWER` the
  single-player answers; :func:`token_links` and :func:`match_links` the OpenAPI links that
  carry an answer's ``stateToken``, or a new match's id and seat token, into the next calls.
- :func:`finish` drops FastAPI's default 422 (this server answers 400 instead).
- :func:`allowed_methods` gives a 405's ``Allow`` header from every route on the path
  (``/api/matches/{slug}`` POST and ``/api/matches/{match_id}`` GET share one URL form).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, Path
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict
from starlette.routing import Match
from starlette.types import Scope

from sunbot.games import MAX_SEED, MIN_SEED


class RefusalBody(BaseModel):
    """A refusal: ``{ok: false, reason}`` (match commands add ``round``, single-player
    refusals ``legalActions``)."""

    model_config = ConfigDict(extra="allow")

    ok: Literal[False]
    reason: str


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


class Position(BaseModel):
    """The document's success answer: a position (spec README, "The local server");
    unknown fields may follow."""

    model_config = ConfigDict(extra="allow")

    ok: Literal[True]
    state: dict[str, Any]
    stateToken: str
    observation: dict[str, Any]
    legalActions: list[dict[str, Any]]
    score: int
    gameOver: bool


class OpeningPosition(Position):
    """The document's init answer: the opening position, with the game's ``spec``."""

    spec: dict[str, Any]


class IllegalMove(BaseModel):
    """The document's answer to an illegal but well-formed action (HTTP 200): nothing
    changed, the legal actions listed."""

    model_config = ConfigDict(extra="allow")

    ok: Literal[False]
    reason: str
    legalActions: list[dict[str, Any]]


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    inlined: dict[str, Any] = _inline(schema, schema.get("$defs", {}))
    return inlined


#: ``responses=`` entry of init's 200 (a document only: answers are not validated by it).
INIT_ENVELOPE: dict[str, Any] = {"model": OpeningPosition, "description": "The opening position."}
#: ``responses=`` entry of the action route's 200: the next position, or the refusal.
ACTION_ANSWER: dict[str, Any] = {
    "description": "The next position, or ``{ok: false, reason, legalActions}``.",
    "content": {
        "application/json": {"schema": {"anyOf": [_schema(Position), _schema(IllegalMove)]}}
    },
}


def slug(slugs: list[str], what: str) -> Any:
    """A ``slug`` path parameter whose schema lists ``slugs`` (the route answers 404 for
    any other, as the refusal it is, not a validation error)."""
    return Path(description=what, json_schema_extra={"enum": sorted(slugs)})


#: ``init``'s ``seed``, which the route reads by hand: a repeated seed, or anything but a
#: decimal integer in range, is 400.
SEED_QUERY: dict[str, Any] = {
    "name": "seed",
    "in": "query",
    "required": False,
    "description": "The run's seed, a decimal signed 64-bit integer given once; none: random.",
    "schema": {"type": "integer", "minimum": MIN_SEED, "maximum": MAX_SEED},
}


#: The action route's ``operationId`` (the target of :func:`token_links`).
ACTION_ID = "action"


def token_links() -> dict[str, Any]:
    """OpenAPI ``links`` of a 200 that carries a position: its ``stateToken`` (and slug)
    taken into the next action, with a generated action (``Act``) or the first legal one
    (``Play``), so schemathesis's stateful phase plays real positions."""
    token = {"stateToken": "$response.body#/stateToken"}
    target = {"operationId": ACTION_ID, "parameters": {"slug": "$request.path.slug"}}
    return {
        "Act": {**target, "requestBody": token},
        "Play": {**target, "requestBody": {**token, "action": "$response.body#/legalActions/0"}},
    }


#: ``operationId`` of the match routes a created match links to (:func:`match_links`).
JOIN_ID, VIEW_ID, COMMANDS_ID = "joinMatch", "viewMatch", "matchCommands"


def match_links() -> dict[str, Any]:
    """OpenAPI ``links`` of a created match: its id (and first seat's token) carried into
    join, view and commands."""
    match = "$response.body#/matchId"
    token = "$response.body#/seats/0/token"
    return {
        "Join": {"operationId": JOIN_ID, "parameters": {"match_id": match}},
        "View": {"operationId": VIEW_ID, "parameters": {"name": match, "query.token": token}},
        "Command": {
            "operationId": COMMANDS_ID,
            "parameters": {"match_id": match},
            "requestBody": {"token": token},
        },
    }


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
