"""The mirror: recompute every server answer with our engine and report each divergence.

After each answer the mirror takes the previous position and the action sent, lets the
game's engine play it (adopting only what the rules leave to chance: newly drawn crates,
rooms, forecasts, jams, the cursor), and compares every field the rules determine, plus
the envelope's ``legalActions``, ``score``, ``gameOver`` and ``observation``. A divergence
is a record ``(step, path, expected, got, note)``; the server stays authoritative and play
continues from its answer. Game-specific hooks live in ``sunbot/mirror/<game>.py``; what
they give the mirror is :mod:`sunbot.mirror.hooks`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

import orjson

from sunbot._text.safe import MAX_TEXT, describe, safe
from sunbot.engines import IllegalAction
from sunbot.games import GameInfo, get_game
from sunbot.mirror.fields import KeyTemplate, is_int, merge, pattern, under
from sunbot.mirror.hooks import MirrorHooks


class Finding(NamedTuple):
    """A divergence before it is numbered: field path, expected, got, and a short note."""

    path: str
    expected: Any
    got: Any
    note: str = ""


@dataclass(frozen=True)
class Divergence:
    """One field where the server's answer differs from the rules.

    ``step`` is the action's index in the run (0 for the init answer), ``path`` a dotted
    field path such as ``state.hold[3][0].weight``. ``expected`` and ``got`` are kept in
    their bounded form only: as they are when their JSON is at most
    :data:`~sunbot._text.safe.MAX_TEXT` characters, else that JSON cut (a string), so a
    server's megabyte value is not held for the whole run (one a step would grow the
    process without bound).
    """

    step: int
    path: str
    expected: Any
    got: Any
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "expected", _bounded(self.expected))
        object.__setattr__(self, "got", _bounded(self.got))

    def to_json(self) -> dict[str, Any]:
        """The transcript form: ``expected``/``got`` in their bounded form, ``note`` cut
        likewise (a server's value may be a megabyte)."""
        return {
            "step": self.step,
            "path": safe(self.path),
            "expected": self.expected,
            "got": self.got,
            "note": safe(self.note),
        }

    def __str__(self) -> str:
        if self.path == "model" and self.expected is None and self.got is None:
            # a forward model that could not predict: its reason, no values
            return f"step {self.step}: {safe(self.note.removeprefix('model: '))}"
        extra = f" ({safe(self.note)})" if self.note else ""
        shown = f"expected {safe(repr(self.expected))}, got {safe(repr(self.got))}"
        return f"step {self.step}: {safe(self.path)}: {shown}{extra}"


_BIG = 10**15


def _bounded(value: Any) -> Any:
    """``value`` if its JSON is short, else the JSON text clipped (secrets scrubbed)."""
    if (
        value is None
        or type(value) in (bool, float)
        or (type(value) is int and -_BIG < value < _BIG)
    ):
        return value  # a scalar's JSON is short
    if type(value) is str and len(value) <= MAX_TEXT // 6 - 2:
        return value  # even a string of escapes stays within MAX_TEXT
    text = json.dumps(value, default=str, ensure_ascii=False)
    return value if len(text) <= MAX_TEXT else safe(text)


_MISSING = "<missing>"
_SORTED = orjson.OPT_SORT_KEYS
#: Notes :func:`diff` gives a field only one side has; the mirror filters on them.
MISSING_FIELD = "field missing"
UNKNOWN_FIELD = "unknown field"
#: The envelope fields of the platform protocol; others are unknown.
ENVELOPE_KEYS = frozenset(
    ("ok", "state", "stateToken", "observation", "legalActions", "score", "gameOver", "spec")
) | {"reason"}


def _same_scalar(a: Any, b: Any) -> bool:
    return bool(a == b) and isinstance(a, bool) == isinstance(b, bool)


def same_json(expected: Any, got: Any) -> bool:
    """Whether two JSON values are the same to :func:`diff` at a glance: equal (Python's
    ``==``, in C) and with the same JSON text once keys are sorted (which tells ``True``
    from ``1``). ``False`` means "look closer", not "different" (``3`` and ``3.0``)."""
    if expected != got:
        return False
    try:
        return bool(orjson.dumps(expected, option=_SORTED) == orjson.dumps(got, option=_SORTED))
    except TypeError:  # an integer past 64 bits, a lone surrogate: the walk decides
        return False


def diff(expected: Any, got: Any, path: str) -> list[Finding]:
    """Every leaf where ``got`` differs from ``expected`` (dict keys, list items, scalars).

    ``True`` and ``1`` differ; ``3`` and ``3.0`` do not. A list of another length is one
    finding for the whole list. Values that are the same at a glance (:func:`same_json`,
    every honest answer) are not walked.
    """
    if same_json(expected, got):
        return []
    return _diff(expected, got, path)


def _diff(expected: Any, got: Any, path: str) -> list[Finding]:
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[Finding] = []
        for key in expected.keys() | got.keys():
            sub = f"{path}.{key}"
            if key not in got:
                out.append(Finding(sub, expected[key], _MISSING, MISSING_FIELD))
            elif key not in expected:
                out.append(Finding(sub, _MISSING, got[key], UNKNOWN_FIELD))
            else:
                out.extend(_diff(expected[key], got[key], sub))
        return sorted(out)
    if isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            return [Finding(path, expected, got, "length differs")]
        out = []
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            out.extend(_diff(e, g, f"{path}[{i}]"))
        return out
    if isinstance(expected, dict | list) or isinstance(got, dict | list):
        return [Finding(path, expected, got, "type differs")]
    return [] if _same_scalar(expected, got) else [Finding(path, expected, got)]


class Mirror:
    """Checks one run's answers; keeps the count and the divergences found.

    The mirror reads a server it may not have written (:mod:`sunbot.mirror.fields`): unknown
    fields are stripped before the rules are replayed and listed in :attr:`unknown_fields`,
    never reported; a field the server leaves out is a divergence only when the game's rule
    text promises it (the hooks' ``PROMISED`` patterns, less their ``NOT_PROMISED`` parts,
    e.g. one key of a promised object), and the mirror fills it from its own
    expectation so that every later step is still checked (it never goes blind).

    Args:
        slug: the game.

    Attributes:
        responses_checked: answers compared so far (init included).
        unchecked: answers that could not be checked (no state to replay from).
        divergences: every divergence found, in order.
        unknown_fields: path patterns of the fields seen that the rules do not define
            (e.g. ``state.rev``, ``state.queue[].tag``, ``tip`` at the envelope's top).
        tracked: top-level state and observation fields whose encoding the rule text does
            not fix (the hooks' ``TRACKED``): a server's value is dropped unread, never
            compared, and the mirror's own replay supplies them.
        offsets: constant offsets of top-level counters whose numbering the text leaves
            open, learned from the opening by the hooks' optional ``numbering(state)``; a
            server's value is read minus its offset (findings show it in our numbering).
    """

    def __init__(self, slug: str) -> None:
        self.game: GameInfo = get_game(slug)
        hooks = self.game.mirror
        if hooks is None:
            raise KeyError(f"no mirror for {slug}")
        self.hooks: MirrorHooks = hooks
        self.responses_checked = 0
        self.unchecked = 0
        self.divergences: list[Divergence] = []
        self.unknown_fields: set[str] = set()
        self.promised: frozenset[str] | None = getattr(self.hooks, "PROMISED", None)
        #: Patterns inside a promised field that the text still does not promise.
        self.not_promised: frozenset[str] = getattr(self.hooks, "NOT_PROMISED", frozenset())
        self.tracked: frozenset[str] = getattr(self.hooks, "TRACKED", frozenset())
        self.offsets: dict[str, int] = {}
        self.template = KeyTemplate()
        #: Per compared value ("state", "observation"): key paths our reading leaves out.
        self._gaps: dict[str, set[tuple[str, ...]]] = {}
        states = list(self.hooks.template_states())
        for state in states:
            self.template.learn(state, "state")
            self.template.learn(self._expected_envelope(state)["observation"], "observation")
        self._shadow: dict[str, Any] | None = None
        self._shadow_of: Any = None
        #: Top-level state fields our rules always hold as integers (for plain messages).
        self.int_fields = frozenset(
            k for k in (states[0] if states else {}) if all(is_int(st.get(k)) for st in states)
        )

    def _record(self, step: int, findings: list[Finding]) -> list[Divergence]:
        out = [Divergence(step, *f) for f in findings]
        self.divergences.extend(out)
        return out

    def _read(self, value: Any, path: str) -> Any:
        """``value`` without the keys our rules do not define (they are noted as unknown)."""
        clean, dropped = self.template.strip(value, path)
        self.unknown_fields.update(pattern(p) for p in dropped)
        if isinstance(clean, dict) and path in ("state", "observation"):
            for key in self.tracked:  # the mirror's own count: the server's is never read
                clean.pop(key, None)
            for key, offset in self.offsets.items():  # the server's numbering to ours
                if type(clean.get(key)) is int:
                    clean[key] -= offset
            spelling = getattr(self.hooks, "our_spelling", None)
            if spelling is not None:  # a reading the text allows, written the way ours is
                spelling(clean)
        return clean

    def _note_envelope(self, response: dict[str, Any]) -> None:
        self.unknown_fields.update(k for k in response if k not in ENVELOPE_KEYS)

    def _is_promised(self, path: str) -> bool:
        shape = pattern(path)
        if under(shape, self.not_promised):
            return False
        return self.promised is None or under(shape, self.promised)

    def _keep(self, findings: list[Finding]) -> list[Finding]:
        """Drop unknown fields (noted) and missing fields the rules never promise."""
        out: list[Finding] = []
        for f in findings:
            if f.note == UNKNOWN_FIELD and not self.template.knows(f.path):
                self.unknown_fields.add(pattern(f.path))
            elif f.note == MISSING_FIELD and not self._is_promised(f.path):
                continue
            else:
                out.append(f)
        return out

    def _compare(self, expected: Any, got: Any, path: str) -> list[Finding]:
        """The kept findings of the walk (:func:`diff`); learns the gaps of ``path``: the
        fields our reading leaves out of every answer (tracked counts, fields the text
        does not fix) that the walk found missing and dropped, so that the next answer
        equal to the rules but for them is seen as such at a glance (:meth:`_fill_gaps`)."""
        found = _diff(expected, got, path)
        kept = self._keep(found)
        left_out = [f for f in found if f not in kept]
        dropped = [f.path for f in left_out]
        if all(f.note == MISSING_FIELD and "[" not in f.path for f in left_out):
            gaps = self._gaps.setdefault(path, set())
            gaps.update(tuple(p.split(".")[1:]) for p in dropped)
        return kept

    def _fill_gaps(self, expected: Any, got: Any, path: str) -> Any:
        """``got`` with the learned gaps of ``path`` it lacks filled from ``expected``
        (copies along the way; ``got`` itself is not changed). The walk would find those
        fields missing and drop them, so a filled answer the same as ``expected`` has no
        finding, and is what :func:`merge` would make of it."""
        gaps = self._gaps.get(path)
        if not gaps or type(got) is not dict or type(expected) is not dict:
            return got
        out = dict(got)
        for keys in gaps:
            ours: Any = expected
            theirs: Any = out
            for key in keys[:-1]:
                ours, sub = ours.get(key), theirs.get(key)
                if type(ours) is not dict or type(sub) is not dict:
                    break
                theirs[key] = theirs = dict(sub)
            else:
                last = keys[-1]
                if last not in theirs and type(ours) is dict and last in ours:
                    theirs[last] = ours[last]
        return out

    def _complete(self, state: dict[str, Any], opening: bool) -> dict[str, Any]:
        hook = getattr(self.hooks, "complete", None)
        out: dict[str, Any] = hook(state, opening=opening) if hook is not None else state
        return out

    def _base(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The complete position to replay from: the shadow of ``raw`` when it is the last
        answer checked, else ``raw`` read and completed (a resumed or re-checked run)."""
        if self._shadow is not None and self._shadow_of is raw:
            return self._shadow
        return self._complete(self._read(raw, "state"), opening=False)

    def _remember(self, raw: Any, complete: dict[str, Any]) -> None:
        self._shadow, self._shadow_of = complete, raw

    def warm(self, init: dict[str, Any], steps: list[tuple[Any, dict[str, Any]]]) -> None:
        """Re-check a recorded run (``init`` answer, then ``(action, answer)`` per step, the
        raw JSON objects of its transcript) so that what the mirror tracks itself (Keelhold's
        chain, Naptuft's wish streak when hidden) is known when the run resumes.

        The findings were recorded when the run was played; they are discarded here and the
        counts start again from 0. Unknown fields seen are kept.
        """
        self.check_init(init)
        prev = init
        for i, (action, response) in enumerate(steps, start=1):
            self.check_action(i, prev, action, response)
            if response.get("ok") is not False:
                prev = response
        self.responses_checked = self.unchecked = 0
        self.divergences = []

    def check_init(self, response: dict[str, Any]) -> list[Divergence]:
        """Check the init answer (raw JSON); returns the divergences found."""
        state = _position(response)
        if not isinstance(state, dict):
            self.unchecked += 1
            return []
        self.responses_checked += 1
        self._note_envelope(response)
        learn = getattr(self.hooks, "numbering", None)
        self.offsets = learn(state) if learn is not None else {}
        try:
            got = self._read(state, "state")
            base = self._complete(got, opening=True)
            findings = self._keep(diff(base, got, "state"))
            findings += list(self.hooks.check_initial(base))
            findings += self._envelope(base, response)
            self._remember(state, base)
        except Exception as exc:  # an opening of another shape must not stop the run
            note = self.wrong_types(state) or f"cannot read this opening: {describe(exc)}"
            findings = [Finding("state", f"a {self.game.name} opening position", "?", note)]
        return self._record(0, findings)

    def check_action(
        self, step: int, prev: dict[str, Any], action: Any, response: dict[str, Any]
    ) -> list[Divergence]:
        """Check the answer to ``action`` sent from the position answered in ``prev``.

        ``prev`` and ``response`` are raw answers (JSON objects). Returns the divergences.
        """
        prev_state = _position(prev)
        if not isinstance(prev_state, dict):
            self.unchecked += 1
            return []
        self.responses_checked += 1
        self._note_envelope(response)
        refused = response.get("ok") is False
        raw_got = _position(response) if not refused else None
        got: dict[str, Any] = self._read(raw_got, "state") if isinstance(raw_got, dict) else {}
        try:
            base = self._base(prev_state)
            expected, findings = self.hooks.expected_after(base, action, got)
        except IllegalAction as exc:
            if refused:
                legal = self._expected_envelope(base)["legalActions"]
                return self._record(step, self._legal(legal, response.get("legalActions")))
            note = f"server accepted an action the rules refuse: {exc}"
            self._forget(raw_got, got)
            return self._record(step, [Finding("ok", False, True, note)])
        except Exception as exc:  # a malformed previous answer must not stop the run
            note = self.wrong_types(prev_state) or f"cannot replay the rules here: {describe(exc)}"
            self._forget(raw_got, got)
            return self._record(step, [Finding("state", "a replayable position", "?", note)])
        if refused:
            note = f"server refused a legal action: {response.get('reason')}"
            return self._record(step, [Finding("ok", True, False, note)])
        findings = list(findings)
        filled = self._fill_gaps(expected, got, "state")
        same = same_json(expected, filled)  # every field as the rules say
        if not same:
            findings += self._compare(expected, got, "state")
        try:
            findings += self._envelope(expected, response)
            self._remember(raw_got, filled if same else merge(expected, got))
        except Exception as exc:  # a value of the wrong type must not stop the run
            note = self.wrong_types(got) or f"cannot check this answer: {describe(exc)}"
            findings.append(Finding("state", "a checkable position", "?", note))
            self._forget(raw_got, got)
        return self._record(step, findings)

    def wrong_types(self, state: Any) -> str:
        """``server answer: score is "lots", expected an integer`` for the first top-level
        field of ``state`` that the rules hold as an integer and the server sent as
        something else (a string, a float, NaN, ``true``); ``""`` when there is none."""
        if not isinstance(state, dict):
            return ""
        for key in sorted(self.int_fields):
            value = state.get(key, 0)
            if not is_int(value):
                shown = safe(json.dumps(value, default=str, ensure_ascii=False))
                return f"server answer: {safe(key)} is {shown}, expected an integer"
        return ""

    def _forget(self, raw: Any, got: dict[str, Any]) -> None:
        """After a step the rules could not replay, go on from the server's own answer."""
        if isinstance(raw, dict):
            try:
                self._remember(raw, self._complete(got, opening=False))
            except Exception:  # nothing to go on from: the next step reads the answer anew
                self._shadow = self._shadow_of = None

    def _expected_envelope(self, state: dict[str, Any]) -> dict[str, Any]:
        hook = getattr(self.hooks, "expected_envelope", None)
        if hook is not None:
            out: dict[str, Any] = hook(state)
            return out
        eng = self.game.engine
        return {
            "legalActions": eng.legal_actions(state),
            "score": eng.score(state),
            "gameOver": eng.is_over(state),
            "observation": eng.observation(state),
        }

    def _legal(self, expected: list[Any], got: Any) -> list[Finding]:
        """``legalActions``: the set, then the hooks' ``legal_order`` (what the text fixes of
        the order), if the game has one."""
        found = same_set(expected, got, "legalActions")
        order = getattr(self.hooks, "legal_order", None)
        if found or order is None:
            return found
        out: list[Finding] = order(got)
        return out

    def _envelope(self, state: dict[str, Any], response: dict[str, Any]) -> list[Finding]:
        out: list[Finding] = []
        for key, value in self._expected_envelope(state).items():
            if key == "observation":
                if "observation" not in response:
                    continue
                got = self._read(response["observation"], "observation")
                if not same_json(value, self._fill_gaps(value, got, key)):
                    out += self._compare(value, got, key)
                continue
            if key == "legalActions":
                out += self._legal(value, response.get(key, _MISSING))
                continue
            out += diff(value, response.get(key, _MISSING), key)
        return out


def _position(response: dict[str, Any]) -> Any:
    """The position an answer shows: its ``state``, or its ``observation`` when a server
    sends only that and a token (the observation is all a player is promised)."""
    state = response.get("state")
    return state if isinstance(state, dict) else response.get("observation")


def same_set(expected: list[Any], got: Any, path: str) -> list[Finding]:
    """``got`` lists exactly the actions of ``expected``, in any order: the rule texts fix
    which actions are legal, not the order a server lists them in."""
    if isinstance(got, list) and (
        same_json(expected, got) or sorted(map(_key, got)) == sorted(map(_key, expected))
    ):
        return []
    return [Finding(path, expected, got, "the legal actions, in any order")]


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


__all__ = [
    "MISSING_FIELD",
    "UNKNOWN_FIELD",
    "Divergence",
    "Finding",
    "Mirror",
    "diff",
    "same_set",
]
