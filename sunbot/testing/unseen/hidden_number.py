"""``hidden-number``: guess a number from 1 to 100 from higher/lower hints.

The position stays on the server: an answer's ``state`` is a plain string id (``hn-`` and
24 hex digits), there is no ``stateToken``, and the secret never leaves the server until
the game is over. Every answer issues a new id for its position (an old id still plays
from where it was, so a repeated request changes nothing); at most ``max_live`` positions
are kept, the oldest forgotten first, and each expires ``ttl_s`` seconds after it was
issued. Score: 10 minus the guesses used; the game ends on the right guess or after the
tenth (score 0).
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sunbot.testing.unseen.common import BadRequest, Illegal, as_action, draws, envelope

SLUG = "hidden-number"
LOW, HIGH, MAX_GUESSES = 1, 100, 10
SPEC: dict[str, Any] = {
    "goal": "Find the hidden number from 1 to 100 in as few guesses as you can.",
    "scoring": "10 minus the guesses used; 0 when ten guesses did not find it.",
    "rules": [
        "Each guess is answered higher (the number is above it), lower, or found.",
        "Only numbers the hints still allow may be guessed.",
        "The game ends on the right guess or after the tenth guess.",
        "The state is an id: send it back as it came, {state, action}.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "guess"},
            "value": {"type": "integer", "minimum": LOW, "maximum": HIGH},
        },
        "required": ["type", "value"],
        "additionalProperties": False,
    },
}


@dataclass(frozen=True)
class _Position:
    seed: int
    secret: int
    guesses: tuple[int, ...]
    expires: float

    def bounds(self) -> tuple[int, int]:
        low, high = LOW, HIGH
        for g in self.guesses:
            if g < self.secret:
                low = max(low, g + 1)
            elif g > self.secret:
                high = min(high, g - 1)
        return low, high

    @property
    def found(self) -> bool:
        return self.secret in self.guesses

    @property
    def over(self) -> bool:
        return self.found or len(self.guesses) >= MAX_GUESSES


def hint(guess: int, secret: int) -> str:
    """``higher`` (the number is above ``guess``), ``lower`` or ``found``."""
    return "higher" if guess < secret else "lower" if guess > secret else "found"


class HiddenNumber:
    """The game (see the module docstring); ``salt`` varies the secret drawn for a seed,
    ``clock`` (seconds) is injectable for tests of expiry."""

    slug = SLUG
    spec = SPEC

    def __init__(
        self,
        salt: str,
        *,
        max_live: int = 2_000,
        ttl_s: float = 900.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.salt, self.max_live, self.ttl_s, self.clock = salt, max_live, ttl_s, clock
        self._live: OrderedDict[str, _Position] = OrderedDict()
        self.row = {
            "slug": SLUG,
            "name": "Hidden Number",
            "genre": "puzzle",
            "description": "Higher or lower: find the number in ten guesses.",
            "goal": SPEC["goal"],
            "players": 1,
            "carry": "id",
        }

    def secret(self, seed: int) -> int:
        """The number a run of ``seed`` hides (a seeded draw from 1 to 100)."""
        return draws(self.salt, SLUG, seed).randint(LOW, HIGH)

    @property
    def live(self) -> int:
        """Positions held now (expired ones are dropped as new ones are issued)."""
        return len(self._live)

    def _issue(self, pos: _Position) -> str:
        now = self.clock()
        while self._live and next(iter(self._live.values())).expires <= now:
            self._live.popitem(last=False)  # issued in order, so the oldest expire first
        key = f"hn-{secrets.token_hex(12)}"
        self._live[key] = pos
        while len(self._live) > self.max_live:
            self._live.popitem(last=False)
        return key

    def _answer(self, pos: _Position) -> dict[str, Any]:
        low, high = pos.bounds()
        over = pos.over
        legal = [] if over else self.legal(pos)
        observation: dict[str, Any] = {
            "low": low,
            "high": high,
            "guesses": [{"value": g, "hint": hint(g, pos.secret)} for g in pos.guesses],
            "guessesLeft": MAX_GUESSES - len(pos.guesses),
            "found": pos.found,
        }
        if over:
            observation["number"] = pos.secret
        carry = {"state": self._issue(pos)}
        return envelope(carry, observation, legal, MAX_GUESSES - len(pos.guesses), over)

    def legal(self, pos: _Position) -> list[dict[str, Any]]:
        low, high = pos.bounds()
        return [{"type": "guess", "value": v} for v in range(low, high + 1)]

    def init(self, seed: int) -> dict[str, Any]:
        """The opening answer of ``seed``: ten guesses left, the whole range open."""
        pos = _Position(seed, self.secret(seed), (), self.clock() + self.ttl_s)
        return self._answer(pos)

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """One guess from the position behind ``body["state"]``.

        Raises:
            BadRequest: the id is not one this server issued, or it expired.
        """
        key = body.get("state")
        pos = self._live.get(key) if isinstance(key, str) else None
        if pos is None or pos.expires <= self.clock():
            raise BadRequest("state: unknown or expired game id (start a new game)")
        moves = [] if pos.over else self.legal(pos)
        action = as_action(body.get("action"), moves)
        if pos.over:
            raise Illegal("the game is over", [])
        value = action.get("value")
        if type(value) is not int or action not in moves:
            low, high = pos.bounds()
            raise Illegal(f"guess a number from {low} to {high}", moves)
        nxt = _Position(pos.seed, pos.secret, (*pos.guesses, value), self.clock() + self.ttl_s)
        return self._answer(nxt)
