"""The health of a model agent: how often, per game and phase, its decisions went wrong.

A decision of :class:`sunbot.agents.llm.LLMStrategy` records each call it made (its
``calls``, with each answer's ``outcome``). From those records, a decision is:

- ``illegal``: an answer named an action that is not one legal action (outside the grammar
  or the list, two different actions at once, a placeholder for a speech);
- ``unparsable``: an answer held no action at all;
- ``truncated``: an answer was cut at ``max_tokens`` before it held an accepted action;
- ``late``: the decision ran out of time (a call's limit or a beat's clock);
- ``fallback``: no answer was accepted and the fallback action was played.

A decision can be several of these (an illegal answer, then a cut one, then the fallback).
:class:`Health` counts them by ``(game, phase)``; its rates are counts over decisions. The
strategy's ``totals()`` carries them as ``health`` (so a bench row does too),
:func:`from_transcript` recounts them from a transcript's decision records, and
:meth:`Health.over` names the rows above a threshold (``--max-fallback-rate``): a prompt or
a parser that does not fit a model is caught on a short run, before a long one.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

#: The ways a decision goes wrong, in the order tables show them.
FLAGS = ("illegal", "unparsable", "truncated", "late", "fallback")
#: Per-call outcomes that mark their decision (``late`` and ``fallback`` are the record's).
_CALL_FLAGS = frozenset(("illegal", "unparsable", "truncated"))
#: Phase of an observation without one.
NO_PHASE = "-"
_PHASE = re.compile(r"[A-Za-z0-9_.:-]{1,40}")


def phase_of(observation: Any) -> str:
    """The observation's ``phase`` (a short identifier), else :data:`NO_PHASE`."""
    phase = observation.get("phase") if isinstance(observation, dict) else None
    return phase if isinstance(phase, str) and _PHASE.fullmatch(phase) else NO_PHASE


def decision_flags(record: Mapping[str, Any]) -> set[str]:
    """The :data:`FLAGS` of one decision record (a model's ``last_decision()``)."""
    calls = record.get("calls")
    flags = {
        c.get("outcome") for c in calls if isinstance(c, dict) and c.get("outcome") in _CALL_FLAGS
    } if isinstance(calls, list) else set()  # fmt: skip
    if record.get("late") is True:
        flags.add("late")
    if record.get("fallback") is True:
        flags.add("fallback")
    return {str(f) for f in flags}


class Health:
    """Decisions and their :data:`FLAGS` counted by ``(game, phase)``."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], collections.Counter[str]] = {}

    def add(self, game: str, phase: str, flags: Iterable[str]) -> None:
        """Count one decision of ``game`` in ``phase`` with ``flags``."""
        c = self.counts.setdefault((game, phase), collections.Counter())
        c["decisions"] += 1
        for f in flags:
            if f in FLAGS:
                c[f] += 1

    def add_record(self, game: str, record: Mapping[str, Any]) -> None:
        """Count one decision record (its ``phase`` key, else :data:`NO_PHASE`)."""
        phase = record.get("phase")
        self.add(game, phase if isinstance(phase, str) else NO_PHASE, decision_flags(record))

    def add_counts(self, game: str, by_phase: Any) -> None:
        """Add a totals' ``health`` (``{phase: {"decisions": n, flag: n, ...}}``); a value
        that is not that shape is ignored."""
        if not isinstance(by_phase, dict):
            return
        for phase, row in by_phase.items():
            if not isinstance(row, dict) or not isinstance(phase, str):
                continue
            c = self.counts.setdefault((game, phase), collections.Counter())
            for key in ("decisions", *FLAGS):
                value = row.get(key)
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    c[key] += value

    def by_phase(self, game: str) -> dict[str, dict[str, int]]:
        """``{phase: {"decisions": n, flag: n, ...}}`` of one game (the totals' form)."""
        return {
            phase: {k: c[k] for k in ("decisions", *FLAGS)}
            for (g, phase), c in sorted(self.counts.items())
            if g == game
        }

    def rows(self) -> list[dict[str, Any]]:
        """One row per ``(game, phase)``, sorted: ``game``, ``phase``, ``decisions`` and
        each flag's rate (0 to 1)."""
        out = []
        for (game, phase), c in sorted(self.counts.items()):
            n = c["decisions"]
            rates = {f: (c[f] / n if n else 0.0) for f in FLAGS}
            out.append({"game": game, "phase": phase, "decisions": n, **rates})
        return out

    def over(self, flag: str, threshold: float) -> list[str]:
        """The rows whose ``flag`` rate is above ``threshold``, each as one line
        (``naptuft care: fallback 40% of 10 decisions``); ``[]`` when none is."""
        return [
            f"{r['game']} {r['phase']}: {flag} {r[flag]:.0%} of {r['decisions']} decisions"
            for r in self.rows()
            if r["decisions"] and r[flag] > threshold
        ]

    def to_json(self) -> list[dict[str, Any]]:
        """:meth:`rows` with the rates rounded to 4 places."""
        return [{k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}
                for r in self.rows()]  # fmt: skip

    def __bool__(self) -> bool:
        return bool(self.counts)


def from_transcript(path: Path) -> Health:
    """The health of the model decisions recorded in the transcript at ``path``: each step
    (and each match command) line's ``agent`` record that is a model's (it has ``calls``).

    Raises:
        ValueError, OSError: the file is not a readable transcript.
    """
    from sunbot.transcripts.jsonl import read_transcript

    t = read_transcript(path)
    game = str(t.header.get("game"))
    health = Health()
    for rec in [*t.steps, *t.other]:
        agent = rec.get("agent")
        if isinstance(agent, dict) and isinstance(agent.get("calls"), list):
            health.add_record(game, agent)
    return health


__all__ = ["FLAGS", "NO_PHASE", "Health", "decision_flags", "from_transcript", "phase_of"]
