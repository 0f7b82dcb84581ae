"""What :class:`sunbot.agents.llm.LLMStrategy` records: one decision's record (for the
transcript's ``agent`` key) and the run's counters (for the summary). Private helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sunbot.agents._llm_parse import split_thinking

if TYPE_CHECKING:  # the client module needs openai, imported only when a strategy is built
    from sunbot.agents._llm_client import Reply

#: Characters of an answer or reasoning text kept in a decision's record.
RECORD_MAX = 4096
#: Characters per token of the estimate used when an endpoint sends no ``usage``.
CHARS_PER_TOKEN = 4
#: The most characters a token is believed to hold: a ``usage`` figure below characters / 8
#: is taken as false (tokenizers average 3-5 characters a token on prompts like ours) and
#: raised to that floor, so an endpoint that under-reports cannot slip past a budget.
CHARS_PER_TOKEN_MAX = 8
#: The most tokens one call is believed to have used, prompt or completion: a larger
#: ``usage`` figure (an endpoint reporting 10**400) is cut to this and counted in
#: ``usageCut``, so counters and costs stay finite numbers a budget can compare.
MAX_CALL_TOKENS = 10**9
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
)


def new_record(model: str) -> dict[str, Any]:
    """An empty decision record (``last_decision()``'s keys)."""
    return {
        "model": model,
        "promptTokens": 0,
        "completionTokens": 0,
        "latencyMs": 0,
        "attempts": 0,
        "fallback": False,
        "late": False,
        "answer": None,
        "reasoning": None,
        "reason": None,
    }


class Tally:
    """The run's counters (:data:`COUNTERS`, all zero at the start)."""

    def __init__(self) -> None:
        self.counts: dict[str, Any] = dict.fromkeys(COUNTERS, 0)

    def add_reply(self, reply: Reply, messages: list[dict[str, str]], rec: dict[str, Any]) -> None:
        """Add one reply's tokens and time to the decision's record ``rec`` and the counters.

        Token counts the endpoint did not send are estimated (characters /
        :data:`CHARS_PER_TOKEN`); a count it did send but below characters /
        :data:`CHARS_PER_TOKEN_MAX` is raised to that floor and counted in ``usageRaised``;
        one over :data:`MAX_CALL_TOKENS` is cut to it and counted in ``usageCut``."""
        sent = sum(len(m["content"]) for m in messages)
        prompt = self._tokens(reply.prompt_tokens, sent)
        done = self._tokens(reply.completion_tokens, len(reply.text))
        ms = round(reply.latency_s * 1000, 3)
        rec["promptTokens"] += prompt
        rec["completionTokens"] += done
        rec["latencyMs"] = round(rec["latencyMs"] + ms, 3)
        rec["answer"] = reply.text[:RECORD_MAX]
        reasoning = reply.reasoning or split_thinking(reply.text)[1]
        rec["reasoning"] = reasoning[:RECORD_MAX] if reasoning else None
        self.counts["promptTokens"] += prompt
        self.counts["completionTokens"] += done
        self.counts["latencyMs"] = round(self.counts["latencyMs"] + ms, 3)

    def _tokens(self, reported: int | None, chars: int) -> int:
        """The token count to charge for ``chars`` characters the endpoint said were
        ``reported`` tokens (``None``: not said)."""
        if reported is None:
            return chars // CHARS_PER_TOKEN
        if reported > MAX_CALL_TOKENS:
            self.counts["usageCut"] += 1
            return MAX_CALL_TOKENS
        floor = chars // CHARS_PER_TOKEN_MAX
        if reported < floor:
            self.counts["usageRaised"] += 1
            return floor
        return reported

    def totals(
        self, model: str, structured: bool, price: tuple[float, float] | None
    ) -> dict[str, Any]:
        """``{"kind": "llm", "model", **counters, "structured"}`` and, with a ``price``
        (USD per million prompt and completion tokens), ``costUsd``."""
        out: dict[str, Any] = {
            "kind": "llm",
            "model": model,
            **self.counts,
            "structured": structured,
        }
        if price is not None:
            cost = (
                self.counts["promptTokens"] * price[0] + self.counts["completionTokens"] * price[1]
            )
            out["costUsd"] = round(cost / 1e6, 6)
        return out
