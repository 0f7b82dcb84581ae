"""Generic checks: what every Gameboard game promises, checked on a game sunbot does not know.

:class:`GenericChecks` has the interface of :class:`sunbot.mirror.Mirror` (``check_init``,
``check_action``, ``warm``, ``divergences``, ``responses_checked``, ``unknown_fields``) and
says ``kind = "generic"`` where the mirror would say ``"rules"``. It knows no rules: each
finding is a contradiction of the platform's envelope (``docs/guide-any-game.md``), never
of a game's rules, and its note begins ``generic check <name>``. The checks, by name:

=========================  ==============================================================
``envelope.ok``            an answer that is not a refusal has ``ok`` true (or no ``ok``)
``envelope.position``      it carries a position: ``stateToken`` (a string) or ``state``
``envelope.observation``   it has an ``observation``
``envelope.legalActions``  ``legalActions`` is a list
``envelope.score``         ``score`` is a finite number (not a boolean)
``envelope.gameOver``      ``gameOver`` is a boolean
``envelope.spec``          the init answer has a ``spec`` object
``grammar``                the spec's action grammar can be read and compiled
                           (:mod:`sunbot.generic.grammar`: where it is looked for, the
                           bounds); a pattern too costly to run is skipped (logged, not
                           a finding: the schema is valid)
``grammar.action``         every legal action validates against that grammar
``action.type``            every legal action is an object with a string ``type``
``gameOver.legalActions``  ``gameOver`` true comes with no legal action, false with some
``refusal.reason``         a refusal ``{ok: false}`` gives its ``reason`` as a string
``refusal.legalActions``   a refusal lists ``legalActions``: those of the position it
                           refused from (nothing changed)
``refusal.listed``         the refused action was not one the position listed as legal
=========================  ==============================================================

Findings about the legal actions are one per check and answer (a count and the first
example), so a long list cannot flood a run. Every refusal's reason is kept in
:attr:`GenericChecks.refusals` (scrubbed and clipped).
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from sunbot._text.safe import safe
from sunbot.generic.grammar import Grammar, GrammarProblem, compile_grammar
from sunbot.mirror import Divergence, Finding, same_set

__all__ = ["MAX_CHECKED_ACTIONS", "GenericChecks"]

#: Legal actions of one answer validated against the grammar (the rest are counted in
#: :attr:`GenericChecks.actions_unchecked`); results are cached by the action's JSON.
MAX_CHECKED_ACTIONS = 2_000
#: Distinct actions whose grammar result is remembered.
_CACHE = 20_000
_MISSING = "<missing>"

log = logging.getLogger("sunbot.generic")


def _note(name: str, text: str) -> str:
    return f"generic check {name}: {text}"


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _typed(action: Any) -> bool:
    """An action as the platform says: an object with a string ``type``."""
    return isinstance(action, dict) and isinstance(action.get("type"), str)


def _key(action: Any) -> str:
    try:
        return json.dumps(action, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return repr(action)


class GenericChecks:
    """Checks one run's answers against the platform's envelope (see the module docstring).

    Args:
        slug: the game (only named in messages).

    Attributes:
        kind: ``"generic"`` (the mirror's is ``"rules"``).
        responses_checked: answers checked so far (init included).
        unchecked: always 0 (every answer can be checked generically; the mirror's name).
        divergences: every finding, in order.
        unknown_fields: always empty: a generic game has no known fields, so none is unknown.
        refusals: ``(step, reason)`` of every refusal seen, the reason scrubbed and clipped.
        grammar: the compiled action grammar, ``None`` when it could not be used.
        actions_unchecked: legal actions past :data:`MAX_CHECKED_ACTIONS` in one answer,
            not validated against the grammar.
    """

    kind = "generic"

    def __init__(self, slug: str = "") -> None:
        self.slug = slug
        self.responses_checked = 0
        self.unchecked = 0
        self.divergences: list[Divergence] = []
        self.unknown_fields: set[str] = set()
        self.refusals: list[tuple[int, str]] = []
        self.grammar: Grammar | None = None
        self.actions_unchecked = 0
        self._verdicts: dict[str, list[str]] = {}

    @property
    def grammar_at(self) -> str | None:
        """``spec.<key>`` the grammar was read from, ``None`` when none is used."""
        return f"spec.{self.grammar.key}" if self.grammar is not None else None

    def _record(self, step: int, findings: list[Finding]) -> list[Divergence]:
        out = [Divergence(step, *f) for f in findings]
        self.divergences.extend(out)
        return out

    def warm(self, init: dict[str, Any], steps: list[tuple[Any, dict[str, Any]]]) -> None:
        """Re-check a recorded run (the ``init`` answer, then ``(action, answer)`` per step)
        before it resumes, so that the grammar is compiled from the recorded spec; the
        counts, findings and refusals then start again from 0."""
        self.check_init(init)
        prev = init
        for i, (action, response) in enumerate(steps, start=1):
            self.check_action(i, prev, action, response)
            if isinstance(response, dict) and response.get("ok") is not False:
                prev = response
        self.responses_checked = self.actions_unchecked = 0
        self.divergences, self.refusals = [], []

    def check_init(self, response: dict[str, Any]) -> list[Divergence]:
        """Check the init answer (raw JSON): the envelope, the spec and its grammar, the
        legal actions. Compiles the grammar for the run. Returns the findings."""
        self.responses_checked += 1
        findings: list[Finding] = []
        if not isinstance(response, dict):
            note = _note("envelope.ok", "the answer is not an object")
            return self._record(0, [Finding("answer", "a JSON object", response, note)])
        spec = response.get("spec", _MISSING)
        self.grammar = None
        if not isinstance(spec, dict):
            note = _note("envelope.spec", "the init answer has no spec object")
            findings.append(Finding("spec", "an object", spec, note))
        else:
            findings += self._compile(spec)
        findings += self._envelope(response)
        return self._record(0, findings)

    def check_action(
        self, step: int, prev: dict[str, Any], action: Any, response: dict[str, Any]
    ) -> list[Divergence]:
        """Check the answer to ``action`` sent from the position answered in ``prev``
        (both raw JSON). Returns the findings."""
        self.responses_checked += 1
        if not isinstance(response, dict):
            note = _note("envelope.ok", "the answer is not an object")
            return self._record(step, [Finding("answer", "a JSON object", response, note)])
        if response.get("ok") is False:
            return self._record(step, self._refusal(step, prev, action, response))
        return self._record(step, self._envelope(response))

    def _compile(self, spec: dict[str, Any]) -> list[Finding]:
        self._verdicts = {}
        try:
            self.grammar = compile_grammar(spec)
        except GrammarProblem as exc:
            return [Finding("spec", "a readable action grammar", "?", _note("grammar", str(exc)))]
        # a pattern we choose not to run (too long, a backreference, a nested repeat) is
        # valid JSON Schema: the server did nothing wrong, so it is no divergence; the
        # actions are checked without it and the log says which pattern was skipped
        for p, why in self.grammar.skipped.items():
            log.info("generic checks: the grammar's pattern %s is not run (%s)", safe(p, 80), why)
        return []

    def _envelope(self, r: dict[str, Any]) -> list[Finding]:
        """The fields every success answer has, then its legal actions."""
        out: list[Finding] = []
        if "ok" in r and r["ok"] is not True:
            out.append(Finding("ok", True, r["ok"], _note("envelope.ok", "ok is not true")))
        token, state = r.get("stateToken"), r.get("state")
        if token is not None and not isinstance(token, str):
            note = _note("envelope.position", "stateToken is not a string")
            out.append(Finding("stateToken", "a string", token, note))
        elif token is None and state is None:
            note = _note("envelope.position", "neither stateToken nor state: nothing to carry")
            out.append(Finding("state", "stateToken or state", _MISSING, note))
        if "observation" not in r:
            note = _note("envelope.observation", "no observation")
            out.append(Finding("observation", "present", _MISSING, note))
        score = r.get("score", _MISSING)
        if not _number(score):
            note = _note("envelope.score", "score is not a finite number")
            out.append(Finding("score", "a finite number", score, note))
        over = r.get("gameOver", _MISSING)
        if not isinstance(over, bool):
            note = _note("envelope.gameOver", "gameOver is not a boolean")
            out.append(Finding("gameOver", "a boolean", over, note))
        legal = r.get("legalActions", _MISSING)
        if not isinstance(legal, list):
            note = _note("envelope.legalActions", "legalActions is not a list")
            return [*out, Finding("legalActions", "a list", legal, note)]
        if over is True and legal:
            note = _note("gameOver.legalActions", f"gameOver is true with {len(legal)} legal")
            out.append(Finding("legalActions", [], f"{len(legal)} actions", note))
        elif over is False and not legal:
            note = _note("gameOver.legalActions", "gameOver is false with no legal action")
            out.append(Finding("legalActions", "at least one action", [], note))
        return out + self._actions(legal, "legalActions")

    def _actions(self, legal: list[Any], path: str) -> list[Finding]:
        """``action.type`` and ``grammar.action`` over ``legal``: one finding per check."""
        out: list[Finding] = []
        untyped = [i for i, a in enumerate(legal) if not _typed(a)]
        if untyped:
            first = untyped[0]
            text = f"{len(untyped)} of {len(legal)} legal actions are not an object with a type"
            note = _note("action.type", text)
            out.append(Finding(f"{path}[{first}]", "an object with a type", legal[first], note))
        if self.grammar is None:
            return out
        bad: list[tuple[int, str]] = []
        checked = legal[:MAX_CHECKED_ACTIONS]
        self.actions_unchecked += len(legal) - len(checked)
        for i, action in enumerate(checked):
            try:
                errors = self._verdict(action)
            except GrammarProblem as exc:
                where = self.grammar_at
                self.grammar = None  # one finding, then the rest of the run goes unchecked
                note = _note("grammar", f"cannot check against {where}, so no more: {exc}")
                return [*out, Finding(f"{path}[{i}]", "checkable", action, note)]
            if errors:
                bad.append((i, errors[0]))
        if bad:
            first, why = bad[0]
            where = self.grammar_at
            text = f"{len(bad)} of {len(checked)} legal actions do not match {where} ({why})"
            note = _note("grammar.action", text)
            out.append(Finding(f"{path}[{first}]", f"valid under {where}", checked[first], note))
        return out

    def _verdict(self, action: Any) -> list[str]:
        assert self.grammar is not None
        key = _key(action)
        found = self._verdicts.get(key)
        if found is None:
            found = self.grammar.errors(action)
            if len(self._verdicts) < _CACHE:
                self._verdicts[key] = found
        return found

    def _refusal(self, step: int, prev: Any, action: Any, r: dict[str, Any]) -> list[Finding]:
        out: list[Finding] = []
        reason = r.get("reason", _MISSING)
        if "reason" not in r or not isinstance(reason, str):
            note = _note("refusal.reason", "a refusal without a reason string")
            out.append(Finding("reason", "a string", reason, note))
        told = safe(reason) if "reason" in r and isinstance(reason, str) else "<no reason>"
        self.refusals.append((step, told))
        before = prev.get("legalActions") if isinstance(prev, dict) else None
        legal = r.get("legalActions", _MISSING)
        if not isinstance(legal, list):
            note = _note("refusal.legalActions", "a refusal without a legalActions list")
            out.append(Finding("legalActions", "a list", legal, note))
        elif isinstance(before, list):
            for f in same_set(before, legal, "legalActions"):
                note = _note("refusal.legalActions", "not the refused position's legal actions")
                out.append(f._replace(note=note))
        if isinstance(before, list) and _key(action) in {_key(a) for a in before}:
            note = _note("refusal.listed", "the server refused an action it listed as legal")
            out.append(Finding("ok", True, False, note))
        return out
