"""What every platform test game shares: the two calls over a game's hooks
(:class:`PlatformGame`), the answer envelope, the checks of a carried ``state``.

A game implements the hooks on its own plain-dict state (``new``, ``read``, ``legal``,
``apply``, ``observe``, ``score``, ``over``); :meth:`PlatformGame.init` and
:meth:`PlatformGame.act` turn them into the platform's answers:

- success: ``{state (or stateToken), observation, legalActions, score, gameOver}``, the init
  answer with ``spec`` between ``legalActions`` and ``score`` (the overview's order);
- a rules refusal: :class:`~sunbot.testing.unseen.common.Illegal` (HTTP 200 ``{ok: false,
  reason, legalActions}``), from :class:`~sunbot.engines.IllegalAction` raised by ``apply``
  or an action off the grammar; nothing changes;
- a malformed request or state: :class:`~sunbot.testing.unseen.common.BadRequest` (4xx).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Literal, TypeGuard

from jsonschema import Draft202012Validator

from sunbot.engines import IllegalAction
from sunbot.testing.unseen.common import BadRequest, Illegal, draws

__all__ = [
    "DIRECTIONS",
    "BadRequest",
    "Illegal",
    "IllegalAction",
    "PlatformGame",
    "as_bool",
    "as_int",
    "as_list",
    "as_obj",
    "as_str",
    "draws",
    "field_int",
    "need",
    "one_of",
    "typed",
]

State = dict[str, Any]
Action = dict[str, Any]
#: The four moves of the grid games, in the order their legal actions are listed.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "up": (-1, 0),
    "down": (1, 0),
    "left": (0, -1),
    "right": (0, 1),
}


def need(ok: bool, where: str, what: str) -> None:
    """Refuse a carried state unless ``ok``: 400 ``state.<where>: <what>``.

    Raises:
        BadRequest: ``ok`` is false.
    """
    if not ok:
        raise BadRequest(f"state{'.' if where else ''}{where}: {what}")


def as_int(value: Any, lo: int, hi: int, where: str) -> int:
    """``value`` when it is a whole number from ``lo`` to ``hi`` (``3.0`` reads as 3).

    Raises:
        BadRequest: anything else (booleans included).
    """
    if isinstance(value, float) and value.is_integer() and math.isfinite(value):
        value = int(value)
    need(type(value) is int and lo <= value <= hi, where, f"a whole number from {lo} to {hi}")
    return int(value)


def as_bool(value: Any, where: str) -> bool:
    """``value`` when it is a boolean.

    Raises:
        BadRequest: it is not.
    """
    need(isinstance(value, bool), where, "true or false")
    return bool(value)


def as_str(value: Any, where: str, max_len: int, alphabet: str | None = None) -> str:
    """``value`` when it is a string of at most ``max_len`` characters from ``alphabet``.

    Raises:
        BadRequest: it is not.
    """
    need(isinstance(value, str) and len(value) <= max_len, where, f"text of <= {max_len}")
    if alphabet is not None:
        need(all(c in alphabet for c in value), where, f"only the characters {alphabet!r}")
    return str(value)


def as_list(value: Any, where: str, size: int | None = None, max_size: int = 1_000) -> list[Any]:
    """``value`` when it is a list (of exactly ``size`` items, or at most ``max_size``).

    Raises:
        BadRequest: it is not.
    """
    need(isinstance(value, list), where, "a list")
    if size is not None:
        need(len(value) == size, where, f"a list of {size}")
    need(len(value) <= max_size, where, f"a list of at most {max_size}")
    return list(value)


def as_obj(value: Any, where: str, keys: tuple[str, ...] = ()) -> dict[str, Any]:
    """``value`` when it is an object holding every key of ``keys``.

    Raises:
        BadRequest: it is not.
    """
    need(isinstance(value, dict), where, "an object (send the state of the last answer)")
    for key in keys:
        need(key in value, f"{where}.{key}" if where else key, "missing")
    return dict(value)


def one_of(value: Any, choices: tuple[Any, ...] | list[Any], where: str) -> Any:
    """``value`` when it is one of ``choices``.

    Raises:
        BadRequest: it is not.
    """
    need(
        any(value == c and type(value) is type(c) for c in choices),
        where,
        f"one of {', '.join(map(str, choices))[:120]}",
    )
    return value


def field_int(action: Action, name: str) -> int:
    """Integer field ``name`` of an action the grammar accepted (``3.0`` reads as 3)."""
    value = action[name]
    return int(value)


def typed(action: Any) -> TypeGuard[dict[str, Any]]:
    """An action as the platform says: an object with a string ``type``."""
    return isinstance(action, dict) and isinstance(action.get("type"), str)


def _grammar_reason(error: Any) -> str:
    where = "".join(f"[{p!r}]" for p in error.absolute_path) or "the action"
    return f"{where}: {error.message}"[:300]


class PlatformGame(ABC):
    """One game of the platform test server (see the module docstring).

    Subclasses set the class attributes and the hooks; ``salt`` varies every seeded draw.

    Attributes:
        slug, name, genre, description, goal: the index row's fields.
        spec: the served spec: ``goal``, ``scoring``, ``scoreOrder`` (``descending``: higher
            is better, ``ascending``: lower is better; absent where the game's page does
            not say), ``rules`` (a list of sentences), ``actionGrammar`` (a JSON Schema).
        carry: ``state`` (the plain position) or ``stateToken`` (an opaque string).
        hidden: what the ``state`` carries that the ``observation`` does not show (empty
            for a fully observable game); documentation for tests and readers.
        seeded: whether the seed changes the game.
    """

    slug: str
    name: str
    genre: str
    description: str
    goal: str
    spec: dict[str, Any]
    carry: Literal["state", "stateToken"] = "state"
    hidden: tuple[str, ...] = ()
    seeded: bool = True

    def __init__(self, salt: str) -> None:
        self.salt = salt
        self._grammar = Draft202012Validator(self.spec["actionGrammar"])

    # -- the hooks ---------------------------------------------------------------------

    @abstractmethod
    def new(self, seed: int) -> State:
        """The opening state of ``seed`` (what the ``state`` field carries)."""

    @abstractmethod
    def read(self, state: Any) -> State:
        """A carried state, checked and rebuilt from its known fields.

        Raises:
            BadRequest: it is not a state of this game (shape, bounds, consistency).
        """

    @abstractmethod
    def legal(self, s: State) -> list[Action]:
        """The legal actions of ``s`` in the game's order (``[]`` when over)."""

    @abstractmethod
    def apply(self, s: State, action: Action) -> State:
        """The state after ``action`` (which matched the grammar); never mutates ``s``.

        Raises:
            IllegalAction: the rules refuse it; the message teaches why.
        """

    @abstractmethod
    def observe(self, s: State) -> dict[str, Any]:
        """What the player sees of ``s``."""

    @abstractmethod
    def score(self, s: State) -> int:
        """The score the platform serves for ``s``."""

    @abstractmethod
    def over(self, s: State) -> bool:
        """Whether the run of ``s`` is over."""

    # -- carrying the position ------------------------------------------------------------

    def issue(self, s: State) -> dict[str, Any]:
        """The carry fields of an answer: ``{"state": s}`` unless overridden."""
        return {"state": s}

    def receive(self, body: dict[str, Any]) -> State:
        """The position a request carries back, checked (:meth:`read`).

        Raises:
            BadRequest: none carried, or not a position of this game.
        """
        if "state" not in body:
            raise BadRequest("send {state, action}: the state of the last answer, as it came")
        return self.read(body["state"])

    def action_types(self) -> list[str]:
        """The ``type`` values the action grammar names, in its order."""
        grammar = self.spec["actionGrammar"]
        branches = grammar.get("oneOf", [grammar])
        return [b["properties"]["type"]["const"] for b in branches]

    # -- the two calls --------------------------------------------------------------------

    def answer(self, s: State) -> dict[str, Any]:
        """The success answer for ``s`` (no ``spec``)."""
        over = self.over(s)
        return {
            **self.issue(s),
            "observation": self.observe(s),
            "legalActions": [] if over else self.legal(s),
            "score": self.score(s),
            "gameOver": over,
        }

    def init(self, seed: int) -> dict[str, Any]:
        """The opening answer of ``seed``, with ``spec``."""
        out = self.answer(self.new(seed))
        head = {k: out[k] for k in out if k not in ("score", "gameOver")}
        return {**head, "spec": self.spec, "score": out["score"], "gameOver": out["gameOver"]}

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``{state or stateToken, action}``.

        Raises:
            BadRequest: the position is not one of this game, or the action is not an
                object with a string ``type``.
            Illegal: the rules refuse the action (off the grammar, or :meth:`apply` says no).
        """
        s = self.receive(body)
        action = body.get("action")
        if not typed(action):
            raise BadRequest("action: an object with a string type, e.g. one of legalActions")
        if self.over(s):
            raise Illegal("the game is over: start a new one with init", [])
        kinds = self.action_types()
        if action["type"] not in kinds:
            raise Illegal(
                f"{self.slug} has no action {str(action['type'])[:40]!r}: its "
                f"actions are {', '.join(kinds)}",
                self.legal(s),
            )
        error = next(iter(self._grammar.iter_errors(action)), None)
        if error is not None:
            reason = f"not an action of {self.slug}: {_grammar_reason(error)}"
            raise Illegal(reason, self.legal(s))
        try:
            nxt = self.apply(s, action)
        except IllegalAction as exc:
            raise Illegal(str(exc), self.legal(s)) from None
        return self.answer(nxt)


def moves_text(legal: list[Action], show: Callable[[Action], str], limit: int = 12) -> str:
    """A short list of legal moves for a teaching reason (``a, b, c`` or ``a, b, ... (N)``)."""
    shown = [show(a) for a in legal[:limit]]
    more = f", ... ({len(legal)} in all)" if len(legal) > limit else ""
    return ", ".join(shown) + more if shown else "none"
