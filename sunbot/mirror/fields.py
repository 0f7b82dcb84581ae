"""Which fields of an answer the mirror knows, and how it reads a server it did not write.

Another Gameboard server may add fields we have never seen and leave out fields the rule texts
never promise (the platform protocol, "Where two faithful servers may differ"). The mirror
therefore never hands a server's state to the engine as it came:

- :class:`KeyTemplate` learns the keys of every object in our own engine's states, by path
  pattern (list indices collapsed: ``state.queue[].weight``), and strips every other key from a
  server's answer. The stripped keys are *unknown fields*: listed once in a run's summary,
  never a divergence.
- :func:`merge` rebuilds a complete state for the next replay: the server's value wherever it
  sent one (it is authoritative), the mirror's own expectation where it left a field out.
- :func:`pattern` turns a concrete path into its pattern, so a game can list the fields its
  rule text promises (``PROMISED`` in its hooks module); only those are divergences when
  missing.
"""

from __future__ import annotations

import marshal
import re
from typing import Any, TypeGuard

_INDEX = re.compile(r"\[\d+\]")
_CONTAINERS = (dict, list)


def is_int(value: Any) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (``True`` and ``1.0`` are not)."""
    return type(value) is int


def pattern(path: str) -> str:
    """``state.hold[3][0].weight`` -> ``state.hold[][].weight``."""
    return _INDEX.sub("[]", path)


def under(path: str, patterns: frozenset[str]) -> bool:
    """True when ``path`` (a pattern) is one of ``patterns`` or lies inside one of them."""
    while True:
        if path in patterns:
            return True
        cut = max(path.rfind("."), path.rfind("["))
        if cut <= 0:
            return False
        path = path[:cut]


class KeyTemplate:
    """Object keys by path pattern, learned from our own engine's values.

    ``learn(value, "state")`` records, for every object inside ``value``, the keys it has;
    ``strip(value, "state")`` returns a copy of a server's value without the keys never learned
    at that pattern, and the concrete paths of the dropped keys. Objects at a pattern never
    learned (say, an empty list in every state seen so far) are kept whole.
    """

    def __init__(self) -> None:
        self.keys: dict[str, set[str]] = {}
        self._plans: dict[str, tuple[set[str] | None, dict[str, str], str]] = {}

    def learn(self, value: Any, path: str) -> None:
        """Record the keys of every object in ``value`` (a JSON value) under ``path``."""
        if isinstance(value, dict):
            self._plans.clear()
            known = self.keys.setdefault(pattern(path), set())
            for key, sub in value.items():
                known.add(key)
                self.learn(sub, f"{path}.{key}")
        elif isinstance(value, list):
            for item in value:
                self.learn(item, f"{path}[]")

    def knows(self, path: str) -> bool:
        """True when the last key of ``path`` was learned at its parent's pattern."""
        parent, _, key = pattern(path).rpartition(".")
        return key in self.keys.get(parent, ())

    def strip(self, value: Any, path: str) -> tuple[Any, list[str]]:
        """``(copy of value without unknown keys, concrete paths of the keys dropped)``.

        A value with no unknown key (every answer of a server that adds none) is checked
        against the learned keys object by object (:meth:`_plan`) and copied whole in one
        pass (``marshal``'s, exact for every JSON value, NaN included), rather than rebuilt
        key by key.
        """
        if not self._unknown_in(value, pattern(path)):
            try:
                return marshal.loads(marshal.dumps(value)), []
            except ValueError:  # not plain data (never from a JSON parser)
                pass
        dropped: list[str] = []
        return self._strip(value, path, dropped), dropped

    def _plan(self, shape: str) -> tuple[set[str] | None, dict[str, str], str]:
        """For objects at pattern ``shape``: the keys learned there (``None``: never
        learned), the pattern of each key's value, and the pattern of a list's items."""
        plan = self._plans.get(shape)
        if plan is None:
            known = self.keys.get(shape)
            children = {key: f"{shape}.{key}" for key in known or ()}
            plan = self._plans[shape] = (known, children, f"{shape}[]")
        return plan

    def _unknown_in(self, value: Any, shape: str) -> bool:
        """Whether ``value`` (at pattern ``shape``) holds a key :meth:`strip` would drop."""
        if type(value) is dict:
            known, children, _ = self._plan(shape)
            if known is None:
                return any(self._unknown_in(v, pattern(f"{shape}.{k}")) for k, v in value.items())
            if not value.keys() <= known:
                return True
            for key, sub in value.items():
                if type(sub) in _CONTAINERS and self._unknown_in(sub, children[key]):
                    return True
            return False
        if type(value) is list:
            items = self._plan(shape)[2]
            return any(type(v) in _CONTAINERS and self._unknown_in(v, items) for v in value)
        return False

    def _strip(self, value: Any, path: str, dropped: list[str]) -> Any:
        if isinstance(value, dict):
            known = self.keys.get(pattern(path))
            out: dict[str, Any] = {}
            for key, sub in value.items():
                if known is not None and key not in known:
                    dropped.append(f"{path}.{key}")
                    continue
                out[key] = self._strip(sub, f"{path}.{key}", dropped)
            return out
        if isinstance(value, list):
            return [self._strip(item, f"{path}[{i}]", dropped) for i, item in enumerate(value)]
        return value


def merge(ours: Any, theirs: Any) -> Any:
    """``theirs`` completed from ``ours``: every key ``theirs`` lacks is taken from ``ours``.

    Both are JSON values of the same game position, ``theirs`` already stripped of unknown
    keys. Objects merge key by key; lists of the same length item by item; anything else
    (and lists of another length) is ``theirs``. The server stays authoritative: no value it
    sent is replaced.
    """
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out = {k: merge(v, theirs[k]) if k in theirs else v for k, v in ours.items()}
        out.update((k, v) for k, v in theirs.items() if k not in ours)
        return out
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        return [merge(a, b) for a, b in zip(ours, theirs, strict=True)]
    return theirs


__all__ = ["KeyTemplate", "merge", "pattern", "under"]
