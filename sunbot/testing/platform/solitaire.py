"""``solitaire``: Klondike, draw one (rule page: Solitaire).

Hidden information, carried in a sealed plain state. ``state`` is ``{stock, waste,
tableau, foundations, moves, gaveUp, seal}``: ``stock`` and ``waste`` whole card lists (the
last card is the top), ``tableau`` seven ``{down, up}`` columns (face-down and face-up
cards, deepest first), ``foundations`` the cards built per suit (0-13), and ``seal`` an
HMAC of the rest under the server's key: the stock's order and the face-down cards are
in the state, so a client could read them, but a changed state is refused (400). The
observation shows only what a player sees: per column the number of face-down cards and
the face-up ones (``faceDown``, ``faceUp``), the stock's size, the waste's top card and
size, the foundations' top cards, the cards home, the moves and ``phase`` (``playing``,
``won``, ``gave-up``). Cards are rank and suit: ``A 2 3 4 5 6 7 8 9 T J Q K`` and ``C D H
S`` (hearts and diamonds are red). Score: cards home, higher is better.

Local choices (the page was cut off in the grammar): the actions ``waste_to_tableau``
and ``tableau_to_foundation`` name a ``column`` (0-6), ``tableau_to_tableau`` names
``from``, ``to`` and ``index``, the position in the source column counted from its deepest
card (face-down cards included), so the moved run is ``index`` to the end; foundations are
kept per suit; the automatic moves (turning up a column's new last card, sending an
exposed ace or two, the waste's top included, home) also run after the deal and after a
draw; recycling the waste is a draw that deals no card; legal actions are listed
waste-to-foundation, tableau-to-foundation, waste-to-tableau, tableau-to-tableau (by
source, index, target), draw, give up.
"""

from __future__ import annotations

import hashlib
import hmac
import json
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
    as_str,
    draws,
    field_int,
    need,
    one_of,
)

SLUG = "solitaire"
RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = tuple(r + s for s in SUITS for r in RANKS)
COLUMNS = 7
_COL = {"type": "integer", "minimum": 0, "maximum": 6}


def _branch(kind: str, **fields: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **fields},
        "required": ["type", *fields],
    }


SPEC: dict[str, Any] = {
    "goal": "Win Klondike, drawing one card at a time: bring all 52 cards to the four "
    "foundations, each built from ace to king in one suit.",
    "scoring": "How many cards are home, 0 to 52. Higher is better; 52 wins.",
    "scoreOrder": "descending",
    "rules": [
        "Seven tableau columns are dealt 1 to 7 cards with only the last card of each face "
        "up; the rest of the deck is the face-down stock, and the waste shows one card.",
        "draw turns the stock's top card onto the waste; with the stock empty it turns the "
        "whole waste back into the stock (as often as you like).",
        "Foundations build up by suit from the ace; tableau columns build down in "
        "alternating colours; only a king may go to an empty column.",
        "Moves: the waste's top card home or onto a column; a column's last card home; or "
        "a column's face-up cards from index to its end onto another column. A move home "
        "finds its foundation by itself.",
        "After each action a column's newly exposed card turns face up, and an exposed ace "
        "or two that fits goes home by itself.",
        "give_up ends the game. Wrong colour or rank, an empty source, a face-down card, or "
        "a draw with no stock and no waste is refused with the reason.",
        "Cards: rank A 2-9 T J Q K, then suit C D H S (hearts and diamonds are red). A "
        "column's index counts from its deepest card, face-down cards included.",
    ],
    "actionGrammar": {
        "oneOf": [
            _branch("draw"),
            _branch("waste_to_foundation"),
            _branch("waste_to_tableau", column=_COL),
            _branch("tableau_to_foundation", column=_COL),
            _branch(
                "tableau_to_tableau",
                **{
                    "from": _COL,
                    "to": _COL,
                    "index": {"type": "integer", "minimum": 0, "maximum": 18},
                },
            ),
            _branch("give_up"),
        ]
    },
}


def rank(card: str) -> int:
    """1 (ace) to 13 (king)."""
    return RANKS.index(card[0]) + 1


def red(card: str) -> bool:
    """Hearts and diamonds."""
    return card[1] in "HD"


def fits(card: str, onto: str | None) -> bool:
    """Whether ``card`` may go onto a column whose last card is ``onto`` (``None``: empty)."""
    if onto is None:
        return rank(card) == 13
    return rank(onto) == rank(card) + 1 and red(onto) != red(card)


def _home(s: State, card: str) -> bool:
    return bool(s["foundations"][card[1]] == rank(card) - 1)


def _settle(s: State) -> None:
    """The automatic moves, in place: turn up exposed cards, send aces and twos home."""
    changed = True
    while changed:
        changed = False
        for col in s["tableau"]:
            if not col["up"] and col["down"]:
                col["up"].append(col["down"].pop())
        sources = [s["waste"], *(col["up"] for col in s["tableau"])]
        for pile in sources:
            if pile and rank(pile[-1]) <= 2 and _home(s, pile[-1]):
                card = pile.pop()
                s["foundations"][card[1]] += 1
                changed = True
                break


def _copy(s: State) -> State:
    return {
        "stock": s["stock"][:],
        "waste": s["waste"][:],
        "tableau": [{"down": c["down"][:], "up": c["up"][:]} for c in s["tableau"]],
        "foundations": dict(s["foundations"]),
        "moves": s["moves"],
        "gaveUp": s["gaveUp"],
    }


class Solitaire(PlatformGame):
    """The game (see the module docstring); ``key`` (32+ bytes) keys the seal."""

    slug = SLUG
    name = "Solitaire"
    genre = "card"
    description = "Klondike solitaire: build four foundations from ace to king."
    goal = SPEC["goal"]
    spec = SPEC
    hidden = ("stock", "waste", "tableau[].down")

    def __init__(self, salt: str, key: bytes) -> None:
        super().__init__(salt)
        self._key = hashlib.sha256(b"solitaire:" + key).digest()

    def _seal(self, s: State) -> str:
        body = json.dumps(
            {k: v for k, v in s.items() if k != "seal"}, sort_keys=True, separators=(",", ":")
        )
        return hmac.new(self._key, body.encode(), hashlib.sha256).hexdigest()

    def sealed(self, s: State) -> State:
        """``s`` with its seal (the server's key signs the rest of it)."""
        return {**s, "seal": self._seal(s)}

    def new(self, seed: int) -> State:
        deck = list(DECK)
        draws(self.salt, SLUG, seed).shuffle(deck)
        tableau = []
        for i in range(COLUMNS):
            tableau.append({"down": deck[:i], "up": [deck[i]]})
            deck = deck[i + 1 :]
        s: State = {
            "stock": deck,
            "waste": [],
            "tableau": tableau,
            "foundations": dict.fromkeys(SUITS, 0),
            "moves": 0,
            "gaveUp": False,
        }
        _settle(s)
        return self.sealed(s)

    def read(self, state: Any) -> State:
        raw = as_obj(
            state, "", ("stock", "waste", "tableau", "foundations", "moves", "gaveUp", "seal")
        )

        def cards(value: Any, where: str) -> list[str]:
            return [
                one_of(c, DECK, f"{where}[{i}]")
                for i, c in enumerate(as_list(value, where, max_size=52))
            ]

        tableau = []
        for i, col in enumerate(as_list(raw["tableau"], "tableau", COLUMNS)):
            got = as_obj(col, f"tableau[{i}]", ("down", "up"))
            tableau.append(
                {
                    "down": cards(got["down"], f"tableau[{i}].down"),
                    "up": cards(got["up"], f"tableau[{i}].up"),
                }
            )
        homes = as_obj(raw["foundations"], "foundations", tuple(SUITS))
        s: State = {
            "stock": cards(raw["stock"], "stock"),
            "waste": cards(raw["waste"], "waste"),
            "tableau": tableau,
            "foundations": {k: as_int(homes[k], 0, 13, f"foundations.{k}") for k in SUITS},
            "moves": as_int(raw["moves"], 0, 10**7, "moves"),
            "gaveUp": as_bool(raw["gaveUp"], "gaveUp"),
        }
        seal = as_str(raw["seal"], "seal", 64)
        need(
            hmac.compare_digest(seal, self._seal(s)),
            "seal",
            "does not match: the state was changed (send it back as it came)",
        )
        home = [r + k for k in SUITS for r in RANKS[: s["foundations"][k]]]
        placed = s["stock"] + s["waste"] + home
        placed += [c for col in tableau for c in col["down"] + col["up"]]
        need(sorted(placed) == sorted(DECK), "", "not the 52 cards once each")
        return {**s, "seal": seal}

    def legal(self, s: State) -> list[Action]:
        out: list[Action] = []
        waste = s["waste"][-1] if s["waste"] else None
        tops = [col["up"][-1] if col["up"] else None for col in s["tableau"]]
        if waste and _home(s, waste):
            out.append({"type": "waste_to_foundation"})
        out += [
            {"type": "tableau_to_foundation", "column": i}
            for i, top in enumerate(tops)
            if top and _home(s, top)
        ]
        if waste:
            out += [
                {"type": "waste_to_tableau", "column": i}
                for i, top in enumerate(tops)
                if fits(waste, top)
            ]
        for i, col in enumerate(s["tableau"]):
            for k, card in enumerate(col["up"]):
                index = len(col["down"]) + k
                out += [
                    {"type": "tableau_to_tableau", "from": i, "to": j, "index": index}
                    for j, top in enumerate(tops)
                    if j != i and fits(card, top)
                ]
        if s["stock"] or s["waste"]:
            out.append({"type": "draw"})
        out.append({"type": "give_up"})
        return out

    def apply(self, s: State, action: Action) -> State:
        kind = action["type"]
        nxt = _copy(s)
        if kind == "give_up":
            nxt["gaveUp"] = True
            nxt["moves"] += 1
            return self.sealed(nxt)
        if kind == "draw":
            if nxt["stock"]:
                nxt["waste"].append(nxt["stock"].pop())
            elif nxt["waste"]:
                nxt["stock"], nxt["waste"] = nxt["waste"][::-1], []
            else:
                raise IllegalAction("the stock and the waste are both empty: nothing to draw")
        elif kind == "waste_to_foundation":
            self._home_from(nxt, nxt["waste"], "the waste")
        elif kind == "tableau_to_foundation":
            column = field_int(action, "column")
            self._home_from(nxt, nxt["tableau"][column]["up"], f"column {column}")
        elif kind == "waste_to_tableau":
            column = field_int(action, "column")
            if not nxt["waste"]:
                raise IllegalAction("the waste is empty: draw first")
            self._onto(nxt, [nxt["waste"][-1]], column)
            nxt["waste"].pop()
        else:
            src, dst, index = (field_int(action, k) for k in ("from", "to", "index"))
            col = nxt["tableau"][src]
            down = len(col["down"])
            if src == dst:
                raise IllegalAction("from and to are the same column")
            if index >= down + len(col["up"]):
                raise IllegalAction(
                    f"column {src} has no card at index {index} (it holds {down + len(col['up'])})"
                )
            if index < down:
                raise IllegalAction(
                    f"the card at index {index} of column {src} is face down; "
                    f"its face-up cards start at index {down}"
                )
            run = col["up"][index - down :]
            self._onto(nxt, run, dst)
            del col["up"][index - down :]
        nxt["moves"] += 1
        _settle(nxt)
        return self.sealed(nxt)

    @staticmethod
    def _home_from(s: State, pile: list[str], name: str) -> None:
        if not pile:
            raise IllegalAction(f"{name} is empty: nothing to move home")
        card = pile[-1]
        if not _home(s, card):
            need_rank = RANKS[s["foundations"][card[1]]] if s["foundations"][card[1]] < 13 else "-"
            raise IllegalAction(
                f"{card} cannot go home yet: the {card[1]} foundation needs "
                f"{need_rank}{card[1]} next"
            )
        pile.pop()
        s["foundations"][card[1]] += 1

    @staticmethod
    def _onto(s: State, run: list[str], column: int) -> None:
        target = s["tableau"][column]["up"]
        top = target[-1] if target else None
        if not fits(run[0], top):
            if top is None:
                why = "only a king may go to an empty column"
            else:
                why = "build down one rank in the other colour"
            raise IllegalAction(
                f"{run[0]} cannot go onto {top or 'empty'} in column {column}: {why}"
            )
        target.extend(run)

    def observe(self, s: State) -> dict[str, Any]:
        home = sum(s["foundations"].values())
        return {
            "tableau": [{"faceDown": len(c["down"]), "faceUp": c["up"]} for c in s["tableau"]],
            "stockCount": len(s["stock"]),
            "wasteTop": s["waste"][-1] if s["waste"] else None,
            "wasteCount": len(s["waste"]),
            "foundations": {
                k: RANKS[n - 1] + k if n else None for k, n in s["foundations"].items()
            },
            "cardsHome": home,
            "moves": s["moves"],
            "phase": "won" if home == 52 else "gave-up" if s["gaveUp"] else "playing",
        }

    def score(self, s: State) -> int:
        return sum(s["foundations"].values())

    def over(self, s: State) -> bool:
        return bool(s["gaveUp"]) or self.score(s) == 52
