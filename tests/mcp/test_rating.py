"""``sunbot tournament --transcripts``: an assistant that played over MCP is rated beside
sunbot's strategies from the transcripts it left (:mod:`sunbot.bench.recorded`)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from mcp.shared.memory import create_connected_server_and_client_session
from typer.testing import CliRunner

import sunbot
from sunbot.bench.recorded import read_recorded
from sunbot.cli.main import app
from sunbot.games import get_game
from sunbot.mcp import McpOptions
from sunbot.mcp.server import create_server
from sunbot.transcripts.jsonl import read_transcript
from sunbot.transcripts.writer import TranscriptWriter
from tests.mcp.helpers import first, play, position_of


async def test_an_assistants_runs_are_ranked_beside_the_strategies_on_its_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    folder = tmp_path / "transcripts"
    scores = {}
    server = create_server(McpOptions(transcripts=folder))
    async with create_connected_server_and_client_session(server) as client:
        for seed in (3, 4):
            arguments = {"game": "naptuft", "seed": seed, "cap": 1, "agent": "claude"}
            end, _ = await play(
                client, position_of(await client.call_tool("start_game", arguments)), first
            )
            scores[seed] = end["score"]
        cut = position_of(await client.call_tool("start_game", {**arguments, "seed": 5}))
        await client.call_tool("end_game", {"game": cut["game"]})  # interrupted: no score
        other = {"game": "keelhold", "seed": 3, "cap": 1, "agent": "claude"}
        await play(client, position_of(await client.call_tool("start_game", other)), first)

    found = read_recorded(folder, get_game("naptuft"))
    assert [(r.strategy, r.seed, r.score, r.cap) for r in found.rows] == [
        ("mcp:claude", 3, scores[3], 1), ("mcp:claude", 4, scores[4], 1),
    ]  # fmt: skip
    assert found.other_games == 1
    assert [why for _, why in found.skipped] == ["ended by interrupted: no score to rate"]

    out = tmp_path / "bench"
    args = ["tournament", "naptuft", "-s", "random", "--transcripts", str(folder)]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    standings = json.loads(result.stdout)
    ranked = {r["strategy"]: r for r in standings["ranking"]}
    assert set(ranked) == {"mcp:claude", "random"}
    assert ranked["mcp:claude"]["seeds"] == 2
    assert ranked["mcp:claude"]["mean"] == statistics.mean(scores.values())
    expected = [
        (await sunbot.play_async("naptuft", seed=s, strategy="random", max_days=1)).score
        for s in (3, 4)
    ]
    assert ranked["random"]["mean"] == statistics.mean(expected)  # the same seeds and cap
    assert standings["runs"] == {"scheduled": 4, "ranked": 4, "errored": 0}
    again = CliRunner().invoke(  # the recorded rows are stored once: a resume adds nothing
        app, [*args, "--out", str(out), "--workers", "1", "--json", "--resume"]
    )
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["ranking"] == standings["ranking"]


def _match(path: Path, seed: int, lineup: list[str], ranks: list[int]) -> None:
    """A finished Harvest Watch match's transcript: its header and result line."""
    with TranscriptWriter(path) as w:
        w.header("harvest-watch", seed, ",".join(lineup), "embedded")
        w.write({
            "type": "result", "matchId": f"m{seed}", "score": 0, "gameOver": True,
            "ranks": ranks, "seats": [], "steps": 300, "refused": 0, "divergences": 0,
            "endedBy": "rules", "responsesChecked": 600, "retries": 0, "elapsedMs": 1.0,
            "error": None,
        })  # fmt: skip


def test_an_assistants_matches_are_rated_with_openskill_beside_the_strategies(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "transcripts"
    folder.mkdir()
    seat_two = ["farmer", "farmer", "mcp:claude", "farmer", "farmer", "farmer"]
    _match(folder / "a.jsonl", 3, seat_two, [2, 2, 1, 2, 2, 2])
    _match(folder / "b.jsonl", 4, ["mcp:claude", *["farmer"] * 5], [1, 3, 3, 2, 3, 3])
    _match(folder / "c.jsonl", 5, ["farmer"] * 6, [1, 1, 1, 1, 1, 1])  # rated: says nothing
    (folder / "d.jsonl").write_text("not a transcript\n", encoding="utf-8")

    found = read_recorded(folder, get_game("harvest-watch"))
    assert found.lineups[0] == tuple(seat_two) and found.rows[0].ranks == "2,2,1,2,2,2"
    assert found.rows[0].score == 0 and found.rows[0].cause == "lost"  # seat 0's row
    assert [name for name, _ in found.skipped] == ["d.jsonl"]

    args = ["tournament", "harvest-watch", "--transcripts", str(folder), "--json"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "bench"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    standings = json.loads(result.stdout)
    rated = {r["strategy"]: r for r in standings["ratings"]}
    assert [r["strategy"] for r in standings["ratings"]] == ["mcp:claude", "farmer"]
    assert rated["mcp:claude"]["matches"] == 2 and rated["farmer"]["matches"] == 3
    # claude won both its matches outright: it rises from the start (mu 25), farmer sinks
    assert rated["mcp:claude"]["mu"] > 25 > rated["farmer"]["mu"]
    assert standings["matches"] == {"scheduled": 3, "rated": 3, "errored": 0}
    text = read_transcript(folder / "a.jsonl").header["strategy"]
    assert text.split(",")[2] == "mcp:claude"
