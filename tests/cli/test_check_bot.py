"""``sunbot check-bot``: the verdict, the table, the JSON, the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.cli import app
from sunbot.testing.unseen import create_unseen_app
from tests.conftest import LoopbackServer, free_port

runner = CliRunner()
BOTS = Path(__file__).parents[1] / "checkbot" / "checkbot_bots.py"
WIDE = {"COLUMNS": "250"}


def test_a_fit_bot_exits_0_with_a_row_per_game():
    res = runner.invoke(app, ["check-bot", f"{BOTS}:Good", "--seeds", "2"], env=WIDE)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "naptuft: fit"
    row = next(ln for ln in lines if ln.startswith("│ naptuft"))
    cells = [c.strip() for c in row.split("│")[1:-1]]
    assert cells[:5] == ["naptuft", "engine", "3", "0", "0"]
    assert cells[7:] == ["1 s", "yes", "yes"]
    assert lines[-1] == f"{BOTS}:Good: fit to bench"


def test_the_report_as_json():
    res = runner.invoke(app, ["check-bot", f"{BOTS}:Good", "naptuft", "--seeds", "1", "--json"])
    assert res.exit_code == 0, res.output
    body = json.loads(res.stdout)
    assert body["bot"] == f"{BOTS}:Good" and body["fit"] is True
    [game] = body["games"]
    assert game["game"] == "naptuft" and game["where"] == "engine" and game["fit"] is True
    assert [(r["seed"], r["repeat"]) for r in game["runs"]] == [(1, False), (1, True)]
    assert game["deterministic"] is True and game["problems"] == [] and game["deadline_s"] == 1.0
    assert game["decisions"] > 0 and 0 < game["p50Ms"] <= game["p95Ms"] <= game["maxMs"]
    assert "times_ms" not in game


def test_an_unfit_bot_exits_1_and_says_why():
    res = runner.invoke(app, ["check-bot", f"{BOTS}:Raises", "--seeds", "1"], env=WIDE)
    assert res.exit_code == 1, res.output
    first = res.stdout.splitlines()[0]
    assert first.startswith("naptuft: NOT fit seed 1: ValueError: no idea (raised by the strategy")
    assert res.stdout.splitlines()[-1].endswith("NOT fit to bench")
    res = runner.invoke(app, ["check-bot", f"{BOTS}:Flip", "--seeds", "1", "--json"])
    assert res.exit_code == 1
    game = json.loads(res.stdout)["games"][0]
    assert game["deterministic"] is False and game["differs_at"] == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nosuch"], "unknown strategy 'nosuch'"),
        (["planner", "naptuft"], "planner plays keelhold, sunloaf, not naptuft"),
        (["random", "go"], "unknown game 'go'"),
        (["random", "--seeds", "0"], "--seeds"),
        (["random", "--move-timeout", "0"], "--move-timeout"),
        (["random", "--server", "localhost:1"], "did you mean http://localhost:1"),
        (["first"], "give --server URL"),
    ],
)
def test_bad_usage_exits_2(args, said):
    res = runner.invoke(app, ["check-bot", *args], env=WIDE)
    assert res.exit_code == 2, res.output
    assert said in res.output


def test_the_games_of_a_server_and_one_that_cannot_be_read():
    with LoopbackServer(create_unseen_app()) as srv:
        res = runner.invoke(
            app, ["check-bot", "first", "--server", srv.url, "--seeds", "1", "--json"]
        )
    assert res.exit_code == 0, res.output
    body = json.loads(res.stdout)
    assert [(g["game"], g["where"], g["fit"]) for g in body["games"]] == [
        (slug, srv.url, True) for slug in ("hidden-number", "take-away", "tic-tac-toe")
    ]
    nothing = f"http://127.0.0.1:{free_port()}"
    res = runner.invoke(app, ["check-bot", "first", "--server", nothing], env=WIDE)
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.splitlines() == [
        f"error: cannot read {nothing}/api/games: All connection attempts failed"
    ]


def test_an_http_bots_credentials_are_never_shown():
    port = free_port()  # nothing listens there
    url = f"http://me:hunter2@127.0.0.1:{port}/move?key=k3y"
    res = runner.invoke(app, ["check-bot", url, "naptuft", "--seeds", "1"], env=WIDE)
    assert res.exit_code == 1, res.output
    assert "could not connect" in res.stdout
    assert "hunter2" not in res.output and "k3y" not in res.output
    assert res.stdout.splitlines()[-1] == f"http://127.0.0.1:{port}/move: NOT fit to bench"
