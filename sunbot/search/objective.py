"""What a search maximises: the objective of a run (``--objective``).

A served score may count up ("higher is better") or down ("fewer slides is better"), and a
result (won, lost) may matter more than any score. :func:`resolve` reads the direction from
the served ``spec`` where it says so: a ``scoreOrder`` (``ascending``: lower is better,
``descending``: higher is better) or a ``lowerIsBetter``/``higherIsBetter`` flag, else the
words of its ``scoring`` text ("lower is better", "fewer ... is better", "minimise",
"higher is better"...). ``--objective`` takes over where the spec says nothing (and over
the spec where the user says otherwise); with neither, higher is better, and the run
records that the objective was assumed. :meth:`Objective.value` turns a position into the
one number search compares, higher always better.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

Direction = Literal["max", "min"]
#: What ``--objective`` accepts: the score's direction, or ``win``: a won end first (then
#: the score in the spec's direction).
OBJECTIVES = ("max", "min", "win")
#: How much a won (lost) end is worth above (below) any score, with ``win``.
OUTCOME_WEIGHT = 1e9
#: How much an unfinished position is worth below any finished one when lower is better (a
#: puzzle that counts moves is not solved by stopping).
PENDING = 1e6

_MIN_WORDS = re.compile(
    r"\b(?:lower|fewer|less|smaller)\b[^.;]{0,40}?\bbetter\b|\bascending\b|\bminimi[sz]e",
    re.IGNORECASE,
)
_MAX_WORDS = re.compile(
    r"\b(?:higher|more|greater|larger|bigger)\b[^.;]{0,40}?\bbetter\b|\bdescending\b"
    r"|\bmaximi[sz]e",
    re.IGNORECASE,
)
_ORDER_KEYS = ("scoreOrder", "scoreDirection", "order")
_WIN = ("win", "won", "victory", "solved", "success", "complete", "completed")
_LOSS = ("loss", "lost", "lose", "defeat", "failed", "dead")
_DRAW = ("draw", "tie", "stalemate")


@dataclass(frozen=True)
class Objective:
    """The objective of a run.

    Attributes:
        direction: ``max`` (higher scores are better) or ``min``.
        win_first: a won end beats any score and a lost end loses to any (``win``).
        source: ``spec``, ``option`` or ``default`` (assumed: nothing said).
        said: one line saying what was read and from where.
    """

    direction: Direction
    win_first: bool
    source: str
    said: str

    @property
    def name(self) -> str:
        """``max``, ``min``, ``win+max`` or ``win+min``."""
        return f"win+{self.direction}" if self.win_first else self.direction

    def value(self, score: float, over: bool, observation: Any = None) -> float:
        """The value of a position, higher better: the score (negated when lower is
        better; an unfinished position then :data:`PENDING` below any finished one), plus
        or minus :data:`OUTCOME_WEIGHT` for a won or lost end under ``win``."""
        v = float(score) if self.direction == "max" else -float(score)
        if self.direction == "min" and not over:
            v -= PENDING
        if self.win_first and over:
            result = outcome(observation)
            if result is not None:
                v += result * OUTCOME_WEIGHT
        return v

    def estimate(self, estimate: float) -> float:
        """The value of a model's estimate of the final score (:mod:`sunbot.forward`)."""
        return float(estimate) if self.direction == "max" else -float(estimate)

    def to_json(self) -> dict[str, Any]:
        """``{objective, source, said}`` as a run records it."""
        return {"objective": self.name, "source": self.source, "said": self.said}


def spec_direction(spec: Any) -> tuple[Direction | None, str]:
    """The direction ``spec`` gives, and the words it was read from (``None``: it does
    not say, or says both)."""
    if not isinstance(spec, dict):
        return None, ""
    for key in _ORDER_KEYS:
        value = spec.get(key)
        if isinstance(value, str):
            v = value.strip().lower()
            if v in ("ascending", "asc", "lower", "min", "minimize", "minimise"):
                return "min", f"spec.{key} {value!r}"
            if v in ("descending", "desc", "higher", "max", "maximize", "maximise"):
                return "max", f"spec.{key} {value!r}"
    for key, direction in (("lowerIsBetter", "min"), ("higherIsBetter", "max")):
        if spec.get(key) is True:
            return direction, f"spec.{key}"  # type: ignore[return-value]
    scoring = spec.get("scoring")
    text = scoring if isinstance(scoring, str) else json.dumps(scoring) if scoring else ""
    low, high = _MIN_WORDS.search(text), _MAX_WORDS.search(text)
    if low and not high:
        return "min", f"spec.scoring {low.group(0)!r}"
    if high and not low:
        return "max", f"spec.scoring {high.group(0)!r}"
    return None, ""


def resolve(spec: Any, option: str | None = None, *, known: str | None = None) -> Objective:
    """The objective of a run from the served ``spec`` and ``--objective`` (module doc).
    ``known``: a game whose rules sunbot knows (Keelhold, Sunloaf: a higher score is better
    by their rule texts), read when the spec says nothing.

    Raises:
        ValueError: ``option`` is not one of :data:`OBJECTIVES`.
    """
    if option is not None and option not in OBJECTIVES:
        raise ValueError(f"objective {option!r}: one of {', '.join(OBJECTIVES)}")
    read, where = spec_direction(spec)
    said_by = "spec"
    if read is None and known is not None:
        read, where, said_by = "max", f"the rules of {known}: a higher score is better", "rules"
    if option in ("max", "min"):
        against = f"; the spec says {read} ({where})" if read and read != option else ""
        return Objective(option, False, "option", f"{option} (--objective{against})")  # type: ignore[arg-type]
    direction: Direction = read or "max"
    source = said_by if read else ("option" if option else "default")
    said = f"{direction} ({where})" if read else f"{direction} (assumed: the spec does not say)"
    if option == "win":
        return Objective(direction, True, "option", f"a won end first, then {said}")
    return Objective(direction, False, source, said)


def outcome(observation: Any) -> int | None:
    """A finished game's result from its observation: ``1`` won, ``0`` drawn, ``-1`` lost,
    ``None`` when it does not say (a ``result``, ``outcome``, ``status``, ``phase`` or
    ``winner`` word such as ``win``/``loss``/``draw``/``solved``; a ``won``/``lost``/
    ``solved`` flag)."""
    if not isinstance(observation, dict):
        return None
    for key in ("won", "solved", "victory"):
        if observation.get(key) is True:
            return 1
    for key in ("lost", "failed"):
        if observation.get(key) is True:
            return -1
    for key in ("result", "outcome", "status", "phase", "winner"):
        word = observation.get(key)
        if not isinstance(word, str):
            continue
        w = word.strip().lower()
        if w in _WIN or w in ("you", "player"):
            return 1
        if w in _LOSS or w in ("house", "bot", "opponent"):
            return -1
        if w in _DRAW:
            return 0
    return None


__all__ = [
    "OBJECTIVES",
    "OUTCOME_WEIGHT",
    "PENDING",
    "Objective",
    "outcome",
    "resolve",
    "spec_direction",
]
