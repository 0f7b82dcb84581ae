"""The replay page's agent row: what a model said beside its step, clipped, as text."""

from __future__ import annotations

from sunbot.html.steps import AGENT_SHOWN, agent_said


def test_a_model_decision_reads_as_its_answer_reasoning_and_costs() -> None:
    said = agent_said(
        {"attempts": 2, "latencyMs": 6.5, "ms": 8.43, "promptTokens": 910,
         "completionTokens": 8, "answer": '{"type": "care"}', "reasoning": "5 legal actions."}
    )  # fmt: skip
    assert said.splitlines() == [
        "2 attempt(s) · model 6.5 ms · decision 8.4 ms · 910 in / 8 out tokens",
        'answer: {"type": "care"}',
        "reasoning: 5 legal actions.",
    ]


def test_a_missed_deadline_and_a_fallback_are_named() -> None:
    assert agent_said({"ms": 1000.0, "timedOut": True}).splitlines() == [
        "missed its deadline: the fallback was played",
        "decision 1000.0 ms",
    ]
    assert agent_said({"fallback": True}) == "fallback action (no legal answer)"


def test_long_or_odd_records_are_clipped_or_ignored() -> None:
    said = agent_said({"answer": "x" * 10_000, "attempts": True})
    assert said == "answer: " + "x" * AGENT_SHOWN + "…"
    assert agent_said(None) == agent_said("nope") == agent_said({}) == ""
