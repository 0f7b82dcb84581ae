"""Daily spend caps that hold across runs (issue 38): a model bench stops at its daily token
cap with the reason, alone, with two benches at once, and against an endpoint that lies
about its usage; a run against a server stops at its daily request cap, whole and
resumable."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.bench.status import read_status
from sunbot.cli.console import Exit
from sunbot.cli.main import app
from sunbot.server import TokenCodec, create_app
from sunbot.testing.llm_endpoint import create_llm_app, running
from tests.conftest import LoopbackServer

runner = CliRunner()
CAP = 20_000
#: A naptuft day's decision costs the scripted model about 1,300 tokens (prompt + answer).
DECISION_MAX = 3_000
BENCH = ["bench", "naptuft", "-s", "llm:legal", "--seeds", "1-8", "--cap", "days=1",
         "--workers", "1", "--daily-tokens", str(CAP)]  # fmt: skip


def _tokens(store: Path) -> float:
    row = (
        sqlite3.connect(store)
        .execute("SELECT SUM(amount) FROM spend WHERE meter = 'model-tokens'")
        .fetchone()
    )
    return float(row[0] or 0)


def _stored(out: Path) -> int:
    return int(
        sqlite3.connect(out / "bench.sqlite").execute("SELECT COUNT(*) FROM results").fetchone()[0]
    )


def test_a_model_bench_stops_at_its_daily_token_cap_with_the_reason(tmp_path):
    store, out = tmp_path / "spend.sqlite", tmp_path / "o"
    with running(create_llm_app()) as url:
        res = runner.invoke(
            app, [*BENCH, "--llm-url", url, "--spend-store", str(store), "--out", str(out),
                  "--run", "r"],
        )  # fmt: skip
        assert res.exit_code == Exit.SPEND_CAP, res.output
        text = " ".join(res.output.split())
        assert "stopped: daily model-token cap reached:" in text
        assert "--resume --run r once the cap allows" in text
        used = _tokens(store)
        assert CAP <= used < CAP + DECISION_MAX  # no decision started past the cap
        assert 1 <= _stored(out) < 8
        status = read_status(out / "r" / "status.json")
        assert status.state == "stopped" and "daily model-token cap reached" in (
            status.reason or ""
        )
        assert status.spend_today == {"model-tokens": used}
        # the same day, a resumed bench runs nothing more: the ledger is shared
        again = runner.invoke(
            app, [*BENCH, "--llm-url", url, "--spend-store", str(store), "--out", str(out),
                  "--run", "r", "--resume"],
        )  # fmt: skip
    assert again.exit_code == Exit.SPEND_CAP, again.output
    assert _tokens(store) == used
    shown = runner.invoke(app, ["status", str(out)])
    assert shown.exit_code == 0 and "stopped" in shown.output


@pytest.mark.slow  # two benches in their own processes: ~10 s on an idle machine
def test_two_benches_at_once_share_the_cap(tmp_path):
    store, cap = tmp_path / "spend.sqlite", 6_000  # a few decisions each: a quick test
    bench = [*BENCH[:-1], str(cap)]
    with running(create_llm_app()) as url:
        commands = [
            [sys.executable, "-m", "sunbot", *bench, "--llm-url", url, "--spend-store",
             str(store), "--out", str(tmp_path / f"o{i}"), "--run", f"r{i}"]
            for i in (1, 2)
        ]  # fmt: skip
        procs = [
            subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for c in commands
        ]
        outs = [p.communicate(timeout=240)[0] for p in procs]
    for p, text in zip(procs, outs, strict=True):
        assert p.returncode == Exit.SPEND_CAP, text
        assert "stopped: daily model-token cap reached" in " ".join(text.split())
    # each bench may finish the one decision it had started when the other reached the cap
    assert cap <= _tokens(store) < cap + 2 * DECISION_MAX
    assert _stored(tmp_path / "o1") + _stored(tmp_path / "o2") == 0  # a job is ~13k tokens


def liar(app):
    """The scripted endpoint, every answer of which reports ~3 billion tokens used (an
    ASGI app around ``app``)."""

    async def lying(scope, receive, send):
        await _lie(app, scope, receive, send)

    return lying


async def _lie(app, scope, receive, send):
    if scope["type"] != "http" or not scope["path"].endswith("/chat/completions"):
        await app(scope, receive, send)
        return
    head: dict = {}

    async def lie(message):
        if message["type"] == "http.response.start":
            head.update(message)
            return
        body = json.loads(message["body"])
        body["usage"] = {"prompt_tokens": 1_000_002_262, "completion_tokens": 2_000_000_016,
                         "total_tokens": 3_000_002_278}  # fmt: skip
        data = json.dumps(body).encode()
        headers = [(k, v) for k, v in head["headers"] if k.lower() != b"content-length"]
        await send({**head, "headers": [*headers, (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})

    await app(scope, receive, lie)


def test_an_endpoint_lying_about_usage_cannot_push_past_the_cap(tmp_path):
    store, out = tmp_path / "spend.sqlite", tmp_path / "o"
    with running(liar(create_llm_app())) as url:
        res = runner.invoke(
            app, [*BENCH, "--llm-url", url, "--spend-store", str(store), "--out", str(out),
                  "--run", "r"],
        )  # fmt: skip
    assert res.exit_code == Exit.SPEND_CAP, res.output
    text = " ".join(res.output.split())
    assert "daily model-token cap reached: 20,000 of 20,000 tokens" in text
    assert "one decision reported" in text and "counted as 20,000" in text
    assert _tokens(store) == CAP  # one decision, counted as the whole cap, then nothing
    assert _stored(out) == 0


def test_a_run_stops_whole_at_its_daily_request_cap_and_resumes(tmp_path):
    store, path = tmp_path / "spend.sqlite", tmp_path / "k.jsonl"
    with LoopbackServer(create_app(TokenCodec())) as srv:
        args = ["play", "keelhold", "--seed", "7", "--max-voyages", "1", "--quiet",
                "--server", srv.url, "--daily-requests", "6", "--spend-store", str(store)]  # fmt: skip
        res = runner.invoke(app, [*args, "--transcript", str(path)])
        assert res.exit_code == Exit.SPEND_CAP, res.output
        assert "stopped: daily request cap reached for http://127.0.0.1:" in " ".join(
            res.output.split()
        )
        lines = [json.loads(x) for x in path.read_text().splitlines()]
        result = lines[-1]
        assert result["endedBy"] == "interrupted"
        assert result["stopReason"].startswith("daily request cap reached for http://127.0.0.1")
        assert 1 <= result["steps"] <= 5  # the index and init took the rest
        used = sqlite3.connect(store).execute("SELECT amount FROM spend").fetchone()[0]
        assert used == 6
        assert runner.invoke(app, ["replay", "--strict", str(path)]).exit_code in (0, 4)
        # a larger cap (another day's, or a raised one) lets it go on from where it stopped
        more = runner.invoke(
            app, ["play", "--resume", str(path), "--server", srv.url, "--quiet",
                  "--daily-requests", "1000", "--spend-store", str(store)],
        )  # fmt: skip
    assert more.exit_code == 0, more.output
    final = json.loads(path.read_text().splitlines()[-1])
    assert final["endedBy"] == "cap" and final["gameOver"]


def test_a_bench_on_a_server_stops_at_its_daily_request_cap(tmp_path):
    store, out = tmp_path / "spend.sqlite", tmp_path / "o"
    with LoopbackServer(create_app(TokenCodec())) as srv:
        res = runner.invoke(
            app, ["bench", "naptuft", "-s", "balancer", "--seeds", "1-6", "--cap", "days=1",
                  "--workers", "1", "--server", srv.url, "--daily-requests", "40",
                  "--spend-store", str(store), "--out", str(out), "--run", "r"],
        )  # fmt: skip
    assert res.exit_code == Exit.SPEND_CAP, res.output
    assert "stopped: daily request cap reached for http://127.0.0.1:" in " ".join(
        res.output.split()
    )
    assert sqlite3.connect(store).execute("SELECT amount FROM spend").fetchone()[0] == 40
    assert 1 <= _stored(out) < 6


def test_a_tournament_stops_at_its_daily_token_cap(tmp_path, monkeypatch):
    store, out = tmp_path / "spend.sqlite", tmp_path / "o"
    with running(create_llm_app()) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)  # the tournament's model endpoint
        res = runner.invoke(
            app, ["tournament", "naptuft", "-s", "llm:legal", "-s", "balancer", "--seeds", "1-3",
                  "--cap", "days=1", "--workers", "1", "--daily-tokens", "3000",
                  "--spend-store", str(store), "--out", str(out), "--run", "t"],
        )  # fmt: skip
    assert res.exit_code == Exit.SPEND_CAP, res.output
    assert "stopped: daily model-token cap reached" in " ".join(res.output.split())
    assert read_status(out / "t" / "status.json").state == "stopped"
    assert 3_000 <= _tokens(store) < 3_000 + DECISION_MAX
