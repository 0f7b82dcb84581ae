"""``memory-match``: find the eight pairs of a face-down 4x4 grid (rule page: Memory Match).

Hidden information. ``state`` is ``{layout, matched, shown, moves}``: ``layout`` is the
whole shuffled grid (sixteen symbols, index 0 at the top left, reading order), which the
player must not see; ``matched`` sixteen flags; ``shown`` the indexes turned up and not
matched (at most two). The observation shows only what is face up: ``cards`` (a symbol or
``null`` per index), ``matched``, ``faceUp`` (the state's ``shown``), ``movesUsed`` (the
state's ``moves``), ``pairsFound`` and ``phase`` (``first``, ``second``, ``resolve``,
``won``). The state is plain and not signed: a changed layout only changes the sender's
own game, so the server checks that it is a layout of this game (eight symbols, two of
each) and that the flags agree with it. Score: moves (a move is the second flip of a
pair), lower is better.

Local choices: the eight symbols are words (``anchor`` ... ``star``); flips are listed by
index; the layout is a seeded shuffle.
"""

from __future__ import annotations

from typing import Any

from sunbot.testing.platform.common import (
    Action,
    IllegalAction,
    PlatformGame,
    State,
    as_bool,
    as_int,
    as_list,
    as_obj,
    draws,
    field_int,
    need,
    one_of,
)

SLUG = "memory-match"
CARDS = 16
SYMBOLS = ("anchor", "bell", "crown", "drum", "feather", "key", "moon", "star")
SPEC: dict[str, Any] = {
    "goal": "Clear a 4x4 grid of sixteen face-down cards, eight pairs, by turning cards "
    "two at a time and finding every pair.",
    "scoring": "Moves used: a move is counted on the second card of a pair. Lower is "
    "better; eight moves is the best possible.",
    "scoreOrder": "ascending",
    "rules": [
        "Cards are indexed 0 to 15 in reading order from the top left. Where each symbol "
        "lies is hidden and shuffled from the seed.",
        "Flip a face-down card to see it, then flip a second one: that is one move.",
        "Two equal symbols stay face up for good (matched).",
        "Two different symbols stay face up until you send {type:'resolve'}, the only "
        "legal action then, which turns both face down again. Remember them.",
        "Flipping a matched or face-up card, flipping while a resolve is due, or anything "
        "after the last pair is refused with the reason.",
        "You win when all eight pairs are matched. No time limit, no way to lose.",
    ],
    "actionGrammar": {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "flip"},
                    "index": {"type": "integer", "minimum": 0, "maximum": 15},
                },
                "required": ["type", "index"],
            },
            {
                "type": "object",
                "properties": {"type": {"const": "resolve"}},
                "required": ["type"],
            },
        ]
    },
}


def phase(s: State) -> str:
    """``won``, ``resolve`` (a mismatch is showing), ``second`` or ``first``."""
    if all(s["matched"]):
        return "won"
    return ("first", "second", "resolve")[len(s["shown"])]


class MemoryMatch(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Memory Match"
    genre = "puzzle"
    description = "Turn cards two at a time and match every pair in as few moves as you can."
    goal = SPEC["goal"]
    spec = SPEC
    hidden = ("layout",)

    def new(self, seed: int) -> State:
        layout = [s for s in SYMBOLS for _ in range(2)]
        draws(self.salt, SLUG, seed).shuffle(layout)
        return {"layout": layout, "matched": [False] * CARDS, "shown": [], "moves": 0}

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("layout", "matched", "shown", "moves"))
        layout = [
            one_of(v, SYMBOLS, f"layout[{i}]")
            for i, v in enumerate(as_list(s["layout"], "layout", CARDS))
        ]
        need(all(layout.count(sym) == 2 for sym in SYMBOLS), "layout", "each symbol twice")
        matched = [
            as_bool(v, f"matched[{i}]")
            for i, v in enumerate(as_list(s["matched"], "matched", CARDS))
        ]
        for i in range(CARDS):
            twin = next(j for j in range(CARDS) if j != i and layout[j] == layout[i])
            need(matched[i] == matched[twin], f"matched[{i}]", "a card matched without its twin")
        shown = [
            as_int(v, 0, CARDS - 1, f"shown[{i}]")
            for i, v in enumerate(as_list(s["shown"], "shown", max_size=2))
        ]
        need(
            len(set(shown)) == len(shown) and not any(matched[i] for i in shown),
            "shown",
            "distinct cards that are not matched",
        )
        if len(shown) == 2:
            need(layout[shown[0]] != layout[shown[1]], "shown", "a pair left unmatched")
        moves = as_int(s["moves"], 0, 10**6, "moves")
        need(moves >= matched.count(True) // 2, "moves", "fewer than the pairs found")
        return {"layout": layout, "matched": matched, "shown": shown, "moves": moves}

    def legal(self, s: State) -> list[Action]:
        now = phase(s)
        if now == "resolve":
            return [{"type": "resolve"}]
        if now == "won":
            return []
        return [
            {"type": "flip", "index": i}
            for i in range(CARDS)
            if not s["matched"][i] and i not in s["shown"]
        ]

    def apply(self, s: State, action: Action) -> State:
        now = phase(s)
        if action["type"] == "resolve":
            if now != "resolve":
                raise IllegalAction("nothing to resolve: flip a face-down card")
            return {**s, "shown": []}
        index = field_int(action, "index")
        if now == "resolve":
            a, b = s["shown"]
            raise IllegalAction(
                f"cards {a} and {b} do not match and are still showing: "
                "send {type:'resolve'} first"
            )
        if s["matched"][index]:
            raise IllegalAction(f"card {index} is already matched: flip a face-down card")
        if index in s["shown"]:
            raise IllegalAction(f"card {index} is already face up: flip another card")
        if now == "first":
            return {**s, "shown": [index]}
        first = s["shown"][0]
        moves = s["moves"] + 1
        if s["layout"][first] == s["layout"][index]:
            matched = [m or i in (first, index) for i, m in enumerate(s["matched"])]
            return {**s, "matched": matched, "shown": [], "moves": moves}
        return {**s, "shown": [first, index], "moves": moves}

    def observe(self, s: State) -> dict[str, Any]:
        up = [s["matched"][i] or i in s["shown"] for i in range(CARDS)]
        cards = [s["layout"][i] if up[i] else None for i in range(CARDS)]
        return {
            "cards": cards,
            "grid": [" ".join(c or "?" for c in cards[r * 4 : r * 4 + 4]) for r in range(4)],
            "matched": s["matched"],
            "faceUp": s["shown"],
            "movesUsed": s["moves"],
            "pairsFound": s["matched"].count(True) // 2,
            "phase": phase(s),
        }

    def score(self, s: State) -> int:
        return int(s["moves"])

    def over(self, s: State) -> bool:
        return all(s["matched"])
