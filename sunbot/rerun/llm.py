"""A model's game played again from its transcript, through the API: ``sunbot replay --rerun``.

A transcript of an ``llm:MODEL`` run keeps, for every decision, each call's cache key,
prompt (by message id, each text once), answer and verdict, and its result line keeps the
request's recipe (endpoint, model, parameters, mode). :func:`rerun` builds the same
strategy with the transcript's calls as its cache (:class:`~sunbot.agents.llm_cache.RecordedCalls`)
and plays the same seed again: the same prompts find the same answers, so the game is
played again exactly, with no call to the endpoint and at 0 tokens.

With another prompt template, the prompts change. Given an endpoint (``base_url``), the
changed decisions ask the model again, and the report says decision by decision whose
prompt and whose action changed. Without one, each decision is answered with the answer
recorded for it (``follow``): the game goes the recorded way and the report diffs each
decision's prompt, still at 0 tokens.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot.agents.llm_cache import RecordedCalls

#: Lines of one prompt's diff kept in a report.
DIFF_LINES = 80


class CannotRerun(ValueError):
    """The transcript holds no model run that can be played again (the one-line reason)."""


@dataclass
class Decision:
    """One decision of the rerun beside the recorded one: its number (from 1), phase,
    whether its prompt (the first call's messages) and its action are the same, and the
    unified diff of the first message that changed (``[]`` when none did)."""

    index: int
    phase: str
    same_prompt: bool
    same_action: bool
    diff: list[str] = field(default_factory=list)


@dataclass
class RerunReport:
    """What a rerun showed: the run's ``game`` and ``seed``, ``recorded`` and ``replayed``
    decisions, ``calls`` made to the endpoint and ``tokens`` charged, ``cache_hits``, each
    :class:`Decision`, and ``error`` (why the rerun stopped early, or ``None``)."""

    game: str
    seed: int
    recorded: int
    replayed: int = 0
    calls: int = 0
    tokens: int = 0
    cache_hits: int = 0
    decisions: list[Decision] = field(default_factory=list)
    error: str | None = None

    @property
    def exact(self) -> bool:
        """Every recorded decision played again with the same prompt and the same action."""
        return (
            self.error is None
            and self.replayed == self.recorded
            and all(d.same_prompt and d.same_action for d in self.decisions)
        )

    @property
    def first_difference(self) -> int | None:
        """The first decision whose prompt or action changed (``None``: none did)."""
        return next((d.index for d in self.decisions if not (d.same_prompt and d.same_action)),
                    None)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "game": self.game, "seed": self.seed, "recorded": self.recorded,
            "replayed": self.replayed, "calls": self.calls, "tokens": self.tokens,
            "cacheHits": self.cache_hits, "exact": self.exact,
            "firstDifference": self.first_difference, "error": self.error,
            "decisions": [d.__dict__ for d in self.decisions],
        }  # fmt: skip


@dataclass
class _Recorded:
    """The model decisions of a transcript."""

    game: str
    seed: int
    cap: int | None
    model: str
    request: dict[str, Any]
    mode: str
    calls: list[list[dict[str, Any]]]
    actions: list[str]
    messages: list[list[str]]
    texts: dict[str, str]
    phases: list[str]
    steps: int = 0


def _canonical(action: Any) -> str:
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


def _reply_of(call: dict[str, Any]) -> dict[str, Any]:
    """A recorded call as the cache's entry: the reply, or the error it got."""
    if call.get("error") is not None or call.get("outcome") in ("late", "failed"):
        return {"key": call.get("key"), "error": call.get("error") or call.get("reason") or "",
                "late": bool(call.get("late"))}  # fmt: skip
    return {
        "key": call.get("key"),
        "text": call.get("answer") or "",
        "reasoning": call.get("reasoning"),
        "promptTokens": call.get("promptTokens"),
        "completionTokens": call.get("completionTokens"),
        "latencyMs": call.get("latencyMs") or 0,
        "finish": call.get("finish"),
        "refusal": call.get("refusal"),
        "toolCalls": call.get("toolCalls") or [],
    }


def read_recorded(path: Path) -> _Recorded:
    """The model decisions recorded in the transcript at ``path``.

    Raises:
        CannotRerun: not a single-player model run with its calls and request recorded.
        ValueError, OSError: the file is not a readable transcript.
    """
    from sunbot.transcripts.jsonl import read_transcript

    t = read_transcript(path)
    if t.is_match:
        raise CannotRerun("a match is not played again from its transcript (single-player runs)")
    game, seed = str(t.header.get("game")), t.header.get("seed")
    if not isinstance(seed, int):
        raise CannotRerun("the header has no seed")
    agent = (t.result or {}).get("agent") or {}
    if agent.get("kind") != "llm" or not isinstance(agent.get("request"), dict):
        raise CannotRerun(
            "no model run with its request recorded (a finished llm:MODEL run's result line)"
        )
    rec = _Recorded(game, seed, t.header.get("cap"), str(agent.get("model")), agent["request"],
                    str(agent.get("mode") or "structured"), [], [], [], {}, [])  # fmt: skip
    rec.steps = len(t.steps)
    for step in t.steps:
        a = step.get("agent")
        if not isinstance(a, dict) or not isinstance(a.get("calls"), list):
            continue  # the run's own action (the cap's end), not a decision of the model
        for h, m in (a.get("prompts") or {}).items():
            if isinstance(m, dict) and isinstance(m.get("content"), str):
                rec.texts[str(h)] = m["content"]
        calls = [c for c in a["calls"] if isinstance(c, dict)]
        rec.calls.append([_reply_of(c) for c in calls])
        rec.messages.append([str(h) for h in (calls[0].get("messages") or [])] if calls else [])
        rec.actions.append(_canonical(step.get("action")))
        rec.phases.append(str(a.get("phase") or "-"))
    return rec


class _Watched:
    """The rerun's strategy, wrapped to keep each decision's action and record."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.blocking = True
        self.records: list[dict[str, Any]] = []
        self.actions: list[str] = []

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        self.inner.on_start(game, seed, cap=cap, spec=spec)

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        action = self.inner.choose(observation, legal_actions)
        self.records.append(self.inner.last_decision() or {})
        self.actions.append(_canonical(action))
        return action

    def last_decision(self) -> dict[str, Any] | None:
        return self.inner.last_decision()  # type: ignore[no-any-return]

    def totals(self) -> dict[str, Any]:
        return self.inner.totals()  # type: ignore[no-any-return]

    def close(self) -> None:
        self.inner.close()


def _diff(old: list[str], new: list[str], texts: dict[str, str]) -> list[str]:
    """The unified diff of the first message that differs (by id), at most
    :data:`DIFF_LINES` lines."""
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            before, after = texts.get(a, ""), texts.get(b, "")
            lines = difflib.unified_diff(
                before.splitlines(), after.splitlines(), f"recorded message {i + 1}",
                f"rerun message {i + 1}", lineterm="", n=1,
            )  # fmt: skip
            return list(lines)[:DIFF_LINES]
    return []


def rerun(
    path: Path,
    *,
    prompt: str | Path | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
) -> RerunReport:
    """Play the model run recorded at ``path`` again (the module doc).

    Args:
        prompt: a prompt template to use instead of the one the run used (``None``: the
            default template; a run made with its own template needs it given again).
        base_url: an endpoint to ask where the recorded answers do not fit (a changed
            prompt); ``None``: no call is made.
        api_key: its key (``None``: ``OPENAI_API_KEY``).

    Raises:
        CannotRerun: the transcript is not a model run that can be played again.
        ValueError, OSError: the file cannot be read; a bad template.
    """
    import sunbot
    from sunbot.agents.llm import LLMStrategy
    from sunbot.games import get_game

    rec = read_recorded(path)
    if not rec.calls:
        raise CannotRerun("no decision of the model is recorded")
    info = get_game(rec.game)
    follow = base_url is None and prompt is not None
    cache = RecordedCalls(rec.calls, follow=follow, offline=base_url is None)
    req, params = rec.request, dict(rec.request.get("params") or {})
    bot = LLMStrategy(
        rec.model, game=rec.game, base_url=base_url or "http://127.0.0.1:9/v1",
        api_key=api_key, prompt=prompt, mode=rec.mode, cache=cache,
        max_tokens=params.get("max_tokens"), temperature=params.get("temperature"),
        seed=params.get("seed"), reasoning_effort=params.get("reasoning_effort"),
        max_attempts=int(req.get("maxAttempts") or 3), history=int(req.get("history") or 0),
        timeout_s=float(req.get("timeoutS") or 60.0),
    )  # fmt: skip
    bot.endpoint_id = str(req.get("endpoint") or bot.endpoint_id)
    watched = _Watched(bot)
    caps: dict[str, Any] = {}
    if rec.cap is not None and info.cap_field == "voyage":
        caps["max_voyages"] = rec.cap
    elif rec.cap is not None and info.cap_field == "day":
        caps["max_days"] = rec.cap
    report = RerunReport(rec.game, rec.seed, len(rec.actions))
    try:
        # no further than the record: a run may have ended by a step cap its header omits
        steps = max(rec.steps, 1)
        summary = sunbot.play(rec.game, seed=rec.seed, strategy=watched, max_steps=steps, **caps)
    finally:
        bot.close()
    totals = bot.totals()
    report.replayed = len(watched.actions)
    report.cache_hits = int(totals.get("cacheHits") or 0)
    report.calls = int(totals.get("calls") or 0) - report.cache_hits
    report.tokens = int(totals.get("promptTokens") or 0) + int(totals.get("completionTokens") or 0)
    texts = dict(rec.texts)
    for i, record in enumerate(watched.records):
        for h, m in (record.get("prompts") or {}).items():
            texts.setdefault(str(h), str(m.get("content")))
        calls = record.get("calls") or []
        now = [str(h) for h in (calls[0].get("messages") or [])] if calls else []
        old = rec.messages[i] if i < len(rec.messages) else []
        same_action = i < len(rec.actions) and watched.actions[i] == rec.actions[i]
        diff = [] if now == old else _diff(old, now, texts)
        phase = str(record.get("phase") or "-")
        report.decisions.append(Decision(i + 1, phase, now == old, same_action, diff))
    if cache.missed_at is not None:
        d, a = cache.missed_at
        report.error = (
            f"decision {d}, call {a}: the request differs from the recorded one and no"
            " endpoint was given (--llm-url) to ask"
        )
    elif summary.ended_by == "error":
        report.error = summary.error
    return report


__all__ = ["CannotRerun", "Decision", "RerunReport", "read_recorded", "rerun"]
