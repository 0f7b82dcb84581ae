"""Transcripts stay strict UTF-8 JSON whatever a server answers (lone surrogates, NaN) and
read back to the very values received."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from sunbot import strategies
from sunbot.client import GameboardClient, RetryPolicy
from sunbot.html import write_replay_page
from sunbot.mirror import Divergence, Mirror
from sunbot.runs.remote import play_run
from sunbot.runs.summary import RunSummary
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter, encode_line, loads_line, read_transcript
from sunbot.transcripts.replay import replay


async def _no_sleep(_: float) -> None:
    return None


POLICY = RetryPolicy(
    attempts=3, total_seconds=30, initial_wait=0.001, max_wait=0.01, sleep=_no_sleep
)
ODD = "\ud800 lone \udfff"


def _strict(text: str) -> Any:
    """``json.loads`` that refuses NaN/Infinity, as a browser's JSON.parse does."""

    def refuse(name: str) -> None:
        raise ValueError(f"non-JSON constant {name}")

    return json.loads(text, parse_constant=refuse)


def altering(change: Callable[[dict[str, Any]], None], after: int):
    """Our server, with ``change`` applied to every init/action answer after the first
    ``after`` of them (the bodies re-encoded the way a lax server would: NaN bare)."""
    inner = create_app(TokenCodec())
    seen = {"n": 0}

    async def app(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            await inner(scope, receive, send)
            return
        seen["n"] += 1
        parts: list[dict[str, Any]] = []

        async def keep(message):
            parts.append(message)

        await inner(scope, receive, keep)
        body = b"".join(m.get("body", b"") for m in parts if m["type"] == "http.response.body")
        if seen["n"] > after:
            answer = json.loads(body)
            change(answer)
            body = json.dumps(answer).encode()  # ASCII escapes, bare NaN
        start = next(m for m in parts if m["type"] == "http.response.start")
        headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


async def _play_one_voyage(app: Any, path: Path) -> RunSummary:
    """One Keelhold voyage (seed 7) against ``app``, recorded to ``path``; every line
    written must be strict JSON."""
    bot = strategies.create("keelhold", "safe-greedy", random.Random(7))
    async with GameboardClient(transport=httpx.ASGITransport(app=app), policy=POLICY) as client:
        with TranscriptWriter(path) as writer:
            summary = await play_run(
                client, "keelhold", 7, bot, mirror=Mirror("keelhold"), transcript=writer, cap=1
            )
    for line in path.read_text(encoding="utf-8").splitlines():
        _strict(line)
    return summary


def test_encode_line_round_trips_surrogates_and_non_finite_numbers():
    record = {"type": "x", "a": ODD, ODD: [math.nan, math.inf, -math.inf, 1.5], "é": "ü"}
    line = encode_line(record)
    parsed = _strict(line)  # strict JSON, and UTF-8 can hold it
    line.encode("utf-8")
    assert parsed[ODD][0] == {"$nonFiniteNumber": "NaN"}
    assert parsed[ODD][2] == {"$nonFiniteNumber": "-Infinity"}
    back = loads_line(line)
    assert back["a"] == ODD and back["é"] == "ü"
    assert math.isnan(back[ODD][0]) and back[ODD][1:] == [math.inf, -math.inf, 1.5]
    # an ordinary line keeps its characters as they are (no escapes)
    assert encode_line({"type": "x", "a": "é"}) == '{"type":"x","a":"é"}'


async def test_a_lone_surrogate_mid_run_is_written_and_read_back(tmp_path: Path):
    # the first answers as served; then every answer carries an odd unknown field
    app = altering(lambda answer: answer.update(note=ODD), after=3)
    path = tmp_path / "run.jsonl"
    summary = await _play_one_voyage(app, path)
    assert summary.ended_by == "cap", summary.error
    t = read_transcript(path)
    assert t.error is None and t.result is not None
    assert len(t.steps) == t.result["steps"] == summary.steps > 3
    assert [s["index"] for s in t.steps] == list(range(1, summary.steps + 1))
    noted = [s["response"].get("note") for s in t.steps]
    assert noted[0] is None and noted[-1] == ODD  # the exact string the server sent
    assert noted.count(ODD) + noted.count(None) == len(noted)
    report = replay(t, local=False)
    assert report.ok, report
    # its replay page too, showing the string (as a JSON escape in the page's data)
    page = tmp_path / "run.html"
    shown = Divergence(step=3, path="note", expected="<missing>", got=ODD, note="unknown field")
    write_replay_page(t, page, [shown], source=path)
    assert "\\ud800 lone \\udfff" in page.read_text(encoding="utf-8")


async def test_nan_from_a_server_stays_strict_json_and_replay_sees_it(tmp_path: Path):
    def nan_trim(answer: dict[str, Any]) -> None:
        for part in ("state", "observation"):
            if isinstance(answer.get(part), dict):
                answer[part]["trim"] = math.nan

    app = altering(nan_trim, after=3)
    path = tmp_path / "run.jsonl"
    summary = await _play_one_voyage(app, path)
    t = read_transcript(path)
    assert math.isnan(t.steps[-1]["response"]["state"]["trim"])
    found = len(summary.divergences)
    assert t.result is not None and t.result["divergences"] == found > 0
    report = replay(t, local=False)
    assert len(report.divergences) == found and not report.inconsistent
    assert {d.path for d in report.divergences} == {
        d["path"] for s in t.steps for d in s["mirror"]["divergences"]
    }
