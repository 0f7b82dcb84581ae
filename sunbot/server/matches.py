"""Match routes of the local server (Harvest Watch §2): create, join,
view, commands. The rules of time and seats live in :mod:`sunbot.server.match_state`.

Every handler takes the match's ``asyncio.Lock``, reads the injected clock once and calls
:meth:`~sunbot.server.match_state.Match.catch_up` with that time before it answers, so
overdue beats are resolved (in a chain, each at its own deadline) before anyone sees the
match, and each beat resolves exactly once. There is no background ticker: a match nobody
asks about waits, and catches up identically on the next request.

Finished matches are kept :data:`~sunbot.server.match_state.KEEP_DONE_MS` (10 minutes) after
they end, so late viewers still get the final view; after that they are dropped and answer
404 ``no_such_match`` like an unknown id. Every route also sweeps the registry (at most
once a second of clock time), which drops expired matches nobody asks about.

Answers: 400 ``{ok:false, reason:"bad_request"}`` for a malformed body, 403 ``bad_token``,
404 ``no_such_match`` (and ``no_such_game`` for an unknown create slug), 409 ``full``, 429
``too_many_matches`` (with ``Retry-After``) for a create while the server holds
:data:`~sunbot.server.match_registry.MAX_OPEN_MATCHES` live matches, and 429
``too_many_matches_from_client`` while the creator's address has
:data:`~sunbot.server.match_registry.MAX_LIVE_PER_CLIENT` live matches. Every refusal of
a well-formed command is HTTP 200 ``{ok:false, reason, round}``.

Seat tokens are never logged: the view route carries the token in its query string (as
pinned), so :mod:`sunbot._text.redaction` rewrites every record of uvicorn's and our
loggers, at every level.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictStr, ValidationError

import sunbot.server.openapi as openapi
from sunbot._text import redaction
from sunbot.games import GAMES, MAX_SEED, MIN_SEED
from sunbot.server.clock import Clock
from sunbot.server.match_registry import MatchRegistry
from sunbot.server.match_state import DEFAULT_BEAT_MS, DEFAULT_START_MS, SEATS, Match
from sunbot.server.responses import SafeJSONResponse as JSONResponse

#: ``Retry-After`` of a create refused because the server holds too many matches, seconds.
RETRY_FULL_S = 30
#: The one path parameter of ``/api/matches/{name}``: create (POST) and view (GET) share it.
NAME = "POST: the game's slug (create a match of it); GET: a match id (read its view)."


def _json_integer(value: object) -> object:
    """An integer as JSON has it: ``3`` or ``3.0`` (one number to JSON Schema and to a
    JavaScript server), never ``true``, ``"3"`` or ``3.5``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be an integer")
    return value


# A body's integer fields: what the document's ``"type": "integer"`` with their bounds
# accepts, and only that (the bounds come before the validator, so that even an optional
# field's schema says ``minimum``/``maximum``, not pydantic's ``ge``/``le``).
_JSONInteger = BeforeValidator(_json_integer)
_Beat = Annotated[int, Field(ge=10, le=600_000), _JSONInteger]
_Seats = Annotated[int, Field(ge=1, le=SEATS), _JSONInteger]
_StartMs = Annotated[int, Field(ge=0, le=600_000), _JSONInteger]
_Seed = Annotated[int, Field(ge=MIN_SEED, le=MAX_SEED), _JSONInteger]
_Round = Annotated[int, _JSONInteger]
#: The create route's slugs, for the document (any other answers 404 ``no_such_game``).
_SLUGS: dict[str, Any] = {"enum": sorted(s for s, g in GAMES.items() if g.kind == "match")}


class BeatMs(BaseModel):
    """``beatMs`` of a create request: per-beat overrides, integers 10-600000 ms (§2.1)."""

    model_config = ConfigDict(extra="forbid")

    speech: _Beat | None = None
    vote: _Beat | None = None
    action: _Beat | None = None
    diary: _Beat | None = None


class CreateMatch(BaseModel):
    """Body of ``POST /api/matches/harvest-watch`` (§2.1); every field optional.

    Unknown fields are refused (a typo such as ``beatMS`` would otherwise silently give
    20-second beats).
    """

    model_config = ConfigDict(extra="forbid")

    seats: _Seats = Field(default=1, description="Seats this caller takes.")
    beatMs: BeatMs | None = None
    startMs: _StartMs = DEFAULT_START_MS
    seed: _Seed | None = None


class CommandBody(BaseModel):
    """Body of ``POST /api/matches/{id}/commands``: ``{token, round, actions}`` (§2.4)."""

    model_config = ConfigDict(extra="ignore")

    token: StrictStr
    round: _Round
    actions: list[Any]


def _refuse(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"ok": False, "reason": reason}, status_code=status)


def _too_many(reason: str) -> JSONResponse:
    """429 for a create refused by a match limit (:mod:`sunbot.server.match_registry`)."""
    body = {"ok": False, "reason": reason}
    return JSONResponse(body, status_code=429, headers={"retry-after": str(RETRY_FULL_S)})


#: What :func:`_json_body` gives for an empty body (JSON ``null`` is a body, and refused).
_ABSENT: Any = object()


async def _json_body(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return _ABSENT
    return json.loads(raw)


def match_router(clock: Clock, registry: MatchRegistry) -> APIRouter:
    """The match routes on ``clock`` (injectable: tests pass a fake one), keeping their
    matches in ``registry``."""
    reg = registry
    router = APIRouter()
    redaction.install()

    def lookup(match_id: str) -> Match | JSONResponse:
        match = reg.get(match_id)
        # a finished match needs no catching up: drop it as unknown before any body check
        if match is not None and match.expired(clock.now_ms(), reg.keep_ms):
            reg.drop(match_id)
            match = None
        return match if match is not None else _refuse(404, "no_such_match")

    def settle(match: Match, now: int) -> JSONResponse | None:
        """Catch ``match`` up (its lock held); 404 and drop it once it has expired."""
        match.catch_up(now)
        reg.sweep(now)
        if match.expired(now, reg.keep_ms):
            reg.drop(match.match_id)
            return _refuse(404, "no_such_match")
        return None

    @router.post(
        "/api/matches/{name}",
        response_model=None,
        responses={
            **openapi.answers(404, 429),
            200: {"description": "The match and its seats.", "links": openapi.match_links()},
        },
        openapi_extra=openapi.json_body(CreateMatch, required=False),
    )
    async def create(
        request: Request,
        slug: Annotated[str, Path(alias="name", description=NAME, json_schema_extra=_SLUGS)],
    ) -> dict[str, Any] | JSONResponse:
        """Create a match of the game ``name`` (§2.1): ``{matchId, seats: [{seat, token},
        ...]}``."""
        game = GAMES.get(slug)
        if game is None or game.kind != "match":
            return _refuse(404, "no_such_game")
        try:
            raw = await _json_body(request)
            body = CreateMatch.model_validate({} if raw is _ABSENT else raw)
        except (ValueError, ValidationError):
            return _refuse(400, "bad_request")
        beat_ms = dict(DEFAULT_BEAT_MS)
        if body.beatMs is not None:
            beat_ms.update(body.beatMs.model_dump(exclude_none=True))
        now = clock.now_ms()
        reg.sweep(now)
        owner = request.client.host if request.client is not None else "unknown"
        if reg.client_full(owner, now):
            return _too_many("too_many_matches_from_client")
        if not reg.make_room(now):
            return _too_many("too_many_matches")
        match, seats = Match.create(
            seed=body.seed,
            seats=body.seats,
            beat_ms=beat_ms,
            start_ms=body.startMs,
            now=now,
        )
        reg.add(match, owner)
        return {"matchId": match.match_id, "seats": [{"seat": s, "token": t} for s, t in seats]}

    @router.post(
        "/api/matches/{match_id}/join",
        operation_id=openapi.JOIN_ID,
        response_model=None,
        responses=openapi.answers(404, 409),
    )
    async def join(match_id: str) -> dict[str, Any] | JSONResponse:
        """Take the lowest free seat (§2.2); 409 ``full`` once started or with none free."""
        match = lookup(match_id)
        if isinstance(match, JSONResponse):
            return match
        async with match.lock:
            gone = settle(match, clock.now_ms())
            if gone is not None:
                return gone
            got = match.join()
        if got is None:
            return _refuse(409, "full")
        return {"seat": got[0], "token": got[1]}

    @router.get(
        "/api/matches/{name}",
        operation_id=openapi.VIEW_ID,
        response_model=None,
        responses=openapi.answers(403, 404),
    )
    async def view(
        request: Request,
        match_id: Annotated[str, Path(alias="name", description=NAME)],
        token: str | None = None,
    ) -> dict[str, Any] | JSONResponse:
        """The seat's view (§2.3) after catching the match up; a ``token`` given twice is
        403 ``bad_token`` like a wrong one (which copy counts is not ours to guess)."""
        if len(request.query_params.getlist("token")) > 1:
            token = None
        match = lookup(match_id)
        if isinstance(match, JSONResponse):
            return match
        async with match.lock:
            now = clock.now_ms()
            gone = settle(match, now)
            if gone is not None:
                return gone
            seat = match.seat_of(token)
            if seat is None:
                return _refuse(403, "bad_token")
            return match.view(seat, now)

    @router.post(
        "/api/matches/{match_id}/commands",
        operation_id=openapi.COMMANDS_ID,
        response_model=None,
        responses=openapi.answers(403, 404),
        openapi_extra=openapi.json_body(CommandBody, required=True),
    )
    async def commands(match_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        """Store one seat's list for the current beat (§2.4); refusals are HTTP 200."""
        match = lookup(match_id)
        if isinstance(match, JSONResponse):
            return match
        try:
            body = CommandBody.model_validate(await _json_body(request))
        except (ValueError, ValidationError):
            return _refuse(400, "bad_request")
        async with match.lock:
            now = clock.now_ms()
            gone = settle(match, now)
            if gone is not None:
                return gone
            seat = match.seat_of(body.token)
            if seat is None:
                return _refuse(403, "bad_token")
            reason = match.store(seat, body.round, body.actions, now)
            if reason is not None:
                return {"ok": False, "reason": reason, "round": match.state["round"]}
            return {"ok": True, **match.view(seat, now)}

    return router
