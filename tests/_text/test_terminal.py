"""Outside text on the terminal: a transcript's or a server's strings are clipped, shown
without markup, highlighting or control characters (replay header, --show views, findings,
export, the play summary); lines of another game and unknown fields in replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sunbot._text.terminal import outside, printable, tidy
from sunbot.cli import play as cli_play
from sunbot.cli.main import app
from sunbot.runs.summary import RunSummary
from sunbot.views.common import MAX_LISTED, unknown_line

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
#: A window-title change, a screen clear and a colour: what a hostile string carries.
EVIL = "\x1b]0;OWNED\x07\x1b[2J\x1b[41m[red]x[/red]"


def _golden(game: str) -> list[dict[str, Any]]:
    path = ROOT / "transcripts" / f"golden-{game}-seed7.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _write(tmp_path: Path, records: list[dict[str, Any]], name: str = "t.jsonl") -> Path:
    out = tmp_path / name
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    return out


def _poison(value: Any) -> Any:
    """Every string value of a JSON tree with :data:`EVIL` appended (keys kept)."""
    if isinstance(value, str):
        return value + EVIL
    if isinstance(value, dict):
        return {k: _poison(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison(v) for v in value]
    return value


def test_printable_outside_tidy_and_unknown_line():
    assert printable("a\x1b[2Jb\x07\n\u202e") == "a\ufffd[2Jb\ufffd\ufffd\ufffd"
    assert outside("x" * 10_000) == "x" * 300 + "… (9700 more characters)"
    assert outside("ok [red]") == "ok [red]"  # markup is not ours to read: kept as text
    tree = tidy({"k\x1b": ["v\x07", 3, None, True, {"deep": "y" * 400}]})
    assert tree == {
        "k\ufffd": ["v\ufffd", 3, None, True, {"deep": "y" * 300 + "… (100 more characters)"}]
    }
    nested: Any = "leaf"
    for _ in range(200):
        nested = [nested]
    assert isinstance(tidy(nested), list)  # bounded depth, no RecursionError
    names = [f"f{i:02d}" for i in range(MAX_LISTED + 5)]
    text = unknown_line({*names, "K" * 100_000}).plain
    assert text.startswith("unknown fields seen (ignored): KKK")
    assert "(99700 more characters)" in text and text.endswith(" … and 6 more")
    assert len(text) < 700


def test_replay_header_is_clipped_and_inert(tmp_path):
    records = _golden("keelhold")
    records[0]["strategy"] = "A" * 1_000_000  # took minutes in rich's highlighter before
    records[0]["server"] = "http://x" + EVIL
    res = runner.invoke(app, ["replay", str(_write(tmp_path, records)), "--strict"])
    assert res.exit_code == 0, res.output[:2000]
    head = res.output.splitlines()[0]
    assert head.startswith("keelhold seed 7 · " + "A" * 300 + "… (999700 more characters) · ")
    assert "server http://x\ufffd]0;OWNED\ufffd\ufffd[2J\ufffd[41m[red]x[/red] · " in head
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert len(res.output) < 2000


def test_replay_show_draws_hostile_strings_as_text(tmp_path):
    records = _golden("naptuft")[:6]  # header, init and a few steps: enough positions
    for rec in records[1:]:
        rec["response"] = _poison(rec["response"])
    res = runner.invoke(app, ["replay", str(_write(tmp_path, records)), "--show"])
    assert res.exit_code == 0, res.output[:2000]
    assert res.output.count("step ") >= 4  # the positions were drawn
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "\ufffd[2J" in res.output and "[red]x[/red]" in res.output  # shown, not obeyed


def test_findings_table_shows_hostile_values_as_text(tmp_path):
    records = _golden("keelhold")
    records[3]["response"]["state"]["phase"] = "p" * 5000 + EVIL  # an edited recorded answer
    res = runner.invoke(app, ["replay", str(_write(tmp_path, records)), "--strict"])
    assert res.exit_code == 3
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "state.phase" in res.output and "p" * 5000 not in res.output


@pytest.mark.parametrize("fmt", ["md", "csv"])
def test_export_to_stdout_carries_no_control_character(tmp_path, fmt):
    records = _golden("keelhold")[:5]
    records[0]["strategy"] = "s" + EVIL
    for rec in records[1:]:
        rec["response"]["state"]["cause"] = "c" * 1000 + EVIL
    res = runner.invoke(app, ["export", str(_write(tmp_path, records)), "--format", fmt])
    assert res.exit_code == 0, res.output[:2000]
    assert "\x1b" not in res.output and "\x07" not in res.output
    body = res.output.splitlines()
    assert len(body) == (len(records) - 1) + (1 if fmt == "csv" else 4)  # no broken rows
    if fmt == "md":
        assert (
            body[0]
            == "# keelhold · seed 7 · s\ufffd\\]0;OWNED\ufffd\ufffd\\[2J\ufffd\\[41m\\[red\\]x\\[/red\\]"
            " (embedded)"  # link brackets escaped (docs/transcripts.md)
        )
        assert "c" * 300 + f"… ({700 + len(EVIL)} more characters)" in body[4]  # clipped
    else:
        assert "c" * 1000 + "\ufffd]0;OWNED" in body[1]  # the CSV keeps the whole value


def test_play_summary_lists_a_huge_unknown_field_clipped(capsys):
    s = RunSummary(game="keelhold", seed=7, strategy="planner", unknown_fields=["K" * 100_000])
    cli_play._print_summary(s)
    out = capsys.readouterr().out
    assert "unknown fields seen (ignored): " + "K" * 300 + "… (99700 more characters)" in out
    assert len(out) < 3000


def test_a_transcript_relabelled_as_another_game_fails_strict(tmp_path):
    keelhold = _golden("keelhold")
    keelhold[0]["game"] = "harvest-watch"
    res = runner.invoke(app, ["replay", str(_write(tmp_path, keelhold, "k.jsonl")), "--strict"])
    assert res.exit_code == 3, res.output
    assert "2 foreign lines" in res.output
    steps = sum(r["type"] == "step" for r in keelhold)
    assert f"{steps} step line(s) do not fit harvest-watch" in " ".join(res.output.split())
    match = _golden("harvest-watch")
    match[0]["game"] = "keelhold"
    res = runner.invoke(app, ["replay", str(_write(tmp_path, match, "m.jsonl")), "--strict"])
    assert res.exit_code == 3, res.output
    views = sum(r["type"] == "view" for r in match)
    assert f"{views} view line(s) do not fit keelhold" in " ".join(res.output.split())


def test_golden_runs_have_no_foreign_lines():
    for game in ("keelhold", "harvest-watch"):
        path = ROOT / "transcripts" / f"golden-{game}-seed7.jsonl"
        res = runner.invoke(app, ["replay", str(path), "--strict"])
        assert res.exit_code == 0 and "foreign" not in res.output, res.output


def test_unknown_fields_are_listed_not_counted_by_the_local_replay(tmp_path):
    records = _golden("keelhold")  # recorded from a server with our local choices
    for rec in records[1:]:
        if rec["type"] in ("init", "step"):
            rec["response"]["zzz"] = 1
            rec["response"]["state"]["extraField"] = [1, 2]
    res = runner.invoke(app, ["replay", str(_write(tmp_path, records)), "--strict"])
    assert res.exit_code == 0, res.output
    assert "re-played through the engine" in res.output and "0 mismatches" in res.output
    assert "unknown fields seen (ignored): " in res.output
    assert "state.extraField" in res.output and "zzz" in res.output
    records[5]["response"]["state"]["turn"] += 1  # a known field edited is still caught
    res = runner.invoke(app, ["replay", str(_write(tmp_path, records, "e.jsonl")), "--strict"])
    assert res.exit_code == 3 and "state.turn" in res.output


def test_served_rules_keep_their_lines_but_no_control_character():
    from rich.console import Console

    from sunbot._text.terminal import printable_lines
    from sunbot.cli.rules import render

    assert printable_lines("a\x1b[2J\nb\x07") == "a\ufffd[2J\nb\ufffd"
    assert printable_lines("z" * 30_000).endswith("… (10000 more characters)")
    spec = {"goal": "win\x1b]0;T\x07\nthen rest", "rules": ["one [bold]x[/]\x1b[31m"], "odd\x1b": 1}
    console = Console(record=True, width=100, color_system=None)
    console.print(render("keelhold", spec))
    out = console.export_text()
    assert "\x1b" not in out and "\x07" not in out
    assert "win\ufffd]0;T\ufffd\nthen rest" in out  # the rule text's line break kept
    assert "1. one [bold]x[/]\ufffd[31m" in out and "odd\ufffd" in out


def test_log_records_reach_the_terminal_printable():
    import logging

    from sunbot.cli.log import PrintableRecords

    record = logging.LogRecord("sunbot.client", logging.WARNING, "x", 1, "retry: %s", None, None)
    record.args = ("refused \x1b[2J" + "r" * 30_000 + "\nnext",)
    assert PrintableRecords().filter(record) is True
    msg = record.getMessage()
    assert msg.startswith("retry: refused \ufffd[2Jrrr") and "\x1b" not in msg
    assert msg.endswith("… (10024 more characters)")  # 7 + 8 + 4 + 30_000 + 5 - 20_000
