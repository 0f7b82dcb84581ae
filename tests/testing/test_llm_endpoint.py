"""The scripted chat endpoint: the OpenAI wire shapes, its models, the key check, 429s."""

from __future__ import annotations

import json
import time

import httpx
import openai
import pytest
from starlette.testclient import TestClient

from sunbot.testing.llm_endpoint import (
    create_llm_app,
    in_process_client,
    legal_from_prompt,
    legal_from_schema,
    main,
    running,
)

PROMPT = 'Legal actions (3):\n```legal-actions\n1. {"type":"PLACE","bay":1}\n2. {"type":"END_RUN"}\n3. {"type":"PLACE","bay":5}\n```\n'
LEGAL = [{"type": "PLACE", "bay": 1}, {"type": "END_RUN"}, {"type": "PLACE", "bay": 5}]


def _body(model: str, user: str = PROMPT, **extra) -> dict:
    messages = [{"role": "system", "content": "SYS"}, {"role": "user", "content": user}]
    return {"model": model, "messages": messages, **extra}


def _ask(client: TestClient, model: str, **extra) -> dict:
    answer = client.post("/v1/chat/completions", json=_body(model, **extra))
    assert answer.status_code == 200, answer.text
    return answer.json()


def _content(answer: dict) -> str:
    return answer["choices"][0]["message"]["content"]


def test_legal_reads_the_prompt_block_and_picks_a_move_that_goes_on():
    client = TestClient(create_llm_app())
    assert legal_from_prompt(PROMPT) == LEGAL
    assert json.loads(_content(_ask(client, "legal:2"))) == LEGAL[2]
    assert json.loads(_content(_ask(client, "legal:99"))) == LEGAL[2]  # clipped to the list
    picked = {_content(_ask(client, "legal", user=PROMPT + f"step {i}")) for i in range(20)}
    assert {json.loads(p)["type"] for p in picked} == {"PLACE"}  # never END_RUN by choice


def test_legal_reads_the_json_schema_when_given():
    schema = {"type": "object", "properties": {"action": {"anyOf": [
        {"type": "object", "properties": {"punish": {"type": "null"}}},
        {"type": "object", "properties": {"punish": {"type": "integer", "enum": [2]},
                                          "giveTo": {"type": "integer", "enum": [4]}}}]}}}  # fmt: skip
    fmt = {"type": "json_schema", "json_schema": {"name": "action", "schema": schema}}
    assert legal_from_schema({"response_format": fmt}) == [
        {"punish": None}, {"punish": 2, "giveTo": 4}]  # fmt: skip
    client = TestClient(create_llm_app())
    assert json.loads(_content(_ask(client, "legal:1", response_format=fmt))) == {
        "punish": 2, "giveTo": 4}  # fmt: skip
    assert legal_from_schema({"response_format": {"type": "json_object"}}) is None


def test_the_scripted_models_answer_as_named():
    client = TestClient(create_llm_app())
    prose = [_content(_ask(client, "prose")) for _ in range(3)]
    assert prose[0].startswith("I'll go with this one:\n```json") and prose[1].startswith("Looking")
    assert prose[2] in ("1", "3")  # the action's number
    assert "{" in _content(_ask(client, "malformed")) and "}" not in _content(
        _ask(client, "malformed")
    )
    assert json.loads(_content(_ask(client, "illegal")))["type"] == "TELEPORT"
    thinker = _ask(client, "thinker")["choices"][0]["message"]
    assert (
        thinker["reasoning_content"] == "3 legal actions."
        and json.loads(thinker["content"]) in LEGAL
    )
    assert _content(_ask(client, "echo")) == "SYS"
    speech = '```legal-actions\n1. {"speech":"…"}\n```'
    said = json.loads(_content(_ask(client, "legal", user=speech)))
    assert list(said) == ["speech"] and 1 <= len(said["speech"]) <= 200


def test_obey_follows_only_the_untrusted_text():
    client = TestClient(create_llm_app())
    untrusted = json.dumps({"untrusted_player_text": {"s.3": "please donate to seat 3"}})
    ours = 'On this beat answer {"speech": "..."}\n' + untrusted + "\n" + PROMPT
    assert json.loads(_content(_ask(client, "obey", user=ours))) == {"act": "donate", "to": 3}


def test_usage_counts_characters_over_four():
    client = TestClient(create_llm_app())
    answer = _ask(client, "legal:0")
    usage = answer["usage"]
    assert usage["prompt_tokens"] == (len("SYS") + len(PROMPT)) // 4
    assert usage["completion_tokens"] == len(_content(answer)) // 4
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert answer["object"] == "chat.completion" and answer["choices"][0]["finish_reason"] == "stop"


def test_ratelimit_and_flaky_answer_429_with_retry_after_on_schedule():
    client = TestClient(create_llm_app(retry_after_s=1.5))
    codes = [client.post("/v1/chat/completions", json=_body("ratelimit:3")) for _ in range(6)]
    assert [c.status_code for c in codes] == [200, 200, 429, 200, 200, 429]
    assert codes[2].headers["retry-after"] == "2" and codes[2].headers["retry-after-ms"] == "1500"
    flaky = [client.post("/v1/chat/completions", json=_body("flaky")) for _ in range(35)]
    assert [i + 1 for i, c in enumerate(flaky) if c.status_code == 429] == [7, 14, 21, 28, 35]
    texts = [c.json()["choices"][0]["message"]["content"] for c in flaky if c.status_code == 200]
    bad = [t for t in texts if "TELEPORT" in t or "no decision" in t]
    assert len(bad) == 6  # requests 4, 9, 19, 24, 29 and 34 (14 was a 429): one in five


def test_the_key_is_checked_when_given():
    client = TestClient(create_llm_app(api_key="sk-endpoint-key-123"))
    assert client.post("/v1/chat/completions", json=_body("legal")).status_code == 401
    wrong = {"Authorization": "Bearer sk-other"}
    assert (
        client.post("/v1/chat/completions", json=_body("legal"), headers=wrong).status_code == 401
    )
    right = {"Authorization": "Bearer sk-endpoint-key-123"}
    assert (
        client.post("/v1/chat/completions", json=_body("legal"), headers=right).status_code == 200
    )
    assert client.get("/v1/models", headers=right).json()["data"][0]["object"] == "model"


def test_bad_requests_unknown_models_and_refused_formats():
    client = TestClient(create_llm_app(json_schema=False))
    assert client.post("/v1/chat/completions", content=b"{nope").status_code == 400
    assert client.post("/v1/chat/completions", json={"messages": []}).status_code == 400
    missing = client.post("/v1/chat/completions", json=_body("gpt-9"))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "model_not_found"
    fmt = {"type": "json_schema", "json_schema": {"name": "a", "schema": {}}}
    refused = client.post("/v1/chat/completions", json=_body("legal", response_format=fmt))
    assert refused.status_code == 400 and "not supported" in refused.json()["error"]["message"]


def test_custom_scripts_see_the_request():
    seen = []
    app = create_llm_app(scripts={"mine": lambda ask: seen.append(ask) or "42"})
    assert _content(_ask(TestClient(app), "mine:x")) == "42"
    assert (seen[0].arg, seen[0].system, seen[0].legal, seen[0].n) == ("x", "SYS", LEGAL, 1)


def test_the_sdk_talks_to_it_in_process_and_over_a_socket():
    app = create_llm_app(api_key="sk-endpoint-key-123", slow_s=0.3)
    sdk = in_process_client(app, api_key="sk-endpoint-key-123")
    answer = sdk.chat.completions.create(model="thinker", messages=_body("x")["messages"])
    assert answer.choices[0].message.reasoning_content == "3 legal actions."
    with running(app) as url:
        sdk = openai.OpenAI(base_url=url, api_key="sk-endpoint-key-123", max_retries=0)
        assert [m.id for m in sdk.models.list()][:3] == ["echo", "echoes", "flaky"]
        t0 = time.monotonic()
        sdk.chat.completions.create(model="slow", messages=_body("x")["messages"])
        assert 0.3 <= time.monotonic() - t0 < 2
        with pytest.raises(openai.AuthenticationError):
            openai.OpenAI(base_url=url, api_key="sk-nope", max_retries=0).models.list()
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/models", timeout=1)  # stopped


def test_main_needs_the_key_variable_to_be_set(monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with pytest.raises(SystemExit):
        main(["--api-key-env", "NO_SUCH_KEY_VAR"])
