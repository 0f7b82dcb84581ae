"""A tiny honest server for the lookahead tests: count from 0 to exactly 10 adding 1, 2 or
3; the score is the moves used (lower is better); the state holds nothing the observation
does not show (its ``moves`` is the observation's ``movesUsed``). ``slow_s`` delays every
action answer; ``rate_limit_every`` answers every k-th request 429 with ``Retry-After: 0``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

GOAL = 10
SPEC = {
    "goal": "Reach exactly 10.",
    "scoring": "Moves used; fewer is better.",
    "scoreOrder": "ascending",
    "actionSchema": {
        "type": "object",
        "properties": {"type": {"const": "add"}, "n": {"enum": [1, 2, 3]}},
        "required": ["type", "n"],
    },
}


def answer(n: int, moves: int) -> dict[str, Any]:
    over = n == GOAL
    legal = [] if over else [{"type": "add", "n": k} for k in (1, 2, 3) if n + k <= GOAL]
    return {
        "ok": True,
        "state": {"n": n, "moves": moves},
        "observation": {"n": n, "movesUsed": moves, "goal": GOAL},
        "legalActions": legal,
        "score": moves,
        "gameOver": over,
    }


def create_countup_app(*, slow_s: float = 0.0, rate_limit_every: int = 0) -> FastAPI:
    app = FastAPI()
    app.state.actions = 0
    app.state.requests = 0
    app.state.busy = app.state.most_busy = 0

    @app.middleware("http")
    async def throttle(request: Request, call_next: Any) -> Any:
        app.state.requests += 1
        if rate_limit_every and app.state.requests % rate_limit_every == 0:
            return JSONResponse({"ok": False, "reason": "slow down"}, 429, {"Retry-After": "0"})
        return await call_next(request)

    @app.get("/api/games")
    async def index() -> dict[str, Any]:
        return {"games": [{"slug": "count-up", "name": "Count Up"}]}

    @app.get("/api/games/count-up/init")
    async def init(seed: int | None = None) -> dict[str, Any]:
        return {**answer(0, 0), "spec": SPEC}

    @app.post("/api/games/count-up/action")
    async def act(request: Request) -> Any:
        body = await request.json()
        app.state.actions += 1
        app.state.busy += 1
        app.state.most_busy = max(app.state.most_busy, app.state.busy)
        try:
            await asyncio.sleep(slow_s or 0.001)  # long enough for requests to overlap
        finally:
            app.state.busy -= 1
        state, action = body.get("state") or {}, body.get("action") or {}
        n, moves = int(state.get("n", 0)), int(state.get("moves", 0))
        k = action.get("n")
        if k not in (1, 2, 3) or n + k > GOAL or n == GOAL:
            return {
                "ok": False,
                "reason": "add 1, 2 or 3, not past 10",
                "legalActions": answer(n, moves)["legalActions"],
            }
        return answer(n + k, moves + 1)

    return app


class CountUp:
    """Its forward model."""

    game = "count-up"

    def from_observation(self, observation: dict[str, Any]) -> tuple[int, int]:
        return observation["n"], observation["movesUsed"]

    def legal_actions(self, s: tuple[int, int]) -> list[dict[str, Any]]:
        return answer(*s)["legalActions"]

    def step(self, s: tuple[int, int], action: dict[str, Any]) -> tuple[int, int]:
        return s[0] + action["n"], s[1] + 1

    def observation(self, s: tuple[int, int]) -> dict[str, Any]:
        return answer(*s)["observation"]

    def score(self, s: tuple[int, int]) -> float:
        return s[1]

    def is_over(self, s: tuple[int, int]) -> bool:
        return s[0] == GOAL
