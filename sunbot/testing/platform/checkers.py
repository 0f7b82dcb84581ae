"""``checkers``: 8x8 draughts against G-Bot (rule page: Checkers).

An opponent game, fully observable. ``state`` is ``{board, sinceCapture, moves, result,
lastBotMove}``: ``board`` eight strings of eight characters, row 0 at the top (``r`` your
man, ``R`` your king, ``b`` G-Bot's man, ``B`` its king, ``.`` empty); ``sinceCapture`` the
half-moves (both sides) since the last capture; ``moves`` your moves so far; ``result``
``null``, ``win``, ``loss`` or ``draw``; ``lastBotMove`` G-Bot's last reply (``null``
before it). The observation shows all of it plus the piece counts. You are red, move
first and move up the board (toward row 0); G-Bot answers in the same request, so every
answer is your turn or the end. Score: a win 100 plus your pieces left, a draw 25, a loss
or a game in play 0; the page gives no ordering, so the spec has no ``scoreOrder``.

G-Bot (:func:`bot_move`) searches :data:`DEPTH` plies (the page's depth 6; a server option)
with alpha-beta on material (man 100, king 160) and a small bonus for men's advance,
trying moves in a fixed order (squares in reading order, then up-left, up-right,
down-left, down-right); of equal values it keeps the first, so its reply is a function of
the position and the depth (the seed has no effect).

Local choices the page leaves open: the dark squares are those whose row plus column is
odd (so each side's bottom-left corner is dark); a man that reaches the far row during a
jump chain is crowned and the move ends there (American rules); of two chains with the
same start and landing square the first found is the one played; legal moves are listed
by start square, then landing square, in reading order.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sunbot.testing.platform.common import (
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_int,
    as_list,
    as_obj,
    as_str,
    need,
    one_of,
)

SLUG = "checkers"
N = 8
DEPTH = 6
DRAW_AFTER = 80
PIECES = ".rRbB"
#: Diagonal steps in the order moves are tried: up-left, up-right, down-left, down-right.
STEPS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
MAN, KING, WIN = 100, 160, 100_000
_OWN = {"r": "rR", "b": "bB"}
#: The dark squares, where every piece stands, in reading order.
DARK = tuple(sq for sq in range(N * N) if (sq // N + sq % N) % 2 == 1)
_CELL = {
    "type": "object",
    "properties": {
        "row": {"type": "integer", "minimum": 0, "maximum": 7},
        "col": {"type": "integer", "minimum": 0, "maximum": 7},
    },
    "required": ["row", "col"],
}
SPEC: dict[str, Any] = {
    "goal": "Play 8x8 checkers against G-Bot as red, moving first. Win by taking all of "
    "G-Bot's pieces or leaving it without a legal move.",
    "scoring": "A win scores 100 plus the number of your pieces still on the board (at "
    "most 112), a draw 25, a loss or an unfinished game 0.",
    "rules": [
        "Pieces stand and move on the dark squares, diagonally. Rows count from 0 at the "
        "top: your men move up (toward row 0), G-Bot's men down (toward row 7).",
        "A man steps one square diagonally forward; a king steps, and jumps, both forward "
        "and backward.",
        "Jumping is compulsory: while some piece of yours can jump, a step is refused. A "
        "chain of jumps "
        "is one move: give its start as from and its last landing square as to.",
        "A man that reaches the far row becomes a king (a jump chain ends there).",
        "G-Bot replies at once with a depth-6 minimax move, so every answer is your turn "
        "or the end of the game.",
        "You lose with no pieces or no legal move; G-Bot likewise. 80 half-moves (40 per "
        "side) without a capture end the game in a draw.",
        "Board: row strings, r/R your man/king, b/B G-Bot's man/king, . empty.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {"type": {"const": "move"}, "from": _CELL, "to": _CELL},
        "required": ["type", "from", "to"],
    },
}


class Move(NamedTuple):
    """One move: start and landing square (``row * 8 + col``) and the squares it jumps."""

    start: int
    end: int
    taken: tuple[int, ...]


def _own(piece: str, side: str) -> bool:
    return piece.lower() == side


def _steps(piece: str) -> tuple[tuple[int, int], ...]:
    if piece.isupper():
        return STEPS
    return STEPS[:2] if piece == "r" else STEPS[2:]


def _crowns(piece: str, square: int) -> bool:
    return (piece == "r" and square < N) or (piece == "b" and square >= N * (N - 1))


def _jumps(board: list[str], start: int, side: str) -> list[Move]:
    """Every whole jump chain of the piece on ``start`` (deepest first found first)."""
    piece = board[start]
    foe = "b" if side == "r" else "r"
    out: list[Move] = []

    def grow(at: int, taken: tuple[int, ...]) -> None:
        r, c = divmod(at, N)
        further = False
        for dr, dc in _steps(piece):
            mr, mc, lr, lc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
            if not (0 <= lr < N and 0 <= lc < N):
                continue
            mid, land = mr * N + mc, lr * N + lc
            if board[mid].lower() != foe or mid in taken:
                continue
            if board[land] != "." and land != start:
                continue
            further = True
            if _crowns(piece, land):
                out.append(Move(start, land, (*taken, mid)))
            else:
                grow(land, (*taken, mid))
        if not further and taken:
            out.append(Move(start, at, taken))

    grow(start, ())
    return out


def moves_of(board: list[str], side: str) -> list[Move]:
    """The legal moves of ``side`` (``r`` or ``b``): its jump chains when it has any (one
    per start and landing square), else its steps; by start square, then landing square."""
    own = _OWN[side]
    mine = [sq for sq in DARK if board[sq] in own]
    jumps: dict[tuple[int, int], Move] = {}
    for sq in mine:
        for m in _jumps(board, sq, side):
            jumps.setdefault((m.start, m.end), m)
    if jumps:
        return [jumps[k] for k in sorted(jumps)]
    steps = []
    for sq in mine:
        r, c = divmod(sq, N)
        for dr, dc in _steps(board[sq]):
            if 0 <= r + dr < N and 0 <= c + dc < N and board[(r + dr) * N + c + dc] == ".":
                steps.append(Move(sq, (r + dr) * N + c + dc, ()))
    return sorted(steps, key=lambda m: (m.start, m.end))


def can_move(board: list[str], side: str) -> bool:
    """Whether ``side`` has a legal move (what :func:`moves_of` would list, found early)."""
    own, foe = _OWN[side], _OWN["b" if side == "r" else "r"]
    for sq in DARK:
        piece = board[sq]
        if piece not in own:
            continue
        r, c = divmod(sq, N)
        for dr, dc in _steps(piece):
            if not (0 <= r + dr < N and 0 <= c + dc < N):
                continue
            near = board[(r + dr) * N + c + dc]
            if near == ".":
                return True
            lr, lc = r + 2 * dr, c + 2 * dc
            if near in foe and 0 <= lr < N and 0 <= lc < N and board[lr * N + lc] == ".":
                return True
    return False


def play(board: list[str], move: Move) -> list[str]:
    """``board`` after ``move`` (a new list): the piece moves, jumped pieces go, a man on
    the far row is crowned."""
    out = board[:]
    piece = out[move.start]
    out[move.start] = "."
    for sq in move.taken:
        out[sq] = "."
    out[move.end] = piece.upper() if _crowns(piece, move.end) else piece
    return out


def evaluate(board: list[str], side: str) -> int:
    """Material and men's advance, from ``side``'s point of view."""
    total = 0
    for sq, piece in enumerate(board):
        if piece == ".":
            continue
        row = sq // N
        value = KING if piece.isupper() else MAN + 2 * (7 - row if piece == "r" else row)
        total += value if piece.lower() == side else -value
    return total


def _search(board: list[str], side: str, depth: int, alpha: int, beta: int, quiet: int) -> int:
    if depth == 0:  # a leaf only needs to know whether a move exists
        if not can_move(board, side):
            return -WIN
        return 0 if quiet >= DRAW_AFTER else evaluate(board, side)
    moves = moves_of(board, side)
    if not moves:
        return -WIN - depth  # losing later is better than losing now
    if quiet >= DRAW_AFTER:
        return 0
    foe = "b" if side == "r" else "r"
    best = -WIN * 2
    for m in moves:
        value = -_search(play(board, m), foe, depth - 1, -beta, -alpha, 0 if m.taken else quiet + 1)
        if value > best:
            best = value
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def bot_move(board: list[str], depth: int, quiet: int = 0) -> Move | None:
    """G-Bot's reply on ``board`` (black to move; ``quiet``: half-moves since a capture):
    the first best move of a ``depth``-ply alpha-beta search, ``None`` without a move."""
    moves = moves_of(board, "b")
    best, best_value, alpha = None, -WIN * 3, -WIN * 3
    for m in moves:
        value = -_search(
            play(board, m), "r", depth - 1, -WIN * 3, -alpha, 0 if m.taken else quiet + 1
        )
        if value > best_value:
            best, best_value = m, value
        alpha = max(alpha, value)
    return best


def _cell(sq: int) -> dict[str, int]:
    return {"row": sq // N, "col": sq % N}


def _rows(board: list[str]) -> list[str]:
    return ["".join(board[r * N : (r + 1) * N]) for r in range(N)]


def opening() -> list[str]:
    """The starting board: G-Bot's men on the dark squares of rows 0-2, yours on 5-7."""
    board = []
    for sq in range(N * N):
        r, c = divmod(sq, N)
        dark = (r + c) % 2 == 1
        board.append("b" if dark and r < 3 else "r" if dark and r > 4 else ".")
    return board


def _ended(board: list[str], mover_next: str, quiet: int) -> str | None:
    """The result when ``mover_next`` is to move: it lost without a move; a draw after
    :data:`DRAW_AFTER` quiet half-moves; else ``None``."""
    if not moves_of(board, mover_next):
        return "win" if mover_next == "b" else "loss"
    return "draw" if quiet >= DRAW_AFTER else None


class Checkers(PlatformGame):
    """The game (see the module docstring); ``depth``: G-Bot's plies."""

    slug = SLUG
    name = "Checkers"
    genre = "board"
    description = "Checkers against G-Bot: take all its pieces to win."
    goal = SPEC["goal"]
    spec = SPEC
    seeded = False

    def __init__(self, salt: str, depth: int = DEPTH) -> None:
        super().__init__(salt)
        self.depth = depth

    def new(self, seed: int) -> State:
        return {
            "board": _rows(opening()),
            "sinceCapture": 0,
            "moves": 0,
            "result": None,
            "lastBotMove": None,
        }

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("board", "sinceCapture", "moves", "result", "lastBotMove"))
        rows = [
            as_str(row, f"board[{r}]", N, PIECES)
            for r, row in enumerate(as_list(s["board"], "board", N))
        ]
        need(all(len(row) == N for row in rows), "board", "eight rows of eight")
        board = [p for row in rows for p in row]
        for sq, p in enumerate(board):
            r, c = divmod(sq, N)
            need(p == "." or (r + c) % 2 == 1, f"board[{r}]", f"a piece on light square {c}")
            need(not _crowns(p, sq), f"board[{r}]", f"a man uncrowned on the far row at {c}")
        for side in "rb":
            need(sum(1 for p in board if p.lower() == side) <= 12, "board", "over 12 pieces")
        quiet = as_int(s["sinceCapture"], 0, DRAW_AFTER, "sinceCapture")
        result = one_of(s["result"], (None, "win", "loss", "draw"), "result")
        if result is None:
            need(
                _ended(board, "r", quiet) is None and any(p in "bB" for p in board),
                "result",
                "the game is over on this board",
            )
        elif result == "win":
            need(not moves_of(board, "b"), "result", "G-Bot can still move")
        elif result == "loss":
            need(not moves_of(board, "r"), "result", "you can still move")
        else:
            need(quiet >= DRAW_AFTER, "result", f"a draw comes after {DRAW_AFTER} quiet moves")
        last = s["lastBotMove"]
        if last is not None:
            got = as_obj(last, "lastBotMove", ("from", "to"))
            last = {
                end: {
                    k: as_int(
                        as_obj(got[end], f"lastBotMove.{end}", ("row", "col"))[k],
                        0,
                        N - 1,
                        f"lastBotMove.{end}.{k}",
                    )
                    for k in ("row", "col")
                }
                for end in ("from", "to")
            }
        return {
            "board": rows,
            "sinceCapture": quiet,
            "result": result,
            "lastBotMove": last,
            "moves": as_int(s["moves"], 0, 10**6, "moves"),
        }

    def legal(self, s: State) -> list[Action]:
        board = [p for row in s["board"] for p in row]
        return [
            {"type": "move", "from": _cell(m.start), "to": _cell(m.end)}
            for m in moves_of(board, "r")
        ]

    def apply(self, s: State, action: Action) -> State:
        board = [p for row in s["board"] for p in row]
        start = int(action["from"]["row"]) * N + int(action["from"]["col"])
        end = int(action["to"]["row"]) * N + int(action["to"]["col"])
        mine = moves_of(board, "r")
        move = next((m for m in mine if (m.start, m.end) == (start, end)), None)
        if move is None:
            raise IllegalAction(self._why(board, start, end, mine))
        board = play(board, move)
        quiet = 0 if move.taken else s["sinceCapture"] + 1
        out = {**s, "moves": s["moves"] + 1}
        result = _ended(board, "b", quiet)
        if result is None:
            reply = bot_move(board, self.depth, quiet)
            assert reply is not None  # _ended saw a move
            board = play(board, reply)
            quiet = 0 if reply.taken else quiet + 1
            out["lastBotMove"] = {"from": _cell(reply.start), "to": _cell(reply.end)}
            result = _ended(board, "r", quiet)
        return {**out, "board": _rows(board), "sinceCapture": quiet, "result": result}

    @staticmethod
    def _why(board: list[str], start: int, end: int, mine: list[Move]) -> str:
        (r, c), (r2, c2) = divmod(start, N), divmod(end, N)
        if not _own(board[start], "r"):
            return f"no red piece of yours on ({r},{c})"
        if mine and mine[0].taken:
            jumps = ", ".join(
                f"({m.start // N},{m.start % N})->({m.end // N},{m.end % N})" for m in mine
            )
            return f"a jump is compulsory; jumps: {jumps}"
        return f"the piece on ({r},{c}) cannot move to ({r2},{c2})"

    def observe(self, s: State) -> dict[str, Any]:
        flat = "".join(s["board"])
        return {
            **s,
            "you": "red",
            "yourPieces": sum(1 for p in flat if p in "rR"),
            "botPieces": sum(1 for p in flat if p in "bB"),
            "phase": "over" if s["result"] else "your-turn",
        }

    def score(self, s: State) -> int:
        if s["result"] == "win":
            return 100 + sum(1 for row in s["board"] for p in row if p in "rR")
        return 25 if s["result"] == "draw" else 0

    def over(self, s: State) -> bool:
        return s["result"] is not None
