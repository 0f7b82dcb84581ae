"""Answers of :class:`sunbot.agents.llm.LLMStrategy`: from a model's text to a legal action.

Private helpers. :func:`extract` finds the action in the text (a fenced ``json`` block, the
first balanced ``{...}`` object, or a number into the numbered list); :class:`Judge` checks
it against the served action grammar and the legal actions and returns the legal action
itself (a copy of the list's element), or the reason it was not accepted.
:func:`response_format` builds the structured-output request for one decision.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from sunbot.generic.grammar import Grammar, GrammarProblem, compile_grammar
from sunbot.observations.harvest_watch import DIARY_MAX, SPEECH_MAX
from sunbot.probe.grammar import find_grammar

log = logging.getLogger("sunbot.agents.llm")

#: Legal actions up to which the response schema lists them one by one (else: the grammar).
NARROW_MAX = 64
#: Characters of a model's answer searched for an action.
SCAN_MAX = 20_000
#: Harvest Watch's text commands and their longest text (characters), from the rules.
TEXT_LIMITS = {"speech": SPEECH_MAX, "diary": DIARY_MAX}
#: Characters shared with the system prompt that make a text answer a leak.
LEAK_WINDOW = 40
#: Actions read from one answer at most (an answer naming two different ones is re-asked).
CANDIDATES_MAX = 16
#: What a text beat's answer may not be: the placeholders of our prompts and of the
#: platform's example command, folded (lower case, letters and digits only).
PLACEHOLDERS = frozenset(
    {"", "text", "speech", "diary", "your words", "your note", "your text", "your speech",
     "your diary", "your own words", "words", "note", "untrusted"}
)  # fmt: skip

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_INDEX = re.compile(r"[\s*#(\[]*(\d{1,4})[\s*.)\]]*")
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Verdict:
    """What the judge made of one answer: ``action`` (the legal action, or ``None``),
    ``reason`` (why it was not accepted), ``outcome``: ``ok``, ``unparsable`` (no action
    could be read) or ``illegal`` (an action was read, but it is not one legal action:
    outside the grammar or the list, two different ones, a placeholder text)."""

    action: Any
    reason: str | None
    outcome: str


@dataclass(frozen=True)
class TextCommand:
    """A beat whose legal list holds one example text command (Harvest Watch's speech
    and diary beats): any ``{key: text}`` of 1 to ``max`` characters is legal."""

    key: str
    max: int


def text_command(game: str, legal_actions: list[Any]) -> TextCommand | None:
    """The beat's text command, or ``None`` when the legal list is a list to pick from."""
    if game != "harvest-watch" or len(legal_actions) != 1:
        return None
    only = legal_actions[0]
    if isinstance(only, dict) and len(only) == 1:
        key, value = next(iter(only.items()))
        if key in TEXT_LIMITS and isinstance(value, str):
            return TextCommand(key, TEXT_LIMITS[key])
    return None


def split_thinking(text: str) -> tuple[str, str | None]:
    """``(answer, reasoning)``: ``<think>…</think>`` blocks some local models put in the
    answer itself, moved out."""
    found = _THINK.findall(text)
    if not found:
        return text, None
    return _THINK.sub("", text), "\n".join(found)


def _balanced(text: str, start: int) -> str | None:
    """The ``{...}`` starting at ``start``, braces counted outside JSON strings."""
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def candidates(text: str) -> list[tuple[str, Any]]:
    """Every action a model's text proposes, in order: ``[("index", n)]`` for a bare
    number (1-based, into the numbered list), else ``("json", value)`` for each fenced
    ``json`` block that parses and each balanced ``{...}`` object that parses (objects
    side by side, not those inside another; at most :data:`CANDIDATES_MAX`). Only the first
    :data:`SCAN_MAX` characters are read, without ``<think>`` blocks."""
    text, _ = split_thinking(text[:SCAN_MAX])
    stripped = text.strip()
    if (m := _INDEX.fullmatch(stripped)) is not None:
        return [("index", int(m.group(1)))]
    found: list[tuple[str, Any]] = []
    for block in _FENCE.findall(text):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        if not isinstance(value, list):  # a fenced list's objects are found one by one below
            found.append(("json", value))
    tries = 0
    start = text.find("{")
    while start != -1 and tries < 50 and len(found) < CANDIDATES_MAX:
        tries += 1
        candidate = _balanced(text, start)
        if candidate is not None:
            try:
                found.append(("json", json.loads(candidate)))
                start = text.find("{", start + len(candidate))
                continue
            except ValueError:
                pass
        start = text.find("{", start + 1)
    return found


def extract(text: str) -> tuple[str, Any] | None:
    """The first action a model's text proposes (:func:`candidates`), or ``None``."""
    found = candidates(text)
    return found[0] if found else None


def _canonical(value: Any) -> str:
    """JSON with sorted keys: ``1``, ``1.0`` and ``true`` stay different."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


def leaks(text: str, secret: str, window: int = LEAK_WINDOW) -> bool:
    """``True`` when ``text`` shares ``window`` consecutive characters (whitespace and case
    folded) with ``secret`` (the system prompt)."""
    a, b = _squash(text), _squash(secret)
    if len(a) < window:
        return False
    return any(a[i : i + window] in b for i in range(len(a) - window + 1))


class Judge:
    """Checks proposed actions against one game's served grammar and the legal actions.

    Args:
        game: the game's slug.
        spec: the served ``spec`` (its action grammar is found with
            :func:`sunbot.probe.grammar.find_grammar`), or ``None``. A grammar that is not
            a valid JSON Schema is ignored (with a warning).
    """

    def __init__(self, game: str, spec: Any) -> None:
        self.game = game
        _, grammar = find_grammar(spec)
        self.grammar: dict[str, Any] | None = None
        #: The served grammar compiled with the generic checks' bounds (a hostile pattern
        #: such as ``(a+)+`` is not run, every check ends within a step budget).
        self.validator: Grammar | None = None
        if grammar is not None:
            try:
                self.validator = compile_grammar(spec)
                self.grammar = grammar
            except GrammarProblem as exc:
                log.warning("the served action grammar is not a JSON Schema (%s)", exc)

    def judge(
        self, text: str, legal_actions: list[Any], system_prompt: str
    ) -> tuple[Any, str | None]:
        """``(action, None)`` with the legal action ``text`` proposes, or ``(None, reason)``
        (:meth:`verdict` without the outcome)."""
        v = self.verdict(text, legal_actions, system_prompt)
        return v.action, v.reason

    def verdict(self, text: str, legal_actions: list[Any], system_prompt: str) -> Verdict:
        """The :class:`Verdict` on the answer ``text``.

        The action is a copy of an element of ``legal_actions``, except on a text beat
        (:func:`text_command`), where it is ``{key: text}`` with the text on one line, cut to
        the rules' limit, and refused when it is a placeholder (the platform's example, one
        of :data:`PLACEHOLDERS`, an ``<untrusted ...>`` marker) or repeats the system
        prompt. An answer that names two different actions is refused (a model that echoes
        the numbered list has chosen nothing).
        """
        found = candidates(text)
        if not found:
            where = "in the answer"
            if len(text) > SCAN_MAX:  # the reason the model reads must say what was read
                where = f"in the answer's first {SCAN_MAX:,} characters (of {len(text):,})"
            return Verdict(None, f"no JSON action and no action number found {where}", "unparsable")
        kind, value = found[0]
        if kind == "index":
            if not 1 <= value <= len(legal_actions):
                reason = f"{value} is not a number from 1 to {len(legal_actions)}"
                return Verdict(None, reason, "illegal")
            return Verdict(copy.deepcopy(legal_actions[value - 1]), None, "ok")
        values = [_unwrap(v) for k, v in found]
        distinct = list({_canonical(v): v for v in values}.values())
        if len(distinct) > 1:
            shown = ", ".join(_clip(v, 80) for v in distinct[:3])
            more = "" if len(distinct) <= 3 else f" and {len(distinct) - 3} more"
            reason = (
                f"the answer names {len(distinct)} different actions ({shown}{more}); "
                "answer with exactly one"
            )
            return Verdict(None, reason, "illegal")
        value = values[0]
        if isinstance(value, int) and not isinstance(value, bool):
            return self.verdict(str(value), legal_actions, system_prompt)
        if not isinstance(value, dict):
            return Verdict(None, "the answer is not a JSON object", "unparsable")
        text_cmd = text_command(self.game, legal_actions)
        if text_cmd is not None:
            return self._text(value, text_cmd, system_prompt, legal_actions[0])
        error = self._grammar_error(value)
        if error is not None:
            reason = f"{_clip(value)} does not fit the action grammar: {error}"
            return Verdict(None, reason, "illegal")
        wanted = _canonical(value)
        for action in legal_actions:
            if _canonical(action) == wanted:
                return Verdict(copy.deepcopy(action), None, "ok")
        return Verdict(None, f"{_clip(value)} is not one of the legal actions", "illegal")

    def _text(
        self, value: dict[str, Any], cmd: TextCommand, system_prompt: str, example: Any
    ) -> Verdict:
        said = value.get(cmd.key)
        if set(value) != {cmd.key} or not isinstance(said, str):
            reason = f'on this beat answer {{"{cmd.key}": "text"}} and nothing else'
            return Verdict(None, reason, "illegal")
        flat = " ".join(_speakable(said).split())[: cmd.max].strip()
        if not flat:
            return Verdict(None, f"the {cmd.key} is empty", "illegal")
        shown = example.get(cmd.key) if isinstance(example, dict) else None
        if is_placeholder(flat, shown if isinstance(shown, str) else None):
            reason = f"the {cmd.key} is a placeholder, not your words: write what you say"
            return Verdict(None, reason, "illegal")
        if leaks(flat, system_prompt):
            reason = f"the {cmd.key} repeats your instructions; write your own words"
            return Verdict(None, reason, "illegal")
        action = {cmd.key: flat}
        error = self._grammar_error(action)
        if error is not None:
            reason = f"the {cmd.key} does not fit the command grammar: {error}"
            return Verdict(None, reason, "illegal")
        return Verdict(action, None, "ok")

    def _grammar_error(self, value: Any) -> str | None:
        """Why ``value`` does not fit the served grammar, or ``None`` (it fits, there is no
        grammar, or the check could not finish: the legal list still decides)."""
        if self.validator is None:
            return None
        try:
            errors = self.validator.errors(value)
        except GrammarProblem as exc:
            log.info("the action grammar could not check an answer (%s)", exc)
            return None
        return errors[0] if errors else None

    def legal(self, action: Any, legal_actions: list[Any], system_prompt: str) -> bool:
        """Whether ``action`` (e.g. a fallback's) is acceptable as it is."""
        got, _ = self.judge(_canonical(action), legal_actions, system_prompt)
        return got is not None and _canonical(got) == _canonical(action)


#: Unicode categories a public text of ours never carries: controls (ESC, NUL, BEL), format
#: characters (bidi overrides, zero-width), surrogates and private use.
_UNSPEAKABLE = frozenset(("Cc", "Cf", "Cs", "Co"))


def _speakable(text: str) -> str:
    """``text`` without :data:`_UNSPEAKABLE` characters (whitespace kept, to be flattened):
    a speech or diary goes to every seat's screen as it is sent."""
    return "".join(c for c in text if c.isspace() or unicodedata.category(c) not in _UNSPEAKABLE)


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", text.lower()).split())


def is_placeholder(text: str, example: str | None = None) -> bool:
    """Whether a speech or diary ``text`` is a placeholder rather than words: only
    punctuation (``…``), one of :data:`PLACEHOLDERS`, the platform's example text
    ``example``, an ``<untrusted ...>`` marker of our prompts, or a whole text in angle
    brackets (``<your words here>``, a template's slot)."""
    stripped = text.strip()
    if "<untrusted" in text.lower() or (stripped.startswith("<") and stripped.endswith(">")):
        return True
    folded = _fold(text)
    return folded in PLACEHOLDERS or (example is not None and folded == _fold(example))


def _unwrap(value: Any) -> Any:
    """The action inside the structured-output wrapper ``{"action": {...}}``."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("action"), dict):
        return value["action"]
    return value


def _clip(value: Any, limit: int = 200) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def _branch(action: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A schema accepting exactly ``action``, and whether it suits strict mode."""
    props: dict[str, Any] = {}
    strict = True
    for key, v in action.items():
        if v is None:
            props[key] = {"type": "null"}
        elif isinstance(v, bool):
            props[key] = {"type": "boolean", "enum": [v]}
        elif isinstance(v, int):
            props[key] = {"type": "integer", "enum": [v]}
        elif isinstance(v, float):
            props[key] = {"type": "number", "enum": [v]}
        elif isinstance(v, str):
            props[key] = {"type": "string", "enum": [v]}
        else:
            props[key] = {"const": v}
            strict = False
    schema = {
        "type": "object",
        "properties": props,
        "required": list(action),
        "additionalProperties": False,
    }
    return schema, strict


def _any_of(schema: Any) -> Any:
    """A copy of a grammar with ``oneOf`` read as ``anyOf`` (what structured-output
    engines support; the branches of an action grammar do not overlap)."""
    if isinstance(schema, dict):
        return {("anyOf" if k == "oneOf" else k): _any_of(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_any_of(v) for v in schema]
    return schema


def text_schema(cmd: TextCommand) -> dict[str, Any]:
    """The JSON Schema of a text beat's words: a string of 1 to the rules' limit of
    characters (a grammar built from it ends the model's text there)."""
    return {"type": "string", "minLength": 1, "maxLength": cmd.max}


def action_schema(
    game: str, legal_actions: list[Any], grammar: dict[str, Any] | None
) -> tuple[dict[str, Any], bool] | None:
    """``(schema, strict)`` of the answer ``{"action": ...}`` for one decision: the legal
    actions one by one (``anyOf`` of exact objects) when there are at most
    :data:`NARROW_MAX`, the text command's shape on a text beat, else the served grammar;
    ``None`` when there is nothing to narrow to."""
    cmd = text_command(game, legal_actions)
    inner: dict[str, Any] | None
    strict = True
    if cmd is not None:
        inner = {
            "type": "object",
            "properties": {cmd.key: text_schema(cmd)},
            "required": [cmd.key],
            "additionalProperties": False,
        }
    elif 0 < len(legal_actions) <= NARROW_MAX and all(isinstance(a, dict) for a in legal_actions):
        branches: list[dict[str, Any]] = []
        seen: set[str] = set()
        for action in legal_actions:
            if (key := _canonical(action)) in seen:
                continue
            seen.add(key)
            branch, ok = _branch(action)
            branches.append(branch)
            strict = strict and ok
        inner = {"anyOf": branches}
    elif grammar is not None:
        inner, strict = _any_of(grammar), False
    else:
        return None
    schema = {
        "type": "object",
        "properties": {"action": inner},
        "required": ["action"],
        "additionalProperties": False,
    }
    return schema, strict


def response_format(schema: dict[str, Any], strict: bool) -> dict[str, Any]:
    """The ``response_format`` request field for ``schema``."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "action", "schema": schema, "strict": strict},
    }
