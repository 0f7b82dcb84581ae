"""Helpers of the platform test servers' tests: a game object, one step, an HTTP call."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from sunbot.testing.platform import create_platform_app
from sunbot.testing.platform.common import PlatformGame
from sunbot.testing.unseen.common import Illegal

#: One app for the rule tests (G-Bot searches 2 plies here; its own test uses 6).
APP = create_platform_app(checkers_depth=2, key=b"k" * 32, word_guess_menu=True)
SLUGS = sorted(APP.state.games)
HIDDEN = ["memory-match", "solitaire", "word-guess"]
CHANCE = ["dice-dash", "tile-merge"]
OPPONENT = ["checkers", "dots-and-boxes"]
PUZZLES = [s for s in SLUGS if s not in HIDDEN + CHANCE + OPPONENT]


def game(slug: str) -> PlatformGame:
    """The game object of ``slug`` on :data:`APP`."""
    found: PlatformGame = APP.state.games[slug]
    return found


def carry(answer: dict[str, Any]) -> dict[str, Any]:
    """The position fields of an answer, to send back."""
    return {k: answer[k] for k in ("state", "stateToken") if k in answer}


def step(slug: str, answer: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``action`` from ``answer``'s position (an ``Illegal`` propagates)."""
    return game(slug).act({**carry(answer), "action": action})


def refusal(slug: str, answer: dict[str, Any], action: dict[str, Any]) -> Illegal:
    """The refusal of ``action`` from ``answer``'s position (fails when it is accepted)."""
    try:
        step(slug, answer, action)
    except Illegal as exc:
        return exc
    raise AssertionError(f"{action} was accepted")


def at(slug: str, state: dict[str, Any]) -> dict[str, Any]:
    """The answer the server gives for ``state`` (checked as a carried state would be)."""
    g = game(slug)
    return g.answer(g.read(json.loads(json.dumps(state))))


def http(
    method: str, url: str, body: Any = None, raw: bytes | None = None, app: Any = APP
) -> httpx.Response:
    """One request to ``app`` in-process."""

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://p") as c:
            if raw is not None:
                return await c.request(method, url, content=raw)
            return await c.request(method, url, json=body)

    return asyncio.run(go())
