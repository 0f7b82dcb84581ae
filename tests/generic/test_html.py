"""The generic replay board: the observation as rows, what changed, and a page built the way
html.steps.page_module gives a game sunbot does not know the generic board)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from sunbot.html import generic, page
from sunbot.transcripts.jsonl import read_transcript

GOLDEN = Path(__file__).parents[2] / "transcripts" / "golden-keelhold-seed7.jsonl"


def test_rows_of_a_nested_observation():
    rows, more = generic.flatten({"pile": 4, "taken": [1, 3], "who": {"name": "you", "x": None}})
    assert rows == [
        [0, "pile", "4", "pile"],
        [0, "taken", "[2]", "taken"],
        [1, "[0]", "1", "taken[0]"],
        [1, "[1]", "3", "taken[1]"],
        [0, "who", "{2}", "who"],
        [1, "name", "you", "who.name"],
        [1, "x", "null", "who.x"],
    ]
    assert more == 0


def test_rows_are_bounded():
    rows, more = generic.flatten({"a": list(range(500))}, max_rows=10)
    assert len(rows) == 10 and more == 491  # 500 items, 9 drawn
    deep: Any = 1
    for _ in range(20):
        deep = {"d": deep}
    rows, _ = generic.flatten(deep)
    assert len(rows) == generic.MAX_DEPTH and rows[-1][2] == "{1}"
    rows, _ = generic.flatten({"s": "z" * 1000})
    assert len(rows[0][2]) == generic.MAX_TEXT


def test_changes_since_the_step_before():
    frames = [generic.frame({"pile": 5, "h": []}), None, generic.frame({"pile": 4, "h": [1]})]
    marked = generic.mark_changes(frames)
    assert marked[0] is not None and marked[0]["changed"] == [] and marked[1] is None
    assert marked[2] is not None and marked[2]["changed"] == ["pile", "h", "h[0]"]
    assert generic.progress({"a": 1, "b": 2}) == "2 fields"


HOSTILE = "</script><script>alert(1)</script>\u2028"


def transcript(path: Path) -> Path:
    obs = [{"pile": 5, "note": HOSTILE}, {"pile": 4, "note": HOSTILE}]
    records = [
        {"type": "header", "schemaVersion": 1, "game": "take-away", "seed": 0, "strategy": "first",
         "server": "http://127.0.0.1:8002", "sunbotVersion": "0", "startedAt": "2025-01-01T00:00:00+00:00"},
        {"type": "init", "elapsedMs": 1, "response": {"state": {"pile": 5}, "observation": obs[0], "legalActions": [{"type": "take", "count": 1}],
                                      "score": 0, "gameOver": False}, "mirror": {"ok": True, "divergences": []}},
        {"type": "step", "index": 1, "elapsedMs": 1, "action": {"type": "take", "count": 1},
         "response": {"state": {"pile": 4}, "observation": obs[1], "legalActions": [], "score": 1, "gameOver": True},
         "mirror": {"ok": False, "divergences": [{"step": 1, "path": "pile", "expected": "x", "got": "y",
                                                  "note": "generic check envelope.score: x"}]}},
        {"type": "result", "score": 1, "gameOver": True, "steps": 1, "divergences": 1, "endedBy": "rules"},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def wired() -> None:
    """The generic board draws a game without one of its own (wired in html.steps)."""


def test_a_page_of_a_generic_game(tmp_path: Path, wired: None):
    t = read_transcript(transcript(tmp_path / "t.jsonl"))
    assert t.error is None and t.result is not None
    text = page.replay_page(t)
    assert HOSTILE not in text and "alert(1)" in text  # only ever inside escaped JSON
    m = re.search(r'<script type="application/json" id="sunbot-data">(.*?)</script>', text, re.S)
    assert m is not None and "<" not in m.group(1)
    data = json.loads(m.group(1))
    assert data["game"] == "take-away" and [s["a"] for s in data["steps"]] == [
        "start",
        "take count=1",
    ]
    assert [s["s"] for s in data["steps"]] == [0, 1] and data["steps"][1]["dv"][0]["path"] == "pile"
    first, second = data["frames"]
    assert first["rows"][0] == [0, "pile", "5", "pile"] and first["changed"] == []
    assert second == {
        "rows": [[0, "pile", "4", "pile"], [0, "note", HOSTILE, "note"]],
        "changed": ["pile"],
    }
    assert "SB.games.generic = board" in text


def test_the_board_script_puts_text_in_as_text_only():
    script = (Path(generic.__file__).parent / "assets" / "generic.js").read_text(encoding="utf-8")
    assert (
        "innerHTML" not in script and "insertAdjacentHTML" not in script and "eval(" not in script
    )
    assert "SB.games.generic = board" in script


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's scripts")
@pytest.mark.parametrize(("step", "changed"), [(0, []), (1, ["pile"])])
def test_the_board_draws_rows_and_marks_changes(
    tmp_path: Path, wired: None, step: int, changed: list[str]
):
    text = page.replay_page(read_transcript(transcript(tmp_path / "t.jsonl")))
    m = re.search(r'<script type="application/json" id="sunbot-data">(.*?)</script>', text, re.S)
    assert m is not None
    assets = Path(generic.__file__).parent / "assets"
    stub = Path(__file__).parent / "dom_stub.js"
    done = subprocess.run(
        ["node", str(stub), str(assets / "page.js"), str(assets / "generic.js")],
        env={**os.environ, "SUNBOT_DATA": m.group(1), "SUNBOT_STEP": str(step)},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    drawn = [json.loads(line) for line in done.stdout.split("\n") if line]
    texts = [d["text"] for d in drawn]
    assert texts[0] == ("opening position" if step == 0 else "after take count=1")
    pile = 5 if step == 0 else 4
    assert texts[2:6] == ["pile", str(pile), "note", HOSTILE]  # the hostile text, as text
    marked = [d["text"] for d in drawn if "changed" in d["cls"]]
    assert marked == [t for name in changed for t in (name, str(pile))]


def test_a_page_of_a_generic_game_never_claims_rule_checks(tmp_path: Path):
    # The page of a game sunbot has no engine for said "red dot: a step whose answer
    # diverged from the rules" and "none: the answer agrees with the rules": no rules were
    # checked, only the generic checks.
    text = " ".join(page.replay_page(read_transcript(transcript(tmp_path / "t.jsonl"))).split())
    assert "the rules" not in text
    assert "a step whose answer failed a generic check" in text
    assert '"checks":{"agrees":"the answer passes the generic checks"}' in text
    assert '"none: " + data.checks.agrees' in text  # the list's line for a step without one
    known = " ".join(page.replay_page(read_transcript(GOLDEN)).split())
    assert "a step whose answer diverged from the rules" in known
    assert '"checks":{"agrees":"the answer agrees with the rules"}' in known
