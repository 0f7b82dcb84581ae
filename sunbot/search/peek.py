"""The peek guard: may search look ahead through a server without seeing the future?

Looking ahead through the server (``--lookahead``) sends it positions and reads what comes
back. That is honest only when the position sent holds nothing the player cannot see: a
server that carries a hidden board or the cursor of its random draws in its ``state`` would
tell a lookahead where the next tile spawns or which card lies face down. :func:`classify`
reads an answer and decides, by content, not by field names (a server may call a count
``moves`` in its state and ``slides`` in its observation):

- an opaque ``stateToken`` with no plain ``state`` object, or a ``state`` that is an id the
  server keeps (a string), may hold anything: *peeks*;
- a ``state`` object is compared value by value with the observation: every value of the
  state (nulls aside) must appear somewhere in the observation (a string also as the
  joined strings of a list, ``["X..", ".O."]`` showing ``"X...O."``), and as often as the
  state holds it (a seed of 1 and a roll counter at 1 are not shown by one round 1). A
  value the observation does not show (a random cursor, a hidden layout): *peeks*;
- otherwise honest. A lookahead then carries the plain ``state`` (never a token beside it),
  so it sends only what was judged.

:attr:`Verdict.line` says in one line what was found and why; :func:`decision` adds what
follows from it (refused, or allowed with ``--allow-peek`` and the run labelled
``clairvoyant``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: Values quoted in a verdict's line.
QUOTED = 3


class PeekRefused(ValueError):
    """Looking ahead through this server would see what the player cannot, and
    ``--allow-peek`` was not given; the message is the guard's one line."""


@dataclass(frozen=True)
class Verdict:
    """The guard's decision on one answer.

    Attributes:
        peeks: looking ahead could see what the player cannot.
        line: one line: what was found, and why it decides so.
        hidden: the state's paths the observation does not show (``[]`` for a token or id).
        compared: the state's values compared with the observation.
    """

    peeks: bool
    line: str
    hidden: list[str] = field(default_factory=list)
    compared: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{peeks, line, hidden}``."""
        return {"peeks": self.peeks, "line": self.line, "hidden": self.hidden[:20]}


def _leaves(value: Any, path: str, out: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            _leaves(v, f"{path}.{k}", out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _leaves(v, f"{path}[{i}]", out)
    elif value is not None:
        out.append((path, value))
    return out


def _token(value: Any) -> tuple[str, Any]:
    """A value as the guard compares it: booleans apart from numbers, 3 equal to 3.0."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", float(value))
    return (type(value).__name__, value)


def _shown(observation: Any) -> Counter[tuple[str, Any]]:
    """Every value the observation shows, as often as it shows it, and the joined text of
    its lists of strings."""
    out: Counter[tuple[str, Any]] = Counter()
    stack = [observation]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
            if v and all(isinstance(x, str) for x in v):
                for sep in ("", " ", "\n", ","):
                    out[("str", sep.join(v))] += 1
        elif v is not None:
            out[_token(v)] += 1
    return out


def classify(answer: dict[str, Any]) -> Verdict:
    """The guard's verdict on a server's answer (raw JSON; see the module doc)."""
    state = answer.get("state")
    token = answer.get("stateToken")
    if not isinstance(state, dict):
        if token is not None:
            why = "an opaque stateToken and no plain state"
        elif state is not None:
            why = f"a state that is an id the server keeps (a {type(state).__name__})"
        else:
            why = "no state to send"
        return Verdict(True, f"peek guard: the answer carries {why}, so a lookahead could"
                       " see what the player cannot")  # fmt: skip
    shown = _shown(answer.get("observation"))
    leaves = _leaves(state, "state", [])
    hidden = [(p, v) for p, v in leaves if shown[_token(v)] == 0]
    # a value the state holds more often than the observation shows it: the extra copies
    # are hidden too (a seed of 1 and a roll counter at 1 beside a shown round 1), the
    # first ones in the state's order named
    held = Counter(_token(v) for _, v in leaves)
    excess = Counter({t: n - shown[t] for t, n in held.items() if 0 < shown[t] < n})
    for p, v in leaves:
        t = _token(v)
        if excess[t] > 0:
            excess[t] -= 1
            hidden.append((p, v))
    if hidden:
        # the paths, never the values: the guard's line goes to logs and to model agents,
        # and the values are what the player may not see (a face-down card)
        quoted = ", ".join(p for p, _ in hidden[:QUOTED])
        more = f" and {len(hidden) - QUOTED} more" if len(hidden) > QUOTED else ""
        line = (
            f"peek guard: the state carries {len(hidden)} of its {len(leaves)} values that the"
            f" observation does not show ({quoted}{more}), so a lookahead could see what the"
            " player cannot"
        )
        return Verdict(True, line, [p for p, _ in hidden], len(leaves))
    line = (
        f"peek guard: every one of the state's {len(leaves)} values shows in the observation"
        " (compared by content), so a lookahead through the server sees only what the player"
        " sees"
    )
    return Verdict(False, line, [], len(leaves))


def decision(verdict: Verdict, allow_peek: bool) -> str:
    """The verdict's line and what follows from it: looking ahead (honest), refused, or
    looking ahead anyway with ``--allow-peek`` (the run labelled clairvoyant)."""
    if not verdict.peeks:
        return f"{verdict.line}: looking ahead"
    if allow_peek:
        return f"{verdict.line}: looking ahead anyway (--allow-peek): the run is clairvoyant"
    return f"{verdict.line}: refused (--allow-peek looks anyway and labels the run clairvoyant)"


__all__ = ["QUOTED", "PeekRefused", "Verdict", "classify", "decision"]
