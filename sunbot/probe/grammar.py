"""Compare a served action grammar (a JSON Schema in ``spec``) with ours, by behaviour.

Two schemas are compared on sample actions with ``jsonschema``: every action either one
accepts must be accepted by the other. The samples are the actions a server offered, one
well-formed action per branch and enum value of our grammar (bounds included), and
malformed variants of each (an extra key, a missing key, a wrong type, a value out of
range), so a difference in what is legal or in how strict the grammar is shows up as a
named action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from sunbot.generic.grammar import GRAMMAR_KEYS, GrammarProblem, compile_grammar

__all__ = ["GRAMMAR_KEYS", "GrammarDiff", "compare", "find_grammar", "samples_of"]


@dataclass
class GrammarDiff:
    """What two grammars disagree on.

    Attributes:
        found_at: the ``spec`` key the served grammar was read from (``None``: none found).
        error: why the served grammar could not be used (not a valid JSON Schema).
        only_ours, only_theirs: sample actions only our / only their grammar accepts.
        samples: how many actions were compared.
    """

    found_at: str | None = None
    error: str | None = None
    only_ours: list[Any] = field(default_factory=list)
    only_theirs: list[Any] = field(default_factory=list)
    samples: int = 0

    @property
    def same(self) -> bool:
        """Both grammars accept exactly the same samples."""
        return self.error is None and not self.only_ours and not self.only_theirs


def find_grammar(spec: Any) -> tuple[str | None, dict[str, Any] | None]:
    """``(key, schema)`` of the action grammar in a served ``spec``; ``(None, None)`` when
    none is recognised (a known key first, else any object with ``oneOf``/``anyOf``)."""
    if not isinstance(spec, dict):
        return None, None
    for key in GRAMMAR_KEYS:
        if isinstance(spec.get(key), dict):
            return key, spec[key]
    for key, value in spec.items():
        if isinstance(value, dict) and ("oneOf" in value or "anyOf" in value):
            return str(key), value
    return None, None


def _values(prop: dict[str, Any]) -> list[Any]:
    """Well-formed values of one property of our grammar."""
    if "const" in prop:
        return [prop["const"]]
    if "enum" in prop:
        return list(prop["enum"])
    if prop.get("type") == "integer":
        low, high = prop.get("minimum", 0), prop.get("maximum", prop.get("minimum", 0) + 3)
        return sorted({low, (low + high) // 2, high})
    if prop.get("type") == "string":
        return ["x"]
    return [None]


def _malformed(action: dict[str, Any], branch: dict[str, Any]) -> list[Any]:
    """Variants of a well-formed ``action`` that a strict grammar refuses."""
    out: list[Any] = [{**action, "extra": 1}]
    for key, prop in branch.get("properties", {}).items():
        if key == "type":
            continue
        out.append({k: v for k, v in action.items() if k != key})
        out.append({**action, key: "7"})
        if "maximum" in prop:
            out.append({**action, key: prop["maximum"] + 1})
        if "minimum" in prop:
            out.append({**action, key: prop["minimum"] - 1})
    return out


def samples_of(ours: dict[str, Any], offered: list[Any]) -> list[Any]:
    """The sample actions: ``offered`` ones, then our grammar's well-formed and malformed
    actions, without repeats, in a stable order."""
    out: list[Any] = list(offered)
    for branch in ours.get("oneOf", ours.get("anyOf", [])):
        props = branch.get("properties", {})
        base = {k: _values(p)[0] for k, p in props.items()}
        out.append(base)
        for key, prop in props.items():
            out.extend({**base, key: v} for v in _values(prop)[1:])
        out.extend(_malformed(base, branch))
    out.append({"type": "NO_SUCH_ACTION"})
    unique: dict[str, Any] = {}
    for action in out:
        unique.setdefault(json.dumps(action, sort_keys=True), action)
    return list(unique.values())


def compare(ours: dict[str, Any], spec: Any, offered: list[Any]) -> GrammarDiff:
    """Compare our grammar ``ours`` with the one in the served ``spec``."""
    key, theirs = find_grammar(spec)
    diff = GrammarDiff(found_at=key)
    if theirs is None:
        diff.error = "no action grammar found in spec"
        return diff
    try:
        Draft202012Validator.check_schema(theirs)
    except SchemaError as exc:
        diff.error = f"not a valid JSON Schema: {exc.message}"
        return diff
    # theirs is outside text: checked in the generic checks' bounds (a pattern that could
    # backtrack for minutes is not run, every check has a step budget)
    try:
        other = compile_grammar({key: theirs})
    except GrammarProblem as exc:
        diff.error = str(exc)
        return diff
    mine = Draft202012Validator(ours)
    cases = samples_of(ours, offered)
    diff.samples = len(cases)
    for action in cases:
        try:
            b = not other.errors(action)
        except GrammarProblem:  # their grammar cannot decide this one: no difference told
            continue
        a = bool(mine.is_valid(action))
        if a and not b:
            diff.only_ours.append(action)
        elif b and not a:
            diff.only_theirs.append(action)
    return diff
