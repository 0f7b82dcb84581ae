"""What :class:`sunbot.agents.llm.LLMStrategy` records: one decision's record (for the
transcript's ``agent`` key: every call's prompt, answer and verdict) and the run's counters
(for the summary), with the tokens each call is charged. Private helpers."""

from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING, Any

from sunbot.agents._llm_parse import split_thinking
from sunbot.agents.health import Health

if TYPE_CHECKING:  # the client module needs openai, imported only when a strategy is built
    from sunbot.agents._llm_client import Reply

#: Characters of an answer or reasoning text kept in a decision's record.
RECORD_MAX = 4096
#: Characters of one prompt message kept in a decision's record (a system prompt is about
#: 3,000-5,000, a turn's message 3,000-6,000).
PROMPT_KEPT = 24_000
#: Characters per token of the estimate used when an endpoint sends no ``usage`` (and for a
#: call cut before it answered).
CHARS_PER_TOKEN = 4
#: The most characters a token is believed to hold: a ``usage`` figure below characters / 8
#: is taken as false (tokenizers average 3-5 characters a token on prompts like ours) and
#: raised to that floor, so an endpoint that under-reports cannot slip past a budget.
CHARS_PER_TOKEN_MAX = 8
#: A prompt cannot hold more tokens than its UTF-8 bytes (a token is at least one byte),
#: plus what the chat template adds: at most this many a message and this many a request.
TOKENS_PER_MESSAGE_MAX = 64
TEMPLATE_TOKENS_MAX = 1024
#: An answer's tokens beyond its own bytes (hidden reasoning, special tokens), at most this
#: many, plus what the endpoint could have written in the call's time at this many tokens a
#: second; and never more than the request's ``max_tokens``.
ANSWER_SLACK_TOKENS = 1024
GENERATION_RATE_MAX = 5_000
#: The run's counters, in the order ``totals()`` lists them.
COUNTERS = (
    "calls",
    "decisions",
    "promptTokens",
    "completionTokens",
    "reasks",
    "fallbacks",
    "late",
    "errors",
    "latencyMs",
    "usageRaised",
    "usageCut",
    "usageEstimated",
    "cacheHits",
)


def new_record(model: str, phase: str = "-") -> dict[str, Any]:
    """An empty decision record (``last_decision()``'s keys)."""
    return {
        "model": model,
        "phase": phase,
        "promptTokens": 0,
        "completionTokens": 0,
        "latencyMs": 0,
        "attempts": 0,
        "fallback": False,
        "late": False,
        "answer": None,
        "reasoning": None,
        "reason": None,
        "calls": [],
        "prompts": {},
    }


def text_hash(role: str, content: str) -> str:
    """The 16-hex-digit id of one message (SHA-256 of its role and text)."""
    return hashlib.sha256(f"{role}\n{content}".encode()).hexdigest()[:16]


def _bytes(text: str) -> int:
    return len(text.encode("utf-8", errors="replace"))


class Tally:
    """The run's counters (:data:`COUNTERS`, all zero at the start), its :class:`Health`
    and the prompt texts already recorded (each is recorded once a run).

    Args:
        max_tokens: the requests' ``max_tokens`` (``None``: not sent), which bounds a
            call's completion tokens.
    """

    def __init__(self, max_tokens: int | None = None) -> None:
        self.counts: dict[str, Any] = dict.fromkeys(COUNTERS, 0)
        self.health = Health()
        self.max_tokens = max_tokens
        self._seen: set[str] = set()

    def call_record(
        self, messages: list[dict[str, Any]], rec: dict[str, Any], key: str
    ) -> dict[str, Any]:
        """A new call's record in ``rec["calls"]``: its cache ``key`` and its messages by id;
        a message text not recorded before in this run goes into ``rec["prompts"]``."""
        ids = []
        for m in messages:
            role, content = str(m.get("role")), str(m.get("content") or "")
            h = text_hash(role, content)
            ids.append(h)
            if h not in self._seen:
                self._seen.add(h)
                rec["prompts"][h] = {"role": role, "content": content[:PROMPT_KEPT]}
                if len(content) > PROMPT_KEPT:
                    rec["prompts"][h]["cut"] = len(content)
        call: dict[str, Any] = {"key": key, "messages": ids, "outcome": None, "reason": None}
        rec["calls"].append(call)
        return call

    def add_reply(
        self,
        reply: Reply,
        messages: list[dict[str, Any]],
        rec: dict[str, Any],
        call: dict[str, Any] | None = None,
        *,
        extra: str = "",
        cached: bool = False,
    ) -> None:
        """Add one reply's tokens and time to the decision's record ``rec``, its ``call``
        record and the counters. ``extra``: the request's other text the endpoint reads
        (the schema, the tools), as JSON. A reply from the cache costs no token.

        Token counts the endpoint did not send are estimated (characters /
        :data:`CHARS_PER_TOKEN`); a count it did send is believed between a floor
        (characters / :data:`CHARS_PER_TOKEN_MAX`; raised to it: ``usageRaised``) and a
        ceiling (the prompt's bytes and the template's share; the answer's bytes, its time
        and ``max_tokens``; cut to it: ``usageCut``)."""
        texts = [str(m.get("content") or "") for m in messages]
        chars = sum(len(t) for t in texts) + len(extra)
        answer = reply.text + (reply.reasoning or "") + "".join(a for _, a in reply.tool_calls)
        if cached:
            prompt = done = 0
            how = "cached"
            self.counts["cacheHits"] += 1
        else:
            top = sum(_bytes(t) for t in texts) + _bytes(extra)
            top += TOKENS_PER_MESSAGE_MAX * len(messages) + TEMPLATE_TOKENS_MAX
            prompt, p_how = self._tokens(reply.prompt_tokens, chars, top)
            written = _bytes(answer) + ANSWER_SLACK_TOKENS
            written += math.ceil(GENERATION_RATE_MAX * max(reply.latency_s, 0.0))
            if self.max_tokens is not None:
                written = min(written, max(self.max_tokens, _bytes(answer)))
            done, d_how = self._tokens(reply.completion_tokens, len(answer), written)
            how = p_how if p_how != "endpoint" else d_how
        ms = 0.0 if cached else round(reply.latency_s * 1000, 3)
        self._charge(rec, prompt, done, ms)
        rec["answer"] = reply.text[:RECORD_MAX]
        reasoning = reply.reasoning or split_thinking(reply.text)[1]
        rec["reasoning"] = reasoning[:RECORD_MAX] if reasoning else None
        if call is not None:
            call.update(
                answer=reply.text[:RECORD_MAX],
                reasoning=rec["reasoning"],
                finish=reply.finish_reason,
                promptTokens=prompt,
                completionTokens=done,
                latencyMs=ms,
                usage=how,
            )
            if reply.refusal:
                call["refusal"] = reply.refusal[:RECORD_MAX]
            if reply.tool_calls:
                call["toolCalls"] = [[n, a[:RECORD_MAX]] for n, a in reply.tool_calls]

    def add_cut(
        self,
        messages: list[dict[str, Any]],
        rec: dict[str, Any],
        call: dict[str, Any] | None,
        latency_s: float,
        *,
        extra: str = "",
    ) -> None:
        """Charge a call that was sent but cut before it answered (out of time): the
        endpoint read the prompt (estimated, characters / :data:`CHARS_PER_TOKEN`) and may
        have written up to ``max_tokens`` (charged: a budget must not under-count exactly
        when an endpoint is slow). Counted in ``usageEstimated``."""
        chars = sum(len(str(m.get("content") or "")) for m in messages) + len(extra)
        prompt, done = chars // CHARS_PER_TOKEN, self.max_tokens or 0
        self.counts["usageEstimated"] += 1
        ms = round(latency_s * 1000, 3)
        self._charge(rec, prompt, done, ms)
        if call is not None:
            call.update(promptTokens=prompt, completionTokens=done, latencyMs=ms, usage="cut")

    def _charge(self, rec: dict[str, Any], prompt: int, done: int, ms: float) -> None:
        rec["promptTokens"] += prompt
        rec["completionTokens"] += done
        rec["latencyMs"] = round(rec["latencyMs"] + ms, 3)
        self.counts["promptTokens"] += prompt
        self.counts["completionTokens"] += done
        self.counts["latencyMs"] = round(self.counts["latencyMs"] + ms, 3)

    def _tokens(self, reported: int | None, chars: int, ceiling: int) -> tuple[int, str]:
        """The token count to charge for ``chars`` characters the endpoint said were
        ``reported`` tokens (``None``: not said), and how it was found."""
        if reported is None:
            self.counts["usageEstimated"] += 1
            return chars // CHARS_PER_TOKEN, "estimated"
        if reported > ceiling:
            self.counts["usageCut"] += 1
            return ceiling, "cut"
        floor = chars // CHARS_PER_TOKEN_MAX
        if reported < floor:
            self.counts["usageRaised"] += 1
            return floor, "raised"
        return reported, "endpoint"

    def end_decision(self, game: str, rec: dict[str, Any]) -> None:
        """Count the finished decision ``rec`` (its health too)."""
        self.counts["decisions"] += 1
        self.health.add_record(game, rec)

    def totals(
        self, model: str, structured: bool, price: tuple[float, float] | None, game: str
    ) -> dict[str, Any]:
        """``{"kind": "llm", "model", **counters, "structured", "health"}`` and, with a
        ``price`` (USD per million prompt and completion tokens), ``costUsd``. ``health``:
        ``{phase: {"decisions": n, "illegal": n, ...}}`` (:mod:`sunbot.agents.health`)."""
        out: dict[str, Any] = {
            "kind": "llm",
            "model": model,
            **self.counts,
            "structured": structured,
            "health": self.health.by_phase(game),
        }
        if price is not None:
            cost = (
                self.counts["promptTokens"] * price[0] + self.counts["completionTokens"] * price[1]
            )
            out["costUsd"] = round(cost / 1e6, 6)
        return out
