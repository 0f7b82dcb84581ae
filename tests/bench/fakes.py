"""Strategies for the bench tests only (registered per test with monkeypatch)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

END = ("END_RUN", "end-run")


class NoEnd:
    """Random legal action, never the end action (so only the rules or a cap end a run)."""

    games = ("keelhold", "sunloaf", "naptuft")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        keep = [a for a in legal if a.get("type") not in END] or legal
        return self.rng.choice(keep)


class Illegal:
    """Always sends an action the rules refuse."""

    game = "keelhold"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "PLACE", "bay": 99}


class Crash:
    """Raises on its third decision."""

    game = "keelhold"

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls += 1
        if self.calls == 3:
            raise ZeroDivisionError("boom")
        return legal[0]


class Starter:
    """Records its on_start call; first legal action."""

    game = "keelhold"
    started: ClassVar[list[tuple[str, int | None]]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def on_start(self, game: str, seed: int | None) -> None:
        Starter.started.append((game, seed))

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return legal[-1]


class GuardSeat:
    """Harvest Watch (choose(data, legal)): guard; the example on other beats."""

    game = "harvest-watch"
    seen: ClassVar[list[dict[str, Any]]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, data: dict[str, Any], legal: list[Any]) -> dict[str, Any]:
        GuardSeat.seen.append(data)
        if data["phase"] == "action":
            assert {"act": "guard"} in data["legal"]
            return {"act": "guard"}
        return dict(data["schema"]["example"])


class BadSeat:
    """Harvest Watch: a speech that is too long on every speech beat (refused)."""

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, data: dict[str, Any], legal: list[Any]) -> dict[str, Any]:
        if data["phase"].startswith("speech"):
            return {"speech": "x" * 500}
        if data["phase"] == "action":
            return {"act": "guard"}
        return dict(data["schema"]["example"])
