"""``sunbot play --html``: the run's replay page is written from its transcript at the end."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.transcripts.jsonl import read_transcript


def _steps_in(page: Path) -> list[dict[str, object]]:
    m = re.search(r'id="sunbot-data">(.*?)</script>', page.read_text(encoding="utf-8"), re.S)
    assert m is not None
    steps: list[dict[str, object]] = json.loads(m.group(1))["steps"]
    return steps


def test_play_writes_the_page_of_its_run(tmp_path: Path) -> None:
    log, page = tmp_path / "run.jsonl", tmp_path / "pages" / "run.html"
    page.parent.mkdir()  # --html never creates folders
    args = ["play", "naptuft", "--seed", "3", "--max-days", "1", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--transcript", str(log), "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "replay page:" in result.output
    steps = _steps_in(page)
    t = read_transcript(log)
    assert len(steps) == len(t.steps) + 1
    assert t.result is not None and steps[-1]["s"] == t.result["score"] > 0


def test_play_a_match_writes_its_page(tmp_path: Path) -> None:
    page = tmp_path / "m.html"
    log = tmp_path / "m.jsonl"
    args = ["play", "harvest-watch", "--seed", "3", "--quiet", "--transcript", str(log)]
    result = CliRunner().invoke(app, [*args, "--html", str(page)])
    assert result.exit_code == 0, result.output
    commands = [r for r in read_transcript(log).other if r["type"] == "command"]
    assert len(_steps_in(page)) == len(commands) + 1


def test_html_without_a_transcript_is_a_usage_error(tmp_path: Path) -> None:
    args = ["play", "naptuft", "--no-transcript", "--html", str(tmp_path / "x.html")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "--html draws the page from the run's transcript: drop --no-transcript" in " ".join(
        result.output.split()
    )
    assert not (tmp_path / "x.html").exists()
    result = CliRunner().invoke(app, ["play", "naptuft", "--html", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.output
    help_out = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "300"}).output
    assert "so not with --no-transcript" in help_out


def test_the_page_of_a_game_without_an_engine_says_its_rules_were_not_checked(
    tmp_path: Path,
) -> None:
    from sunbot.testing.unseen import create_unseen_app
    from tests.conftest import LoopbackServer

    log, page, again = tmp_path / "t.jsonl", tmp_path / "t.html", tmp_path / "r.html"
    with LoopbackServer(create_unseen_app()) as srv:
        args = ["play", "take-away", "--seed", "3", "--server", srv.url, "--quiet"]
        result = CliRunner().invoke(app, [*args, "--transcript", str(log), "--html", str(page)])
    assert result.exit_code == 0, result.output
    replayed = CliRunner().invoke(app, ["replay", str(log), "--html", str(again)])
    assert replayed.exit_code == 0, replayed.output
    for path, divergences in ((page, "0"), (again, "0 recorded, 0 found by the generic checks")):
        m = re.search(r'id="sunbot-data">(.*?)</script>', path.read_text(encoding="utf-8"), re.S)
        assert m is not None
        meta = dict(json.loads(m.group(1))["meta"])
        assert meta["rules"] == "not checked (sunbot has no rules engine for this game)"
        assert meta["divergences"] == divergences
