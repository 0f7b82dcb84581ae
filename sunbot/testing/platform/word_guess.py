"""``word-guess``: find a hidden five-letter word in six guesses (rule page: Word Guess).

Hidden information, carried in an opaque token: answers carry no ``state``, only a
``stateToken`` (``wg1.`` and the url-safe base64 of the position ``{answer, guesses}``
encrypted with AES-SIV under the server's key), so a client can neither read the answer
nor change it; the encryption is deterministic, so a seed and its guesses replay to the
same token. Send it back as ``{stateToken, action}``. The observation shows the guesses
with their per-letter feedback, the best feedback per letter, the guesses used and left,
``status`` (``playing``, ``won``, ``lost``) and, once the game is over, ``answer``.
Score: 7 minus the guesses used on a win (6 down to 1), 0 on a loss and while playing;
higher is better.

``legalActions`` is empty on purpose while the game goes on, as on the live game (any
dictionary word may be guessed); ``menu=True`` lists every dictionary word instead, for
players that can only pick from a menu. Local choices (the page was cut off in the
grammar): the grammar adds a letters-only pattern; the dictionary is
:data:`~sunbot.testing.platform.words.WORDS`; the answer is a seeded draw from it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESSIV

from sunbot.testing.platform.common import (
    Action,
    BadRequest,
    IllegalAction,
    PlatformGame,
    State,
    as_list,
    as_obj,
    draws,
    need,
    one_of,
)
from sunbot.testing.platform.words import WORDS

SLUG = "word-guess"
LENGTH, MAX_GUESSES = 5, 6
PREFIX = "wg1."
#: The longest token read (a whole game's token is under 200 characters).
MAX_TOKEN = 1_000
RANK = {"absent": 0, "present": 1, "correct": 2}
SPEC: dict[str, Any] = {
    "goal": "Find the hidden five-letter word in at most six guesses. Every guess must be "
    "a dictionary word; each of its letters comes back marked correct, present or absent.",
    "scoring": "A win scores 7 minus the guesses used (6 for a first-guess solve, 1 for a "
    "sixth-guess one); a loss 0. Higher is better; 6 is the most.",
    "scoreOrder": "descending",
    "rules": [
        "Send {type:'guess', word} with a five-letter dictionary word, in any case (it is "
        "read in upper case).",
        "A word that is not five letters or not in the dictionary is refused and costs no guess.",
        "correct: that letter is at that place in the answer; present: in the answer but "
        "elsewhere; absent: not in the answer.",
        "Repeated letters: letters in their exact place get correct before anything else; "
        "after that, each unused copy in the answer lets one more letter be present, taken "
        "from the left.",
        "A fully correct guess wins at once; a sixth guess that is not loses.",
        "The answer stays hidden until the game is over. legalActions is empty on purpose: "
        "guess any valid word (the dictionary holds some 650 common words).",
        "Carry the stateToken forward: {stateToken, action}.",
    ],
    "actionGrammar": {
        "type": "object",
        "properties": {
            "type": {"const": "guess"},
            "word": {
                "type": "string",
                "minLength": 5,
                "maxLength": 5,
                "pattern": "^[A-Za-z]{5}$",
                "description": "A five-letter dictionary word, any case.",
            },
        },
        "required": ["type", "word"],
    },
}


def feedback(guess: str, answer: str) -> list[str]:
    """Per letter of ``guess`` (upper case): ``correct``, ``present`` or ``absent`` against
    ``answer``, repeated letters marked greedily (see the rules)."""
    marks = ["absent"] * LENGTH
    left: dict[str, int] = {}
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            marks[i] = "correct"
        else:
            left[a] = left.get(a, 0) + 1
    for i, g in enumerate(guess):
        if marks[i] != "correct" and left.get(g, 0) > 0:
            marks[i] = "present"
            left[g] -= 1
    return marks


class WordGuess(PlatformGame):
    """The game (see the module docstring); ``key`` (32+ bytes) keys the tokens."""

    slug = SLUG
    name = "Word Guess"
    genre = "word"
    description = "Guess the hidden five-letter word in six tries."
    goal = SPEC["goal"]
    spec = SPEC
    carry = "stateToken"
    hidden = ("answer",)

    def __init__(self, salt: str, key: bytes, *, menu: bool = False) -> None:
        super().__init__(salt)
        self._cipher = AESSIV(hashlib.sha512(b"word-guess:" + key).digest())
        self.menu = menu

    def new(self, seed: int) -> State:
        answer = WORDS[draws(self.salt, SLUG, seed).randrange(len(WORDS))]
        return {"answer": answer.upper(), "guesses": []}

    def issue(self, s: State) -> dict[str, Any]:
        """``{"stateToken": ...}``: the position, encrypted."""
        plain = json.dumps(s, separators=(",", ":")).encode()
        sealed = self._cipher.encrypt(plain, [SLUG.encode()])
        return {"stateToken": PREFIX + base64.urlsafe_b64encode(sealed).decode()}

    def receive(self, body: dict[str, Any]) -> State:
        token = body.get("stateToken")
        if not isinstance(token, str) or not token.startswith(PREFIX) or len(token) > MAX_TOKEN:
            raise BadRequest("send {stateToken, action}: the stateToken of the last answer")
        text = token[len(PREFIX) :]
        try:
            sealed = base64.urlsafe_b64decode(text)
            if base64.urlsafe_b64encode(sealed).decode() != text:  # one spelling per token
                raise ValueError("not canonical base64")
            plain = self._cipher.decrypt(sealed, [SLUG.encode()])
        except (InvalidTag, ValueError, binascii.Error):
            raise BadRequest("stateToken: not a token of this game (changed?)") from None
        return self.read(json.loads(plain))

    def read(self, state: Any) -> State:
        s = as_obj(state, "", ("answer", "guesses"))
        answer = one_of(str(s["answer"]).lower(), WORDS, "answer").upper()
        guesses = [
            one_of(str(g).lower(), WORDS, f"guesses[{i}]").upper()
            for i, g in enumerate(as_list(s["guesses"], "guesses", max_size=6))
        ]
        need(answer not in guesses[:-1], "guesses", "a guess after the answer was found")
        return {"answer": answer, "guesses": guesses}

    def legal(self, s: State) -> list[Action]:
        return [{"type": "guess", "word": w} for w in WORDS] if self.menu else []

    def apply(self, s: State, action: Action) -> State:
        word = str(action["word"]).upper()
        if word.lower() not in WORDS:
            raise IllegalAction(
                f"{word} is not in the dictionary: guess a real five-letter "
                "word (no guess was used)"
            )
        return {**s, "guesses": [*s["guesses"], word]}

    def _status(self, s: State) -> str:
        if s["guesses"] and s["guesses"][-1] == s["answer"]:
            return "won"
        return "lost" if len(s["guesses"]) >= MAX_GUESSES else "playing"

    def observe(self, s: State) -> dict[str, Any]:
        rows = [{"word": g, "feedback": feedback(g, s["answer"])} for g in s["guesses"]]
        letters: dict[str, str] = {}
        for row in rows:
            for letter, mark in zip(row["word"], row["feedback"], strict=True):
                if RANK[mark] >= RANK.get(letters.get(letter, "absent"), 0):
                    letters[letter] = mark
        status = self._status(s)
        out: dict[str, Any] = {
            "guesses": rows,
            "letters": dict(sorted(letters.items())),
            "guessesUsed": len(rows),
            "guessesLeft": MAX_GUESSES - len(rows),
            "maxGuesses": MAX_GUESSES,
            "wordLength": LENGTH,
            "status": status,
        }
        if status != "playing":
            out["answer"] = s["answer"]
        return out

    def score(self, s: State) -> int:
        return MAX_GUESSES + 1 - len(s["guesses"]) if self._status(s) == "won" else 0

    def over(self, s: State) -> bool:
        return self._status(s) != "playing"
