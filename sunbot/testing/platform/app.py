"""The platform test server (FastAPI): :func:`create_platform_app`.

Routes, as the platform's API overview gives them: ``GET /api/games`` (the index: service
keys and one row per game), ``GET /api/games/{slug}/init?seed=N`` and ``POST
/api/games/{slug}/action`` with ``{state, action}`` (``{stateToken, action}`` for the game
that carries a token), plus ``GET /docs/api/{slug}`` (the game's spec, where the index's
``docsUrl`` points). A missing seed draws one. Bad input answers 4xx ``{ok: false,
reason}`` (a body over :data:`MAX_BODY` bytes 413), an illegal action 200 ``{ok: false,
reason, legalActions}``; optionally every k-th ``/api/`` request is a 429 with
``Retry-After``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException

import sunbot.testing.fair_use as fair_use
from sunbot.testing.platform.checkers import Checkers
from sunbot.testing.platform.common import BadRequest, Illegal, PlatformGame
from sunbot.testing.platform.crate_push import CratePush
from sunbot.testing.platform.dice_dash import DiceDash
from sunbot.testing.platform.dots_and_boxes import DotsAndBoxes
from sunbot.testing.platform.maze_runner import MazeRunner
from sunbot.testing.platform.memory_match import MemoryMatch
from sunbot.testing.platform.pipe_connect import PipeConnect
from sunbot.testing.platform.pixel_puzzle import PixelPuzzle
from sunbot.testing.platform.sliding_puzzle import SlidingPuzzle
from sunbot.testing.platform.solitaire import Solitaire
from sunbot.testing.platform.sudoku import Sudoku
from sunbot.testing.platform.tile_merge import TileMerge
from sunbot.testing.platform.word_guess import WordGuess
from sunbot.testing.platform.word_search import WordSearch

#: The default salt of the seeded draws (layouts, decks, spawns, dice, bot tie-breaks).
SALT = "platform-1"
#: Seeds are signed 64-bit integers.
SEED_RANGE = range(-(2**63), 2**63)
#: The largest action body read (the largest state, a maze, is some 30 KB).
MAX_BODY = 256 * 1024
#: The depth of G-Bot's checkers search that the game's page gives.
CHECKERS_DEPTH = 6


def create_platform_app(
    *,
    rate_limit_every: int | None = None,
    seed_salt: str = SALT,
    retry_after_s: int = 1,
    key: bytes | None = None,
    checkers_depth: int = CHECKERS_DEPTH,
    word_guess_menu: bool = False,
) -> FastAPI:
    """A Gameboard-compatible server of fourteen of the live platform's games, built from
    their published rule pages (``docs/guide-servers.md`` lists them).

    Args:
        rate_limit_every: answer 429 (``Retry-After: retry_after_s``) to every k-th
            ``/api/`` request; ``None`` or 0: never. ``app.state.throttled`` counts them.
        seed_salt: varies every seeded draw (another salt, another server's draws).
        key: the secret of solitaire's seal and word-guess's token (random when ``None``;
            at least 32 bytes).
        checkers_depth: plies of G-Bot's checkers search (1 to 8; the page's is 6).
        word_guess_menu: list every dictionary word as a legal guess; the page's game
            lists none (``legalActions`` is empty on purpose), which no menu-driven player
            can play.

    Raises:
        ValueError: ``rate_limit_every`` is 1 or negative, ``checkers_depth`` out of range,
            ``key`` shorter than 32 bytes.
    """
    fair_use.check_every(rate_limit_every)
    if not 1 <= checkers_depth <= 8:
        raise ValueError("checkers_depth must be 1 to 8")
    secret = secrets.token_bytes(32) if key is None else key
    if len(secret) < 32:
        raise ValueError("key must be at least 32 bytes")
    games: dict[str, PlatformGame] = {
        g.slug: g
        for g in (
            Checkers(seed_salt, depth=checkers_depth),
            CratePush(seed_salt),
            DiceDash(seed_salt),
            DotsAndBoxes(seed_salt),
            MazeRunner(seed_salt),
            MemoryMatch(seed_salt),
            PipeConnect(seed_salt),
            PixelPuzzle(seed_salt),
            SlidingPuzzle(seed_salt),
            Solitaire(seed_salt, secret),
            Sudoku(seed_salt),
            TileMerge(seed_salt),
            WordGuess(seed_salt, secret, menu=word_guess_menu),
            WordSearch(seed_salt),
        )
    }
    app = FastAPI(title="platform games (sunbot tests)", docs_url=None, redoc_url=None)
    app.state.games = games
    fair_use.install(app, rate_limit_every=rate_limit_every, retry_after_s=retry_after_s)

    def game_of(slug: str) -> PlatformGame:
        game = games.get(slug)
        if game is None:
            raise HTTPException(404, f"no game {slug[:60]!r} here; see /api/games")
        return game

    @app.get("/api/games")
    async def index(request: Request) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        rows = [
            {
                "slug": slug,
                "name": g.name,
                "genre": g.genre,
                "description": g.description,
                "goal": g.goal,
                "initUrl": f"{base}/api/games/{slug}/init",
                "actionUrl": f"{base}/api/games/{slug}/action",
                "docsUrl": f"{base}/docs/api/{slug}",
            }
            for slug, g in sorted(games.items())
        ]
        return {
            "service": "Gameboard Agent API (sunbot test copy)",
            "description": "Turn-based games over a stateless two-call loop, for tests.",
            "howToPlay": {
                "step1": "GET /api/games/{slug}/init?seed={number}: the opening position "
                "and the game's spec.",
                "step2": "POST /api/games/{slug}/action with {state, action}: the next "
                "position; send the latest state back every time.",
                "choosingActions": "Pick from legalActions; a refused action answers "
                "{ok:false, reason, legalActions} with HTTP 200.",
            },
            "docs": f"{base}/docs/api",
            "count": len(rows),
            "games": rows,
        }

    @app.get("/docs/api/{slug}")
    async def docs(slug: str) -> dict[str, Any]:
        game = game_of(slug)
        return {"slug": slug, "name": game.name, "spec": game.spec}

    @app.get("/api/games/{slug}/init")
    async def init(slug: str, seed: int | None = None) -> Any:
        game = game_of(slug)
        if seed is not None and seed not in SEED_RANGE:
            return fair_use.refuse(400, "seed: a signed 64-bit integer")
        return game.init(secrets.randbelow(2**31) if seed is None else seed)

    @app.post("/api/games/{slug}/action")
    async def action(slug: str, request: Request) -> Any:
        game = game_of(slug)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return fair_use.refuse(413, f"the body is over {MAX_BODY} bytes")
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            return fair_use.refuse(400, "the body is not JSON")
        if not isinstance(body, dict) or "action" not in body:
            return fair_use.refuse(400, f"send {{{game.carry}, action}}")
        try:
            return game.act(body)
        except BadRequest as exc:
            return fair_use.refuse(exc.status, exc.reason)
        except Illegal as exc:
            return {"ok": False, "reason": exc.reason, "legalActions": exc.legal}
        except RecursionError:
            return fair_use.refuse(400, "the state is nested too deeply")

    return app
