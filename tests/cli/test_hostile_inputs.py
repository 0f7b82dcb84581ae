"""Hostile files, paths, answers and numbers: bounded memory and one-line usage errors.

Found by an attacker: a file with no line ends read whole (23 GB), an ``--html`` path whose
folders were created, a probe traceback on deeply nested JSON, one process per ``--workers``,
a port out of range exiting 1.
"""

from __future__ import annotations

import asyncio
import json
import os
import tracemalloc
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from sunbot.bench import backends
from sunbot.bench.jobs import Job
from sunbot.bench.parse import MAX_SEEDS_FILE_BYTES, read_seeds_file
from sunbot.cli.main import app
from sunbot.client import GameboardClient, MalformedResponse
from sunbot.client.http import url_problem
from sunbot.client.retry import RetryPolicy
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts import jsonl as transcripts
from sunbot.transcripts import stream
from sunbot.transcripts.jsonl import read_transcript

runner = CliRunner()
GOLDEN = Path(__file__).parents[2] / "transcripts" / "golden-keelhold-seed7.jsonl"
LINES = GOLDEN.read_bytes().splitlines(keepends=True)


def _one_line_error(res, *needles: str) -> None:
    text = " ".join(res.output.split())
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit) and "Traceback" not in res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    for needle in needles:
        assert needle in text, text


def test_real_transcript_lines_are_far_below_the_cap():
    assert max(len(line) for line in LINES) < transcripts.MAX_LINE_BYTES // 1000


def test_a_line_with_no_end_is_never_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "MAX_LINE_BYTES", 64 * 1024)  # where lines are read
    f = tmp_path / "zeros.jsonl"
    f.write_bytes(b"".join(LINES[:3]) + b"\0" * (4 << 20))  # 4 MB, no line end
    tracemalloc.start()
    try:
        t = read_transcript(f)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak  # the 4 MB line was never held
    assert t.header["seed"] == 7 and len(t.steps) == 1 and not t.corrupt
    assert t.error == (
        "line 4 is unreadable: longer than 65536 bytes (the most a transcript line may hold);"
        " kept the 3 lines before it"
    )


def test_an_overlong_line_in_the_middle_is_corrupt_line_n(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "MAX_LINE_BYTES", 64 * 1024)  # where lines are read
    f = tmp_path / "long.jsonl"
    f.write_bytes(b"".join(LINES[:3]) + b"x" * (1 << 20) + b"\n" + b"".join(LINES[3:6]))
    t = read_transcript(f)
    assert t.corrupt and t.lines_after == 3 and len(t.steps) == 1
    assert t.error is not None and t.error.startswith("line 4 is corrupt: longer than 65536")
    res = runner.invoke(app, ["replay", str(f)])
    assert res.exit_code == 5 and "line 4 is corrupt" in " ".join(res.output.split())


@pytest.mark.parametrize("command", ["replay", "export"])
def test_non_regular_files_are_refused_before_reading(tmp_path, command):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)  # opening it would block: it must not be opened
    res = runner.invoke(app, [command, str(fifo)])
    _one_line_error(res, "not a regular file")
    _one_line_error(runner.invoke(app, [command, "/dev/zero"]), "/dev/zero is not a regular")
    assert runner.invoke(app, [command, str(tmp_path)]).exit_code == 2  # a folder


def test_resume_refuses_a_fifo_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    _one_line_error(runner.invoke(app, ["play", "--resume", str(fifo)]), "not a regular file")
    with pytest.raises(ValueError, match="a folder"):
        read_transcript(tmp_path)


def test_seeds_file_is_capped(tmp_path):
    big = tmp_path / "seeds.txt"
    big.write_bytes(b"1\n" * (MAX_SEEDS_FILE_BYTES // 2 + 1))
    for f in (big, Path("/dev/zero")):
        res = runner.invoke(app, ["bench", "naptuft", "--seeds-file", str(f), "--cap", "days=1"])
        _one_line_error(res, f"{f} is larger than 1024 KiB")
    ok = tmp_path / "ok.txt"
    ok.write_bytes(b"3, 1\n" * (MAX_SEEDS_FILE_BYTES // 5))  # exactly the cap
    assert read_seeds_file(ok).values == (3, 1)


def test_html_into_a_missing_folder_is_refused_and_nothing_created(tmp_path):
    page = tmp_path / "no" / "such" / "x.html"
    res = runner.invoke(app, ["replay", str(GOLDEN), "--html", str(page)])
    _one_line_error(res, f"--html {page}: no folder {page.parent} (create it first)")
    res = runner.invoke(app, ["play", "keelhold", "--seed", "1", "--html", str(page)])
    _one_line_error(res, f"no folder {page.parent}")
    assert not (tmp_path / "no").exists()
    ok = tmp_path / "x.html"
    assert runner.invoke(app, ["replay", str(GOLDEN), "--html", str(ok)]).exit_code == 0
    assert ok.read_bytes().startswith(b"<!doctype html>")


DEEP = b"[" * 100_000 + b"]" * 100_000
BAD_ANSWERS = [  # (route part, body, what the probe says)
    ("/api/games", DEEP, "cannot read http://x/api/games: the server's answer nests deeper"),
    ("/api/games", b"[1, 2]", "cannot read http://x/api/games: game index: the index is not a"),
    ("/api/games", b'{"games": [1, null]}', "entry 1: error: index entry 1: the entry is not a"),
    ("/api/games", b'{"games": {"a": 1}}', "game index: games: the index has no list of games"),
    ("/init", DEEP, "keelhold: error: MalformedResponse: the server's answer nests deeper than"),
    ("/init", b'"text"', "keelhold: error: MalformedResponse: answer does not match"),
    ("/init", b'{"ok": true, "legalActions": {}, "score": 0, "gameOver": false}', "valid list"),
    ("/action", b"null", "naptuft: error: MalformedResponse: answer does not match"),
    ("/action", DEEP, "sunloaf: error: MalformedResponse: the server's answer nests deeper"),
]


@pytest.mark.parametrize(("route", "body", "said"), BAD_ANSWERS)
def test_probe_reports_a_hostile_answer_in_one_line(monkeypatch, route, body, said):
    inner = httpx.ASGITransport(app=create_app(TokenCodec()))

    async def handler(req: httpx.Request) -> httpx.Response:
        if route in req.url.path:
            return httpx.Response(200, content=body, headers={"content-type": "application/json"})
        r = await inner.handle_async_request(req)
        return httpx.Response(r.status_code, content=await r.aread(), headers=r.headers)

    monkeypatch.setattr(httpx, "AsyncHTTPTransport", lambda: httpx.MockTransport(handler))
    res = runner.invoke(app, ["probe", "http://x", "--no-match", "--retry-seconds", "0.1"])
    assert res.exit_code == 1, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert said in " ".join(res.output.split()), res.output


def test_workers_are_bounded_and_never_more_than_jobs(monkeypatch):
    res = runner.invoke(app, ["bench", "naptuft", "--workers", str(backends.MAX_WORKERS + 1)])
    assert res.exit_code == 2 and "less than or equal to 64" in res.output
    with pytest.raises(ValueError, match=r"workers must be 1\.\.64, got 100000"):
        list(backends.run_jobs([], "local", 100_000))
    started: list[int] = []

    class Pool:
        def __init__(self, max_workers: int, **_: object) -> None:
            started.append(max_workers)
            raise RuntimeError("no process started")

    monkeypatch.setattr(backends, "ProcessPoolExecutor", Pool)
    job = Job("naptuft", "random", 1, 1, ("random",), "shuffled")
    with pytest.raises(RuntimeError):
        list(backends.run_local([job, job], 64))
    assert started == [2]


@pytest.mark.parametrize("port", ["0", "65536", "99999"])
def test_a_port_out_of_range_is_a_usage_error(port):
    url = f"http://127.0.0.1:{port}"
    assert url_problem(url) == f"port {port} is out of range (1..65535) in {url!r}"
    _one_line_error(runner.invoke(app, ["play", "keelhold", "--server", url]), "out of range")
    assert runner.invoke(app, ["probe", url]).exit_code == 2
    assert url_problem("http://127.0.0.1:65535") is None


def test_the_client_calls_deep_json_malformed_not_a_recursion_error():
    async def handler(req: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=DEEP)

    async def go() -> None:
        transport = httpx.MockTransport(handler)
        policy = RetryPolicy(total_seconds=0.05)
        async with GameboardClient("http://x", transport=transport, policy=policy) as c:
            await c.init("keelhold", 1)

    with pytest.raises(MalformedResponse, match="nests deeper than 200 levels"):
        asyncio.run(go())
    assert json.loads(b"[" * 50 + b"]" * 50)  # shallow nesting still reads
