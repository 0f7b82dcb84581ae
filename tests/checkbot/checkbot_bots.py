"""Bots for the ``check-bot`` tests, each fit or unfit in one known way."""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar


class Good:
    """Naptuft, seeded: picks with its own generator; counts its decisions."""

    games = ("naptuft",)
    calls = 0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        Good.calls += 1
        return self.rng.choice(legal_actions)


class Flip:
    """Naptuft; every other bot built plays the last legal action instead of the first, so
    the same seed played twice differs at once."""

    games = ("naptuft",)
    built = 0

    def __init__(self) -> None:
        Flip.built += 1
        self.pick = 0 if Flip.built % 2 else -1

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        return legal_actions[self.pick]


class Slow:
    """Naptuft; 50 ms a decision."""

    games = ("naptuft",)

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        time.sleep(0.05)
        return legal_actions[0]


class Illegal:
    """Naptuft; an action no rule knows."""

    games = ("naptuft",)

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        return {"type": "juggle"}


class Raises:
    """Naptuft; raises at its third decision."""

    games = ("naptuft",)

    def __init__(self) -> None:
        self.n = 0

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        self.n += 1
        if self.n == 3:
            raise ValueError("no idea")
        return legal_actions[0]


class Hooks:
    """Any game; records the hooks it is given (class-wide, one entry per call)."""

    games = ("*",)
    seen: ClassVar[list[tuple[str, Any]]] = []

    def on_start(self, game: str, seed: int | None, *, spec: Any = None) -> None:
        Hooks.seen.append(("start", (game, seed, (spec or {}).get("goal"))))

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        return legal_actions[0]

    def on_end(self, observation: Any, outcome: Any) -> None:
        Hooks.seen.append(("end", outcome["endedBy"]))

    def close(self) -> None:
        Hooks.seen.append(("close", None))


class Broken:
    """Naptuft; cannot even be built."""

    games = ("naptuft",)

    def __init__(self) -> None:
        raise RuntimeError("no parts")

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        return legal_actions[0]


class SlowWatch:
    """Harvest Watch; 50 ms a decision (speech on a text beat, else the first legal)."""

    games = ("harvest-watch",)

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        time.sleep(0.05)
        return legal_actions[0] if legal_actions else {"speech": "hm"}


class Hangs:
    """Naptuft; 3 s a decision."""

    games = ("naptuft",)

    def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
        time.sleep(3)
        return legal_actions[0]
