"""Memory-match, word-guess and solitaire: the rules, and what each state carries that
its observation must not show."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from sunbot.testing.platform import create_platform_app
from sunbot.testing.platform.solitaire import DECK, RANKS, SUITS
from sunbot.testing.platform.word_guess import feedback
from sunbot.testing.platform.words import WORDS
from sunbot.testing.unseen.common import BadRequest
from tests.testing.platform.helpers import at, game, http, refusal, step

# --- memory-match ------------------------------------------------------------------------


def flip(i: int) -> dict[str, Any]:
    return {"type": "flip", "index": i}


def pairs(layout: list[str]) -> list[tuple[int, int]]:
    """The index pairs of a layout, by first index."""
    return sorted({tuple(i for i, s in enumerate(layout) if s == sym) for sym in layout})


def test_memory_match_opens_face_down_and_hides_the_layout():
    answer = game("memory-match").init(7)
    layout = answer["state"]["layout"]
    assert sorted(layout) == sorted(["anchor", "bell", "crown", "drum", "feather", "key",
                                     "moon", "star"] * 2)  # fmt: skip
    obs = answer["observation"]
    assert obs["cards"] == [None] * 16 and obs["phase"] == "first" and obs["movesUsed"] == 0
    assert not any(sym in json.dumps(obs) for sym in set(layout))
    assert answer["legalActions"] == [flip(i) for i in range(16)]


def test_a_pair_stays_up_and_a_mismatch_must_be_resolved():
    answer = game("memory-match").init(7)
    layout = answer["state"]["layout"]
    (a, b), (c, d) = pairs(layout)[:2]
    one = step("memory-match", answer, flip(a))
    assert one["observation"]["cards"][a] == layout[a] and one["observation"]["phase"] == "second"
    assert (
        refusal("memory-match", one, flip(a)).reason
        == f"card {a} is already face up: flip another card"
    )
    assert one["score"] == 0 and flip(a) not in one["legalActions"]
    matched = step("memory-match", one, flip(b))
    assert matched["observation"]["matched"][a] and matched["observation"]["matched"][b]
    assert (matched["score"], matched["observation"]["pairsFound"]) == (1, 1)
    assert (
        refusal("memory-match", matched, flip(b)).reason
        == f"card {b} is already matched: flip a face-down card"
    )
    both = step("memory-match", step("memory-match", matched, flip(c)), flip(d))
    assert both["observation"]["phase"] == "first" and both["score"] == 2  # c and d match
    miss = step("memory-match", step("memory-match", matched, flip(c)), flip(pairs(layout)[2][0]))
    assert miss["observation"]["phase"] == "resolve" and miss["legalActions"] == [
        {"type": "resolve"}
    ]
    assert miss["observation"]["faceUp"] == [c, pairs(layout)[2][0]] and miss["score"] == 2
    assert refusal("memory-match", miss, flip(d)).reason.startswith(f"cards {c} and ")
    back = step("memory-match", miss, {"type": "resolve"})
    assert back["observation"]["cards"][c] is None and back["observation"]["faceUp"] == []
    assert refusal("memory-match", back, {"type": "resolve"}).reason == (
        "nothing to resolve: flip a face-down card")  # fmt: skip


def test_perfect_memory_clears_the_grid_in_eight_moves():
    answer = game("memory-match").init(3)
    for a, b in pairs(answer["state"]["layout"]):
        answer = step("memory-match", step("memory-match", answer, flip(a)), flip(b))
    assert (answer["score"], answer["gameOver"], answer["legalActions"]) == (8, True, [])
    assert answer["observation"]["phase"] == "won" and None not in answer["observation"]["cards"]


def test_memory_match_refuses_a_layout_that_is_not_eight_pairs():
    state = game("memory-match").init(1)["state"]
    with pytest.raises(BadRequest, match="each symbol twice"):
        at("memory-match", {**state, "layout": ["bell", *state["layout"][1:]]
                            if state["layout"][0] != "bell" else ["key", *state["layout"][1:]]})  # fmt: skip
    with pytest.raises(BadRequest, match="without its twin"):
        at("memory-match", {**state, "matched": [True] + [False] * 15})


# --- word-guess --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guess", "answer", "marks"),
    [
        ("CRANE", "CRANE", "CCCCC"),
        ("SPEED", "ABIDE", "AAPAP"),  # one E in the answer: the first E is present, not both
        ("EERIE", "THERE", "PAPAC"),  # the exact E is marked first
        ("LLAMA", "HELLO", "PPAAA"),
        ("ALLOT", "HELLO", "APCPA"),
    ],
)
def test_feedback_marks_exact_letters_first_then_presents_left_to_right(guess, answer, marks):
    names = {"C": "correct", "P": "present", "A": "absent"}
    assert feedback(guess, answer) == [names[m] for m in marks]


def secret(answer: dict[str, Any]) -> str:
    """The answer inside a token (the server's own reading)."""
    word: str = game("word-guess").receive({"stateToken": answer["stateToken"]})["answer"]
    return word


def test_a_first_guess_solve_scores_six_and_shows_the_answer():
    answer = game("word-guess").init(7)
    word = secret(answer)
    assert word.lower() in WORDS and "answer" not in answer["observation"]
    won = step("word-guess", answer, {"type": "guess", "word": word.lower()})
    assert won["observation"]["guesses"] == [{"word": word, "feedback": ["correct"] * 5}]
    assert (won["score"], won["gameOver"], won["observation"]["status"]) == (6, True, "won")
    assert won["observation"]["answer"] == word and won["legalActions"] == []


def test_six_misses_lose_for_zero_and_a_non_word_costs_nothing():
    answer = game("word-guess").init(7)
    word = secret(answer)
    refused = refusal("word-guess", answer, {"type": "guess", "word": "qzxvw"})
    assert refused.reason.startswith("QZXVW is not in the dictionary") and refused.legal
    assert "minLength" not in refusal("word-guess", answer, {"type": "guess", "word": "abc"}
                                      ).reason  # fmt: skip
    misses = [w for w in WORDS if w != word.lower()][:6]
    for i, miss in enumerate(misses):
        assert answer["observation"]["guessesUsed"] == i and answer["score"] == 0
        answer = step("word-guess", answer, {"type": "guess", "word": miss.upper()})
    assert (answer["score"], answer["gameOver"], answer["observation"]["status"]) == (
        0,
        True,
        "lost",
    )
    assert answer["observation"]["answer"] == word and answer["observation"]["guessesLeft"] == 0


def test_the_token_hides_the_answer_and_the_menu_is_empty_as_on_the_live_game():
    live = create_platform_app(key=b"k" * 32).state.games["word-guess"]
    answer = live.init(7)
    assert answer["legalActions"] == [] and "state" not in answer
    word = secret(answer)
    token = answer["stateToken"]
    raw = base64.urlsafe_b64decode(token[4:])
    assert word not in token and word.encode() not in raw and word.lower().encode() not in raw
    assert len(game("word-guess").init(7)["legalActions"]) == len(WORDS)  # the option's menu
    after = live.act({"stateToken": token, "action": {"type": "guess", "word": "crane"}})
    assert after["legalActions"] == [] and after["observation"]["guessesUsed"] == 1
    other_key = create_platform_app(key=b"x" * 32).state.games["word-guess"]
    with pytest.raises(BadRequest, match="not a token of this game"):
        other_key.act({"stateToken": token, "action": {"type": "guess", "word": "crane"}})


# --- solitaire ---------------------------------------------------------------------------


def solitaire(tableau: list[tuple[list[str], list[str]]], homes: dict[str, int],
              waste: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
    """A sealed state: the given columns, foundations and waste, the rest in the stock."""
    waste = waste or []
    home = [r + k for k in SUITS for r in RANKS[: homes.get(k, 0)]]
    used = set(home + waste + [c for down, up in tableau for c in down + up])
    cols = tableau + [([], [])] * (7 - len(tableau))
    state = {"stock": [c for c in DECK if c not in used], "waste": waste,
             "tableau": [{"down": d, "up": u} for d, u in cols],
             "foundations": {k: homes.get(k, 0) for k in SUITS}, "moves": 0, "gaveUp": False}  # fmt: skip
    return at("solitaire", game("solitaire").sealed(state))


def test_solitaire_deals_seven_columns_and_lists_its_one_build():
    answer = game("solitaire").init(7)
    obs = answer["observation"]
    assert [c["faceDown"] for c in obs["tableau"]] == [0, 1, 2, 3, 4, 5, 6]
    assert [c["faceUp"] for c in obs["tableau"]] == [["3H"], ["5D"], ["QD"], ["QH"], ["TS"],
                                                     ["9C"], ["9D"]]  # fmt: skip
    assert (obs["stockCount"], obs["wasteTop"], answer["score"]) == (24, None, 0)
    # 9D (red) on TS (black) is the only build; no ace is out
    assert answer["legalActions"] == [
        {"type": "tableau_to_tableau", "from": 6, "to": 4, "index": 6},
        {"type": "draw"}, {"type": "give_up"}]  # fmt: skip
    after = step("solitaire", answer, answer["legalActions"][0])
    tab = after["observation"]["tableau"]
    assert tab[4]["faceUp"] == ["TS", "9D"] and tab[6]["faceDown"] == 5  # a card turned up
    assert len(tab[6]["faceUp"]) == 1


def test_solitaire_refusals_teach():
    answer = game("solitaire").init(7)
    assert refusal("solitaire", answer, {"type": "waste_to_foundation"}).reason == (
        "the waste is empty: nothing to move home")  # fmt: skip
    assert refusal("solitaire", answer, {"type": "tableau_to_tableau", "from": 6, "to": 0,
                                         "index": 0}).reason == (
        "the card at index 0 of column 6 is face down; its face-up cards start at index 6")  # fmt: skip
    assert refusal("solitaire", answer, {"type": "tableau_to_foundation", "column": 1}).reason == (
        "5D cannot go home yet: the D foundation needs AD next")  # fmt: skip
    assert refusal("solitaire", answer, {"type": "tableau_to_tableau", "from": 0, "to": 4,
                                         "index": 0}).reason == (
        "3H cannot go onto TS in column 4: build down one rank in the other colour")  # fmt: skip
    assert (
        refusal(
            "solitaire", answer, {"type": "tableau_to_tableau", "from": 0, "to": 0, "index": 0}
        ).reason
        == "from and to are the same column"
    )


def test_drawing_through_the_stock_then_turning_the_waste_over():
    answer = game("solitaire").init(7)
    for _ in range(24):
        answer = step("solitaire", answer, {"type": "draw"})
    obs = answer["observation"]
    assert obs["stockCount"] == 0 and obs["wasteCount"] + obs["cardsHome"] == 24
    turned = step("solitaire", answer, {"type": "draw"})
    assert turned["observation"]["stockCount"] == obs["wasteCount"]
    assert turned["observation"]["wasteCount"] == 0 and turned["observation"]["wasteTop"] is None
    first = step("solitaire", turned, {"type": "draw"})  # the first card drawn comes again
    assert first["observation"]["wasteTop"] == answer["state"]["waste"][0]


def test_an_exposed_ace_goes_home_and_the_last_king_wins():
    answer = solitaire([(["AS"], ["5H"]), ([], ["6C"])], {})
    assert answer["observation"]["tableau"][0] == {"faceDown": 1, "faceUp": ["5H"]}
    after = step("solitaire", answer, {"type": "tableau_to_tableau", "from": 0, "to": 1,
                                        "index": 1})  # fmt: skip
    assert after["observation"]["foundations"]["S"] == "AS" and after["score"] == 1
    assert after["observation"]["tableau"][0] == {"faceDown": 0, "faceUp": []}
    last = solitaire([([], ["KS"])], {"S": 12, "H": 13, "D": 13, "C": 13})
    won = step("solitaire", last, {"type": "tableau_to_foundation", "column": 0})
    assert (won["score"], won["gameOver"], won["observation"]["phase"]) == (52, True, "won")
    gave = step("solitaire", last, {"type": "give_up"})
    assert (gave["score"], gave["gameOver"], gave["observation"]["phase"]) == (51, True, "gave-up")


def test_the_solitaire_observation_hides_the_stock_and_the_face_down_cards():
    answer = game("solitaire").init(11)
    state, shown = answer["state"], json.dumps(answer["observation"])
    hidden = state["stock"] + [c for col in state["tableau"] for c in col["down"]]
    assert len(hidden) == 45 - answer["score"] and not any(f'"{card}"' in shown for card in hidden)
    changed = {**state, "stock": state["stock"][::-1]}
    got = http(
        "POST", "/api/games/solitaire/action", {"state": changed, "action": {"type": "draw"}}
    )
    assert got.status_code == 400 and "seal" in got.json()["reason"]
