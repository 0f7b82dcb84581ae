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
    totals = tally.totals("m", structured=True, price=(1.0, 2.0), game="keelhold")
    assert totals["costUsd"] == round((500 * 1.0 + 50 * 2.0) / 1e6, 6)
    assert totals["usageRaised"] == 2


def test_absurd_usage_is_cut_to_a_ceiling_and_the_cost_still_computes():
    # A hostile endpoint reporting 10**400 tokens made totals() raise OverflowError (int too
    # large to convert to float) when a price was set: the run's summary crashed.
    tally, rec = Tally(), new_record("m")
    tally.add_reply(reply("x" * 40, 10**400, 10**400), MESSAGES, rec)
    tally.add_reply(reply("x" * 40, 10**400, 10**400), MESSAGES, rec)
    # the prompt's 4,000 bytes, 64 a message, 1,024 for the template; the answer's 40 bytes,
    # 1,024 more, and what 0.25 s could write at 5,000 tokens a second
    prompt, answer = 4000 + 2 * 64 + 1024, 40 + 1024 + 1250
    assert (rec["promptTokens"], rec["completionTokens"]) == (2 * prompt, 2 * answer)
    assert tally.counts["usageCut"] == 4 and tally.counts["usageRaised"] == 0
    totals = tally.totals("m", structured=True, price=(0.15, 0.6), game="keelhold")
    assert totals["costUsd"] == round((2 * prompt * 0.15 + 2 * answer * 0.6) / 1e6, 6)


def test_an_endpoint_lying_about_usage_is_charged_at_the_prompt_and_the_answer():
    # issue 38: four calls of about 460 prompt tokens reporting 1,000,002,262 prompt and
    # 2,000,000,016 completion tokens were believed up to 10**9 a call, and inflated the
    # totals a budget compares (--budget-tokens stopped a bench at once, --budget-usd read
    # thousands of dollars). Each count is now held to what the request could have used.
    messages = [{"role": "system", "content": "s" * 840}, {"role": "user", "content": "u" * 1000}]
    lies = [(250_000_565, 500_000_004)] * 3 + [(250_000_567, 500_000_004)]
    assert sum(p for p, _ in lies) == 1_000_002_262 and sum(c for _, c in lies) == 2_000_000_016
    tally, rec = Tally(max_tokens=256), new_record("m")
    for prompt, done in lies:
        tally.add_reply(reply('{"type": "care", "care": "feed"}', prompt, done), messages, rec)
    counts = tally.counts
    assert counts["promptTokens"] == 4 * (1840 + 2 * 64 + 1024) == 11_968
    assert counts["completionTokens"] == 4 * 256  # the request's own max_tokens
    assert counts["usageCut"] == 8 and counts["usageRaised"] == 0
    assert tally.totals("m", True, (2.5, 10.0), "naptuft")["costUsd"] == 0.04016


def test_usage_within_the_bounds_is_believed_as_sent():
    tally, rec = Tally(max_tokens=256), new_record("m")
    tally.add_reply(reply("x" * 40, 5152, 256), MESSAGES, rec)  # exactly at both ceilings
    assert (rec["promptTokens"], rec["completionTokens"]) == (5152, 256)
    assert tally.counts["usageCut"] == 0 and tally.counts["usageEstimated"] == 0
    tally.add_reply(reply("x" * 40, 5153, 257), MESSAGES, rec)
    assert (rec["promptTokens"], rec["completionTokens"]) == (2 * 5152, 2 * 256)
    assert tally.counts["usageCut"] == 2


def test_a_call_cut_before_it_answered_is_charged_its_prompt_and_max_tokens():
    # issue 34: a call that timed out counted 0 tokens though the server had read ~1,100 and
    # written ~1,000: budgets under-counted exactly when the endpoint was slow
    tally, rec = Tally(max_tokens=256), new_record("m")
    call = tally.call_record(MESSAGES, rec, "k" * 64)
    tally.add_cut(MESSAGES, rec, call, 60.0)
    assert (rec["promptTokens"], rec["completionTokens"]) == (1000, 256)
    assert call["usage"] == "cut" and tally.counts["usageEstimated"] == 1
    assert rec["latencyMs"] == 60_000.0


def test_each_prompt_text_is_recorded_once_a_run_by_its_hash():
    tally = Tally()
    first, second = new_record("m"), new_record("m")
    a = tally.call_record(MESSAGES, first, "a" * 64)
    turn2 = [MESSAGES[0], {"role": "user", "content": "another turn"}]
    b = tally.call_record(turn2, second, "b" * 64)
    assert a["messages"][0] == b["messages"][0]  # the same system prompt, the same id
    assert set(first["prompts"]) == set(a["messages"])
    assert list(second["prompts"]) == [b["messages"][1]]  # only the new text
    assert second["prompts"][b["messages"][1]] == {"role": "user", "content": "another turn"}
