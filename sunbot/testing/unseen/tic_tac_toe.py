"""``tic-tac-toe`` against a house bot, carried both ways at once.

Every answer gives the plain ``state`` (``board``: nine cells ``X``, ``O`` or ``.``, row by
row; ``seed``; ``result``) and a ``stateToken`` (``ttt1.`` + base64url JSON + ``.`` + an
HMAC): the server accepts either back, the token first when both come. A plain state is
checked for consistency (cell symbols, mark counts, the result the board shows). You are
``X`` and move first; the house (``O``) answers in the same request: it wins when it can,
blocks when it must, takes the centre, else a seeded draw. Score +1 win, 0 draw (and while
playing), -1 loss.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from typing import Any

from sunbot.testing.unseen.common import BadRequest, Illegal, as_action, draws, envelope

SLUG = "tic-tac-toe"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
SPEC: dict[str, Any] = {
    "goal": "Get three X in a row, column or diagonal before the house gets three O.",
    "scoring": "+1 for a win, 0 for a draw, -1 for a loss.",
    "rules": [
        "Cells are numbered 0 to 8, row by row from the top left.",
        "You are X and move first; mark an empty cell.",
        "The house plays O in the same request.",
        "A full board with no line is a draw.",
        "Carry back the stateToken, or the state as it came.",
    ],
    "actionSchema": {
        "type": "object",
        "properties": {
            "type": {"const": "mark"},
            "cell": {"type": "integer", "minimum": 0, "maximum": 8},
        },
        "required": ["type", "cell"],
        "additionalProperties": False,
    },
}


def line_of(board: str, mark: str) -> bool:
    """Whether ``mark`` holds a whole line of ``board``."""
    return any(all(board[i] == mark for i in line) for line in LINES)


def outcome(board: str) -> str | None:
    """``win`` (X has a line), ``loss`` (O has one), ``draw`` (full), else ``None``."""
    if line_of(board, "X"):
        return "win"
    if line_of(board, "O"):
        return "loss"
    return "draw" if "." not in board else None


def marks(board: str) -> list[dict[str, Any]]:
    """The legal actions on ``board``: ``mark`` each empty cell, in cell order."""
    return [{"type": "mark", "cell": i} for i, c in enumerate(board) if c == "."]


class TicTacToe:
    """The game (see the module docstring): ``key`` signs tokens, ``salt`` varies the
    house's draws."""

    slug = SLUG
    spec = SPEC

    def __init__(self, salt: str, key: bytes) -> None:
        self.salt, self.key = salt, key
        self.row = {
            "slug": SLUG,
            "name": "Tic-Tac-Toe",
            "genre": "board",
            "description": "Three in a row against the house.",
            "goal": SPEC["goal"],
            "players": 1,
            "carry": "both",
            "difficulty": "easy",
        }

    def _sign(self, body: bytes) -> str:
        return hmac.new(self.key, body, hashlib.sha256).hexdigest()

    def token(self, state: dict[str, Any]) -> str:
        """The signed token of ``state``."""
        body = base64.urlsafe_b64encode(json.dumps(state, sort_keys=True).encode()).decode()
        return f"ttt1.{body}.{self._sign(body.encode())}"

    def read_token(self, token: object) -> dict[str, Any]:
        """The state inside a token this server signed.

        Raises:
            BadRequest: not a token of ours, or changed.
        """
        parts = token.split(".") if isinstance(token, str) else []
        if len(parts) != 3 or parts[0] != "ttt1":
            raise BadRequest("stateToken: not a token of this game")
        if not hmac.compare_digest(parts[2], self._sign(parts[1].encode())):
            raise BadRequest("stateToken: the signature does not match (changed?)")
        try:
            state: dict[str, Any] = json.loads(base64.urlsafe_b64decode(parts[1]))
        except (ValueError, binascii.Error):
            raise BadRequest("stateToken: unreadable") from None
        return state

    @staticmethod
    def check(state: Any) -> dict[str, Any]:
        """A plain state sent back, if it is consistent.

        Raises:
            BadRequest: the board, counts or result do not hold together.
        """
        if not isinstance(state, dict):
            raise BadRequest("state: send the object the server gave")
        board, seed = state.get("board"), state.get("seed")
        if not isinstance(board, str) or len(board) != 9 or set(board) - set("XO."):
            raise BadRequest("state.board: nine cells of X, O or .")
        if type(seed) is not int:
            raise BadRequest("state.seed: an integer")
        result = outcome(board)
        x_count = board.count("O") + (1 if result in ("win", "draw") else 0)  # X moves first
        if board.count("X") != x_count or (line_of(board, "X") and line_of(board, "O")):
            raise BadRequest("state.board: not a position of this game")
        if state.get("result") != result:
            raise BadRequest("state.result: not what the board shows")
        return {"board": board, "seed": seed, "result": result}

    def house(self, board: str, seed: int) -> int:
        """The house's cell on ``board`` (not over, O to move)."""
        free = [i for i, c in enumerate(board) if c == "."]
        for mark in ("O", "X"):  # win if it can, else block
            for cell in free:
                if line_of(board[:cell] + mark + board[cell + 1 :], mark):
                    return cell
        if 4 in free:
            return 4
        return draws(self.salt, SLUG, seed, board).choice(free)

    def _answer(self, state: dict[str, Any]) -> dict[str, Any]:
        board, result = state["board"], state["result"]
        legal = [] if result else marks(board)
        score = {"win": 1, "loss": -1}.get(result, 0)
        observation = {"rows": [board[0:3], board[3:6], board[6:9]], "you": "X", "result": result}
        carry = {"state": {**state, "variant": "classic"}, "stateToken": self.token(state)}
        return envelope(carry, observation, legal, score, result is not None)

    def init(self, seed: int) -> dict[str, Any]:
        """The opening answer: an empty board, you to move."""
        return self._answer({"board": "." * 9, "seed": seed, "result": None})

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """Your mark, then the house's."""
        if "stateToken" in body:
            state = self.check(self.read_token(body["stateToken"]))
        else:
            state = self.check(body.get("state"))
        board = state["board"]
        moves = [] if state["result"] else marks(board)
        action = as_action(body.get("action"), moves)
        if state["result"]:
            raise Illegal("the game is over", [])
        cell = action.get("cell")
        if type(cell) is not int or action not in moves:
            raise Illegal("mark an empty cell, 0 to 8", moves)
        board = board[:cell] + "X" + board[cell + 1 :]
        if outcome(board) is None:
            reply = self.house(board, state["seed"])
            board = board[:reply] + "O" + board[reply + 1 :]
        return self._answer({**state, "board": board, "result": outcome(board)})
