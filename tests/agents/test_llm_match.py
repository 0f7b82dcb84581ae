"""A model in a Harvest Watch match (issue 34): the dry run creates nothing and calls no
model, a local match's beats follow its seats' clocks, and beats a model missed show in its
own row of the summary."""

from __future__ import annotations

from typer.testing import CliRunner

from sunbot.agents.llm import LLMStrategy
from sunbot.cli import app
from sunbot.cli.agent_rows import agent_rows
from sunbot.runs.match import LOCAL_SLOW_BEAT_MS, MAX_LOCAL_BEAT_MS, local_beats
from sunbot.testing.llm_endpoint import create_llm_app, running


def test_the_dry_run_of_a_match_calls_no_model_and_plays_nothing(tmp_path, monkeypatch):
    # issue 34: the match branch returned before the dry run: a whole match was played
    # against the endpoint (17 calls, 366 s) and a transcript written
    monkeypatch.chdir(tmp_path)
    endpoint = create_llm_app()
    with running(endpoint) as url:
        result = CliRunner().invoke(
            app, ["play", "harvest-watch", "--seed", "3", "--strategy", "llm:legal",
                  "--llm-url", url, "--llm-dry-run"],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sum(endpoint.state.counts.values()) == 0 and not list(tmp_path.rglob("*.jsonl"))
    assert result.output.startswith("--- system ---\nYou are playing Harvest Watch")
    assert "--- user ---" in result.output and 'only key is "speech"' in result.output
    assert '"you":0' in result.output and '"phase":"speech1"' in result.output


def test_local_beats_follow_the_seats_clocks():
    class Bot:
        blocking = False

    class Model:
        blocking, timeout_s = True, 40.0

    class Blocking:
        blocking = True

    assert local_beats([Bot()], None) is None  # quick seats: the short beats
    assert local_beats([Bot()], 1.0) == dict.fromkeys(("speech", "vote", "action", "diary"), 3000)
    assert set(local_beats([Model()], None).values()) == {42_000}
    assert set(local_beats([Model()], 100.0).values()) == {102_000}
    assert local_beats([Blocking()], None) == LOCAL_SLOW_BEAT_MS
    assert set(local_beats([Blocking()], 5.0).values()) == {7_000}
    huge = type("Huge", (), {"blocking": True, "timeout_s": 3600.0})()
    assert set(local_beats([huge], None).values()) == {MAX_LOCAL_BEAT_MS}
    model = LLMStrategy("m", game="harvest-watch", base_url="http://127.0.0.1:9/v1", timeout_s=25)
    assert set(local_beats([model], None).values()) == {27_000}


def test_missed_beats_show_in_the_models_row():
    # issue 34: 20 and 24 of 24 beats were missed while the model's row said "0 late"
    agent = {"kind": "llm", "model": "m", "calls": 4, "late": 0, "fallbacks": 0, "reasks": 0,
             "errors": 0, "clock": {"decisions": 24, "timeouts": 20, "maxMs": 1.0}}  # fmt: skip
    rows = agent_rows(agent)
    assert (
        rows["model answers"] == "0 re-asked · 0 fallbacks · 0 late (20 past the clock) · 0 errors"
    )
    agent["clock"]["timeouts"] = 0
    assert "past the clock" not in agent_rows(agent)["model answers"]
