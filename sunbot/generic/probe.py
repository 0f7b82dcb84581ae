"""Probing a game sunbot has no engine for: can it be played on the protocol alone?

:func:`probe_generic` starts the game with a seed, reads the init answer as raw JSON (so a
missing envelope field is named, not retried as a broken body), plays a few first legal
actions and runs every answer through :class:`~sunbot.generic.checks.GenericChecks`. Its
:class:`GenericProbe` says what the game lacks: the envelope fields the platform promises
(``legalActions``, ``spec``, a position to carry...), a usable action grammar, an opening at
all. ``sunbot probe URL`` (:mod:`sunbot.probe`) runs it for every listed game it does not
know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
from pydantic import ValidationError

from sunbot._text.safe import safe
from sunbot.client import ClientError, GameboardClient, Position, Rejected
from sunbot.client.models import ActionAnswer, Envelope
from sunbot.generic.checks import GenericChecks
from sunbot.mirror import Divergence

__all__ = ["ENVELOPE_FIELDS", "GenericProbe", "probe_generic"]

#: The generic check of each envelope field -> the field named in ``missing``.
ENVELOPE_FIELDS = {
    "envelope.ok": "ok",
    "envelope.position": "stateToken or state",
    "envelope.observation": "observation",
    "envelope.legalActions": "legalActions",
    "envelope.score": "score",
    "envelope.gameOver": "gameOver",
    "envelope.spec": "spec",
}
#: Characters of one finding kept in a report.
_NOTE = 300


@dataclass
class GenericProbe:
    """What probing one game sunbot does not know found.

    Attributes:
        slug: the game.
        carry: how the server carries a position: ``"stateToken"``, ``"state only"``, or
            ``None`` before an opening was read.
        steps: legal actions played and accepted.
        missing: envelope fields the answers lack or give in the wrong kind (the names of
            :data:`ENVELOPE_FIELDS`), first seen first.
        grammar_at: the ``spec`` key the action grammar was read from (``None``: none used).
        grammar_error: why no grammar can be used (none in the spec, not a JSON Schema,
            no spec at all); ``None`` when one is.
        findings: the other generic checks' notes (one per check, scrubbed and clipped):
            legal actions that do not match the grammar, untyped actions, refusals...
        error: why the probe could not go on (init failed, a legal action was refused).
    """

    slug: str
    carry: str | None = None
    steps: int = 0
    missing: list[str] = field(default_factory=list)
    grammar_at: str | None = None
    grammar_error: str | None = None
    findings: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def playable(self) -> bool:
        """Played at least one step, with every envelope field, a usable grammar, no error."""
        return (
            self.error is None
            and self.steps > 0
            and not self.missing
            and self.grammar_error is None
        )


def _check_name(d: Divergence) -> str:
    """``envelope.spec`` of a note ``generic check envelope.spec: ...``."""
    return d.note.removeprefix("generic check ").partition(":")[0]


def _take(found: list[Divergence], rep: GenericProbe, seen: set[str]) -> None:
    """Sort ``found`` into ``rep``: envelope fields, the grammar, or (the first of each other
    check, ``seen`` keeps their names) a finding."""
    for d in found:
        name = _check_name(d)
        if name in ENVELOPE_FIELDS:
            if ENVELOPE_FIELDS[name] not in rep.missing:
                rep.missing.append(ENVELOPE_FIELDS[name])
        elif name == "grammar":
            if rep.grammar_error is None:
                rep.grammar_error = safe(d.note.removeprefix("generic check grammar: "), _NOTE)
        elif name not in seen:
            seen.add(name)
            rep.findings.append(safe(f"step {d.step}: {d.note}", _NOTE))


def _position(raw: Any) -> Position | None:
    """The raw answer as a :class:`Position` when it is a success envelope, else ``None``."""
    try:
        answer = ActionAnswer.validate_python(raw)
    except ValidationError:
        return None
    return Position(answer, raw) if isinstance(answer, Envelope) else None


async def probe_generic(client: GameboardClient, slug: str, seed: int, steps: int) -> GenericProbe:
    """Init ``slug`` with ``seed`` and play up to ``steps`` first legal actions, every answer
    through the generic checks (module doc). Never raises for what the server does: a
    failure is the report's ``error``.

    Args:
        client: a client of the server (its retry policy bounds each request).
        slug: a game the server lists (a plausible slug: it goes into the request path).
        seed: the opening's seed.
        steps: the most actions to play (1 or more).
    """
    rep = GenericProbe(slug)
    checks = GenericChecks(slug)
    seen: set[str] = set()
    try:
        raw = await client.request_json("init", params={"seed": seed}, slug=slug)
        _take(checks.check_init(raw), rep, seen)
        if isinstance(raw, dict) and isinstance(raw.get("spec"), dict):
            rep.grammar_at = checks.grammar_at
        elif rep.grammar_error is None:
            rep.grammar_error = "no spec in the init answer, so no action grammar"
        pos = _position(raw)
        if pos is None:
            rep.error = "the init answer is not a position (see missing)"
            return rep
        rep.carry = "stateToken" if pos.envelope.stateToken else "state only"
        for _ in range(steps):
            if pos.game_over or not pos.legal_actions:
                break
            action = pos.legal_actions[0]
            got = await client.act(slug, pos, action)
            _take(checks.check_action(rep.steps + 1, pos.raw, action, got.raw), rep, seen)
            if isinstance(got, Rejected):
                rep.error = f"a legal action was refused: {safe(got.reason, _NOTE)}"
                break
            pos = got
            rep.steps += 1
        if rep.steps == 0 and rep.error is None:
            why = (
                "the game is over at its opening"
                if pos.game_over
                else "the opening lists no legal action (the game may take actions it does"
                " not list)"
            )
            rep.error = f"no action could be played: {why}"
    except (ClientError, httpx.HTTPError) as exc:
        rep.error = safe(f"{type(exc).__name__}: {exc}", _NOTE)
    return rep
