"""Transcripts: schema, truncated files, replay (mirror and local re-play), export, goldens."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.export import rows, to_csv, to_markdown
from sunbot.transcripts.jsonl import TranscriptWriter, read_transcript
from sunbot.transcripts.replay import replay
from sunbot.transcripts.schema import json_schema, packaged_schema

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = sorted((ROOT / "transcripts").glob("golden-*.jsonl"))
runner = CliRunner()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("t") / "k.jsonl"
    res = runner.invoke(
        app,
        [
            "play",
            "keelhold",
            "--seed",
            "7",
            "--max-voyages",
            "2",
            "--quiet",
            "--transcript",
            str(path),
        ],
    )
    assert res.exit_code == 0, res.output
    return path


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_packaged_json_schema_is_the_generated_one():
    assert packaged_schema() == json_schema()
    kinds = {
        d["properties"]["type"].get("const")
        for d in json_schema()["$defs"].values()
        if "type" in d.get("properties", {})
    }
    assert {"header", "init", "step", "result"} <= kinds


def test_read_back_everything(recorded):
    t = read_transcript(recorded)
    assert t.error is None and t.header["game"] == "keelhold" and t.init is not None
    assert len(t.steps) == t.result["steps"] and t.result["endedBy"] == "cap"


def test_writer_never_overwrites(recorded):
    with pytest.raises(FileExistsError):
        TranscriptWriter(recorded)


def test_cut_file_reads_up_to_the_cut(recorded, tmp_path):
    lines = _lines(recorded)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:12]) + "\n" + lines[12][: len(lines[12]) // 2])
    t = read_transcript(cut)
    assert len(t.steps) == 10 and t.result is None
    assert "line 13" in t.error and "mid-line" in t.error
    res = runner.invoke(app, ["replay", str(cut)])
    assert res.exit_code == 0 and "transcript cut" in res.output and "0 divergences" in res.output
    assert runner.invoke(app, ["replay", str(cut), "--strict"]).exit_code == 4


def test_schema_violation_is_named(recorded, tmp_path):
    lines = _lines(recorded)
    bad = json.loads(lines[5])
    bad["index"] = "five"
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([*lines[:5], json.dumps(bad), *lines[6:]]) + "\n")
    t = read_transcript(path)
    assert len(t.steps) == 3 and "line 6" in t.error and "index" in t.error


def test_not_a_transcript(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match="not a sunbot transcript"):
        read_transcript(p)
    res = runner.invoke(app, ["replay", str(p)])
    assert res.exit_code == 2 and "not a sunbot transcript" in res.output


def test_clean_replay_strict_exits_zero(recorded):
    res = runner.invoke(app, ["replay", str(recorded), "--strict"])
    assert res.exit_code == 0, res.output
    assert "0 divergences, 0 mismatches" in res.output and "re-played" in res.output


def test_altered_number_names_step_and_field(recorded, tmp_path):
    lines = _lines(recorded)
    rec = json.loads(lines[20])  # header, init, then step 19 is line 21 (index 20)
    assert rec["type"] == "step"
    rec["response"]["state"]["score"] += 7
    path = tmp_path / "altered.jsonl"
    path.write_text("\n".join([*lines[:20], json.dumps(rec), *lines[21:]]) + "\n")
    report = replay(read_transcript(path))
    # The mirror names the altered step first; the next answer no longer follows from it either.
    assert (report.divergences[0].step, report.divergences[0].path) == (rec["index"], "state.score")
    assert {d.step for d in report.divergences} <= {rec["index"], rec["index"] + 1}
    # The local re-play is independent of the altered answer: exactly one mismatch.
    assert [(d.step, d.path) for d in report.mismatches] == [(rec["index"], "state.score")]
    res = runner.invoke(app, ["replay", str(path), "--strict"])
    assert res.exit_code == 3 and "state.score" in res.output and str(rec["index"]) in res.output


def test_altered_action_is_a_replay_mismatch(recorded, tmp_path):
    lines = _lines(recorded)
    rec = json.loads(lines[3])
    legal = rec["response"]["legalActions"]
    prev = json.loads(lines[2])["response"]
    other = next(a for a in prev["legalActions"] if a != rec["action"])
    rec["action"] = other
    path = tmp_path / "act.jsonl"
    path.write_text("\n".join([*lines[:3], json.dumps(rec), *lines[4:]]) + "\n")
    report = replay(read_transcript(path))
    assert any(d.step == rec["index"] for d in report.mismatches)
    assert legal


def test_remote_transcripts_are_not_replayed_by_default(recorded, tmp_path):
    lines = _lines(recorded)
    head = json.loads(lines[0])
    head["server"] = "https://gameboard.gg"
    head["serverIdentity"] = {"service": "gameboard", "localChoices": None}
    path = tmp_path / "remote.jsonl"
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    report = replay(read_transcript(path))
    assert report.replayed is False and report.ok and report.checked == len(lines) - 2
    assert replay(read_transcript(path), local=True).replayed is True


def test_export_csv_and_markdown(recorded):
    t = read_transcript(recorded)
    table = rows(t)
    assert table[0]["step"] == 0 and table[0]["action"] == "" and table[0]["voyage"] == 1
    assert table[-1]["action"] == '{"type":"END_RUN"}' and table[-1]["cause"] == "ended"
    parsed = list(csv.DictReader(io.StringIO(to_csv(t))))
    assert len(parsed) == len(t.steps) + 1
    assert parsed[1]["score"] == str(t.steps[0]["response"]["score"])
    md = to_markdown(t).splitlines()
    assert md[0].startswith("# keelhold · seed 7") and md[2].startswith(
        "| step | action | ok | score"
    )
    assert len(md) == 4 + len(t.steps) + 1


def test_export_cli_writes_file(recorded, tmp_path):
    out = tmp_path / "t.csv"
    res = runner.invoke(app, ["export", str(recorded), "--format", "csv", "--out", str(out)])
    assert res.exit_code == 0 and out.read_text().startswith("step,action,ok,score")


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_golden_transcripts_replay_exactly(golden):
    """An engine change that alters a golden run fails here: regenerate on purpose with
    scripts/regenerate_goldens.sh (see README, "Transcripts")."""
    t = read_transcript(golden)
    assert t.error is None and t.result is not None and t.header["seed"] == 7
    report = replay(t, local=True)
    assert report.mismatches == [] and report.divergences == []
    if t.header["game"] == "harvest-watch":  # a match: every view re-checked by the seat mirror
        assert report.checked == sum(r["type"] == "view" for r in t.other) > 0
    else:
        assert report.replayed and report.checked == len(t.steps) + 1


def test_there_is_a_golden_run_for_every_game():
    assert {g.name for g in GOLDENS} >= {
        f"golden-{slug}-seed7.jsonl" for slug in ("keelhold", "sunloaf", "naptuft", "harvest-watch")
    }


GAME_RUNS = {
    "keelhold": ["--max-voyages", "2"],
    "sunloaf": ["--max-days", "1"],
    "naptuft": ["--max-days", "1"],
    "harvest-watch": [],
}


@pytest.mark.parametrize("game", sorted(GAME_RUNS))
def test_every_game_plays_then_replays_strict_and_catches_an_altered_number(
    game, tmp_path, monkeypatch
):
    monkeypatch.setenv("SUNBOT_SUNLOAF_BUDGET_MS", "20")
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "t.jsonl"
    res = runner.invoke(
        app, ["play", game, "--seed", "7", *GAME_RUNS[game], "--quiet", "--transcript", str(path)]
    )
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["replay", str(path), "--strict"]).exit_code == 0
    lines = path.read_text().splitlines()
    records = [json.loads(x) for x in lines]
    at = next(i for i, r in enumerate(records) if r["type"] in ("step", "view") and i > 4)
    rec = records[at]
    if rec["type"] == "step":
        rec["response"]["score"] += 1
        field, step = "score", rec["index"]
    else:
        rec["body"]["data"]["summary"]["food"] += 1
        field, step = "data.summary.food", rec["body"]["data"]["round"]
    lines[at] = json.dumps(rec)
    altered = tmp_path / "altered.jsonl"
    altered.write_text("\n".join(lines) + "\n")
    res = runner.invoke(app, ["replay", str(altered), "--strict"])
    assert res.exit_code == 3
    report = replay(read_transcript(altered))
    first = (report.divergences or report.mismatches)[0]
    assert (first.step, first.path) == (step, field)


def _rewrite(path: Path, tmp_path: Path, name: str, edit) -> Path:
    lines = path.read_text().splitlines()
    out = tmp_path / name
    out.write_text("\n".join(edit(lines)) + "\n")
    return out


@pytest.mark.parametrize(
    ("key", "value"),
    [("score", 999_999), ("steps", 3), ("divergences", 7), ("gameOver", False), ("refused", 2)],
)
def test_an_edited_result_line_is_inconsistent(recorded, tmp_path, key, value):
    def edit(lines):
        result = json.loads(lines[-1])
        result[key] = value
        return [*lines[:-1], json.dumps(result)]

    path = _rewrite(recorded, tmp_path, "r.jsonl", edit)
    report = replay(read_transcript(path))
    assert [d.path for d in report.inconsistent] == [f"result.{key}"] and not report.ok
    res = runner.invoke(app, ["replay", str(path), "--strict"])
    assert res.exit_code == 3 and f"result.{key}" in res.output


def test_a_missing_result_line_fails_strict(recorded, tmp_path):
    path = _rewrite(recorded, tmp_path, "nores.jsonl", lambda lines: lines[:-1])
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 0 and "did not finish" in res.output
    assert runner.invoke(app, ["replay", str(path), "--strict"]).exit_code == 4


def test_step_mode_needs_a_terminal(recorded):
    res = runner.invoke(app, ["replay", str(recorded), "--step"], input="q")
    assert res.exit_code == 2 and "terminal" in res.output


def test_export_never_overwrites_without_force_and_never_the_transcript(recorded, tmp_path):
    out = tmp_path / "exists.csv"
    out.write_text("keep")
    res = runner.invoke(app, ["export", str(recorded), "--out", str(out)])
    assert res.exit_code == 2 and out.read_text() == "keep"
    assert (
        runner.invoke(app, ["export", str(recorded), "--out", str(out), "--force"]).exit_code == 0
    )
    assert out.read_text().startswith("step,")
    before = recorded.read_text()
    res = runner.invoke(app, ["export", str(recorded), "--out", str(recorded), "--force"])
    assert (
        res.exit_code == 2 and "is the transcript" in res.output and recorded.read_text() == before
    )


def test_export_of_a_cut_file_keeps_warnings_out_of_the_data(recorded, tmp_path):
    path = _rewrite(recorded, tmp_path, "cut.jsonl", lambda lines: [*lines[:8], lines[8][:40]])
    res = runner.invoke(app, ["export", str(path)])  # click >= 8.2 keeps stderr apart
    assert res.exit_code == 0
    assert "transcript cut" not in res.stdout
    rows_out = list(csv.DictReader(io.StringIO(res.stdout)))
    assert len(rows_out) == 7 and rows_out[0]["ok"] == "true" and rows_out[0]["cause"] == ""


def test_a_line_nested_too_deeply_is_unreadable_not_a_crash(recorded, tmp_path):
    lines = _lines(recorded)
    step = json.loads(lines[3])
    deep = "[" * 100_000 + "]" * 100_000
    bad = json.dumps(step)[:-1] + ',"x":' + deep + "}"
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join([*lines[:3], bad, *lines[4:]]) + "\n")
    t = read_transcript(path)
    assert t.error is not None and "nested too deeply" in t.error and len(t.steps) == 1


def test_a_corrupt_middle_line_is_not_a_cut(recorded, tmp_path):
    """A bad line with whole lines after it is corrupt line N (exit 5), never 'cut' (4):
    replay and export use what comes before it and say how many lines were not read, and
    resume refuses rather than overwrite them."""
    lines = _lines(recorded)
    total = len(lines)
    path = _rewrite(recorded, tmp_path, "mid.jsonl", lambda ls: [*ls[:5], "{oops", *ls[6:]])
    t = read_transcript(path)
    assert t.corrupt and t.lines_after == total - 6 and len(t.steps) == 3
    assert t.error.startswith("line 6 is corrupt: not JSON")
    assert f"the {total - 6} lines after it are not read" in t.error
    for args in (["replay", str(path)], ["replay", str(path), "--strict"], ["export", str(path)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 5, (args, res.output)
        assert "transcript corrupt: line 6 is corrupt" in " ".join(res.output.split())
        assert "transcript cut" not in res.output
    before = path.read_bytes()
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 2 and "resuming would overwrite them" in " ".join(res.output.split())
    assert path.read_bytes() == before
    # a bad last line is the end of a cut run, with or without its end of line
    last = _rewrite(recorded, tmp_path, "last.jsonl", lambda ls: [*ls[:-1], "{oops"])
    assert not read_transcript(last).corrupt and "line " in read_transcript(last).error
    cut = tmp_path / "cut2.jsonl"
    cut.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:10])
    t = read_transcript(cut)
    assert not t.corrupt and "mid-line" in t.error
    assert runner.invoke(app, ["replay", str(cut), "--strict"]).exit_code == 4


def test_a_corrupt_line_outranks_a_divergence_before_it(recorded, tmp_path):
    """Exit 5 (corrupt) wins over 3 (diverged) under --strict: part of the file was not
    read, so the divergence found in the rest is not the whole story."""

    def edit(ls: list[str]) -> list[str]:
        step = json.loads(ls[3])
        step["response"]["score"] += 1  # an answer the rules do not give
        return [*ls[:3], json.dumps(step), ls[4], "{oops", *ls[6:]]

    path = _rewrite(recorded, tmp_path, "both.jsonl", edit)
    assert read_transcript(path).corrupt
    plain = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "200"})
    assert plain.exit_code == 5 and "1 divergence" in plain.output
    strict = runner.invoke(app, ["replay", str(path), "--strict"], env={"COLUMNS": "200"})
    assert strict.exit_code == 5 and "line 6 is corrupt" in strict.output


def test_default_path_of_a_joined_match_names_the_match_not_a_seed(tmp_path):
    from sunbot.transcripts.jsonl import default_path

    p = default_path("harvest-watch", 5, "coalition", tmp_path, match_id="m/1 x")
    assert p.parent == tmp_path and p.name.startswith("harvest-watch-match-m_1_x-coalition-")
    assert "seed" not in p.name
    assert default_path("keelhold", 7, "planner", tmp_path).name.startswith(
        "keelhold-seed7-planner-"
    )


def test_a_whole_last_line_that_fails_the_schema_is_corrupt_not_a_cut(recorded, tmp_path):
    """Attack round 3: a last step line of valid JSON, ended by its end of line, whose
    index is ``"31; rm -rf /"`` was read as the end of a cut run: ``--resume`` silently
    wrote over it (a kill mid-write leaves no such line: it has its end of line, so it was
    written whole, then edited). It is corrupt: resume refuses and leaves the file as is,
    replay exits 5."""

    def forge(ls: list[str]) -> list[str]:
        steps = [i for i, line in enumerate(ls) if json.loads(line)["type"] == "step"]
        last = steps[len(steps) // 2]
        rec = json.loads(ls[last])
        rec["index"] = "31; rm -rf /"
        return [*ls[:last], json.dumps(rec)]

    path = _rewrite(recorded, tmp_path, "forged.jsonl", forge)
    n = len(_lines(path))
    t = read_transcript(path)
    assert t.corrupt and t.lines_after == 0
    assert t.error.startswith(f"line {n} is corrupt: step line, index:")
    before = path.read_bytes()
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 2, res.output
    assert f"line {n} is corrupt" in " ".join(res.output.split())
    assert path.read_bytes() == before
    assert runner.invoke(app, ["replay", str(path), "--strict"]).exit_code == 5
