"""The other Gameboard-compatible server (FastAPI): :func:`create_other_app`.

Same protocol as ours (the platform protocol), every local choice made another way:
generation and draws (:mod:`.keelhold`, :mod:`.sunloaf`, :mod:`.naptuft`), carry forms
(:mod:`.carry`), wording, pacing and bots (:mod:`.matches`), unknown extra fields in every
answer, no ``rng`` anywhere, 429s on every route (:mod:`.throttle`), and optional planted
rule bugs (:mod:`.bugs`) whose first touches are recorded in ``app.state.bug_hits``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from sunbot.engines import IllegalAction
from sunbot.testing.otherserver.bugs import BUGS
from sunbot.testing.otherserver.carry import BadCarry, IdTokens, Seal, SignedJson
from sunbot.testing.otherserver.games import GAMES, OtherGame
from sunbot.testing.otherserver.matches import add_match_routes
from sunbot.testing.otherserver.options import OtherOptions
from sunbot.testing.otherserver.throttle import Throttle
from sunbot.testing.otherserver.variants import VARIANTS


class _Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def create_other_app(options: OtherOptions | None = None) -> Any:
    """The other server as an ASGI app (throttled unless ``throttle_every`` is 0).

    ``.state.options`` of the returned app's inner FastAPI app is ``options``; use
    :func:`inner` to reach it.

    Raises:
        KeyError: an unknown bug or variant name in ``options``.
    """
    opts = options or OtherOptions()
    for name in opts.bugs:
        BUGS[name]
    for name in opts.variants:
        VARIANTS[name]
    key = opts.key or secrets.token_bytes(32)
    carriers: dict[str, IdTokens | SignedJson] = {"id": IdTokens(), "signed": SignedJson(key)}
    seal = Seal(key)
    app = FastAPI(title="another Gameboard server (sunbot tests)")
    app.state.options = opts

    @app.exception_handler(_Refused)
    async def _refused(_: Request, exc: _Refused) -> JSONResponse:
        return JSONResponse({"ok": False, "reason": exc.reason, "error": exc.status}, exc.status)

    def lookup(slug: str) -> OtherGame:
        game = GAMES.get(slug)
        if game is None:
            raise _Refused(404, f"no such game: {slug}")
        return game

    def answer(game: OtherGame, state: dict[str, Any]) -> dict[str, Any]:
        shown = game.served(state)
        opts.show(game.slug, shown)
        body: dict[str, Any] = {"ok": True}
        plain = {**shown, **game.extra_state}
        if game.carry == "seal":
            body["state"] = seal.seal(game.slug, plain)
        else:
            body["state"] = plain
            body["stateToken"] = carriers[game.carry].issue(game.slug, state)
        eng_over = state.get("phase") == "over"
        body.update(
            observation={**shown, **game.extra_observation},
            legalActions=legal(game, state),
            score=int(state["score"]),
            gameOver=eng_over,
            meta={"server": "other", "served": "v1"},
        )
        return body

    def legal(game: OtherGame, state: dict[str, Any]) -> list[Any]:
        from sunbot.games import get_game

        result: list[Any] = get_game(game.slug).engine.legal_actions(state)
        return result

    def position(game: OtherGame, body: dict[str, Any]) -> dict[str, Any]:
        try:
            if game.carry == "seal":
                if game.internal is None:  # pragma: no cover - table invariant
                    raise BadCarry("no plain form")
                return game.internal(seal.check(game.slug, body.get("state")))
            return carriers[game.carry].read(game.slug, body.get("stateToken"))
        except (BadCarry, ValueError) as exc:
            raise _Refused(400, f"bad position: {exc}") from None

    @app.get("/api/games")
    async def index() -> dict[str, Any]:
        rows = [
            {
                "slug": slug,
                "name": slug.replace("-", " ").title(),
                "genre": "agent",
                "initUrl": f"/api/games/{slug}/init",
                "actionUrl": f"/api/games/{slug}/action",
                "docsUrl": f"/docs/{slug}",
                "players": "1",
            }
            for slug in GAMES
        ]
        rows.append(
            {
                "slug": "harvest-watch",
                "name": "Harvest Watch",
                "genre": "social",
                "initUrl": "/api/matches/harvest-watch",
                "actionUrl": "/api/matches/harvest-watch",
                "docsUrl": "/docs/harvest-watch",
                "players": "6",
            }
        )
        return {"service": "other-gameboard", "count": len(rows), "games": rows, "v": 3}

    @app.get("/api/games/{slug}/init")
    async def init(slug: str, seed: int | None = None) -> dict[str, Any]:
        game = lookup(slug)
        state = game.init(secrets.randbelow(2**31) if seed is None else seed)
        opts.vary(slug, None, state)
        return {**answer(game, state), "spec": game.spec()}

    @app.post("/api/games/{slug}/action")
    async def action(slug: str, request: Request) -> dict[str, Any]:
        game = lookup(slug)
        try:
            body = json.loads(await request.body())
        except ValueError:
            raise _Refused(400, "body is not JSON") from None
        if not isinstance(body, dict) or "action" not in body:
            raise _Refused(400, "send {stateToken or state, action}")
        state = position(game, body)
        act = body["action"]
        try:
            nxt = game.step(state, act)
        except IllegalAction as exc:
            return {"ok": False, "reason": f"refused ({exc})", "legalActions": legal(game, state)}
        opts.vary(slug, state, nxt)
        for bug in opts.planted(slug):
            if bug.apply(state, act, nxt):
                opts.record(bug, game.served(nxt))
        return answer(game, nxt)

    add_match_routes(app, opts)
    if opts.throttle_every:
        return Throttle(app, opts.throttle_every)
    return app


def inner(app: Any) -> FastAPI:
    """The FastAPI app inside :func:`create_other_app`'s answer (throttled or not)."""
    found = app.app if isinstance(app, Throttle) else app
    assert isinstance(found, FastAPI)
    return found
