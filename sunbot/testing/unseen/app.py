"""The unseen server (FastAPI): :func:`create_unseen_app`.

Routes: ``GET /api/games`` (the index), ``GET /api/games/{slug}/init?seed=N`` and ``POST
/api/games/{slug}/action``; no spec route (a client reads ``spec`` from the init answer).
Bad input answers 4xx ``{ok: false, reason}``, an illegal action 200 ``{ok: false, reason,
legalActions}``; optionally every k-th ``/api/`` request is a 429 with ``Retry-After``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException

import sunbot.testing.fair_use as fair_use
from sunbot.testing.unseen.common import BadRequest, Illegal, UnseenGame
from sunbot.testing.unseen.hidden_number import HiddenNumber
from sunbot.testing.unseen.take_away import TakeAway
from sunbot.testing.unseen.tic_tac_toe import TicTacToe

#: The default salt of the seeded draws (house moves, hidden numbers).
SALT = "unseen-1"
#: Seeds are signed 64-bit integers, as on the platform.
SEED_RANGE = range(-(2**63), 2**63)


def create_unseen_app(
    *,
    rate_limit_every: int | None = None,
    seed_salt: str = SALT,
    retry_after_s: int = 1,
    key: bytes | None = None,
    max_live: int = 2_000,
) -> FastAPI:
    """A Gameboard-compatible server of three games sunbot has no engine for:
    ``tic-tac-toe`` (state and token), ``hidden-number`` (a server-side id) and
    ``take-away`` (the ``{state}`` form only).

    Args:
        rate_limit_every: answer 429 (``Retry-After: retry_after_s``) to every k-th
            ``/api/`` request; ``None`` or 0: never. ``app.state.throttled`` counts them.
        seed_salt: varies every seeded draw (another salt, another server's draws).
        key: HMAC key of tic-tac-toe's tokens (random when ``None``).
        max_live: hidden-number positions kept at most.

    Raises:
        ValueError: ``rate_limit_every`` is 1 (every request refused) or negative.
    """
    fair_use.check_every(rate_limit_every)
    games: dict[str, UnseenGame] = {
        g.slug: g
        for g in (
            TicTacToe(seed_salt, key or secrets.token_bytes(32)),
            HiddenNumber(seed_salt, max_live=max_live),
            TakeAway(seed_salt),
        )
    }
    app = FastAPI(title="unseen games (sunbot tests)", docs_url=None, redoc_url=None)
    app.state.games = games
    fair_use.install(app, rate_limit_every=rate_limit_every, retry_after_s=retry_after_s)

    def game_of(slug: str) -> UnseenGame:
        game = games.get(slug)
        if game is None:
            raise HTTPException(404, f"no game {slug[:60]!r} here; see /api/games")
        return game

    @app.get("/api/games")
    async def index() -> dict[str, Any]:
        rows = [
            {
                **g.row,
                "initUrl": f"/api/games/{slug}/init",
                "actionUrl": f"/api/games/{slug}/action",
                "docsUrl": f"/games/{slug}",
            }
            for slug, g in sorted(games.items())
        ]
        return {
            "service": "unseen-gameboard",
            "description": "Three small games for testing clients that know none of them.",
            "count": len(rows),
            "games": rows,
            "generatedBy": "sunbot tests",
        }

    @app.get("/api/games/{slug}/init")
    async def init(slug: str, seed: int | None = None) -> Any:
        game = game_of(slug)
        if seed is not None and seed not in SEED_RANGE:
            return fair_use.refuse(400, "seed: a signed 64-bit integer")
        opening = game.init(secrets.randbelow(2**31) if seed is None else seed)
        return {**opening, "spec": game.spec}

    @app.post("/api/games/{slug}/action")
    async def action(slug: str, request: Request) -> Any:
        game = game_of(slug)
        try:
            body = json.loads(await request.body())
        except (ValueError, RecursionError):
            return fair_use.refuse(400, "the body is not JSON")
        if not isinstance(body, dict) or "action" not in body:
            return fair_use.refuse(400, "send {state or stateToken, action}")
        try:
            return game.act(body)
        except BadRequest as exc:
            return fair_use.refuse(exc.status, exc.reason)
        except Illegal as exc:
            return {"ok": False, "reason": exc.reason, "legalActions": exc.legal, "costs": 0}

    return app
