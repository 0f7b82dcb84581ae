"""What issue 34 found when real models met the model agent, against the scripted endpoint:
the request's bounds and modes from the command line, an echoed list, speech beats, the
tokens of a cut call, an endpoint that lies about usage, and each decision's record."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

import sunbot
from sunbot.agents._llm_tools import tool_set
from sunbot.agents.health import Health, from_transcript
from sunbot.agents.llm import DEFAULT_MAX_TOKENS, LLMStrategy
from sunbot.cli import app as cli
from sunbot.observations.harvest_watch import legal_actions as hw_legal
from sunbot.testing.llm_endpoint import create_llm_app, running
from tests.agents.test_llm import _start
from tests.strategies.test_harvest_watch import data


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[str, FastAPI]]:
    app = create_llm_app(slow_s=3.0)
    with running(app) as url:
        yield url, app


def _bodies(app: FastAPI, model: str) -> list[dict]:
    return [b for b in app.state.requests if b.get("model") == model]


def test_requests_carry_a_max_tokens_by_default(endpoint):
    # issue 34: without structured output a real model's answer never ended (about 1,000
    # tokens in 60 s, holding the server's only slot); no max_tokens was ever sent
    url, app = endpoint
    bot = LLMStrategy("legal:1", game="naptuft", base_url=url)
    bot.choose(*_start("naptuft"))
    assert _bodies(app, "legal:1")[-1]["max_tokens"] == DEFAULT_MAX_TOKENS == 256
    none = LLMStrategy("legal:2", game="naptuft", base_url=url, max_tokens=0)
    none.choose(*_start("naptuft"))
    assert "max_tokens" not in _bodies(app, "legal:2")[-1]


def test_the_llm_options_reach_the_request_from_the_command_line(endpoint, tmp_path):
    url, app = endpoint
    args = ["play", "naptuft", "--seed", "3", "--max-days", "1", "--strategy", "llm:legal:3",
            "--llm-url", url, "--llm-max-tokens", "40", "--llm-temperature", "0.25",
            "--llm-timeout", "7", "--llm-mode", "text", "--no-transcript", "--json"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    sent = _bodies(app, "legal:3")
    assert sent and all(b["max_tokens"] == 40 and b["temperature"] == 0.25 for b in sent)
    assert not any("response_format" in b or "tools" in b for b in sent)  # text mode
    agent = json.loads(result.stdout)["agent"]
    assert agent["mode"] == "text" and agent["request"]["timeoutS"] == 7.0
    assert agent["request"]["params"] == {"max_tokens": 40, "temperature": 0.25}


def test_llm_options_without_an_llm_strategy_are_a_usage_error():
    result = CliRunner().invoke(
        cli, ["play", "naptuft", "--llm-mode", "tools", "--llm-timeout", "5"]
    )
    assert result.exit_code == 2
    assert "--llm-timeout, --llm-mode apply to --strategy llm:MODEL" in result.output


def test_an_echoed_list_is_asked_again_not_taken_as_entry_one(endpoint):
    # issue 34: answers like "1. {...}\n2. {...}" played entry 1 as if the model chose it
    url, _ = endpoint
    bot = LLMStrategy("echoes", game="keelhold", base_url=url, mode="text", max_attempts=2)
    obs, legal = _start("keelhold")
    assert bot.choose(obs, legal) == legal[0]
    record = bot.last_decision()
    assert record["fallback"] and record["attempts"] == 2
    assert [c["outcome"] for c in record["calls"]] == ["illegal", "illegal"]
    assert record["reason"].startswith(f"the answer names {len(legal)} different actions (")
    assert record["reason"].endswith("; answer with exactly one")
    assert bot.totals()["health"] == {
        "loading": {"decisions": 1, "illegal": 1, "unparsable": 0, "truncated": 0,
                    "late": 0, "fallback": 1},
    }  # fmt: skip


def test_the_same_action_twice_is_one_choice():
    from sunbot.agents._llm_parse import Judge

    judge = Judge("keelhold", None)
    legal = [{"type": "PLACE", "bay": 1}, {"type": "PLACE", "bay": 2}]
    text = 'I choose {"type": "PLACE", "bay": 2}.\n```json\n{"bay": 2, "type": "PLACE"}\n```'
    assert judge.verdict(text, legal, "").action == legal[1]
    wrapped = '{"action": {"type": "PLACE", "bay": 1}}'
    assert judge.verdict(wrapped, legal, "").action == legal[0]
    listed = '[1. {"type": "PLACE", "bay": 1}, 2. {"type": "PLACE", "bay": 2}]'
    assert judge.verdict(listed, legal, "").outcome == "illegal"


@pytest.mark.parametrize("said", ["…", "...", "your words", "<untrusted summary.speeches1.3>",
                                  "  Your Words!  ", "<your words here>"])  # fmt: skip
def test_a_speech_that_is_a_placeholder_or_a_marker_is_refused(said):
    # issue 34: both real models said "…" (the schema's placeholder) at every speech beat,
    # and one said "<untrusted schema.example.speech>" in public
    from sunbot.agents._llm_parse import Judge

    obs = data({}, phase="speech1")
    verdict = Judge("harvest-watch", None).verdict(json.dumps({"speech": said}), hw_legal(obs), "")
    assert verdict.action is None and verdict.outcome == "illegal"
    assert "placeholder" in verdict.reason


def test_a_speech_beat_asks_for_words_with_bounds_and_shows_no_placeholder(endpoint):
    url, app = endpoint
    bot = LLMStrategy("legal", game="harvest-watch", base_url=url)
    obs = data({}, phase="speech1")
    speech = bot.choose(obs, hw_legal(obs))
    assert list(speech) == ["speech"] and speech["speech"].startswith("Seat plan")
    body = _bodies(app, "legal")[-1]
    schema = body["response_format"]["json_schema"]["schema"]["properties"]["action"]
    assert schema["properties"]["speech"] == {"type": "string", "minLength": 1, "maxLength": 200}
    system, turn = (m["content"] for m in body["messages"])
    assert "…" not in turn and "…" not in system and "legal-actions" not in turn
    assert "Answer with exactly one action from the list" not in turn
    assert 'only key is "speech"' in turn and "1 to 200 characters" in turn


def test_tools_mode_offers_each_kind_of_action_as_a_function(endpoint):
    url, app = endpoint
    obs, legal = _start("keelhold")
    tools = tool_set("keelhold", legal)
    assert tools is not None and [t["function"]["name"] for t in tools.tools] == ["PLACE"]
    assert tools.tools[0]["function"]["parameters"]["properties"] == {
        "bay": {"enum": [a["bay"] for a in legal]}
    }
    hw = data({})  # an action beat: farm, farm_coop, guard, steal, donate
    names = [t["function"]["name"] for t in tool_set("harvest-watch", hw["legal"]).tools]
    assert names == ["farm", "farm_coop", "guard", "steal", "donate"]
    bot = LLMStrategy("legal:2", game="keelhold", base_url=url, mode="tools")
    assert bot.choose(obs, legal) == legal[2]
    body = _bodies(app, "legal:2")[-1]
    assert body["tool_choice"] == "required" and "response_format" not in body
    call = bot.last_decision()["calls"][0]
    assert call["outcome"] == "ok" and call["toolCalls"][0][0] == "PLACE"
    run = sunbot.play("naptuft", seed=5, max_days=1,
                      strategy=LLMStrategy("legal", game="naptuft", base_url=url, mode="tools"))  # fmt: skip
    assert run.error is None and run.ended_by in ("rules", "cap") and run.agent["fallbacks"] == 0


def test_a_call_that_names_two_different_actions_is_asked_again():
    from sunbot.agents._llm_client import Reply

    legal = [{"type": "PLACE", "bay": 1}, {"type": "PLACE", "bay": 2}]
    tools = tool_set("keelhold", legal)
    bot = LLMStrategy("m", game="keelhold", base_url="http://127.0.0.1:9/v1", mode="tools")
    two = Reply("", None, 1, 1, 0.1, "tool_calls", None,
                [("PLACE", '{"bay": 1}'), ("PLACE", '{"bay": 2}')])  # fmt: skip
    verdict = bot._verdict(two, "", tools, legal, "")
    assert verdict.action is None and "calls 2 different actions" in verdict.reason


def test_a_lying_endpoint_neither_trips_a_token_budget_nor_fools_the_summary(endpoint, tmp_path):
    # issue 38: four calls of ~460 prompt tokens reported 1,000,002,262 prompt and
    # 2,000,000,016 completion tokens; --budget-tokens stopped a bench after its first job
    url, _ = endpoint
    args = ["bench", "naptuft", "-s", "llm:liar", "--seeds", "1-2", "--cap", "days=1",
            "--llm-url", url, "--budget-tokens", "1000000", "--out", str(tmp_path), "--workers", "1"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "budget reached" not in result.output and "2 jobs in" in result.output
    played = CliRunner().invoke(cli, ["play", "naptuft", "--seed", "1", "--max-days", "1",
                                      "--strategy", "llm:liar", "--llm-url", url, "--no-transcript"])  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "the endpoint over-reported" in played.output


def test_each_decision_records_its_calls_prompts_and_health(endpoint, tmp_path):
    url, _ = endpoint
    path = tmp_path / "flaky.jsonl"
    bot = LLMStrategy("flaky", game="sunloaf", base_url=url, mode="text")
    run = sunbot.play("sunloaf", seed=4, strategy=bot, max_days=1, transcript=path)
    assert run.error is None
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    steps = [x for x in lines if x["type"] == "step"]
    texts: dict[str, str] = {}
    for step in steps:
        agent = step["agent"]
        texts.update({h: m["content"] for h, m in agent["prompts"].items()})
        assert agent["attempts"] == len(agent["calls"]) >= 1
        for call in agent["calls"]:
            assert len(call["key"]) == 64 and all(h in texts for h in call["messages"])
            assert call["outcome"] in ("ok", "illegal", "unparsable")
            assert (call["reason"] is None) == (call["outcome"] == "ok")
    system_ids = {step["agent"]["calls"][0]["messages"][0] for step in steps}
    assert len(system_ids) == 1  # the same system prompt, recorded once
    system_id = system_ids.pop()
    assert sum(system_id in s["agent"]["prompts"] for s in steps) == 1
    health = from_transcript(path)
    again = Health()
    again.add_counts("sunloaf", bot.totals()["health"])
    assert health.rows() == again.rows() and health.rows()[0]["decisions"] == len(steps)
    assert any(r["illegal"] > 0 or r["unparsable"] > 0 for r in health.rows())  # flaky's 1 in 5
