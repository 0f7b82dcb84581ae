"""``word-search``: find eight words hidden in a 10x10 letter grid (rule page: Word Search).

Fully observable. ``state`` is ``{grid, words, found}``: ``grid`` ten strings of ten
letters, ``words`` the eight words to find, ``found`` the selections that found one
(``{word, fromRow, fromCol, toRow, toCol}``); the observation shows the same, the words
still to find, the count found and ``phase`` (``playing``, ``complete``). Score: words
found (0-8), higher is better. The page's human game runs a countdown; the agent game has
none.

Since every selection that finds nothing is refused, ``legalActions`` lists exactly the
selections that find a word still to find: both ends of every line of the grid that reads
one of them, in either direction (a word hidden twice by chance is listed at both
places). Local choices: the words are drawn from our own list of landscape words (3 to 8
letters, none the reverse of another), placed in a seeded order, direction and place
(overlaps only on equal letters), the other cells seeded letters; the legal selections are
listed by word, then start cell, then end cell. A carried grid must be ten rows of ten
capital letters, the words eight distinct words of the list, each found one read at its
selection.
"""

from __future__ import annotations

from typing import Any

from sunbot.testing.platform.common import (
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_int,
    as_list,
    as_obj,
    as_str,
    draws,
    field_int,
    need,
    one_of,
)

SLUG = "word-search"
N, COUNT = 10, 8
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The words a grid hides eight of.
POOL: tuple[str, ...] = (
    "BAY",
    "BROOK",
    "CANYON",
    "CAVE",
    "CLIFF",
    "COVE",
    "CRATER",
    "DELTA",
    "DESERT",
    "DUNE",
    "FJORD",
    "FOREST",
    "GEYSER",
    "GLACIER",
    "GROVE",
    "HARBOR",
    "HILL",
    "ISLAND",
    "JUNGLE",
    "KELP",
    "LAGOON",
    "LAKE",
    "MARSH",
    "MEADOW",
    "MESA",
    "OASIS",
    "ORCHARD",
    "PEAK",
    "PEBBLE",
    "PRAIRIE",
    "QUARRY",
    "REEF",
    "RIDGE",
    "RIVER",
    "SHORE",
    "SPRING",
    "STREAM",
    "SUMMIT",
    "SWAMP",
    "THICKET",
    "TIDE",
    "TUNDRA",
    "VALLEY",
    "VOLCANO",
    "WAVE",
)
#: The eight line directions (row step, column step).
LINES = ((0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1))
_AT = {"type": "integer", "minimum": 0, "maximum": 9}
SPEC: dict[str, Any] = {
    "goal": "Find every hidden word in a 10x10 grid of letters. The eight words are listed; "
    "each runs along a straight line, across, down or at 45 degrees, in either direction.",
    "scoring": "The number of words found, 0 to 8. Higher is better. There is no clock.",
    "scoreOrder": "descending",
    "rules": [
        "The grid and the word list are both shown: nothing is hidden.",
        "Claim a word with {type:'select'} and the first and last cells of its line "
        "(fromRow, fromCol, toRow, toCol); rows and columns count from 0 at the top left.",
        "The line must be across, down, or at 45 degrees; any other slope is refused.",
        "The letters on the line, read either way, are matched against the words not yet "
        "found; a match finds that word. A line that matches none is refused and ends "
        "nothing.",
        "You win when every word is found. No way to lose.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "select"},
            "fromRow": _AT,
            "fromCol": _AT,
            "toRow": _AT,
            "toCol": _AT,
        },
        "required": ["type", "fromRow", "fromCol", "toRow", "toCol"],
    },
}


def line_cells(r0: int, c0: int, r1: int, c1: int) -> list[tuple[int, int]] | None:
    """The cells from (r0, c0) to (r1, c1) when they lie on one straight line across, down
    or at 45 degrees, else ``None``."""
    dr, dc = r1 - r0, c1 - c0
    if dr and dc and abs(dr) != abs(dc):
        return None
    steps = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(r0 + sr * k, c0 + sc * k) for k in range(steps + 1)]


def _read(grid: list[str], cells: list[tuple[int, int]]) -> str:
    return "".join(grid[r][c] for r, c in cells)


def _select(word: str, r0: int, c0: int, r1: int, c1: int) -> dict[str, Any]:
    return {"type": "select", "fromRow": r0, "fromCol": c0, "toRow": r1, "toCol": c1}


def hide(rng_words: list[str], rng: Any) -> list[str]:
    """A grid with ``rng_words`` placed (see the module docstring), or ``[]`` when a word
    found no place."""
    cells: dict[tuple[int, int], str] = {}
    for word in sorted(rng_words, key=len, reverse=True):
        for _ in range(300):
            dr, dc = LINES[rng.randrange(len(LINES))]
            r, c = rng.randrange(N), rng.randrange(N)
            spots = [(r + dr * k, c + dc * k) for k in range(len(word))]
            if all(
                0 <= a < N and 0 <= b < N and cells.get((a, b), ch) == ch
                for (a, b), ch in zip(spots, word, strict=True)
            ):
                cells.update(zip(spots, word, strict=True))
                break
        else:
            return []
    return [
        "".join(cells.get((r, c)) or LETTERS[rng.randrange(26)] for c in range(N)) for r in range(N)
    ]


class WordSearch(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Word Search"
    genre = "word"
    description = "Find the hidden words in the letter grid."
    goal = SPEC["goal"]
    spec = SPEC

    def new(self, seed: int) -> State:
        rng = draws(self.salt, SLUG, seed)
        while True:
            words = rng.sample(POOL, COUNT)
            grid = hide(words, rng)
            if grid:
                return {"grid": grid, "words": words, "found": []}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("grid", "words", "found"))
        grid = [
            as_str(row, f"grid[{r}]", N, LETTERS)
            for r, row in enumerate(as_list(s["grid"], "grid", N))
        ]
        need(all(len(row) == N for row in grid), "grid", "ten rows of ten letters")
        words = [
            one_of(w, POOL, f"words[{i}]")
            for i, w in enumerate(as_list(s["words"], "words", COUNT))
        ]
        need(len(set(words)) == COUNT, "words", "eight different words")
        found = []
        for i, item in enumerate(as_list(s["found"], "found", max_size=COUNT)):
            where = f"found[{i}]"
            got = as_obj(item, where, ("word", "fromRow", "fromCol", "toRow", "toCol"))
            ends = [
                as_int(got[k], 0, N - 1, f"{where}.{k}")
                for k in ("fromRow", "fromCol", "toRow", "toCol")
            ]
            word = one_of(got["word"], words, f"{where}.word")
            cells = line_cells(*ends)
            need(
                cells is not None and word in (_read(grid, cells), _read(grid, cells)[::-1]),
                where,
                "the grid does not read that word there",
            )
            found.append({"word": word, **_select(word, *ends)})
            found[-1].pop("type")
        need(len({f["word"] for f in found}) == len(found), "found", "a word found twice")
        return {"grid": grid, "words": words, "found": found}

    def _matches(self, s: State, text: str) -> str | None:
        done = {f["word"] for f in s["found"]}
        for candidate in (text, text[::-1]):
            for word in s["words"]:
                if word == candidate and word not in done:
                    return str(word)
        return None

    def legal(self, s: State) -> list[Action]:
        done = {f["word"] for f in s["found"]}
        out: list[Action] = []
        for word in s["words"]:
            if word in done:
                continue
            ends = set()
            for r in range(N):
                for c in range(N):
                    for dr, dc in LINES:
                        r1, c1 = r + dr * (len(word) - 1), c + dc * (len(word) - 1)
                        if 0 <= r1 < N and 0 <= c1 < N:
                            cells = line_cells(r, c, r1, c1)
                            assert cells is not None
                            text = _read(s["grid"], cells)
                            if word in (text, text[::-1]) and self._matches(s, text) == word:
                                ends.add((r, c, r1, c1))
            out += [_select(word, *e) for e in sorted(ends)]
        return out

    def apply(self, s: State, action: Action) -> State:
        ends = [field_int(action, k) for k in ("fromRow", "fromCol", "toRow", "toCol")]
        cells = line_cells(*ends)
        if cells is None:
            raise IllegalAction("the cells are not on one line across, down or at 45 degrees")
        text = _read(s["grid"], cells)
        word = self._matches(s, text)
        if word is None:
            raise IllegalAction(
                f"{text} (or {text[::-1]}) is none of the words still to find; nothing changed"
            )
        found = {
            "word": word,
            "fromRow": ends[0],
            "fromCol": ends[1],
            "toRow": ends[2],
            "toCol": ends[3],
        }
        return {**s, "found": [*s["found"], found]}

    def observe(self, s: State) -> dict[str, Any]:
        done = {f["word"] for f in s["found"]}
        return {
            **s,
            "remaining": [w for w in s["words"] if w not in done],
            "foundCount": len(done),
            "phase": "complete" if self.over(s) else "playing",
        }

    def score(self, s: State) -> int:
        return len(s["found"])

    def over(self, s: State) -> bool:
        return len(s["found"]) == COUNT
