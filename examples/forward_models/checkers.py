"""A forward model of ``checkers`` against G-Bot (the platform's Checkers): 8x8 draughts,
you red moving first up the board (toward row 0), G-Bot black moving down; a win scores 100
plus your pieces left, a draw 25, a loss (or a game in play) 0.

The rules as the page gives them: pieces stand on the dark squares and move one square
diagonally, men forward only, kings both ways; a jump is compulsory and a whole chain of
jumps is one move (its start and its last landing square); a man reaching the far row is
crowned. A side left without pieces or without a move loses; 80 half-moves in a row
without a capture draw the game. G-Bot replies inside the same request with a depth-6
minimax move, so a step here is your move and then G-Bot's.

Where the page is silent, the model follows what the server serves: the dark squares are
those whose row plus column is odd; a man crowned during a chain stops there; of two
chains with the same start and landing square the first found (directions tried up-left,
up-right, down-left, down-right, depth first) is the one played; legal moves are listed by
start square, then landing square, in reading order.

G-Bot's evaluation and its tie-breaking are not on the page: they are **a calibrated guess
of the test server's bot**, checked against ``sunbot certify`` divergences (0 on 20 seeds).
The guess: negamax to 6 plies on material (a man 100 plus 2 a row advanced, a king 160),
a side without a move worth -100000 (less the plies left, at an inner node), a position
after 80 quiet half-moves 0; of the replies of equal value the first in the listed order
is played. Its reply is then a function of the position (and, near the draw, of the quiet
count): the seed has no effect.

Speed: a position is four 64-bit integers (red men, red kings, black men, black kings; bit
``row * 8 + col``). G-Bot's search is alpha-beta with a table of bounds that outlives a
search (positions recur across the sibling lines a search expands), and its replies are
cached by position. Only G-Bot's *choice* must match the server's; inside the search any
move order gives the same values (alpha-beta with fail-soft bounds is exact where it
matters), so the table and the pruning do not change the reply. A reply takes about a fifth
of the server's own search's time (measured side by side on the same positions).

Search: G-Bot being deterministic, a game through this model is a puzzle (find your moves
that win against a fixed reply), which ``search``'s best-first search plans on
:meth:`Checkers.estimate`, the share of the material mapped onto the score.
"""

from __future__ import annotations

from typing import Any

N = 8
DEPTH = 6
DRAW_AFTER = 80
WIN = 100_000
MAN, KING, ADVANCE = 100, 160, 2
#: Offsets of the four diagonal directions, in the order G-Bot tries them: up-left,
#: up-right, down-left, down-right.
DIRS = (-9, -7, 7, 9)
RED_MEN_DIRS, BLACK_MEN_DIRS, KING_DIRS = (0, 1), (2, 3), (0, 1, 2, 3)
DARK = tuple(sq for sq in range(N * N) if (sq // N + sq % N) % 2 == 1)
TOP_ROW = sum(1 << c for c in range(N))
BOTTOM_ROW = TOP_ROW << (N * (N - 1))
FULL = (1 << (N * N)) - 1

Pos = tuple[int, int, int, int]  # red men, red kings, black men, black kings
Move = tuple[int, int, int]  # start square, landing square, squares jumped (a mask)


def _col_mask(ok: Any) -> int:
    return sum(1 << sq for sq in DARK if ok(sq % N))


#: Squares a piece may step (jump) from in each direction without leaving the board's sides.
STEP_FROM = tuple(_col_mask(lambda c, d=d: 0 <= c + (1 if d in (-7, 9) else -1) < N) for d in DIRS)
JUMP_FROM = tuple(_col_mask(lambda c, d=d: 0 <= c + (2 if d in (-7, 9) else -2) < N) for d in DIRS)


def _jump_table() -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    """For each square and direction: (the jumped square's bit, the landing square)."""
    out = []
    for sq in range(N * N):
        r, c = divmod(sq, N)
        row: list[tuple[int, int] | None] = []
        for d in DIRS:
            dr, dc = (-1 if d < 0 else 1), (1 if d in (-7, 9) else -1)
            lr, lc = r + 2 * dr, c + 2 * dc
            ok = 0 <= lr < N and 0 <= lc < N
            row.append((1 << (sq + d), lr * N + lc) if ok else None)
        out.append(tuple(row))
    return tuple(out)


JUMPS = _jump_table()


# -- the rules, for either side ----------------------------------------------------------


SF0, SF1, SF2, SF3 = STEP_FROM
JF0, JF1, JF2, JF3 = JUMP_FROM


def _jumpers(pos: Pos, red: bool) -> int:
    """The side's pieces that can jump (a bitboard)."""
    rm, rk, bm, bk = pos
    empty = FULL ^ (rm | rk | bm | bk)
    if red:
        up, down, foe = rm | rk, rk, bm | bk
    else:
        up, down, foe = bk, bm | bk, rm | rk
    return (
        (up & JF0 & (foe << 9) & (empty << 18))
        | (up & JF1 & (foe << 7) & (empty << 14))
        | (down & JF2 & (foe >> 7) & (empty >> 14))
        | (down & JF3 & (foe >> 9) & (empty >> 18))
    )


def can_move(pos: Pos, red: bool) -> bool:
    """Whether the side (``red``, else black) has a legal move."""
    rm, rk, bm, bk = pos
    empty = FULL ^ (rm | rk | bm | bk)
    up, down = (rm | rk, rk) if red else (bk, bm | bk)
    if (
        (up & SF0 & (empty << 9))
        or (up & SF1 & (empty << 7))
        or (down & SF2 & (empty >> 7))
        or (down & SF3 & (empty >> 9))
    ):
        return True
    return bool(_jumpers(pos, red))


def _chains(
    start: int, king: bool, dirs: tuple[int, ...], foe: int, empty: int, crown: int
) -> list[Move]:
    """The whole jump chains of the piece on ``start``, depth first in :data:`DIRS`'s
    order, one per landing square (the first found)."""
    found: list[Move] = []
    empty |= 1 << start  # the piece has left its square

    def grow(at: int, taken: int) -> None:
        further = False
        row = JUMPS[at]
        for i in dirs:
            t = row[i]
            if t is None:
                continue
            mid, land = t
            if not foe & mid or taken & mid or not empty & (1 << land):
                continue
            further = True
            if not king and crown & (1 << land):
                found.append((start, land, taken | mid))
            else:
                grow(land, taken | mid)
        if not further and taken:
            found.append((start, at, taken))

    grow(start, 0)
    out: list[Move] = []
    ends: set[int] = set()
    for m in found:
        if m[1] not in ends:
            ends.add(m[1])
            out.append(m)
    return out


def moves_of(pos: Pos, red: bool) -> list[Move]:
    """The side's legal moves: its jump chains when it has any, else its steps; by start
    square, then landing square."""
    return sorted(_moves(pos, red), key=lambda m: (m[0], m[1]))


def _moves(pos: Pos, red: bool) -> list[Move]:
    """:func:`moves_of` in no particular order (what a search needs)."""
    rm, rk, bm, bk = pos
    jumpers = _jumpers(pos, red)
    if red:
        up, down, kings, foe, dirs, crown = rm | rk, rk, rk, bm | bk, RED_MEN_DIRS, TOP_ROW
    else:
        up, down, kings, foe, dirs, crown = bk, bm | bk, bk, rm | rk, BLACK_MEN_DIRS, BOTTOM_ROW
    empty = FULL ^ (rm | rk | bm | bk)
    if jumpers:
        jumps: list[Move] = []
        while jumpers:
            low = jumpers & -jumpers
            jumpers ^= low
            sq = low.bit_length() - 1
            king = bool(kings & low)
            jumps.extend(_chains(sq, king, KING_DIRS if king else dirs, foe, empty, crown))
        return jumps
    steps: list[Move] = []
    for targets, d in (
        (((up & SF0) >> 9) & empty, -9),
        (((up & SF1) >> 7) & empty, -7),
        (((down & SF2) << 7) & empty, 7),
        (((down & SF3) << 9) & empty, 9),
    ):
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            steps.append((to - d, to, 0))
    return steps


def play(pos: Pos, move: Move, red: bool) -> Pos:
    """The position after the side's ``move``: the piece moves, the jumped pieces go, a
    man landing on the far row is crowned."""
    start, end, taken = move
    frm, to = 1 << start, 1 << end
    rm, rk, bm, bk = pos
    if red:
        if rk & frm:
            return rm, (rk ^ frm) | to, bm & ~taken, bk & ~taken
        if to & TOP_ROW:
            return rm ^ frm, rk | to, bm & ~taken, bk & ~taken
        return (rm ^ frm) | to, rk, bm & ~taken, bk & ~taken
    if bk & frm:
        return rm & ~taken, rk & ~taken, bm, (bk ^ frm) | to
    if to & BOTTOM_ROW:
        return rm & ~taken, rk & ~taken, bm ^ frm, bk | to
    return rm & ~taken, rk & ~taken, (bm ^ frm) | to, bk


# -- G-Bot --------------------------------------------------------------------------------


def _row_sum(bb: int) -> int:
    """The sum of the rows of ``bb``'s squares (a square on row r counted by r shifts)."""
    return (
        (bb >> 8).bit_count()
        + (bb >> 16).bit_count()
        + (bb >> 24).bit_count()
        + (bb >> 32).bit_count()
        + (bb >> 40).bit_count()
        + (bb >> 48).bit_count()
        + (bb >> 56).bit_count()
    )


def evaluate(pos: Pos, red: bool) -> int:
    """G-Bot's guessed evaluation, from the side's point of view: a man 100 plus 2 a row
    advanced, a king 160."""
    rm, rk, bm, bk = pos
    nrm, nbm = rm.bit_count(), bm.bit_count()
    value = (
        MAN * (nrm - nbm)
        + KING * (rk.bit_count() - bk.bit_count())
        + ADVANCE * (7 * nrm - _row_sum(rm) - _row_sum(bm))
    )
    return value if red else -value


class _Bot:
    """G-Bot's search: negamax with alpha-beta and a table of bounds (and the best move
    found, tried first next time) by position, depth and, near the draw, the quiet count.
    The table holds the nodes two plies or more from the leaves and is emptied at ``limit``
    entries (a game's search holds under 200 MB of memory in all)."""

    def __init__(self, limit: int = 200_000) -> None:
        self.table: dict[tuple[Pos, bool, int, int], tuple[int, int, Move | None]] = {}
        self.replies: dict[tuple[Pos, int], Move | None] = {}
        self.limit = limit

    def search(self, pos: Pos, red: bool, depth: int, alpha: int, beta: int, quiet: int) -> int:
        """The side to move's value of ``pos`` (fail-soft: exact inside the window, a
        bound outside it)."""
        if depth == 0:
            if not can_move(pos, red):
                return -WIN
            return 0 if quiet >= DRAW_AFTER else evaluate(pos, red)
        key = (pos, red, depth, quiet if quiet + depth >= DRAW_AFTER else -1)
        entry = self.table.get(key) if depth > 1 else None  # depth 1: cheaper done again
        first: Move | None = None
        low, high = -3 * WIN, 3 * WIN
        if entry is not None:
            low, high, first = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
        moves = _moves(pos, red)
        best: Move | None = None
        if not moves:
            value = -WIN - depth
        elif quiet >= DRAW_AFTER:
            value = 0
        else:
            if first is not None and moves[0] != first:
                moves.remove(first)
                moves.insert(0, first)
            a, b = max(alpha, low), min(beta, high)
            value = -3 * WIN
            for m in moves:
                q = 0 if m[2] else quiet + 1
                child = play(pos, m, red)
                if depth > 1:
                    v = -self.search(child, not red, depth - 1, -b, -a, q)
                elif not can_move(child, not red):  # the leaves, valued here
                    v = WIN
                else:
                    v = 0 if q >= DRAW_AFTER else evaluate(child, red)
                if v > value:
                    value, best = v, m
                    if v > a:
                        a = v
                        if a >= b:
                            break
        if value <= alpha:
            high = min(high, value)
        elif value >= beta:
            low = max(low, value)
        else:
            low = high = value
        if depth > 1:
            if len(self.table) >= self.limit:
                self.table.clear()
            self.table[key] = (low, high, best or first)
        return value

    def reply(self, pos: Pos, quiet: int) -> Move | None:
        """G-Bot's move (black to move; ``quiet`` half-moves since a capture): the first
        of its moves, in the listed order, of the best value; ``None`` without a move.
        (Each move after the first is searched only for a value above the best so far.)"""
        key = (pos, quiet if quiet + DEPTH >= DRAW_AFTER else -1)
        if key in self.replies:
            return self.replies[key]
        moves = moves_of(pos, False)
        if len(moves) <= 1:  # a forced move needs no search
            return moves[0] if moves else None
        best: Move | None = None
        best_value = -3 * WIN
        for m in moves:
            q = 0 if m[2] else quiet + 1
            v = -self.search(play(pos, m, False), True, DEPTH - 1, -3 * WIN, -best_value, q)
            if v > best_value:
                best, best_value = m, v
        if len(self.replies) >= self.limit:
            self.replies.clear()
        self.replies[key] = best
        return best


# -- the model ----------------------------------------------------------------------------

PIECES = {"r": 0, "R": 1, "b": 2, "B": 3}


def _cell(sq: int) -> dict[str, int]:
    return {"row": sq // N, "col": sq % N}


def _square(cell: dict[str, Any]) -> int:
    return int(cell["row"]) * N + int(cell["col"])


def _rows(pos: Pos) -> list[str]:
    rm, rk, bm, bk = pos
    out = []
    for r in range(N):
        row = ""
        for c in range(N):
            b = 1 << (r * N + c)
            row += "r" if rm & b else "R" if rk & b else "b" if bm & b else "B" if bk & b else "."
        out.append(row)
    return out


def _ended(pos: Pos, red_next: bool, quiet: int) -> str | None:
    """The result when the side ``red_next`` is to move: it lost without a move; a draw
    after :data:`DRAW_AFTER` quiet half-moves; else ``None``."""
    if not can_move(pos, red_next):
        return "loss" if red_next else "win"
    return "draw" if quiet >= DRAW_AFTER else None


class Checkers:
    """A state is ``{pos, quiet, moves, result, bot}``: ``pos`` four bitboards (red men,
    red kings, black men, black kings), ``quiet`` the half-moves since a capture,
    ``moves`` your moves so far, ``result`` ``None``/``win``/``loss``/``draw`` and ``bot``
    G-Bot's last reply as ``(from square, to square)`` (``None`` before it)."""

    game = "checkers"

    def __init__(self) -> None:
        self.bot = _Bot()

    # -- the contract ---------------------------------------------------------------------

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The board, the quiet count, your moves, the result and G-Bot's last move as
        the observation shows them."""
        bbs = [0, 0, 0, 0]
        for r, row in enumerate(observation["board"]):
            for c, piece in enumerate(row):
                if piece in PIECES:
                    bbs[PIECES[piece]] |= 1 << (r * N + c)
        last = observation.get("lastBotMove")
        bot = None if last is None else (_square(last["from"]), _square(last["to"]))
        return {
            "pos": (bbs[0], bbs[1], bbs[2], bbs[3]),
            "quiet": int(observation["sinceCapture"]),
            "moves": int(observation["moves"]),
            "result": observation.get("result"),
            "bot": bot,
        }

    def legal_actions(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """Your moves (none once the game is over)."""
        if s["result"] is not None:
            return []
        return [
            {"type": "move", "from": _cell(m[0]), "to": _cell(m[1])}
            for m in moves_of(s["pos"], True)
        ]

    def step(self, s: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """Your move, then (the game going on) G-Bot's reply.

        Raises:
            ValueError: the move is not one of yours here.
        """
        pos, quiet = s["pos"], s["quiet"]
        start, end = _square(action["from"]), _square(action["to"])
        move = next((m for m in moves_of(pos, True) if (m[0], m[1]) == (start, end)), None)
        if move is None or s["result"] is not None:
            raise ValueError(f"not a legal move here: {start} -> {end}")
        pos = play(pos, move, True)
        quiet = 0 if move[2] else quiet + 1
        out = {"pos": pos, "quiet": quiet, "moves": s["moves"] + 1, "bot": s["bot"]}
        result = _ended(pos, False, quiet)
        if result is None:
            reply = self.bot.reply(pos, quiet)
            assert reply is not None  # _ended saw a move
            pos = play(pos, reply, False)
            quiet = 0 if reply[2] else quiet + 1
            out["bot"] = (reply[0], reply[1])
            result = _ended(pos, True, quiet)
        return {**out, "pos": pos, "quiet": quiet, "result": result}

    def observation(self, s: dict[str, Any]) -> dict[str, Any]:
        """The board rows, the counts, the result and G-Bot's last move."""
        rm, rk, bm, bk = s["pos"]
        bot = s["bot"]
        return {
            "board": _rows(s["pos"]),
            "sinceCapture": s["quiet"],
            "moves": s["moves"],
            "result": s["result"],
            "lastBotMove": None if bot is None else {"from": _cell(bot[0]), "to": _cell(bot[1])},
            "you": "red",
            "yourPieces": (rm | rk).bit_count(),
            "botPieces": (bm | bk).bit_count(),
            "phase": "over" if s["result"] else "your-turn",
        }

    def score(self, s: dict[str, Any]) -> float:
        """A win 100 plus your pieces left, a draw 25, else 0."""
        pos: Pos = s["pos"]
        if s["result"] == "win":
            return 100 + (pos[0] | pos[1]).bit_count()
        return 25 if s["result"] == "draw" else 0

    def is_over(self, s: dict[str, Any]) -> bool:
        """A result is in."""
        return s["result"] is not None

    def key(self, s: dict[str, Any]) -> str:
        """The position and the quiet count (the move counter and G-Bot's last move left
        out)."""
        return f"{s['pos']}{s['quiet']}"

    def estimate(self, s: dict[str, Any]) -> float:
        """A guess of the final score from here, on the score's scale: material (a man
        1, a king 1.5) decides it; even material is about a draw (25), an edge leans
        toward a win (100 and your pieces) as it grows, a deficit toward a loss (0)."""
        pos: Pos = s["pos"]
        rm, rk, bm, bk = pos
        mine = rm.bit_count() + 1.5 * rk.bit_count()
        theirs = bm.bit_count() + 1.5 * bk.bit_count()
        edge = (mine - theirs) / max(mine + theirs, 1.0)
        pieces = (rm | rk).bit_count()
        if edge >= 0:
            return 25 + (75 + pieces) * edge
        return 25 * (1 + edge)
