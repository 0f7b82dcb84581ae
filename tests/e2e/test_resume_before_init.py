"""Issue 12 case 10: a transcript killed before the server's init answer (only its header
was written) is not a dead file: ``--resume`` starts that run again, from its header's
game, seed, strategy and cap, in the same file."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.jsonl import TranscriptWriter

runner = CliRunner()


def test_resume_of_a_header_only_transcript_starts_the_run_again(tmp_path):
    path = tmp_path / "k.jsonl"
    with TranscriptWriter(path) as writer:
        writer.header("keelhold", 7, "first-safe", "embedded")
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 0, res.output
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["type"] for r in recs[:2]] == ["header", "init"]
    assert sum(r["type"] == "header" for r in recs) == 1 and recs[0]["seed"] == 7
    assert recs[-1]["type"] == "result" and recs[-1]["endedBy"] == "rules"
    # the same run as a fresh one with those settings
    fresh = tmp_path / "f.jsonl"
    res = runner.invoke(app, ["play", "keelhold", "--seed", "7", "--strategy", "first-safe",
                              "--quiet", "--transcript", str(fresh)])  # fmt: skip
    assert res.exit_code == 0, res.output
    again = [json.loads(line) for line in fresh.read_text().splitlines()]
    assert recs[-1]["score"] == again[-1]["score"] and recs[-1]["steps"] == again[-1]["steps"]
