"""``sunbot mcp --http``: the same session over streamable HTTP, behind a bearer token."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from sunbot.cli.main import app as cli
from sunbot.mcp import McpOptions
from sunbot.mcp.serve import check_exposure, http_app, is_loopback
from sunbot.testing.unseen import create_unseen_app
from sunbot.transcripts.jsonl import read_transcript
from tests.conftest import LoopbackServer
from tests.mcp.helpers import position_of, replay_strict
from tests.mcp.scenario import every_kind

TOKEN = "a-test-token-of-32-characters-xx"
_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}
_ACCEPT = {"accept": "application/json, text/event-stream"}


@contextmanager
def serving(options: McpOptions, token: str | None = TOKEN) -> Iterator[str]:
    """The MCP endpoint of ``options`` on loopback (uvicorn in a thread, lifespan on)."""
    holder: dict[str, Any] = {}

    def config(port: int) -> uvicorn.Config:
        holder["app"] = http_app(options, port=port, token=token)
        return uvicorn.Config(
            holder["app"], host="127.0.0.1", port=port, log_level="error", lifespan="on"
        )

    with LoopbackServer(None, config) as srv:
        yield f"{srv.url}/mcp"


async def test_an_assistant_plays_every_kind_of_game_over_streamable_http(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    folder = tmp_path / "transcripts"
    with LoopbackServer(create_unseen_app()) as unseen:
        options = McpOptions(transcripts=folder, servers=(unseen.url,), beat_ms=600)
        with serving(options) as url:
            async with httpx.AsyncClient(timeout=30) as raw:
                for headers in ({}, {"Authorization": "Bearer not-the-token-at-all-xxxx"}):
                    refused = await raw.post(url, json=_INIT, headers={**_ACCEPT, **headers})
                    assert refused.status_code == 401
                    assert "mcp-session-id" not in refused.headers
            async with (
                httpx.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as h,
                streamable_http_client(url, http_client=h) as (read, write, _),
                ClientSession(read, write) as client,
            ):
                await client.initialize()
                await every_kind(client, unseen.url, folder, suggest=False)


async def test_a_client_that_vanishes_over_http_leaves_its_game_stopped_and_resumable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that stops calling without closing its session: the game waits ``idle``
    seconds for an action, then stops, its transcript whole; a new session resumes it."""
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    folder = tmp_path / "transcripts"
    options = McpOptions(transcripts=folder, idle_s=2)
    with serving(options, token=None) as url:
        async with (
            streamable_http_client(url, terminate_on_close=False) as (read, write, _),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            pos = position_of(
                await client.call_tool("start_game", {"game": "keelhold", "seed": 4, "cap": 1})
            )
            pos = position_of(await client.call_tool("act", {"game": pos["game"], "choice": 0}))
            game = pos["game"]
            await asyncio.sleep(3)  # silence past the idle bound
            stopped = position_of(await client.call_tool("observe", {"game": game}))
        assert stopped["status"] == "stopped"
        assert "no action for 2 s" in stopped["stopReason"]
        t = read_transcript(folder / f"{game}.jsonl")
        assert t.result is not None and t.result["endedBy"] == "interrupted" and len(t.steps) == 1
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            pos = position_of(await client.call_tool("resume_game", {"game": game}))
            assert pos["status"] == "your-turn" and pos["step"] == 1
            while pos["status"] == "your-turn":
                pos = position_of(await client.call_tool("act", {"game": game, "choice": 0}))
            assert pos["status"] == "over"
    replay_strict(folder / f"{game}.jsonl")


def test_beyond_loopback_a_token_is_required(tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    with pytest.raises(ValueError, match="give a bearer token"):
        check_exposure("0.0.0.0", None)
    with pytest.raises(ValueError, match="at least 16 characters"):
        check_exposure("127.0.0.1", "short")
    check_exposure("0.0.0.0", TOKEN)
    check_exposure("127.0.0.1", None)
    with pytest.raises(ValueError, match="give a bearer token"):
        http_app(McpOptions(transcripts=tmp_path), host="0.0.0.0", token=None)
    result = CliRunner().invoke(
        cli, ["mcp", "--http", "--host", "0.0.0.0", "--transcripts", str(tmp_path)],
        env={"SUNBOT_MCP_TOKEN": ""},
    )  # fmt: skip
    assert result.exit_code == 2 and "give a bearer token" in result.output


async def test_megabyte_arguments_pass_and_an_oversized_body_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))
    with serving(McpOptions(transcripts=tmp_path / "transcripts")) as url:
        auth = {"Authorization": f"Bearer {TOKEN}", **_ACCEPT}
        async with httpx.AsyncClient(timeout=30) as raw:
            big = {**_INIT, "params": {**_INIT["params"], "junk": "x" * (3 << 20)}}
            refused = await raw.post(url, json=big, headers=auth)
            assert refused.status_code == 413
        async with (
            httpx.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as h,
            streamable_http_client(url, http_client=h) as (read, write, _),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            result = await client.call_tool("start_game", {"game": "x" * (1 << 20)})
            assert result.isError
            text = result.content[0].text  # type: ignore[union-attr]
            assert text == (
                "bad arguments for start_game: game: String should have at most 64 characters"
            )
            pos = position_of(await client.call_tool("start_game", {"game": "naptuft"}))
            assert pos["status"] == "your-turn"
