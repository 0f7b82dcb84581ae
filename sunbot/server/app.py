"""The local Gameboard-compatible server (FastAPI): the platform protocol's "The local server".

Routes: ``GET /api/games``, ``GET /api/games/{slug}/init?seed=N``,
``POST /api/games/{slug}/action`` (``{stateToken, action}`` or, for games without hidden
state, ``{state, action}``). Every success is the envelope ``{ok: true, state, stateToken,
observation, legalActions, score, gameOver}`` (init adds ``spec``); an illegal but
well-formed action answers HTTP 200 ``{ok: false, reason, legalActions}``; malformed input
answers 4xx ``{ok: false, reason}``. Nothing the client sends can cause a 500.
"""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import sunbot.server.openapi as openapi
from sunbot._version import __version__
from sunbot.games import LOCAL_CHOICES, MAX_SEED, MIN_SEED, GameInfo, available, get_game
from sunbot.server.actions import DirectAction, Refusal, apply_action, envelope
from sunbot.server.clock import Clock, MonotonicClock
from sunbot.server.limits import BodyLimit
from sunbot.server.match_registry import MatchRegistry
from sunbot.server.matches import match_router
from sunbot.server.responses import SafeJSONResponse as JSONResponse
from sunbot.server.tokens import TokenCodec

log = logging.getLogger("sunbot.server")
#: A seed as ``init`` takes it: an optional minus and at most 19 ASCII digits.
_DECIMAL = re.compile(r"-?[0-9]{1,19}")


class ActionRequest(BaseModel):
    """Body of ``POST /api/games/{slug}/action``: a token or a plain state, and the action.

    One of the two carriers must be there: a ``stateToken`` string (then ``state`` is not
    read), or a ``state`` object; the document's ``anyOf`` says so. Other fields are ignored.
    """

    model_config = ConfigDict(
        extra="ignore",
        json_schema_extra={
            "anyOf": [
                {"required": ["stateToken"], "properties": {"stateToken": {"type": "string"}}},
                {"required": ["state"], "properties": {"state": {"type": "object"}}},
            ]
        },
    )

    stateToken: str | None = Field(default=None, description="Token from the last answer.")
    state: dict[str, Any] | None = Field(
        default=None, description="Whole plain state (Keelhold, Sunloaf only)."
    )
    action: Any = Field(description="The action object, e.g. {'type': 'PLACE', 'bay': 3}.")


def _seed(given: list[str]) -> int:
    """``init``'s seed from the query's ``seed`` values: a random one when there is none.

    Raises:
        Refusal: 400 for a repeated seed (which one counts is not ours to guess) or one
            that is not a decimal integer (``7``, ``-7``) within :data:`MIN_SEED` to
            :data:`MAX_SEED`.
    """
    if not given:
        return secrets.randbelow(2**31)
    if len(given) > 1:
        raise Refusal(400, "badRequest: seed is given more than once")
    text = given[0]
    if not _DECIMAL.fullmatch(text):
        raise Refusal(400, f"badRequest: seed must be a decimal integer, got {text[:40]!r}")
    seed = int(text)
    if not MIN_SEED <= seed <= MAX_SEED:
        raise Refusal(
            400, f"badRequest: seed must fit a signed 64-bit integer ({MIN_SEED} to {MAX_SEED})"
        )
    return seed


def _single_player(slug: str) -> GameInfo:
    try:
        game = get_game(slug)
    except KeyError:
        raise Refusal(404, f"unknownGame: no game {slug!r}") from None
    if game.kind != "single":
        raise Refusal(404, f"unknownGame: {slug} is played through /api/matches routes")
    return game


def create_app(codec: TokenCodec | None = None, clock: Clock | None = None) -> FastAPI:
    """Build the app. ``codec`` holds the token keys (a fresh key when ``None``); ``clock``
    times the matches (``MonotonicClock`` when ``None``; tests inject a ``FakeClock``).
    The matches live in ``app.state.matches`` (:class:`MatchRegistry`)."""
    codec = codec or TokenCodec()
    app = FastAPI(
        title="sunbot local Gameboard server",
        version=__version__,
        description="Gameboard-compatible local server for the sunbot engines.",
        default_response_class=JSONResponse,
    )
    app.state.codec = codec
    # the action route's common requests are answered by DirectAction from the body that
    # BodyLimit (the outer of the two) has parsed and checked; the rest reach the routes
    singles = {g.slug: g for g in available() if g.kind == "single"}
    app.add_middleware(DirectAction, games=singles, codec=codec)
    app.add_middleware(BodyLimit)
    app.state.matches = MatchRegistry()
    app.include_router(match_router(clock or MonotonicClock(), app.state.matches))

    @app.exception_handler(Refusal)
    async def _refusal(_: Request, exc: Refusal) -> JSONResponse:
        return JSONResponse({"ok": False, "reason": exc.reason}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        first = errs[0] if errs else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse(
            {"ok": False, "reason": f"badRequest: {where}: {first.get('msg', 'invalid')}"},
            status_code=400,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:
            headers = {k: v for k, v in headers.items() if k.lower() != "allow"}
            headers["Allow"] = openapi.allowed_methods(app, request.scope)
        return JSONResponse(
            {"ok": False, "reason": f"http{exc.status_code}: {exc.detail}"},
            status_code=exc.status_code,
            headers=headers,
        )

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        log.exception("internal error")
        return JSONResponse({"ok": False, "reason": "internalError"}, status_code=500)

    @app.get("/api/games", responses=openapi.answers())
    async def games_index(request: Request) -> dict[str, Any]:
        """Machine-readable index of the games this server plays."""
        rows = []
        for g in available():
            base = f"/api/games/{g.slug}" if g.kind == "single" else f"/api/matches/{g.slug}"
            rows.append(
                {
                    "slug": g.slug,
                    "name": g.name,
                    "genre": g.genre,
                    "description": g.description,
                    "goal": g.spec.get("goal", ""),
                    "initUrl": f"{base}/init" if g.kind == "single" else base,
                    "actionUrl": f"{base}/action" if g.kind == "single" else base,
                    "docsUrl": f"/api/games/{g.slug}/spec",
                }
            )
        return {
            "service": "sunbot-local",
            "description": "Local Gameboard-compatible server (sunbot engines).",
            "localChoices": LOCAL_CHOICES,
            "count": len(rows),
            "games": rows,
        }

    single = [g.slug for g in available() if g.kind == "single"]
    every = [g.slug for g in available()]

    @app.get("/api/games/{slug}/spec", responses=openapi.answers(404))
    async def game_spec(
        slug: str = openapi.slug(every, "A game this server lists."),
    ) -> dict[str, Any]:
        """The game's self-documenting spec (goal, scoring, rules, action grammar)."""
        try:
            return {"ok": True, "slug": slug, "spec": get_game(slug).spec}
        except KeyError:
            raise Refusal(404, f"unknownGame: no game {slug!r}") from None

    @app.get(
        "/api/games/{slug}/init",
        response_model=None,
        responses={
            **openapi.answers(404),
            200: {**openapi.INIT_ENVELOPE, "links": openapi.token_links()},
        },
        openapi_extra={"parameters": [openapi.SEED_QUERY]},
    )
    async def init(
        request: Request,
        slug: str = openapi.slug(single, "A single-player game."),
    ) -> JSONResponse:
        """Start a run: the opening envelope plus ``spec``. No seed: a random one."""
        game = _single_player(slug)
        seed = _seed(request.query_params.getlist("seed"))
        body = envelope(game, game.engine.init(seed), codec)
        body["spec"] = game.spec
        return JSONResponse(body)

    @app.post(
        "/api/games/{slug}/action",
        operation_id=openapi.ACTION_ID,
        response_model=None,
        responses={
            **openapi.answers(404),
            200: {**openapi.ACTION_ANSWER, "links": openapi.token_links()},
        },
    )
    async def action(
        body: ActionRequest, slug: str = openapi.slug(single, "A single-player game.")
    ) -> JSONResponse:
        """Apply one action to the position carried by the token (or plain state)."""
        game = _single_player(slug)
        return apply_action(game, body.stateToken, body.state, body.action, codec)

    openapi.finish(app)
    return app
