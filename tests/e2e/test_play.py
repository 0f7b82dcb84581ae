"""End to end: the CLI and the runner through the in-process server, loopback and tampering."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from typer.testing import CliRunner

from sunbot import strategies
from sunbot.cli.main import app
from sunbot.client import GameboardClient
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript
from tests.conftest import FAST_RETRY, LoopbackServer

runner = CliRunner()


# A whole run to the rules' end: the default planner's runs last hundreds of voyages, so the
# full-run check plays the short-lived safe-greedy baseline (the CLI path is the same): seed
# 6 ends by the rules (lurch) after 100 placements, seed 7 (holdFull) after 517, slow.
def _full_run(seed: int) -> list[str]:
    return ["play", "keelhold", "--seed", str(seed), "--strategy", "safe-greedy", "--quiet"]


@pytest.mark.parametrize("seed", [6, pytest.param(7, marks=pytest.mark.slow)])
def test_cli_play_keelhold_writes_a_whole_transcript(tmp_path, seed):
    path = tmp_path / "t.jsonl"
    res = runner.invoke(app, [*_full_run(seed), "--transcript", str(path)])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [lines[0]["type"], lines[1]["type"], lines[-1]["type"]] == ["header", "init", "result"]
    head = lines[0]
    assert head["schemaVersion"] == 1 and head["game"] == "keelhold" and head["seed"] == seed
    assert head["strategy"] == "safe-greedy" and head["server"] == "embedded"
    steps = [x for x in lines if x["type"] == "step"]
    assert [s["index"] for s in steps] == list(range(1, len(steps) + 1))
    assert all(s["mirror"] == {"ok": True, "divergences": []} for s in steps)
    result = lines[-1]
    assert (
        result["divergences"] == 0 and result["endedBy"] == "rules" and result["gameOver"] is True
    )
    assert result["score"] == steps[-1]["response"]["score"]
    assert "divergences" in res.output and "score" in res.output

    again = tmp_path / "t2.jsonl"
    runner.invoke(app, [*_full_run(seed), "--transcript", str(again)])
    assert json.loads(again.read_text().splitlines()[-1])["score"] == result["score"]


def test_cli_max_voyages_caps_the_run(tmp_path):
    path = tmp_path / "c.jsonl"
    res = runner.invoke(
        app,
        [
            "play",
            "keelhold",
            "--seed",
            "3",
            "--quiet",
            "--max-voyages",
            "2",
            "--transcript",
            str(path),
        ],
    )
    assert res.exit_code == 0, res.output
    t = read_transcript(path)
    last = t.steps[-1]
    assert last["action"] == {"type": "END_RUN"} and last["response"]["state"]["voyage"] == 2
    assert t.result["endedBy"] == "cap"
    assert t.header["strategy"] == "planner"  # the default


def test_cli_usage_errors():
    res = runner.invoke(
        app, ["play", "keelhold", "--strategy", "nope", "--quiet", "--no-transcript"]
    )
    assert res.exit_code == 2 and "safe-greedy" in res.output
    res = runner.invoke(app, ["play", "chess", "--no-transcript"])
    assert res.exit_code == 2 and "keelhold" in res.output
    res = runner.invoke(app, ["play", "keelhold", "--max-days", "3", "--no-transcript"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["games"])
    assert res.exit_code == 0 and "safe-greedy" in res.output


async def _run(client, seed, strict=False, path=None):
    writer = TranscriptWriter(path) if path else None
    try:
        return await play_run(
            client,
            "keelhold",
            seed,
            strategies.create("keelhold", "safe-greedy", random.Random(seed)),
            strategy_name="safe-greedy",
            strict=strict,
            mirror=Mirror("keelhold"),
            transcript=writer,
        )
    finally:
        if writer:
            writer.close()


@pytest.mark.parametrize("seed", [6, pytest.param(7, marks=pytest.mark.slow)])
async def test_same_score_in_process_and_on_loopback(seed):
    inproc = GameboardClient(transport=httpx.ASGITransport(app=create_app(TokenCodec())))
    async with inproc:
        a = await _run(inproc, seed)
    with LoopbackServer(create_app(TokenCodec())) as srv:
        async with GameboardClient(srv.url) as c:
            b = await _run(c, seed)
    assert a.score == b.score and a.steps == b.steps and a.final_state == b.final_state
    assert not a.divergences and not b.divergences and a.ended_by == b.ended_by == "rules"


def tampering_app(step_to_tamper: int):
    """The real server, but its answer to the N-th action reports a trim one too high."""
    inner = create_app(TokenCodec())
    count = {"n": 0}

    async def app(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            await inner(scope, receive, send)
            return
        count["n"] += 1
        n = count["n"]

        async def send2(msg):
            if msg["type"] == "http.response.start":
                msg = {
                    **msg,
                    "headers": [
                        (k, v) for k, v in msg["headers"] if k.lower() != b"content-length"
                    ],
                }
            elif msg["type"] == "http.response.body" and n == step_to_tamper:
                body = json.loads(msg["body"])
                if body.get("ok"):
                    body["state"]["trim"] += 1
                    body["observation"]["trim"] += 1
                msg = {**msg, "body": json.dumps(body).encode()}
            await send(msg)

        await inner(scope, receive, send2)

    return app


async def test_strict_stops_at_first_divergence(tmp_path):
    client = GameboardClient(transport=httpx.ASGITransport(app=tampering_app(4)), policy=FAST_RETRY)
    async with client:
        s = await _run(client, 7, strict=True, path=tmp_path / "x.jsonl")
    assert s.ended_by == "strict" and s.steps == 4
    assert [(d.step, d.path) for d in s.divergences] == [(4, "state.trim"), (4, "observation.trim")]
    t = read_transcript(tmp_path / "x.jsonl")
    assert t.steps[-1]["mirror"]["ok"] is False and t.result["divergences"] == 2


async def test_non_strict_continues_from_the_servers_state():
    client = GameboardClient(transport=httpx.ASGITransport(app=tampering_app(4)), policy=FAST_RETRY)
    async with client:
        s = await _run(client, 7)
    assert s.ended_by == "rules" and s.steps > 4 and len(s.divergences) >= 2


async def test_server_failure_ends_run_with_whole_transcript(tmp_path):
    inner = create_app(TokenCodec())
    count = {"n": 0}

    async def dying(scope, receive, send):
        if scope["type"] == "http":
            count["n"] += 1
            if count["n"] > 7:  # the index (server identity), init and 5 steps answer
                await send({"type": "http.response.start", "status": 503, "headers": []})
                await send({"type": "http.response.body", "body": b"down"})
                return
        await inner(scope, receive, send)

    client = GameboardClient(transport=httpx.ASGITransport(app=dying), policy=FAST_RETRY)
    async with client:
        s = await _run(client, 7, path=tmp_path / "d.jsonl")
    assert s.ended_by == "error" and "503" in s.error
    t = read_transcript(tmp_path / "d.jsonl")
    assert t.error is None and t.result["endedBy"] == "error" and len(t.steps) == 5
    assert s.steps == t.result["steps"] == 5  # the unanswered sixth action is not a step


def test_existing_transcript_is_a_usage_error(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text("keep me\n")
    res = runner.invoke(
        app, ["play", "keelhold", "--seed", "1", "--quiet", "--transcript", str(path)]
    )
    assert res.exit_code == 2 and "exists" in res.output
    assert path.read_text() == "keep me\n"
