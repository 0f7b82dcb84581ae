"""Bots from a file (``--strategy path.py:Class``) in play, bench and the API; the example
bots of ``examples/bots`` and the README's plug-in, as written, in every game."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sunbot
from sunbot import bots, strategies
from sunbot.cli.main import app
from sunbot.runs import match as match_play

ROOT = Path(__file__).parents[1]
EXAMPLES = ROOT / "examples" / "bots"
GAMES = ["keelhold", "sunloaf", "naptuft", "harvest-watch"]
runner = CliRunner()


def _play(*args: str):
    return runner.invoke(app, ["play", *args, "--quiet"], env={"COLUMNS": "200"})


@pytest.mark.parametrize("game", GAMES)
def test_example_bot_plays_through_the_cli(game, tmp_path, monkeypatch):
    # long beats: a busy machine must not make our seat late (stale_round refusals); the
    # match still runs fast, as a beat resolves once every seat has stored its command
    monkeypatch.setattr(match_play, "LOCAL_BEAT_MS", dict.fromkeys(match_play.LOCAL_BEAT_MS, 5000))
    spec = f"{EXAMPLES / (game.replace('-', '_') + '_bot.py')}:Bot"
    path = tmp_path / "t.jsonl"
    res = _play(game, "--seed", "3", "--strategy", spec, "--transcript", str(path))
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["strategy"] == spec
    result = lines[-1]
    assert result["type"] == "result" and result["endedBy"] in ("rules", "cap")
    assert result["divergences"] == 0 and result["refused"] == 0 and result["error"] is None


def _readme_bot(tmp_path: Path) -> Path:
    text = (ROOT / "README.md").read_text()
    (code,) = re.findall(r"```python\n(# mybot\.py\n.*?)```", text, re.S)
    path = tmp_path / "mybot.py"
    path.write_text(code)
    return path


@pytest.mark.parametrize("game", GAMES)
def test_the_readme_plugin_plays_every_game(game, tmp_path):
    path = _readme_bot(tmp_path)
    summary = sunbot.play(game, seed=5, strategy=f"{path}:MyBot", max_days=2 if game in (
        "sunloaf", "naptuft") else None)  # fmt: skip
    assert summary.error is None and summary.ended_by in ("rules", "cap")
    assert summary.refused == 0 and summary.divergences == []


def test_a_bot_file_in_bench_workers(tmp_path):
    spec = f"{EXAMPLES / 'keelhold_bot.py'}:Bot"
    out = tmp_path / "out"
    args = ["bench", "keelhold", "-s", spec, "--seeds", "1-4", "--cap", "voyages=2"]
    res = runner.invoke(app, [*args, "--workers", "2", "--out", str(out), "--run", "r"])
    assert res.exit_code == 0, res.output
    rows = (
        sqlite3.connect(out / "bench.sqlite")
        .execute(
            "SELECT strategy, seed, ended_by, error FROM results WHERE run = 'r' ORDER BY seed"
        )
        .fetchall()
    )
    assert rows == [(spec, s, rows[s - 1][2], None) for s in range(1, 5)]
    assert {r[2] for r in rows} <= {"rules", "cap"}


def test_the_file_is_loaded_once_per_process(tmp_path):
    path = tmp_path / "once.py"
    path.write_text("LOADS = []\nLOADS.append(1)\nclass B:\n    def choose(self, o, legal):\n"
                    "        return legal[0]\n")  # fmt: skip
    first = bots.load_file(f"{path}:B")
    again = bots.load_file(str(path))  # the only class with choose
    assert first is again
    assert bots.load_file(f"{path}:LOADS") == [1]


@pytest.mark.parametrize(
    ("source", "spec", "message"),
    [
        (None, "missing.py:Bot", "no bot file 'missing.py'"),
        ("x = (", "bad.py:Bot", "bad.py did not load: SyntaxError"),
        ("class A: pass\n", "bad.py:Bot", "bad.py has no 'Bot'"),
        ("class A: pass\n", "bad.py", "name the strategy as"),
        (
            "class Bot:\n    game = 'sunloaf'\n    def choose(self, o, l): return l[0]\n",
            "bad.py:Bot",
            "plays sunloaf, not keelhold",
        ),
        ("class Bot: pass\n", "bad.py:Bot", "has no choose"),
    ],
)
def test_bad_bot_files_are_usage_errors(tmp_path, monkeypatch, source, spec, message):
    monkeypatch.chdir(tmp_path)
    if source is not None:
        (tmp_path / "bad.py").write_text(source)
    res = _play("keelhold", "--seed", "1", "--strategy", spec, "--no-transcript")
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())
    with pytest.raises(strategies.UnknownStrategy, match=re.escape(message)):
        sunbot.play("keelhold", seed=1, strategy=spec)
    bots._LOADED.clear()


def test_file_specs_are_told_from_names():
    assert bots.is_file_spec("bots/x.py:Bot") and bots.is_file_spec("x.py")
    assert not bots.is_file_spec("safe-greedy") and not bots.is_file_spec("mod:Attr")


def test_the_guide_links_every_example_bot_and_they_exist():
    guide = (ROOT / "docs" / "writing-a-bot.md").read_text()
    linked = set(re.findall(r"\(\.\./(examples/bots/\w+\.py)\)", guide))
    assert linked == {f"examples/bots/{g.replace('-', '_')}_bot.py" for g in GAMES}
    assert all((ROOT / p).is_file() for p in linked)


def test_resuming_a_file_bot_run_needs_the_readers_consent(tmp_path):
    spec = f"{EXAMPLES / 'keelhold_bot.py'}:Bot"
    path = tmp_path / "t.jsonl"
    res = _play("keelhold", "--seed", "3", "--max-voyages", "2", "--strategy", spec,
                "--transcript", str(path))  # fmt: skip
    assert res.exit_code == 0, res.output
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n")  # cut: a run to resume
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet"])
    assert res.exit_code == 2 and "resuming runs its code" in " ".join(res.output.split())
    assert path.read_text().count("\n") == len(lines) // 2  # nothing written
    res = runner.invoke(app, ["play", "--resume", str(path), "--quiet", "--strategy", spec])
    assert res.exit_code == 0, res.output
    res2 = runner.invoke(app, ["play", "--resume", str(path), "--strategy", "random"])
    assert res2.exit_code == 2


def test_a_bot_that_raises_is_reported_as_its_own_error(tmp_path):
    path = tmp_path / "buggy.py"
    path.write_text("class Bot:\n    def choose(self, o, legal):\n        return legal[0] + 1\n")
    log = tmp_path / "t.jsonl"
    res = _play("keelhold", "--seed", "1", "--strategy", f"{path}:Bot", "--transcript", str(log))
    assert res.exit_code == 1, res.output
    text = " ".join(res.output.split())
    assert (
        "ended by │ error (TypeError: unsupported operand type(s) for +: 'dict' and 'int'" in text
    )
    assert "ServerMisbehaved" not in text
    result = json.loads(log.read_text().splitlines()[-1])
    assert result["error"] == (
        "TypeError: unsupported operand type(s) for +: 'dict' and 'int' "
        f"(raised by the strategy {path}:Bot at step 1)"
    )


def test_a_function_only_file_loads_its_choose_without_naming_it(tmp_path):
    path = tmp_path / "fn.py"
    path.write_text("def helper(x):\n    return x\n\ndef choose(o, legal):\n    return legal[-1]\n")
    assert bots.load_file(str(path)) is bots.load_file(f"{path}:choose")
    summary = sunbot.play("keelhold", seed=2, strategy=str(path), max_voyages=1)
    assert summary.error is None and summary.ended_by in ("rules", "cap") and summary.steps > 0
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    with pytest.raises(strategies.UnknownStrategy, match="no module-level choose function"):
        bots.load_file(str(empty))


def test_the_sunloaf_example_beats_always_rest_on_the_guide_s_seeds():
    from statistics import mean

    from sunbot.bench.jobs import Job, run_job

    spec = f"{EXAMPLES / 'sunloaf_bot.py'}:Bot"
    runs = {
        name: [run_job(Job("sunloaf", name, seed, cap=10)) for seed in range(1, 21)]
        for name in (spec, "rest")
    }
    assert all(r.error is None for rows in runs.values() for r in rows)
    ours, rest = (mean(r.score for r in runs[n]) for n in (spec, "rest"))
    assert rest == 34364.25 and ours == 67310.1  # the docstring's figures
    assert all(r.ended_by == "cap" for r in runs[spec])  # no quota missed in 10 days


def test_a_bot_file_imports_a_module_beside_it(tmp_path, monkeypatch):
    folder = tmp_path / "split"
    folder.mkdir()
    (folder / "docs_helper_choice.py").write_text("def pick(legal):\n    return legal[-1]\n")
    (folder / "bot.py").write_text(
        "from docs_helper_choice import pick\n\n\nclass Bot:\n"
        "    def choose(self, observation, legal_actions):\n        return pick(legal_actions)\n"
    )
    monkeypatch.chdir(tmp_path)  # not the bot's folder: the loader puts that on the path
    bot = bots.load_file("split/bot.py:Bot")()
    assert bot.choose({}, [{"a": 1}, {"b": 2}]) == {"b": 2}
    assert str(folder) not in sys.path  # only while the file loads
