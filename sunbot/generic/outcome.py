"""How a run of a game sunbot has no engine for ended, read from what the server served.

:func:`outcome_line` reads only what any game may publish, never a game's own rules: the
served spec's score direction (:func:`sunbot.search.objective.spec_direction`, the one
reader: a ``scoreOrder`` of ``descending`` or ``ascending``, a ``lowerIsBetter`` flag, the
words of its ``scoring``), and, at the top level of the final observation and then of the
final state, a ``won`` or ``win`` that is ``true``/``false``, or a ``result``, ``outcome``,
``status`` or ``phase`` whose text is a word of :data:`WORDS` (``win``, ``lost``, ``draw``,
``solved``, ``gave-up`` ...). A value it does not recognise is not guessed at: the line
then gives the score and its direction only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from sunbot.search.objective import spec_direction

__all__ = ["WORDS", "outcome_line", "read_result", "score_order"]

#: Fields read for a true/false outcome, in order.
FLAGS = ("won", "win")
#: Fields read for an outcome word, in order.
FIELDS = ("result", "outcome", "status", "phase")
#: Words (lower case, ``_``/space read as ``-``) and what they say.
WORDS: dict[str, str] = {
    **dict.fromkeys(("win", "won", "victory", "success", "succeeded"), "won"),
    **dict.fromkeys(("loss", "lost", "lose", "defeat", "failed", "failure"), "lost"),
    **dict.fromkeys(("draw", "drawn", "tie", "tied", "stalemate"), "drawn"),
    **dict.fromkeys(("solved", "complete", "completed", "cleared", "finished"), "solved"),
    **dict.fromkeys(("gave-up", "give-up", "given-up", "resigned", "forfeit"), "gave up"),
}
_SAYS = {"max": "higher is better", "min": "lower is better"}


def score_order(spec: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """``("higher is better" | "lower is better", where)`` as the served spec says
    (:func:`~sunbot.search.objective.spec_direction`, e.g. ``"spec.scoreOrder 'ascending'"``);
    ``None`` when it says neither, or both."""
    direction, where = spec_direction(dict(spec) if isinstance(spec, Mapping) else None)
    return (_SAYS[direction], where) if direction else None


def read_result(*positions: Any) -> tuple[str, str] | None:
    """``(said, where)``: the outcome the first position (observation, then state) tells,
    e.g. ``("won", "won: true")`` or ``("drawn", 'result: "draw"')``; ``None`` when none
    of :data:`FLAGS` and :data:`FIELDS` holds a value read here."""
    for pos in positions:
        if not isinstance(pos, Mapping):
            continue
        for name in FLAGS:
            value = pos.get(name)
            if isinstance(value, bool):
                return ("won" if value else "not won"), f"{name}: {str(value).lower()}"
        for name in FIELDS:
            value = pos.get(name)
            if isinstance(value, str):
                said = WORDS.get(value.strip().lower().replace("_", "-").replace(" ", "-"))
                if said is not None:
                    return said, f'{name}: "{value[:40]}"'
    return None


def _score(score: Any) -> str:
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        return str(score)
    return f"{score:,}" if isinstance(score, int) or score == int(score) else f"{score:,.2f}"


def outcome_line(
    spec: Mapping[str, Any] | None,
    observation: Any,
    state: Any,
    score: Any,
    game_over: bool,
) -> str:
    """One line saying how the run ended, from the served spec and the final position
    (module docstring): ``won (the final position's won: true); score 2,048, higher is
    better (spec.scoreOrder 'descending')``."""
    order = score_order(spec)
    said = (
        f"score {_score(score)}, {order[0]} ({order[1]})"
        if order
        else f"score {_score(score)} (the served spec does not say whether higher or lower"
        " is better)"
    )
    if not game_over:
        return f"not over (the run was stopped first); {said}"
    found = read_result(observation, state)
    if found is None:
        return f"over; {said}"
    word, where = found
    return f"{word} (the final position's {where}); {said}"
