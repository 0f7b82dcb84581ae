"""The model agent's token counting: what it charges when the endpoint's ``usage`` is missing
or false (budgets are only as good as these counts)."""

from __future__ import annotations

from sunbot.agents._llm_client import Reply
from sunbot.agents._llm_records import Tally, new_record


def reply(text: str, prompt: int | None, completion: int | None) -> Reply:
    return Reply(
        text=text,
        reasoning=None,
        prompt_tokens=prompt,
        completion_tokens=completion,
        latency_s=0.25,
        finish_reason="stop",
        refusal=None,
    )


MESSAGES = [{"role": "system", "content": "s" * 800}, {"role": "user", "content": "u" * 3200}]


def test_honest_usage_is_charged_as_sent():
    tally, rec = Tally(), new_record("m")
    tally.add_reply(reply("x" * 40, 1000, 10), MESSAGES, rec)
    assert (rec["promptTokens"], rec["completionTokens"]) == (1000, 10)
    assert tally.counts["usageRaised"] == 0 and rec["latencyMs"] == 250.0


def test_missing_usage_is_estimated_at_four_characters_a_token():
    tally, rec = Tally(), new_record("m")
    tally.add_reply(reply("x" * 40, None, None), MESSAGES, rec)
    assert (rec["promptTokens"], rec["completionTokens"]) == (4000 // 4, 40 // 4)
    assert tally.counts["usageRaised"] == 0


def test_usage_below_eight_characters_a_token_is_raised_to_that_floor_and_counted():
    tally, rec = Tally(), new_record("m")
    tally.add_reply(reply("x" * 400, 0, 1), MESSAGES, rec)  # an endpoint that says "free"
    assert (rec["promptTokens"], rec["completionTokens"]) == (4000 // 8, 400 // 8)
    assert tally.counts["usageRaised"] == 2
    totals = tally.totals("m", structured=True, price=(1.0, 2.0))
    assert totals["costUsd"] == round((500 * 1.0 + 50 * 2.0) / 1e6, 6)
    assert totals["usageRaised"] == 2


def test_absurd_usage_is_cut_to_a_ceiling_and_the_cost_still_computes():
    # A hostile endpoint reporting 10**400 tokens made totals() raise OverflowError (int too
    # large to convert to float) when a price was set: the run's summary crashed.
    tally, rec = Tally(), new_record("m")
    tally.add_reply(reply("x" * 40, 10**400, 10**400), MESSAGES, rec)
    tally.add_reply(reply("x" * 40, 10**400, 10**400), MESSAGES, rec)
    ceiling = 10**9
    assert (rec["promptTokens"], rec["completionTokens"]) == (2 * ceiling, 2 * ceiling)
    assert tally.counts["usageCut"] == 4 and tally.counts["usageRaised"] == 0
    totals = tally.totals("m", structured=True, price=(0.15, 0.6))
    assert totals["costUsd"] == round((2 * ceiling * 0.15 + 2 * ceiling * 0.6) / 1e6, 6)
    assert totals["costUsd"] == 1500.0
