"""``take-away``: Nim against a house bot, carried in the ``{state}`` form only.

A pile of ``5 + seed mod 16`` stones; you move first and take 1 to 3, then the house does;
whoever takes the last stone wins (score +1 for you, -1 for the house, 0 while playing).
The house plays the winning reply (leave a multiple of 4) when there is one, else a seeded
draw. There is no token: the whole state is plain JSON that the client sends back, and the
server checks it by replaying its history from the start (a forged pile or house move is a
400).
"""

from __future__ import annotations

from typing import Any

from sunbot.testing.unseen.common import BadRequest, Illegal, as_action, draws, envelope

SLUG = "take-away"
MAX_TAKE = 3
SPEC: dict[str, Any] = {
    "goal": "Take the last stone of the pile.",
    "scoring": "+1 when you take the last stone, -1 when the house does, 0 until then.",
    "rules": [
        "The pile starts with 5 + (seed mod 16) stones; you move first.",
        "On your turn take 1, 2 or 3 stones, never more than are left.",
        "The house answers in the same request; whoever takes the last stone wins.",
        "Send the whole state back with your action: {state, action}.",
    ],
    "actions": {
        "type": "object",
        "properties": {
            "type": {"const": "take"},
            "count": {"type": "integer", "minimum": 1, "maximum": MAX_TAKE},
        },
        "required": ["type", "count"],
        "additionalProperties": False,
    },
}


def opening_pile(seed: int) -> int:
    """The pile a run of ``seed`` starts with: ``5 + seed mod 16`` (5..20)."""
    return 5 + seed % 16


def legal(pile: int) -> list[dict[str, Any]]:
    """``take`` 1..min(3, pile), in that order (none once the pile is empty)."""
    return [{"type": "take", "count": n} for n in range(1, min(MAX_TAKE, pile) + 1)]


class TakeAway:
    """The game (see the module docstring); ``salt`` varies the house's draws."""

    slug = SLUG
    spec = SPEC

    def __init__(self, salt: str) -> None:
        self.salt = salt
        self.row = {
            "slug": SLUG,
            "name": "Take Away",
            "genre": "strategy",
            "description": "Nim: take one to three stones; the last stone wins.",
            "goal": SPEC["goal"],
            "players": 1,
            "carry": "state",
        }

    def house(self, seed: int, pile: int, turn: int) -> int:
        """The house's take from ``pile`` (> 0) on history index ``turn``."""
        if pile % 4:
            return pile % 4
        return draws(self.salt, SLUG, seed, turn).randint(1, min(MAX_TAKE, pile))

    def _answer(self, state: dict[str, Any]) -> dict[str, Any]:
        pile, winner = state["pile"], state["winner"]
        score = {"you": 1, "house": -1}.get(winner, 0)
        history = state["history"]
        observation = {
            "pile": pile,
            "start": state["start"],
            "taken": history,
            "houseTook": history[-1] if history and len(history) % 2 == 0 else None,
            "winner": winner,
        }
        over = winner is not None
        return envelope({"state": state}, observation, [] if over else legal(pile), score, over)

    def init(self, seed: int) -> dict[str, Any]:
        """The opening answer of ``seed``."""
        start = opening_pile(seed)
        state = {"seed": seed, "start": start, "pile": start, "history": [], "winner": None}
        return self._answer({**state, "theme": "pebbles"})

    def check(self, state: Any) -> dict[str, Any]:
        """``state`` replayed from its start: the same state, or a :class:`BadRequest`."""
        if not isinstance(state, dict):
            raise BadRequest("send the whole state object back: {state, action}")
        seed, history = state.get("seed"), state.get("history")
        if type(seed) is not int or not isinstance(history, list) or len(history) > 40:
            raise BadRequest("state: seed must be an integer and history a short list")
        pile, winner = opening_pile(seed), None
        for turn, took in enumerate(history):
            if winner is not None or type(took) is not int or not 1 <= took <= min(3, pile):
                raise BadRequest(f"state: history[{turn}] is not a move of this game")
            if turn % 2 and took != self.house(seed, pile, turn):
                raise BadRequest(f"state: history[{turn}] is not the house's move")
            pile -= took
            winner = ("house" if turn % 2 else "you") if pile == 0 else None
        if len(history) % 2 and winner is None:
            raise BadRequest("state: the house has not answered the last take")
        replayed = {"seed": seed, "start": opening_pile(seed), "pile": pile, "history": history}
        replayed["winner"] = winner
        if any(state.get(k) != v for k, v in replayed.items()):
            raise BadRequest("state: it is not the position its history leads to")
        return {**state, **replayed}

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """Your take, then the house's (see the module docstring)."""
        state = self.check(body.get("state"))
        pile, moves = state["pile"], legal(state["pile"])
        action = as_action(body.get("action"), moves)
        if state["winner"] is not None:
            raise Illegal("the game is over", [])
        if type(action.get("count")) is not int or action not in moves:
            raise Illegal(f"take 1 to {min(MAX_TAKE, pile)} stones", moves)
        history = [*state["history"], action["count"]]
        pile -= action["count"]
        if pile == 0:
            return self._answer({**state, "pile": 0, "history": history, "winner": "you"})
        took = self.house(state["seed"], pile, len(history))
        history.append(took)
        pile -= took
        winner = "house" if pile == 0 else None
        return self._answer({**state, "pile": pile, "history": history, "winner": winner})
