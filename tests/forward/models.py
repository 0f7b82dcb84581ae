"""Forward models of the unseen server's games, for the tests (the user-level examples of
platform games are in ``examples/forward_models/``)."""

from __future__ import annotations

import random
import time
from typing import Any


class TakeAway:
    """Nim against the house: take 1-3, the house answers (the winning reply when there
    is one, else a draw), the last stone wins."""

    game = "take-away"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        return {
            "pile": observation["pile"],
            "start": observation["start"],
            "taken": list(observation["taken"]),
            "winner": observation["winner"],
        }

    def legal_actions(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if state["winner"] is not None:
            return []
        return [{"type": "take", "count": n} for n in range(1, min(3, state["pile"]) + 1)]

    def house_take(self, pile: int) -> int:
        return pile % 4 if pile % 4 else self.rng.randint(1, min(3, pile))

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        pile = state["pile"] - action["count"]
        taken = [*state["taken"], action["count"]]
        if pile == 0:
            return {**state, "pile": 0, "taken": taken, "winner": "you"}
        took = self.house_take(pile)
        pile -= took
        return {
            **state,
            "pile": pile,
            "taken": [*taken, took],
            "winner": "house" if pile == 0 else None,
        }

    def observation(self, state: dict[str, Any]) -> dict[str, Any]:
        taken = state["taken"]
        return {
            "pile": state["pile"],
            "start": state["start"],
            "taken": taken,
            "houseTook": taken[-1] if taken and len(taken) % 2 == 0 else None,
            "winner": state["winner"],
        }

    def score(self, state: dict[str, Any]) -> float:
        return {"you": 1, "house": -1}.get(state["winner"], 0)

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["winner"] is not None


class BrokenTakeAway(TakeAway):
    """The deliberate bug: the house always takes one stone."""

    def house_take(self, pile: int) -> int:
        return 1


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _line(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


class TicTacToe:
    """Three in a row against the house (win, block, centre, else a draw)."""

    game = "tic-tac-toe"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def from_observation(self, observation: dict[str, Any]) -> str:
        return "".join(observation["rows"])

    def result(self, board: str) -> str | None:
        if _line(board, "X"):
            return "win"
        if _line(board, "O"):
            return "loss"
        return "draw" if "." not in board else None

    def legal_actions(self, board: str) -> list[dict[str, Any]]:
        if self.result(board):
            return []
        return [{"type": "mark", "cell": i} for i, c in enumerate(board) if c == "."]

    def step(self, board: str, action: dict[str, Any]) -> str:
        cell = action["cell"]
        board = board[:cell] + "X" + board[cell + 1 :]
        if self.result(board) is None:
            free = [i for i, c in enumerate(board) if c == "."]
            reply = None
            for mark in ("O", "X"):
                for c in free:
                    if reply is None and _line(board[:c] + mark + board[c + 1 :], mark):
                        reply = c
            if reply is None:
                reply = 4 if 4 in free else self.rng.choice(free)
            board = board[:reply] + "O" + board[reply + 1 :]
        return board

    def observation(self, board: str) -> dict[str, Any]:
        return {
            "rows": [board[0:3], board[3:6], board[6:9]],
            "you": "X",
            "result": self.result(board),
        }

    def score(self, board: str) -> float:
        return {"win": 1, "loss": -1}.get(self.result(board) or "", 0)

    def is_over(self, board: str) -> bool:
        return self.result(board) is not None


class HiddenNumber:
    """Higher or lower: the number is hidden, so each rebuilt state draws one the hints
    still allow."""

    game = "hidden-number"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        guesses = [g["value"] for g in observation["guesses"]]
        if observation.get("number") is not None:
            secret = observation["number"]
        else:
            secret = self.rng.randint(observation["low"], observation["high"])
        return {"secret": secret, "guesses": guesses}

    def bounds(self, s: dict[str, Any]) -> tuple[int, int]:
        low, high = 1, 100
        for g in s["guesses"]:
            if g < s["secret"]:
                low = max(low, g + 1)
            elif g > s["secret"]:
                high = min(high, g - 1)
        return low, high

    def is_over(self, s: dict[str, Any]) -> bool:
        return s["secret"] in s["guesses"] or len(s["guesses"]) >= 10

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        if self.is_over(s):
            return []
        low, high = self.bounds(s)
        return [{"type": "guess", "value": v} for v in range(low, high + 1)]

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        return {**s, "guesses": [*s["guesses"], action["value"]]}

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        low, high = self.bounds(s)
        secret = s["secret"]
        hints = [
            {"value": g, "hint": "higher" if g < secret else "lower" if g > secret else "found"}
            for g in s["guesses"]
        ]
        obs = {
            "low": low,
            "high": high,
            "guesses": hints,
            "guessesLeft": 10 - len(s["guesses"]),
            "found": secret in s["guesses"],
        }
        if self.is_over(s):
            obs["number"] = secret
        return obs

    def score(self, s: dict[str, Any]) -> float:
        return 10 - len(s["guesses"])


class MeddlingTakeAway(TakeAway):
    """A correct model that edits everything it is handed: the observation it rebuilds
    from gains a field, the served legal actions and every action it steps gain a key and
    a changed count (a run must not send, record or check any of its edits)."""

    def from_observation(
        self, observation: dict[str, Any], legal_actions: list[Any] | None = None
    ) -> dict[str, Any]:
        state = super().from_observation(observation)
        observation["injected"] = "\x1b[31m"
        for action in legal_actions or []:
            action["evil"] = "\x1b[31m"
        return state

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        after = super().step(state, action)
        action["evil"] = "\x1b[31m"
        action["count"] = 99
        return after


class HangingTakeAway(TakeAway):
    """A model whose ``step`` never returns (a bound on a run's stop must not wait for it)."""

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        while True:
            pass


class SwallowingTakeAway(TakeAway):
    """A model whose ``step`` never returns and catches every interrupt (a stop must still
    end the process, bounded)."""

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        while True:
            try:  # noqa: SIM105 - written as a user would
                time.sleep(1000)
            except BaseException:
                pass
