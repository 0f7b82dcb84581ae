"""``dice-dash``: eight rounds of five dice, each scored into one of eight categories
(rule page: Dice Dash).

A chance game whose draws are a function of the seed and a roll counter. ``state`` is
``{seed, rolls, round, rollInRound, dice, held, scores, perfect}``: ``rolls`` counts every
roll of the game and picks the next dice with the seed (with the server's salt), so a
client that sends a state forward learns the next roll, which a player cannot;
``rollInRound`` is 1-3, ``scores`` maps each category to its points or ``null`` while
open, ``perfect`` lists the categories scored on their round's first roll. The
observation shows the round, ``rollNumber`` (the state's ``rollInRound``), the rolls left,
dice, holds, ``phase`` (``rolling``, ``choosing`` after the third roll, ``over``), the
categories, what each open category would score now (``preview``), the bonuses and the
total, but neither ``seed`` nor ``rolls``. Score: the total so far, higher is better (at
most 270).

The page was cut off in its rules, after "There is no hidden information" (it has none a
player could not see; the roll counter is the generator's cursor). Local choices: the
categories are named ``ones``, ``threes``, ``fives``, ``threeOfAKind``, ``fourOfAKind``,
``fullHouse``, ``straight``, ``allMatch``; a full house is three of one face and two of
another (five equal dice are not one); rolling with every die held is a legal roll that
changes nothing; the perfect-round bonus counts any category scored on a first roll,
zero scores included (the page's words); legal actions are listed roll, the five hold
toggles, then the open categories in the order above.
"""

from __future__ import annotations

from collections import Counter
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

SLUG = "dice-dash"
DICE, ROUNDS, ROLLS = 5, 8, 3
CATEGORIES = (
    "ones",
    "threes",
    "fives",
    "threeOfAKind",
    "fourOfAKind",
    "fullHouse",
    "straight",
    "allMatch",
)
NUMBER_BONUS, NUMBER_BAR, PERFECT = 20, 30, 5
SPEC: dict[str, Any] = {
    "goal": "Score as many points as you can in 8 rounds of five dice. A round rolls the "
    "dice, lets you roll again up to twice (holding the dice you keep), then puts the dice "
    "into one of 8 categories; each category is used exactly once.",
    "scoring": "Higher is better, at most 270: the sum of the categories plus two bonuses. "
    "Ones, Threes, Fives: the dice showing that face, added up. Three of a Kind, Four of "
    "a Kind: the total of the five dice if 3 (or 4) or more share a face, else 0. "
    "Full House 25 (three of one face and two of another), Straight 30 (four or more "
    "faces in a row), All Match 50 (all five equal). Number bonus: +20 once Ones, Threes "
    "and Fives reach 30 together. Perfect round: +5 for each category scored on its "
    "round's first roll. Any category may take a 0.",
    "scoreOrder": "descending",
    "rules": [
        "Each round starts with an automatic roll (roll 1).",
        "Before roll 3, toggleHold (dieIndex 0-4) keeps or releases a die, and roll "
        "rolls again every die not held; toggling costs no roll.",
        "score puts the current dice into an open category at any time and starts the "
        "next round; holds are released each round.",
        "After roll 3 you must score (phase choosing): rolling or toggling then is refused.",
        "Scoring a filled category is refused too; legalActions holds every move you may "
        "make and no other.",
        "The dice follow from the seed and the rolls made, so a seed replays the same game.",
        "Categories: ones, threes, fives, threeOfAKind, fourOfAKind, fullHouse, straight, "
        "allMatch.",
    ],
    "actionGrammar": {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "toggleHold"},
                    "dieIndex": {"type": "integer", "minimum": 0, "maximum": 4},
                },
                "required": ["type", "dieIndex"],
            },
            {
                "type": "object",
                "properties": {"type": {"const": "roll"}},
                "required": ["type"],
            },
            {
                "type": "object",
                "properties": {
                    "type": {"const": "score"},
                    "category": {"enum": list(CATEGORIES)},
                },
                "required": ["type", "category"],
            },
        ]
    },
}


def points(category: str, dice: list[int]) -> int:
    """What ``dice`` score in ``category`` (see the spec's scoring)."""
    counts = Counter(dice)
    most = max(counts.values())
    faces = set(dice)
    if category in ("ones", "threes", "fives"):
        face = {"ones": 1, "threes": 3, "fives": 5}[category]
        return face * counts[face]
    if category == "threeOfAKind":
        return sum(dice) if most >= 3 else 0
    if category == "fourOfAKind":
        return sum(dice) if most >= 4 else 0
    if category == "fullHouse":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if category == "straight":
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(run <= faces for run in runs) else 0
    return 50 if most == DICE else 0


def total(s: State) -> int:
    """The categories' sum, the number bonus and the perfect rounds' bonus."""
    filled: dict[str, int] = {k: v for k, v in s["scores"].items() if v is not None}
    numbers = sum(filled.get(k, 0) for k in ("ones", "threes", "fives"))
    bonus = NUMBER_BONUS if numbers >= NUMBER_BAR else 0
    return sum(filled.values()) + bonus + PERFECT * len(s["perfect"])


class DiceDash(PlatformGame):
    """The game (see the module docstring)."""

    slug = SLUG
    name = "Dice Dash"
    genre = "dice"
    description = "Roll, hold and score: fill all eight categories for the best total."
    goal = SPEC["goal"]
    spec = SPEC
    hidden = ("seed", "rolls")

    def _roll(self, s: State) -> None:
        """Roll every die not held, in place, and move the roll counter on."""
        rng = draws(self.salt, SLUG, s["seed"], s["rolls"])
        s["dice"] = [
            d if h else rng.randint(1, 6) for d, h in zip(s["dice"], s["held"], strict=True)
        ]
        s["rolls"] += 1

    def new(self, seed: int) -> State:
        s: State = {
            "seed": seed,
            "rolls": 0,
            "round": 1,
            "rollInRound": 1,
            "dice": [1] * DICE,
            "held": [False] * DICE,
            "scores": dict.fromkeys(CATEGORIES),
            "perfect": [],
        }
        self._roll(s)
        return s

    def read(self, state: Any) -> State:
        keys = ("seed", "rolls", "round", "rollInRound", "dice", "held", "scores", "perfect")
        raw = as_obj(state, "", keys)
        scores_in = as_obj(raw["scores"], "scores", CATEGORIES)
        scores = {
            k: None if scores_in[k] is None else as_int(scores_in[k], 0, 50, f"scores.{k}")
            for k in CATEGORIES
        }
        filled = [k for k in CATEGORIES if scores[k] is not None]
        perfect = [
            one_of(k, CATEGORIES, f"perfect[{i}]")
            for i, k in enumerate(as_list(raw["perfect"], "perfect", max_size=8))
        ]
        need(
            len(set(perfect)) == len(perfect) and set(perfect) <= set(filled),
            "perfect",
            "categories scored, once each",
        )
        s: State = {
            "seed": as_int(raw["seed"], -(2**63), 2**63 - 1, "seed"),
            "rolls": as_int(raw["rolls"], 1, ROUNDS * ROLLS, "rolls"),
            "round": as_int(raw["round"], 1, ROUNDS, "round"),
            "rollInRound": as_int(raw["rollInRound"], 1, ROLLS, "rollInRound"),
            "dice": [
                as_int(d, 1, 6, f"dice[{i}]")
                for i, d in enumerate(as_list(raw["dice"], "dice", DICE))
            ],
            "held": [
                as_bool(h, f"held[{i}]") for i, h in enumerate(as_list(raw["held"], "held", DICE))
            ],
            "scores": scores,
            "perfect": perfect,
        }
        done = len(filled) == ROUNDS
        need(
            len(filled) == (s["round"] if done else s["round"] - 1),
            "round",
            "not the number of categories filled",
        )
        need(
            s["rolls"] >= len(filled) + (0 if done else s["rollInRound"]),
            "rolls",
            "fewer than the rounds played need",
        )
        return s

    def legal(self, s: State) -> list[Action]:
        out: list[Action] = []
        if s["rollInRound"] < ROLLS:
            out.append({"type": "roll"})
            out += [{"type": "toggleHold", "dieIndex": i} for i in range(DICE)]
        out += [{"type": "score", "category": k} for k in CATEGORIES if s["scores"][k] is None]
        return out

    def apply(self, s: State, action: Action) -> State:
        nxt: State = {
            **s,
            "dice": s["dice"][:],
            "held": s["held"][:],
            "scores": dict(s["scores"]),
            "perfect": s["perfect"][:],
        }
        kind = action["type"]
        if kind in ("roll", "toggleHold") and s["rollInRound"] >= ROLLS:
            raise IllegalAction(
                f"no rolls are left this round, so holds cannot change either: "
                f"score a category ({self._open(s)})"
            )
        if kind == "roll":
            self._roll(nxt)
            nxt["rollInRound"] += 1
        elif kind == "toggleHold":
            i = field_int(action, "dieIndex")
            nxt["held"][i] = not nxt["held"][i]
        else:
            category = action["category"]
            if s["scores"][category] is not None:
                raise IllegalAction(
                    f"{category} is filled already (it scored "
                    f"{s['scores'][category]}); open: {self._open(s)}"
                )
            nxt["scores"][category] = points(category, s["dice"])
            if s["rollInRound"] == 1:
                nxt["perfect"].append(category)
            if nxt["round"] < ROUNDS:
                nxt.update(round=nxt["round"] + 1, rollInRound=1, held=[False] * DICE)
                self._roll(nxt)
        return nxt

    @staticmethod
    def _open(s: State) -> str:
        return ", ".join(k for k in CATEGORIES if s["scores"][k] is None)

    def observe(self, s: State) -> dict[str, Any]:
        over = self.over(s)
        numbers = sum(s["scores"][k] or 0 for k in ("ones", "threes", "fives"))
        return {
            "round": s["round"],
            "rollNumber": s["rollInRound"],
            "rollsLeft": 0 if over else ROLLS - s["rollInRound"],
            "dice": s["dice"],
            "held": s["held"],
            "phase": "over" if over else "choosing" if s["rollInRound"] >= ROLLS else "rolling",
            "categories": s["scores"],
            "preview": {}
            if over
            else {k: points(k, s["dice"]) for k in CATEGORIES if s["scores"][k] is None},
            "numberTotal": numbers,
            "numberBonus": NUMBER_BONUS if numbers >= NUMBER_BAR else 0,
            "perfectRounds": s["perfect"],
            "total": total(s),
        }

    def score(self, s: State) -> int:
        return total(s)

    def over(self, s: State) -> bool:
        return all(v is not None for v in s["scores"].values())
