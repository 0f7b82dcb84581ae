"""``sunbot mcp`` over stdio, driven by the official SDK's client: the test plays the
assistant (no model), from one process to the server's."""

from __future__ import annotations

from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import stdio_client

import sunbot
from sunbot.testing.unseen import create_unseen_app
from sunbot.transcripts.jsonl import read_transcript
from sunbot.transcripts.resume import load_resume
from tests.conftest import LoopbackServer
from tests.mcp.helpers import first, play, position_of, replay_strict, stdio_server
from tests.mcp.scenario import every_kind


async def test_an_assistant_plays_every_kind_of_game_over_stdio(tmp_path: Path) -> None:
    with LoopbackServer(create_unseen_app()) as unseen:
        params = stdio_server(tmp_path, "--suggest", "--server", unseen.url, "--beat-ms", "600")
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            await every_kind(client, unseen.url, tmp_path / "transcripts", suggest=True)


def _first(observation: object, legal: list[object]) -> object:
    return legal[0]


async def test_a_client_that_disconnects_mid_game_leaves_a_whole_resumable_transcript(
    tmp_path: Path,
) -> None:
    params = stdio_server(tmp_path)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        pos = position_of(
            await client.call_tool("start_game", {"game": "naptuft", "seed": 11, "cap": 1})
        )
        for _ in range(4):
            pos = position_of(await client.call_tool("act", {"game": pos["game"], "choice": 0}))
        game = pos["game"]
    # the client went away (stdin closed): the server stopped the game and wrote its end
    path = tmp_path / "transcripts" / f"{game}.jsonl"
    cut = read_transcript(path)
    assert cut.error is None and len(cut.steps) == 4
    assert cut.result is not None and cut.result["endedBy"] == "interrupted"
    assert load_resume(path).last_index == 4

    params = stdio_server(tmp_path)  # a new session picks it up where it stopped
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        pos = position_of(await client.call_tool("resume_game", {"game": game}))
        assert pos["status"] == "your-turn" and pos["step"] == 4
        end, _ = await play(client, pos, first)
    whole = await sunbot.play_async("naptuft", seed=11, strategy=_first, max_days=1)
    assert (end["score"], end["result"]["steps"]) == (whole.score, whole.steps)
    assert end["result"]["endedBy"] == whole.ended_by
    replay_strict(path)
