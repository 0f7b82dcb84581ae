"""Novelty: which positions hold something the run has not seen yet (Iterated Width's idea,
Lipovetzky and Geffner 2012), for games whose score says nothing until the end.

A position's *atoms* are its observation's leaves, ``path = value``, on the paths that have
changed during the run (a maze's walls never do) and are no step counter (a path that went
up by exactly one at every step so far, such as ``moves``, would make every position new
and so tells nothing). :class:`Novelty` counts the atoms, and the pairs of atoms, of every
position the run has stood on; :meth:`Novelty.count` values a position by how rarely the
run stood on its atoms: in a maze, a cell not yet visited has a new pair ``row, col``.
Search prefers, among lines that are otherwise equal, the one leading to the rarest:
exploration that remembers where it has been.
"""

from __future__ import annotations

import collections
import itertools
import json
from typing import Any

#: Atoms of one position paired at most (the pairs grow as their square).
MAX_ATOMS = 40


Path = tuple[str | int, ...]
_ABSENT = object()


def _leaves(value: Any, path: Path, out: dict[Path, Any]) -> dict[Path, Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            _leaves(v, (*path, str(k)), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _leaves(v, (*path, i), out)
    else:
        out[path] = value
    return out


def _at(value: Any, path: Path) -> Any:
    """The leaf of ``value`` at ``path`` (:data:`_ABSENT` when there is none)."""
    for part in path:
        if isinstance(part, int):
            if not isinstance(value, list) or part >= len(value):
                return _ABSENT
        elif not isinstance(value, dict) or part not in value:
            return _ABSENT
        value = value[part]
    return value


class Novelty:
    """The atoms and pairs of atoms of the positions a run stood on (module doc)."""

    def __init__(self) -> None:
        self.seen: collections.Counter[str] = collections.Counter()
        self.changing: set[Path] = set()
        self.counters: dict[Path, bool] = {}
        self._last: dict[Path, Any] | None = None
        self._paths: list[Path] = []

    def visit(self, observation: Any) -> None:
        """The run stands on ``observation``: learn which paths change and which count
        steps, and remember its atoms and pairs."""
        leaves = _leaves(observation, (), {})
        last = self._last
        if last is not None:
            for path, value in leaves.items():
                before = last.get(path, _ABSENT)
                step = (
                    isinstance(value, int) and isinstance(before, int)
                    and not isinstance(value, bool) and value - before == 1
                )  # fmt: skip
                self.counters[path] = self.counters.get(path, True) and step
                if not (before == value and type(before) is type(value)):
                    self.changing.add(path)
        self._last = leaves
        self._paths = sorted(
            (p for p in self.changing if not self.counters.get(p, False)), key=str
        )[:MAX_ATOMS]
        self.seen.update(set(self._atoms(observation)))

    def _atoms(self, observation: Any) -> list[str]:
        """The atoms (on the changing paths that count no steps) and their pairs."""
        picked = [
            f"{p}={json.dumps(v, sort_keys=True, default=str)}"
            for p in self._paths
            if (v := _at(observation, p)) is not _ABSENT
        ]
        return [*picked, *(f"{a}&{b}" for a, b in itertools.combinations(picked, 2))]

    def count(self, observation: Any) -> float:
        """How new ``observation`` is: each of its atoms and pairs counts ``1 / (1 + n)``
        for the ``n`` times the run stood on it (a cell never visited counts most, one
        visited twice less than one visited once: the rarer way first, as Tremaux's rule
        for mazes marks the passages taken)."""
        if not self._paths:
            return 0.0
        return sum(1.0 / (1 + self.seen[a]) for a in self._atoms(observation))


__all__ = ["MAX_ATOMS", "Novelty"]
