"""The official MCP Inspector's command-line mode drives ``sunbot mcp`` over stdio: it lists
the tools and calls one. Marked ``mcp_inspector`` (excluded by default; ``.ci/run`` runs it
in its own step): it needs Node.js, and ``npx -y`` fetches the inspector from the npm
registry on first use."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sunbot.transcripts.jsonl import read_transcript
from tests.mcp.scenario import TOOLS

pytestmark = pytest.mark.mcp_inspector

#: The inspector package (``SUNBOT_MCP_INSPECTOR`` may pin a version, ``...@0.15.0``).
PACKAGE = os.environ.get("SUNBOT_MCP_INSPECTOR", "@modelcontextprotocol/inspector")


def inspector(tmp: Path, *method: str) -> dict[str, Any]:
    """``npx -y PACKAGE --cli python -m sunbot mcp --method ...``: its JSON output."""
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx (Node.js) is not installed")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "SUNBOT_STATE_DIR": str(tmp)}
    command = [npx, "-y", PACKAGE, "--cli", sys.executable, "-m", "sunbot", "mcp", *method]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=600, cwd=tmp, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_the_inspector_lists_the_tools(tmp_path: Path) -> None:
    tools = inspector(tmp_path, "--method", "tools/list")["tools"]
    assert {t["name"] for t in tools} == TOOLS
    for tool in tools:
        assert tool["inputSchema"]["type"] == "object" and "outputSchema" in tool
        assert "\n" not in tool["description"]


def test_the_inspector_starts_a_game(tmp_path: Path) -> None:
    args = ["--tool-name", "start_game", "--tool-arg", "game=naptuft", "--tool-arg", "seed=7"]
    out = inspector(tmp_path, "--method", "tools/call", *args, "--tool-arg", "cap=1")
    pos = out["structuredContent"]
    assert (pos["slug"], pos["status"], pos["step"], len(pos["legalActions"])) == (
        "naptuft", "your-turn", 0, 5,
    )  # fmt: skip
    assert "Legal actions (5)" in out["content"][0]["text"]
    # the inspector hung up after the call: the game stopped, its transcript whole
    t = read_transcript(tmp_path / "data" / "sunbot" / "mcp" / pos["transcript"])
    assert t.header["strategy"] == "mcp:assistant" and t.init is not None
    assert t.result is not None and t.result["endedBy"] == "interrupted"
