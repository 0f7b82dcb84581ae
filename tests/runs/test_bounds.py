"""What one answer can add to a transcript and to memory is bounded (issue 26, point 1):
oversized unknown fields are cut before an answer is checked, recorded or held, and a
transcript ends, whole, at its size limit. The hostile-keys run of the issue, with smaller
numbers: a proxy adding ``{"junk": {2,000 keys}}`` (about 29 KB) to every answer."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from sunbot import api
from sunbot.cli.main import app
from sunbot.client import GameboardClient
from sunbot.mirror import Mirror
from sunbot.runs.remote import play_run
from sunbot.runs.summary import RunSummary
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.bounds import MAX_UNKNOWN_FIELD_BYTES, cut_note
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript
from sunbot.transcripts.replay import replay
from tests.runs.junk import AddFields, junk

runner = CliRunner()


def _play(
    path: Path | None,
    extra: Any = None,
    *,
    voyages: int = 1,
    max_bytes: int | None = 64 << 20,
) -> RunSummary:
    """Keelhold seed 7 (planner) on our server, behind a proxy adding ``extra``."""
    inner = create_app(TokenCodec.embedded())  # so that the CLI's --resume reads its tokens
    served = inner if extra is None else AddFields(inner, extra)

    async def go() -> RunSummary:
        client = GameboardClient(transport=httpx.ASGITransport(app=served))
        plan = api.plan_run("keelhold", seed=7, max_voyages=voyages)
        writer = TranscriptWriter(path, max_bytes=max_bytes) if path is not None else None
        try:
            return await play_run(
                client, "keelhold", 7, plan.bot, strategy_name=plan.strategy, cap=plan.cap,
                mirror=Mirror("keelhold"), transcript=writer, server_label="embedded",
            )  # fmt: skip
        finally:
            if writer is not None:
                writer.close()
            await client.aclose()

    return asyncio.run(go())


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunSummary, Path]:
    path = tmp_path_factory.mktemp("clean") / "k.jsonl"
    return _play(path), path


def test_hostile_keys_are_cut_and_the_run_is_the_fault_free_one(tmp_path, clean):
    fair, fair_path = clean
    path = tmp_path / "k.jsonl"
    s = _play(path, junk(2000))
    assert len(json.dumps(junk(2000))) > MAX_UNKNOWN_FIELD_BYTES  # each one is over the bound
    assert (s.score, s.steps, s.final_state) == (fair.score, fair.steps, fair.final_state)
    assert s.ended_by == "cap" and s.divergences == [] and s.responses_checked == s.steps + 1
    assert s.cut_fields == s.steps + 1  # one junk object cut from every answer
    assert "junk" in s.unknown_fields
    # each line is the fault-free line plus its small cut object: about 29 KB less per line
    size, fair_size = path.stat().st_size, fair_path.stat().st_size
    assert size < fair_size + 120 * (s.steps + 3)
    t = read_transcript(path)
    assert t.error is None and t.result is not None
    assert t.result["cutFields"] == s.steps + 1 and t.result["divergences"] == 0
    for rec in [t.init, *t.steps]:
        assert rec is not None
        assert "junk" not in rec["response"]
        assert rec["cut"]["fields"] == 1 and rec["cut"]["paths"] == ["junk"]
        compact = json.dumps(junk(2000)["junk"], separators=(",", ":"))
        assert rec["cut"]["bytes"] == len('"junk":' + compact)
    # replay reads the cut lines as recorded: no false divergence, and says they were cut
    report = replay(t, local=True)
    assert report.ok and report.divergences == [] and report.mismatches == []
    note = cut_note([t.init, *t.steps, *t.other])
    assert note is not None and note.startswith(f"{s.steps + 1} line(s) were cut when recorded")
    assert "init, step 1, step 2" in note
    res = runner.invoke(app, ["replay", str(path), "--strict", "--local"])
    assert res.exit_code == 0, res.output
    assert f"{s.steps + 1} line(s) were cut when recorded" in " ".join(res.output.split())


def test_a_small_unknown_field_is_kept_whole(tmp_path):
    path = tmp_path / "k.jsonl"
    s = _play(path, junk(10))
    assert s.cut_fields == 0 and s.divergences == [] and "junk" in s.unknown_fields
    t = read_transcript(path)
    assert t.init is not None and t.init["response"]["junk"] == junk(10)["junk"]
    assert "cut" not in t.init and "cutFields" not in (t.result or {})


def _in_state_and_observation(answer: dict[str, Any]) -> None:
    blob = "x" * (MAX_UNKNOWN_FIELD_BYTES + 1)
    if isinstance(answer.get("state"), dict):
        answer["state"]["blob"] = blob
        answer["state"]["hold"] = answer["state"].get("hold")  # known: untouched
    if isinstance(answer.get("observation"), dict):
        answer["observation"]["blob"] = blob
        answer["observation"]["note"] = "small"  # unknown but small: kept


def test_unknown_fields_inside_state_and_observation_are_cut_when_a_token_carries(tmp_path, clean):
    fair, _ = clean
    path = tmp_path / "k.jsonl"
    s = _play(path, _in_state_and_observation)
    assert (s.score, s.steps) == (fair.score, fair.steps) and s.divergences == []
    assert s.cut_fields == 2 * (s.steps + 1)
    t = read_transcript(path)
    assert t.init is not None
    resp = t.init["response"]
    assert "blob" not in resp["state"] and "blob" not in resp["observation"]
    assert resp["observation"]["note"] == "small" and isinstance(resp["stateToken"], str)
    assert t.init["cut"]["paths"] == ["observation.blob", "state.blob"]
    assert {"observation.blob", "state.blob", "observation.note"} <= set(s.unknown_fields)


def test_a_carried_state_is_never_cut():
    from sunbot.transcripts.bounds import AnswerCutter

    mirror = Mirror("keelhold")
    cutter = AnswerCutter(mirror.template, limit=100)
    state = {"voyage": 1, "blob": "x" * 500}
    raw = {"state": state, "observation": {"voyage": 1}, "legalActions": [], "score": 0,
           "gameOver": False, "junk": "y" * 500}  # fmt: skip
    out, cut = cutter.cut(raw)
    assert cut is not None and cut.paths == ["junk"]  # the state goes back whole
    assert out is not None and out["state"] is state and state["blob"] == "x" * 500
    assert raw["junk"] == "y" * 500  # the answer itself is never changed
    out, cut = cutter.cut({**raw, "stateToken": "t"})
    assert cut is not None and cut.paths == ["junk", "state.blob"]
    assert out is not None and out["state"] == {"voyage": 1} and out["stateToken"] == "t"


def test_the_transcript_ends_whole_at_its_size_limit_and_resumes_past_it(tmp_path, clean):
    fair, _ = clean
    path = tmp_path / "k.jsonl"
    s = _play(path, junk(2000), max_bytes=30_000)  # cut lines, then a resume without the proxy
    assert s.ended_by == "error" and s.error is not None
    assert "would pass its size limit of 29.3 KiB" in s.error and "\n" not in s.error
    assert "whole up to the line before" in s.error
    t = read_transcript(path)
    assert t.error is None and t.result is not None and t.result["endedBy"] == "error"
    assert 0 < len(t.steps) < fair.steps and t.result["steps"] == len(t.steps)
    assert replay(t).inconsistent == []  # the step that did not fit is not counted
    before_result = path.read_bytes().rsplit(b"\n", 2)[0]
    assert len(before_result) + 1 <= 30_000
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet", "--max-transcript-mb", "1"])
    assert res.exit_code == 0, res.output
    whole = read_transcript(path)
    assert whole.result is not None and whole.result["endedBy"] == "cap"
    assert whole.result["score"] == fair.score and len(whole.steps) == fair.steps


def test_play_stops_at_the_limit_with_one_line_and_exit_1(tmp_path, monkeypatch):
    from sunbot.transcripts import jsonl

    path = tmp_path / "k.jsonl"
    monkeypatch.setattr(jsonl, "MIB", 20_000)  # --max-transcript-mb 1 is then 20 KB
    monkeypatch.setattr("sunbot.cli.play.MIB", 20_000)
    args = ["play", "keelhold", "--seed", "7", "--max-voyages", "1", "--quiet"]
    res = runner.invoke(app, [*args, "--transcript", str(path), "--max-transcript-mb", "1"])
    assert res.exit_code == 1, res.output
    said = " ".join(res.output.split())
    assert "would pass its size limit" in said and "Traceback" not in res.output
    assert read_transcript(path).error is None


def test_a_line_longer_than_a_transcript_line_may_be_is_not_written(tmp_path, monkeypatch):
    from sunbot.transcripts import writer as writer_module
    from sunbot.transcripts.bounds import TranscriptFull

    monkeypatch.setattr(writer_module, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "t.jsonl"
    with TranscriptWriter(path, max_bytes=None) as w:
        w.header("keelhold", 7, "planner", "embedded")
        with pytest.raises(TranscriptFull, match=r"the step line 1 would be 2\.0 KiB, longer than"):
            w.write({"type": "step", "index": 1, "response": {"stateToken": "t" * 2000}})
        assert w.failed is None and w.lines == 1
    assert len(path.read_bytes().splitlines()) == 1


def test_a_bad_limit_is_refused_before_anything_starts(tmp_path):
    path = tmp_path / "k.jsonl"
    with pytest.raises(ValueError, match="max_transcript_mb must be a whole number of MiB >= 1"):
        api.play("keelhold", seed=7, max_voyages=1, transcript=path, max_transcript_mb=0)
    assert not path.exists()


def test_a_match_view_loses_its_oversized_unknown_fields_not_its_rules(tmp_path):
    from sunbot.runs.match import run_match

    def hostile(answer: dict[str, Any]) -> None:
        answer.update(junk(2000))
        if isinstance(answer.get("data"), dict):
            answer["data"]["extra"] = junk(2000)["junk"]  # unknown inside data too

    runs = {}
    for name, extra in (("fair", None), ("hostile", hostile)):
        inner = create_app(TokenCodec())
        served = inner if extra is None else AddFields(inner, extra)
        with TranscriptWriter(tmp_path / f"{name}.jsonl") as w:
            match = run_match(
                game="harvest-watch", seed=7, strategy="house", server=None, match_id=None,
                seats=1, writer=w, strict=False, transport=httpx.ASGITransport(app=served),
                move_timeout=30.0,  # long beats: a loaded machine must not miss one
            )  # fmt: skip
            runs[name] = asyncio.run(match)
    fair, bad = runs["fair"], runs["hostile"]
    assert bad["endedBy"] == fair["endedBy"] == "rules" and bad["divergences"] == 0
    assert bad["ranks"] == fair["ranks"] and bad["steps"] == fair["steps"]
    t = read_transcript(tmp_path / "hostile.jsonl")
    views = [r for r in t.other if r["type"] == "view" and "body" in r]
    assert views and all(r["cut"]["paths"] == ["junk", "data.extra"] for r in views)
    assert all("junk" not in r["body"] and "extra" not in r["body"]["data"] for r in views)
    commands = [r for r in t.other if r["type"] == "command"]
    assert all(r["cut"]["paths"] == ["junk", "data.extra"] for r in commands)
    assert t.result is not None and t.result["cutFields"] == 2 * (len(views) + len(commands))
    assert {"junk", "data.extra"} <= set(t.result["unknownFields"])
    assert replay(t).ok
    size = (tmp_path / "hostile.jsonl").stat().st_size
    assert size < (tmp_path / "fair.jsonl").stat().st_size + 150 * len(t.other)


def test_a_game_sunbot_does_not_know_has_only_its_top_level_fields_cut():
    from sunbot.transcripts.bounds import AnswerCutter

    cutter = AnswerCutter(None, limit=100)
    big = "x" * 200
    raw = {"observation": {"board": big}, "state": {"mine": big}, "stateToken": "t",
           "legalActions": [big], "spec": {"text": big}, "extra": big, "tip": "small"}  # fmt: skip
    out, cut = cutter.cut(raw)
    assert cut is not None and cut.paths == ["extra"] and cut.bytes == len('"extra":') + 202
    assert out == {k: v for k, v in raw.items() if k != "extra"}
    assert cutter.cut(out) == (out, None)  # nothing left to cut: the same object back


def test_a_spec_on_every_answer_is_cut_after_the_opening_one(tmp_path):
    """Attack round 3: ``spec`` is an envelope key, so a proxy putting a 3 MB one in every
    answer (not only in init's, where the protocol has it) filled the transcript to its
    64 MiB limit in 20 steps. An action's answer is not where a spec belongs: an
    oversized one is cut there; the opening answer's is kept whole."""
    from sunbot.transcripts.bounds import AnswerCutter

    cutter = AnswerCutter(None, limit=100)
    raw = {"ok": True, "stateToken": "t", "spec": {"text": "x" * 200}, "score": 0}
    assert cutter.cut(raw) == (raw, None)  # the opening answer's spec is the game's
    out, cut = cutter.cut(raw, opening=False)
    assert cut is not None and cut.paths == ["spec"] and "spec" not in out
    small = {"ok": True, "stateToken": "t", "spec": {"text": "short"}}
    assert cutter.cut(small, opening=False) == (small, None)

    def add_spec(obj: dict[str, Any]) -> None:
        obj["spec"] = {"goal": "x", "junk": {f"k{i}": i for i in range(5_000)}}

    path = tmp_path / "k.jsonl"
    summary = _play(path, add_spec)
    t = read_transcript(path)
    assert t.error is None and summary.steps == len(t.steps) > 0
    assert "junk" in t.init["response"]["spec"]  # the opening spec, whole
    assert all("spec" not in s["response"] for s in t.steps)
    assert all(s["cut"]["paths"] == ["spec"] for s in t.steps)
