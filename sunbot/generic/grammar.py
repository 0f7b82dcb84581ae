"""A served action grammar (a JSON Schema in ``spec``), compiled once and checked in
bounded time.

Where it is looked for: the first of :data:`GRAMMAR_KEYS` (``spec.actionSchema``,
``spec.actionGrammar``, ``spec.grammar``, ``spec.actions``, ``spec.schema``,
``spec.commandSchema``) whose value is a JSON object or a boolean schema; a key that holds
something else (``spec.actions`` as a list of descriptions) is passed over.

The schema is outside text and may be hostile, so nothing about it may stall a run:

- its JSON is at most :data:`MAX_SCHEMA_BYTES` (256 KiB);
- it is checked against its meta-schema (``$schema`` if it names a known draft, else
  Draft 2020-12) without a format checker, and validated without one (``format`` is an
  annotation only);
- ``$ref`` resolves inside the schema only (no retrieval: a remote reference is
  unresolvable, never fetched);
- every keyword evaluation of one action counts against :data:`MAX_STEPS` (a schema whose
  references fan out exponentially is stopped there);
- ``pattern`` and ``patternProperties`` run only patterns of at most :data:`MAX_PATTERN`
  characters without a backreference or a repeated group that repeats inside (``(a+)+``,
  the form of catastrophic backtracking), on strings of at most :data:`MAX_MATCHED`
  characters; another pattern is not run (:attr:`Grammar.skipped` says which).
"""

from __future__ import annotations

import itertools
import json
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry

from sunbot._text.safe import safe

__all__ = [
    "GRAMMAR_KEYS",
    "MAX_MATCHED",
    "MAX_PATTERN",
    "MAX_SCHEMA_BYTES",
    "MAX_STEPS",
    "Grammar",
    "GrammarProblem",
    "compile_grammar",
    "find_grammar",
    "risky_pattern",
]

#: Keys under which a spec may carry its grammar, most likely first (``sunbot probe``
#: looks there too).
GRAMMAR_KEYS = ("actionSchema", "actionGrammar", "grammar", "actions", "schema", "commandSchema")
#: Largest served schema compiled, in bytes of its JSON.
MAX_SCHEMA_BYTES = 256 * 1024
#: Keyword evaluations allowed while validating one action.
MAX_STEPS = 20_000
#: Longest pattern run, in characters.
MAX_PATTERN = 512
#: Longest string matched against a pattern, in characters.
MAX_MATCHED = 1024
#: Longest action validated, in bytes of its JSON.
MAX_ACTION_BYTES = 64 * 1024
#: Errors of one action read to pick the most telling one.
_MAX_ERRORS = 20
#: ``jsonschema.validators.extend`` (untyped in its stubs).
_extend: Callable[..., Any] = validators.extend
_REPEAT = re.compile(r"\{(\d*)(,?)(\d*)\}")


class GrammarProblem(ValueError):
    """The grammar cannot be used, or one action cannot be checked against it; the
    message is one line (the server's words scrubbed and clipped)."""


class _OverBudget(Exception):
    pass


def find_grammar(spec: Any) -> tuple[str | None, Any]:
    """``(key, schema)`` of the action grammar in a served ``spec`` (see the module
    docstring); ``(None, None)`` when no key of :data:`GRAMMAR_KEYS` holds a schema."""
    if not isinstance(spec, dict):
        return None, None
    for key in GRAMMAR_KEYS:
        value = spec.get(key)
        if isinstance(value, dict | bool):
            return key, value
    return None, None


def _quantifier(pattern: str, i: int) -> tuple[int, bool]:
    """``(length, repeats)`` of a quantifier at ``pattern[i]`` (``(0, False)`` if none):
    ``repeats`` when it allows more than one (``*``, ``+``, ``{2}``, ``{1,}``, ``{0,5}``)."""
    c = pattern[i]
    if c in "*+":
        return 1, True
    if c == "?":
        return 1, False
    if c == "{":
        m = _REPEAT.match(pattern, i)
        if m is None or not (m.group(1) or m.group(3)):
            return 0, False  # a literal brace
        low = int(m.group(1) or 0)
        high = None if m.group(2) and not m.group(3) else int(m.group(3) or m.group(1) or 0)
        return m.end() - i, high is None or high > 1 or low > 1
    return 0, False


def _class_end(pattern: str, i: int) -> int:
    """The index after the character class opening at ``pattern[i]`` (``[``)."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def risky_pattern(pattern: str) -> str | None:
    """Why ``pattern`` is not run (``None`` when it is): too long, a backreference, or a
    group holding a quantifier that is itself repeated (``(a+)+``, ``(\\w*,)*``). The test is
    conservative: a safe pattern of that form is not run either."""
    if len(pattern) > MAX_PATTERN:
        return f"longer than {MAX_PATTERN} characters"
    groups: list[bool] = []  # per open group: it holds a quantifier
    i, closed = 0, False  # closed: the atom just before i is a group holding one
    while i < len(pattern):
        c, after_group, closed = pattern[i], closed, False
        if c == "\\":
            if i + 1 < len(pattern) and pattern[i + 1] in "123456789":
                return "a backreference"
            i += 2
        elif c == "[":
            i = _class_end(pattern, i)
        elif c == "(":
            if pattern.startswith("(?P=", i):
                return "a backreference"
            groups.append(False)
            i += 1
        elif c == ")":
            closed = groups.pop() if groups else False
            if closed and groups:
                groups[-1] = True
            i += 1
        else:
            length, repeats = _quantifier(pattern, i)
            if not length:
                i += 1
                continue
            if after_group and repeats:
                return "a repeated group that repeats inside, such as (a+)+"
            if groups:
                groups[-1] = True
            i += length
            if i < len(pattern) and pattern[i] in "?+":  # lazy or possessive
                i += 1
    return None


def _patterns(schema: Any, depth: int = 0) -> Iterator[str]:
    """Every ``pattern`` value and ``patternProperties`` key in ``schema``."""
    if depth > 200:
        return
    if isinstance(schema, dict):
        if isinstance(schema.get("pattern"), str):
            yield schema["pattern"]
        if isinstance(schema.get("patternProperties"), dict):
            yield from (k for k in schema["patternProperties"] if isinstance(k, str))
        for value in schema.values():
            yield from _patterns(value, depth + 1)
    elif isinstance(schema, list):
        for value in schema:
            yield from _patterns(value, depth + 1)


@dataclass
class Grammar:
    """A compiled served grammar (build it with :func:`compile_grammar`).

    Attributes:
        key: the ``spec`` key it was read from (``actionSchema``, ...).
        skipped: patterns not run, with why (``{pattern: reason}``).
    """

    key: str
    validator: Validator
    skipped: dict[str, str] = field(default_factory=dict)
    _spent: list[int] = field(default_factory=lambda: [0])

    def errors(self, action: Any) -> list[str]:
        """Why ``action`` does not match the grammar: ``[]`` when it does, else one line
        (the most telling error, clipped).

        Raises:
            GrammarProblem: the check could not finish (the step budget ran out, a
                reference does not resolve, the action is too large or nests too deep).
        """
        try:
            size = len(json.dumps(action))
        except (TypeError, ValueError, RecursionError):
            raise GrammarProblem("the action is not plain JSON") from None
        if size > MAX_ACTION_BYTES:
            raise GrammarProblem(f"the action is larger than {MAX_ACTION_BYTES} bytes")
        self._spent[0] = 0
        try:
            found = list(itertools.islice(self.validator.iter_errors(action), _MAX_ERRORS))
        except _OverBudget:
            raise GrammarProblem(f"more than {MAX_STEPS} schema steps for one action") from None
        except GrammarProblem:
            raise
        except RecursionError:
            raise GrammarProblem("the schema recurses too deeply") from None
        except Exception as exc:  # an unresolvable $ref, or any other failure of the library
            raise GrammarProblem(f"cannot check: {type(exc).__name__}: {safe(exc)}") from None
        if not found:
            return []
        best = best_match(found)
        where = "".join(f"[{p!r}]" for p in best.absolute_path) if best else ""
        message = best.message if best is not None else "does not match"
        return [safe(f"{where}: {message}" if where else message)]


def _keyword_budget(spent: list[int]) -> Callable[[Any], Any]:
    def wrap(keyword: Any) -> Any:
        def counted(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
            spent[0] += 1
            if spent[0] > MAX_STEPS:
                raise _OverBudget
            result = keyword(validator, value, instance, schema)
            if result is not None:
                yield from result

        return counted

    return wrap


def _matcher(skipped: dict[str, str]) -> Callable[[str, str], bool | None]:
    """``matches(pattern, text)``: whether ``text`` matches, each pattern compiled once;
    ``None`` for a skipped pattern (it is not run).

    The returned function raises :class:`GrammarProblem` for a ``text`` longer than
    :data:`MAX_MATCHED`."""
    cache: dict[str, re.Pattern[str]] = {}

    def matches(pattern: str, text: str) -> bool | None:
        if pattern in skipped:
            return None
        if len(text) > MAX_MATCHED:
            raise GrammarProblem(f"a string longer than {MAX_MATCHED} characters meets a pattern")
        rx = cache.get(pattern)
        if rx is None:
            rx = cache[pattern] = re.compile(pattern)
        return rx.search(text) is not None

    return matches


def _pattern_keywords(matches: Callable[[str, str], bool | None]) -> dict[str, Any]:
    """``pattern`` and ``patternProperties`` that match through ``matches``."""

    def pattern(validator: Any, patrn: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string") and matches(patrn, instance) is False:
            yield ValidationError(f"{safe(repr(instance), 80)} does not match {safe(patrn, 80)}")

    def pattern_properties(validator: Any, props: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in props.items():
            for key, value in instance.items():
                if matches(patrn, key):  # a skipped pattern applies to no key
                    yield from validator.descend(value, subschema, path=key, schema_path=patrn)

    return {"pattern": pattern, "patternProperties": pattern_properties}


def compile_grammar(spec: Any) -> Grammar:
    """The grammar of a served ``spec``, compiled for :meth:`Grammar.errors`.

    Raises:
        GrammarProblem: none found, too large, or not a valid JSON Schema (one line).
    """
    key, schema = find_grammar(spec)
    if key is None:
        present = [k for k in GRAMMAR_KEYS if isinstance(spec, dict) and k in spec]
        if present:
            raise GrammarProblem(f"spec.{present[0]} is not a JSON Schema object")
        raise GrammarProblem(f"no action grammar in spec (looked at {', '.join(GRAMMAR_KEYS)})")
    try:
        size = len(json.dumps(schema))
    except (TypeError, ValueError, RecursionError):
        raise GrammarProblem(f"spec.{key} is not plain JSON") from None
    if size > MAX_SCHEMA_BYTES:
        raise GrammarProblem(f"spec.{key} is {size} bytes, more than the {MAX_SCHEMA_BYTES} read")
    with warnings.catch_warnings():  # an unknown $schema: Draft 2020-12, without a warning
        warnings.simplefilter("ignore")
        base = validators.validator_for(schema, default=Draft202012Validator)
    try:
        meta = base(base.META_SCHEMA, format_checker=None)  # no format checker: no regex run
        wrong = best_match(meta.iter_errors(schema))
        if wrong is not None:
            raise SchemaError.create_from(wrong)
        skipped = {p: why for p in _patterns(schema) if (why := risky_pattern(p))}
        for p in set(_patterns(schema)) - set(skipped):
            re.compile(p)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.path)
        why = safe(exc.message)
        raise GrammarProblem(f"spec.{key} is not a valid JSON Schema at /{where}: {why}") from None
    except re.error as exc:
        raise GrammarProblem(f"spec.{key} has a pattern Python cannot read: {safe(exc)}") from None
    except RecursionError:
        raise GrammarProblem(f"spec.{key} nests too deeply to check") from None
    spent = [0]
    wrap = _keyword_budget(spent)
    keywords = {name: wrap(fn) for name, fn in base.VALIDATORS.items()}
    keywords.update({k: wrap(v) for k, v in _pattern_keywords(_matcher(skipped)).items()})
    checker = _extend(base, validators=keywords)
    validator = checker(schema, format_checker=None, registry=Registry())
    return Grammar(key=key, validator=validator, skipped=skipped, _spent=spent)
