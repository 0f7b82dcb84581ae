"""``sunbot play`` defects, each pinned: no empty transcript after a usage error, a missing
transcript folder is an error, piped summaries are whole, ``--json``, a capped Sunloaf run
is not called a win, a match is announced, ``--wait`` and Ctrl-C on a match."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import httpx
import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.cli.play_match import until_interrupted
from sunbot.runs.match import _seats, run_match
from sunbot.server import TokenCodec, create_app
from sunbot.transcripts.jsonl import TranscriptWriter

runner = CliRunner()


def test_usage_errors_leave_no_transcript(tmp_path):
    path = tmp_path / "t.jsonl"
    for game in ("keelhold", "harvest-watch"):
        res = runner.invoke(app, ["play", game, "--strategy", "nope", "--transcript", str(path)])
        assert res.exit_code == 2 and "unknown strategy 'nope'" in res.output
        assert not path.exists()


def test_a_missing_transcript_folder_is_an_error_not_created(tmp_path):
    path = tmp_path / "no" / "such" / "x.jsonl"
    for game in ("keelhold", "harvest-watch"):
        res = runner.invoke(app, ["play", game, "--seed", "1", "--transcript", str(path)])
        assert res.exit_code == 2
        assert f"no folder {path.parent}" in " ".join(res.stderr.split())
        assert not (tmp_path / "no").exists()


def test_piped_summary_is_whole_and_json_is_one_object(tmp_path):
    spec = "examples/bots/keelhold_bot.py:Bot"
    args = ["play", "keelhold", "--seed", "3", "--max-voyages", "1", "--strategy", spec]
    res = runner.invoke(app, [*args, "--quiet", "--no-transcript"])
    assert res.exit_code == 0 and spec in res.stdout  # not cut to 'examples/bo…'
    as_json = runner.invoke(app, [*args, "--json", "--transcript", str(tmp_path / "t.jsonl")])
    assert as_json.exit_code == 0
    record = json.loads(as_json.stdout)
    last = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[-1])
    assert record == {"game": "keelhold", "seed": 3, "strategySeed": 3, "strategy": spec, **last,
                      "transcript": str(tmp_path / "t.jsonl")}  # fmt: skip
    match = runner.invoke(app, ["play", "harvest-watch", "--seed", "2", "--json",
                                "--strategy", "guard", "--no-transcript"])  # fmt: skip
    assert match.exit_code == 0
    result = json.loads(match.stdout)
    assert result["endedBy"] == "rules" and len(result["ranks"]) == 6 and result["matchId"]
    assert result["seed"] == 2 and result["strategySeed"] == 2  # our own match: both ours
    assert f"match {result['matchId']}" in match.stderr  # announced when it was created


def test_a_capped_sunloaf_run_is_not_called_a_win():
    res = runner.invoke(app, ["play", "sunloaf", "--seed", "1", "--max-days", "1", "--quiet",
                              "--no-transcript"], env={"COLUMNS": "200"})  # fmt: skip
    assert res.exit_code == 0
    rows = [" ".join(x.split()) for x in res.stdout.splitlines()]
    assert "│ ended │ capped at day 1 │" in rows
    assert not any(x.startswith(("│ result", "│ cause")) or "win" in x for x in rows)
    assert any(x.startswith("│ last day │ cosy ") and " / quota 107 │" in x for x in rows)


def test_a_strategy_s_own_end_run_is_named_as_the_strategy_s():
    # first-safe sends END_RUN at port (seed 7: voyage 2, 1968 points), before any cap
    res = runner.invoke(app, ["play", "keelhold", "--seed", "7", "--strategy", "first-safe",
                              "--quiet", "--no-transcript"], env={"COLUMNS": "200"})  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = [" ".join(x.split()) for x in res.stdout.splitlines()]
    assert "│ score │ 1968 │" in rows and "│ voyage │ 2 │" in rows
    assert "│ ended │ ended (END_RUN by the strategy) │" in rows
    assert "│ ended by │ rules (the strategy's end action) │" in rows


@pytest.mark.parametrize(
    ("game", "cap", "row"),
    [
        ("keelhold", "--max-voyages", "capped at voyage 1"),
        ("naptuft", "--max-days", "capped at day 1"),
    ],
)
def test_a_capped_run_says_so_once(game, cap, row):
    res = runner.invoke(app, ["play", game, "--seed", "1", cap, "1", "--quiet",
                              "--no-transcript"], env={"COLUMNS": "200"})  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = [" ".join(x.split()) for x in res.stdout.splitlines()]
    assert f"│ ended │ {row} │" in rows and "│ ended by │ cap │" in rows
    assert not any(x.startswith(("│ result", "│ cause")) for x in rows)


def test_wait_needs_a_server_and_a_match_game():
    res = runner.invoke(app, ["play", "harvest-watch", "--wait", "5"])
    assert res.exit_code == 2 and "--wait creates a match on --server" in res.output
    res = runner.invoke(app, ["play", "keelhold", "--wait", "5"])
    assert res.exit_code == 2 and "apply to match games only" in res.output


async def test_wait_is_the_created_match_countdown():
    calls: list[dict[str, object]] = []

    class Stub:
        async def create(self, game: str, **kw: object) -> tuple[str, list[object]]:
            calls.append(kw)
            return "m1", []

    mid, _ = await _seats(Stub(), "harvest-watch", 3, 2, "http://x.test", None, 30_000)  # type: ignore[arg-type]
    assert mid == "m1" and calls == [{"seats": 2, "seed": 3, "start_ms": 30_000}]


async def test_ctrl_c_on_a_match_writes_the_result_line(tmp_path):
    path = tmp_path / "m.jsonl"
    writer = TranscriptWriter(path)
    loop = asyncio.get_running_loop()
    loop.call_later(0.6, os.kill, os.getpid(), signal.SIGINT)
    beats = httpx.ASGITransport(app=create_app(TokenCodec()))
    result = await until_interrupted(
        run_match(game="harvest-watch", seed=3, strategy="guard", server="http://m.test",
                  match_id=None, seats=1, writer=writer, strict=False, transport=beats)
    )  # fmt: skip
    writer.close()
    assert result["endedBy"] == "interrupted" and result["gameOver"] is False
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "result" and last["endedBy"] == "interrupted"
