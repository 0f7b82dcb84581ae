"""What the MCP tests share: the test playing the assistant, and the checks of what a game
left behind (its transcript replayed with ``sunbot replay --strict``)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from typer.testing import CliRunner

from sunbot.cli.main import app

#: Tool calls one scripted game may make (every loop of a test is bounded).
MAX_CALLS = 2_000

Pick = Callable[[dict[str, Any]], dict[str, Any]]


def first(pos: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal action."""
    return {"choice": 0}


def speaker(pos: dict[str, Any]) -> dict[str, Any]:
    """Harvest Watch: say something on a speech beat, write a diary, else the first legal
    action."""
    legal = pos["legalActions"]
    if len(legal) == 1 and isinstance(legal[0], dict) and list(legal[0]) == ["speech"]:
        return {"action": {"speech": f"seat {pos['seat']} farms today"}}
    if len(legal) == 1 and isinstance(legal[0], dict) and list(legal[0]) == ["diary"]:
        return {"action": {"diary": "a quiet day"}}
    return {"choice": 0}


def position_of(result: Any) -> dict[str, Any]:
    """The position in a tool result (``act`` wraps it in its outcome)."""
    assert not result.isError, result.content[0].text
    data = result.structuredContent
    assert isinstance(data, dict)
    return data["position"] if "position" in data and "status" not in data else data


async def play(
    client: ClientSession, pos: dict[str, Any], pick: Pick = first, limit: int = MAX_CALLS
) -> tuple[dict[str, Any], int]:
    """Play ``pos``'s game to its end as the assistant would: ``pick`` an action whenever it
    is our turn, observe while waiting. Returns the last position and the actions sent."""
    sent = 0
    for _ in range(limit):
        if pos["status"] == "your-turn":
            result = await client.call_tool("act", {"game": pos["game"], **pick(pos)})
            pos = position_of(result)
            sent += 1
        elif pos["status"] == "waiting":
            await asyncio.sleep(0.02)
            pos = position_of(await client.call_tool("observe", {"game": pos["game"]}))
        else:
            return pos, sent
    raise AssertionError(f"the game did not end in {limit} tool calls: {pos['status']}")


def replay_strict(path: Path) -> str:
    """``sunbot replay --strict PATH``: assert it exits 0, return its output."""
    result = CliRunner().invoke(app, ["replay", "--strict", str(path)])
    assert result.exit_code == 0, result.output
    assert "0 divergences" in result.output, result.output
    return result.output


def stdio_server(tmp: Path, *options: str) -> StdioServerParameters:
    """``sunbot mcp`` over stdio with its transcripts, state and data under ``tmp``."""
    env = {
        **os.environ,
        "SUNBOT_STATE_DIR": str(tmp / "state"),
        "XDG_DATA_HOME": str(tmp / "data"),
        "COLUMNS": "200",
    }
    args = ["-m", "sunbot", "mcp", "--transcripts", str(tmp / "transcripts"), *options]
    return StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(tmp))
