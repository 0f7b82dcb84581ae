"""A few-line run loop for the tests (the real loop is the lead's): init, choose, act until
gameOver, bounded; every answer through GenericChecks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from sunbot.client import GameboardClient, Position, Rejected
from sunbot.generic import GenericChecks
from sunbot.testing.unseen import create_unseen_app
from tests.conftest import FAST_RETRY


@dataclass
class Played:
    last: Position
    steps: int
    checks: GenericChecks
    actions: list[Any] = field(default_factory=list)
    refused: int = 0


def unseen_client(**options: Any) -> tuple[GameboardClient, Any]:
    """A client on a fresh unseen server (ASGI, fast retries) and the app."""
    app = create_unseen_app(**options)
    return GameboardClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY), app


async def play_through(
    client: GameboardClient, slug: str, strategy: Any, seed: int = 7, max_steps: int = 200
) -> Played:
    """Play one run of ``slug`` to its end (at most ``max_steps`` actions)."""
    checks = GenericChecks(slug)
    pos = await client.init(slug, seed)
    checks.check_init(pos.raw)
    played = Played(pos, 0, checks)
    while not pos.game_over:
        assert played.steps < max_steps, f"{slug}: no end after {max_steps} steps"
        action = strategy.choose(pos.observation, pos.legal_actions)
        played.steps += 1
        answer = await client.act(slug, pos, action)
        checks.check_action(played.steps, pos.raw, action, answer.raw)
        played.actions.append(action)
        if isinstance(answer, Rejected):
            played.refused += 1
            continue
        pos = played.last = answer
    return played
