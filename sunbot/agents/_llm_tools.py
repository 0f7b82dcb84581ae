"""Tool calls for :class:`sunbot.agents.llm.LLMStrategy`'s ``tools`` mode: each kind of legal
action as a function the model calls. Private helpers.

A kind is the value of the actions' discriminating field (``type`` in the single-player
games, ``act`` in a Harvest Watch action beat): ``PLACE``, ``MOVE``, ``farm_coop``... Each
kind is one function whose parameters are the action's other fields, each an ``enum`` of
the values that field takes in the legal list (so a model that follows the schema can only
pick values some legal action has; the combination is still checked). A list without a
discriminating field (a vote beat) is one function, ``choose``; a speech or diary beat is
one function named after its key, with the text bounded by the rules' length.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from sunbot.agents._llm_parse import text_command, text_schema

#: Fields that name an action's kind, in the order they are tried.
DISCRIMINATORS = ("type", "act", "kind", "action", "move")
#: Values listed in one parameter's ``enum`` at most (more: the parameter is left open).
ENUM_MAX = 200
#: The name of the one function of a list without a discriminating field.
CHOOSE = "choose"
_NAME = re.compile(r"[^A-Za-z0-9_-]")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _function_name(value: str, taken: set[str]) -> str:
    base = _NAME.sub("_", value)[:60] or "action"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


@dataclass
class ToolSet:
    """The ``tools`` of one decision and how to read a call back into an action:
    ``kinds`` maps a function's name to ``(field, value)`` (the discriminating field and
    its value; ``None`` for the ``choose`` and text functions)."""

    tools: list[dict[str, Any]]
    kinds: dict[str, tuple[str, str] | None] = field(default_factory=dict)

    def action(self, name: str, arguments: str) -> tuple[Any, str | None]:
        """``(action, None)`` for a call of ``name`` with the JSON ``arguments``, or
        ``(None, reason)``."""
        if name not in self.kinds:
            return None, f"{name[:60]!r} is not one of the functions offered"
        try:
            args = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            return None, f"the arguments of {name[:60]} are not JSON"
        if not isinstance(args, dict):
            return None, f"the arguments of {name[:60]} are not a JSON object"
        kind = self.kinds[name]
        if kind is None:
            return args, None
        key, value = kind
        return {key: value, **{k: v for k, v in args.items() if k != key}}, None


def _parameters(actions: list[dict[str, Any]], skip: str | None) -> dict[str, Any]:
    """The JSON Schema of a function's arguments: each field of ``actions`` but ``skip``,
    an ``enum`` of its values; required when every action has it."""
    values: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    for action in actions:
        for k, v in action.items():
            if k == skip:
                continue
            values.setdefault(k, {})[_canonical(v)] = v
            counts[k] = counts.get(k, 0) + 1
    props: dict[str, Any] = {}
    for k, seen in values.items():
        listed = list(seen.values())
        props[k] = {"enum": listed} if len(listed) <= ENUM_MAX else {}
    return {
        "type": "object",
        "properties": props,
        "required": [k for k in values if counts[k] == len(actions)],
        "additionalProperties": False,
    }


def _function(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def tool_set(game: str, legal_actions: list[Any]) -> ToolSet | None:
    """The functions of one decision, or ``None`` when the legal actions are not JSON
    objects (the decision is asked as text)."""
    cmd = text_command(game, legal_actions)
    if cmd is not None:
        params = {
            "type": "object",
            "properties": {cmd.key: text_schema(cmd)},
            "required": [cmd.key],
            "additionalProperties": False,
        }
        what = "what you say to the table" if cmd.key == "speech" else "your private note"
        return ToolSet([_function(cmd.key, f"Write {what}, in your own words.", params)],
                       {cmd.key: None})  # fmt: skip
    if not legal_actions or not all(isinstance(a, dict) for a in legal_actions):
        return None
    key = next(
        (d for d in DISCRIMINATORS if all(isinstance(a.get(d), str) for a in legal_actions)),
        None,
    )
    if key is None:
        params = _parameters(legal_actions, None)
        choose = _function(CHOOSE, "Play one of the legal actions.", params)
        return ToolSet([choose], {CHOOSE: None})
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal_actions:
        groups.setdefault(a[key], []).append(a)
    out = ToolSet([])
    taken: set[str] = set()
    for value, actions in groups.items():
        name = _function_name(value, taken)
        said = f"Play a legal action of kind {key}={value[:40]!r} ({len(actions)} legal)."
        out.tools.append(_function(name, said, _parameters(actions, key)))
        out.kinds[name] = (key, value)
    return out


__all__ = ["ToolSet", "tool_set"]
