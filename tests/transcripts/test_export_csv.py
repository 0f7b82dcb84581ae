"""`sunbot export --format csv`: server text never becomes a live spreadsheet formula."""

from __future__ import annotations

import csv
import io

from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.export import to_csv
from sunbot.transcripts.jsonl import Transcript, TranscriptWriter

LINK = '=HYPERLINK("http://127.0.0.1/x","click")'
_HEAD = {"type": "header", "schemaVersion": 1, "seed": 7, "strategy": "first-safe",
         "server": "http://127.0.0.1:9", "sunbotVersion": "0", "startedAt": "now"}  # fmt: skip
_MIRROR = {"ok": True, "divergences": []}


def _keelhold() -> Transcript:
    state = {"voyage": 1, "turn": 0, "phase": "loading", "cause": LINK}
    init = {"type": "init", "response": {"ok": True, "state": state, "score": -3},
            "mirror": _MIRROR, "elapsedMs": 1}  # fmt: skip
    refused = {"type": "step", "index": 1, "action": {"type": "PLACE", "bay": 9},
               "response": {"ok": False, "reason": "@SUM(1+1)*cmd|' /C calc'!A0"},
               "mirror": _MIRROR, "elapsedMs": 1}  # fmt: skip
    return Transcript(header={**_HEAD, "game": "keelhold"}, init=init, steps=[refused])


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_hostile_server_text_is_written_as_text():
    head, init, step = _cells(to_csv(_keelhold()))
    assert head == ["step", "action", "ok", "score", "phase", "voyage", "placements", "cause",
                    "reason"]  # fmt: skip
    assert init[head.index("cause")] == "'" + LINK
    assert step[head.index("reason")] == "'@SUM(1+1)*cmd|' /C calc'!A0"
    # every cell of ours unchanged: a negative score is a number, not a formula
    assert init[:7] == ["0", "", "true", "-3", "loading", "1", "0"]
    assert step[:4] == ["1", '{"type":"PLACE","bay":9}', "false", ""]


def test_a_match_views_phase_is_neutralised():
    view = {"type": "view", "seat": 0, "index": 1,
            "body": {"data": {"round": 2, "phase": "+cmd|' /C calc'!A0"}}}  # fmt: skip
    t = Transcript(header={**_HEAD, "game": "harvest-watch"}, other=[view])
    head, row = _cells(to_csv(t))
    assert row[head.index("phase")] == "'+cmd|' /C calc'!A0" and row[head.index("round")] == "2"


def test_export_command_writes_no_live_formula(tmp_path):
    path = tmp_path / "t.jsonl"
    t = _keelhold()
    with TranscriptWriter(path) as w:
        for rec in (t.header, t.init, *t.steps):
            w.write(rec)
    res = CliRunner().invoke(app, ["export", str(path), "--format", "csv"])
    assert res.exit_code == 0, res.output
    cells = [c for r in _cells(res.stdout) for c in r]
    assert "'" + LINK in cells and not any(c.startswith(("=", "@", "+")) for c in cells)
