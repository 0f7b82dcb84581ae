"""Search through the server (--lookahead): honest games only unless --allow-peek, within
the per-decision and per-run budgets, the move clock, 429s and at most four requests in
flight; clairvoyant runs labelled everywhere."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sunbot
from sunbot.cli.main import app
from sunbot.search.peek import PeekRefused
from tests.conftest import LoopbackServer
from tests.forward.conftest import unseen_url  # noqa: F401 (a fixture)
from tests.search.countup import create_countup_app


@pytest.fixture
def countup() -> Iterator[LoopbackServer]:
    with LoopbackServer(create_countup_app()) as srv:
        yield srv


def test_lookahead_solves_an_honest_puzzle_within_its_budgets(
    countup: LoopbackServer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    s = sunbot.play("count-up", seed=1, strategy="search", server=countup.url, lookahead=12,
                    transcript=path)  # fmt: skip
    assert (s.ended_by, s.score, s.clairvoyant) == ("rules", 4, False)  # 3 + 3 + 3 + 1
    look = s.agent["lookahead"]
    assert 0 < look["requests"] <= 12 * s.agent["decisions"]
    assert look["cacheHits"] > 0  # the second decision reuses the first one's answers
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    head = lines[0]["lookahead"]
    assert (head["perDecision"], head["budget"], head["clairvoyant"]) == (12, 2000, False)
    assert "every one of the state's 2 values shows" in head["guard"]
    steps = [x for x in lines if x["type"] == "step"]
    assert all(x["agent"]["requests"] <= 12 for x in steps)
    assert "clairvoyant" not in lines[-1]
    srv = countup.server.config.app
    assert srv.state.most_busy <= 4  # at most four in flight


def test_the_run_budget_holds(countup: LoopbackServer) -> None:
    s = sunbot.play("count-up", seed=1, strategy="search", server=countup.url, lookahead=10,
                    lookahead_budget=5)  # fmt: skip
    assert s.ended_by == "rules"
    assert s.agent["lookahead"]["requests"] <= 5
    # the first decision wants more than 5 questions: the budget is spent in it, and the
    # summary's row says so (a run that goes on blind must not look like one that looked)
    assert s.agent["lookahead"]["spentAt"] == 1
    from sunbot.cli.agent_rows import search_rows

    row = search_rows(s.agent)["lookahead"]
    assert row.endswith("budget spent at decision 1: no lookahead after it")
    roomy = sunbot.play("count-up", seed=1, strategy="search", server=countup.url, lookahead=12)
    assert roomy.agent["lookahead"]["spentAt"] is None


def test_429s_are_waited_out_by_the_retry_policy() -> None:
    with LoopbackServer(create_countup_app(rate_limit_every=3)) as srv:
        s = sunbot.play("count-up", seed=1, strategy="search", server=srv.url, lookahead=12)
    assert (s.ended_by, s.score) == ("rules", 4)
    assert s.agent["lookahead"]["retries"] > 0


@pytest.mark.slow  # a clock: a starved machine (load 20) missed it once
def test_answers_come_within_the_move_clock() -> None:
    with LoopbackServer(create_countup_app(slow_s=0.25)) as srv:
        s = sunbot.play("count-up", seed=1, strategy="search", server=srv.url, lookahead=40,
                        move_timeout=0.6)  # fmt: skip
    assert s.ended_by == "rules"
    assert s.timeouts == 0
    assert s.agent["clock"]["maxMs"] < 600


def test_hidden_information_is_refused_and_allowed_runs_are_clairvoyant(
    unseen_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    with pytest.raises(
        PeekRefused, match=r"does not show \(state\.seed, state\.theme\)"
    ) as refused_by:
        sunbot.play("take-away", seed=1, strategy="search", server=unseen_url, lookahead=5)
    assert "pebbles" not in str(refused_by.value)  # the hidden value itself is never quoted
    runner = CliRunner()
    refused = runner.invoke(app, ["play", "hidden-number", "--strategy", "search", "--lookahead",
                                  "5", "--server", unseen_url, "--quiet"])  # fmt: skip
    assert refused.exit_code == 2
    assert "an id the server keeps" in refused.output
    assert len([line for line in refused.output.splitlines() if line.strip()]) == 1
    path = tmp_path / "peek.jsonl"
    allowed = runner.invoke(app, ["play", "take-away", "--seed", "1", "--strategy", "search",
                                  "--lookahead", "5", "--allow-peek", "--server", unseen_url,
                                  "--transcript", str(path), "--json"])  # fmt: skip
    assert allowed.exit_code == 0, allowed.output
    summary = json.loads(allowed.output.splitlines()[-1])
    assert summary["clairvoyant"] is True
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["lookahead"]["clairvoyant"] is True
    assert lines[-1]["clairvoyant"] is True


def test_bench_keeps_clairvoyant_rows_apart(unseen_url: str, tmp_path: Path) -> None:  # noqa: F811
    got = CliRunner().invoke(app, [
        "bench", "take-away", "-s", "random", "-s", "search", "--lookahead", "4",
        "--allow-peek", "--seeds", "1", "--server", unseen_url, "--workers", "1",
        "--out", str(tmp_path), "--format", "csv",
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert "search (clairvoyant)" in got.output
    assert "requests/decision" in got.output
    refused = CliRunner().invoke(app, [
        "bench", "take-away", "-s", "search", "--lookahead", "4", "--seeds", "1",
        "--server", unseen_url, "--out", str(tmp_path),
    ])  # fmt: skip
    assert refused.exit_code == 2
    assert "refused (--allow-peek" in refused.output


def test_an_answer_without_a_plain_state_is_a_leaf_never_sent_back() -> None:
    """Only what the peek guard judged (a plain state) goes back to the server: an answer
    that came back with a token alone is not expanded, unless peeking was allowed."""
    import httpx

    from sunbot.search.lookahead import Lookahead

    asked: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return httpx.Response(400, json={"ok": False, "error": "refused"})

    transport = httpx.MockTransport(handler)
    token_only = {"ok": True, "stateToken": "opaque", "observation": {}, "legalActions": [1],
                  "score": 0, "gameOver": False}  # fmt: skip
    look = Lookahead("http://gb.test", "count-up", per_decision=4, transport=transport)
    assert look.step_many([(token_only, 1)]) == [None]
    assert asked == [] and look.failures == 1
    peeking = Lookahead("http://gb.test", "count-up", per_decision=4, transport=transport,
                        plain_only=False)  # fmt: skip
    assert peeking.step_many([(token_only, 1)]) == [None]  # asked, and refused
    assert len(asked) == 1 and b"opaque" in asked[0].content


def test_the_cache_is_bounded_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    import sunbot.search.lookahead as la

    monkeypatch.setattr(la, "CACHE_BYTES", 10_000)
    look = la.Lookahead(None, "count-up", per_decision=4)
    for i in range(20):
        look._store((str(i), "a"), {"observation": {"blob": "x" * 1_000}})
    assert look._bytes <= 10_000 and 5 <= len(look._cache) <= 10
    assert ("19", "a") in look._cache and ("0", "a") not in look._cache
