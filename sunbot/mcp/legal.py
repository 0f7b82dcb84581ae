"""Which of a client's actions are sent: the ones the position's legal actions allow.

An MCP client's action is checked here before it reaches the run's loop, so that a typo
costs nothing (the loop abandons a run after a few refusals in a row): an action that is
not one of the position's legal actions is answered at once with the reason and the legal
actions, and nothing is sent or recorded. What is sent, the server judges; its refusals are
recorded in the transcript and answered with the server's reason.

- a game sunbot knows (Keelhold, Sunloaf, Naptuft): one of the answer's ``legalActions``,
  unchanged (JSON equality; the mirror checks that the list is the rules' whole list);
- Harvest Watch (``docs/rules/harvest-watch.md``): on the action and vote beats one of the
  beat's legal actions; on a speech or diary beat ``{"speech": text}`` / ``{"diary":
  text}`` of 1 to 200 / 80 characters (:mod:`sunbot.observations.harvest_watch`);
- a game sunbot has no engine for: one of ``legalActions``, or an action the game's served
  action grammar accepts (:mod:`sunbot.generic.grammar`), which the server then judges.
"""

from __future__ import annotations

import json
from typing import Any

from sunbot.generic.grammar import Grammar, GrammarProblem, compile_grammar
from sunbot.observations.harvest_watch import DIARY_MAX, SPEECH_MAX

__all__ = ["MAX_ACTION_BYTES", "grammar_of", "refusal"]

#: The largest action a client may send, in bytes of JSON (a game's action is a few dozen).
MAX_ACTION_BYTES = 16_384
_TEXT_BEATS = {"speech1": ("speech", SPEECH_MAX), "speech2": ("speech", SPEECH_MAX)}
_TEXT_BEATS["diary"] = ("diary", DIARY_MAX)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def grammar_of(spec: Any) -> Grammar | None:
    """The served action grammar of ``spec`` (an init answer's ``spec``), or ``None`` when
    it has none that can be used."""
    try:
        return compile_grammar(spec)
    except GrammarProblem:
        return None


def refusal(
    kind: str,
    observation: Any,
    legal_actions: list[Any],
    action: Any,
    grammar: Grammar | None = None,
) -> str | None:
    """Why ``action`` is not sent (module doc), or ``None`` when it is.

    Args:
        kind: ``"rules"`` (a single-player game sunbot knows), ``"match"`` (Harvest
            Watch) or ``"generic"`` (a game sunbot has no engine for).
        observation: the position (Harvest Watch: the view's ``data``, for its phase).
        legal_actions: the position's legal actions.
        grammar: a generic game's served grammar, if any.
    """
    try:
        size = len(json.dumps(action, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        return "the action is not plain JSON"
    if size > MAX_ACTION_BYTES:
        return f"the action is {size:,} bytes of JSON, more than the {MAX_ACTION_BYTES:,} sent"
    if any(_key(action) == _key(a) for a in legal_actions):
        return None
    if kind == "match":
        summary = observation.get("summary") if isinstance(observation, dict) else None
        phase = summary.get("phase") if isinstance(summary, dict) else None
        if phase in _TEXT_BEATS:
            key, limit = _TEXT_BEATS[phase]
            if not isinstance(action, dict) or list(action) != [key]:
                return f'the {phase} beat takes exactly {{"{key}": text}}'
            text = action[key]
            if not isinstance(text, str) or not 1 <= len(text) <= limit:
                return f"{key} must be a text of 1 to {limit} characters"
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                return f"{key} must be Unicode text (no lone surrogates)"
            return None
        return f"not one of the {phase or 'beat'}'s legal actions"
    if kind == "generic" and grammar is not None:
        try:
            errors = grammar.errors(action)
        except GrammarProblem as exc:
            return f"not one of the legal actions, and the served grammar cannot check it: {exc}"
        if not errors:
            return None
        return f"not one of the legal actions, nor what the served grammar accepts: {errors[0]}"
    return "not one of the legal actions"
