"""What a tool call adds over the same step through the Python API (``sunbot mcp``).

Plays the same runs (the middle legal action every time, so both paths send the same
actions and get the same answers) three ways, side by side in one process, on the
embedded server with a transcript each:

- **API**: ``sunbot.play_async`` with a strategy that notes when each decision returns and
  when the next is asked: the time between is one step through the loop (the server's
  answer, the mirror, the transcript line);
- **MCP, in memory**: the SDK's client connected to the server by memory streams; one
  ``act`` call's round trip (the same step, plus the tool call: arguments, the bridge to
  the loop, the position rendered as text and JSON, the result);
- **MCP, stdio**: the same against ``sunbot mcp`` in its own process, as a desktop
  assistant starts it.

The ``act`` calls are sent as a client that does not check the result's output schema
sends them (``raw``), and through ``ClientSession.call_tool``, which validates each result
against the tool's output schema with jsonschema (``checked``: the SDK client's own time).
The overhead is the median ``act`` round trip less the median API step.

Usage: ``python benchmarks/mcp_overhead.py [--seeds 3] [--days 2] [--voyages 2]
[--write-docs]``; ``--write-docs`` writes the table into ``docs/benchmarks/mcp.md``.
Run it with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.memory import create_connected_server_and_client_session

import sunbot
from sunbot.mcp import McpOptions
from sunbot.mcp.server import create_server


class Stepwatch:
    """Plays the middle legal action; notes each step's time between two decisions."""

    def __init__(self) -> None:
        self.returned: float | None = None
        self.steps: list[float] = []

    def choose(self, observation: Any, legal: list[Any]) -> Any:
        now = time.perf_counter()
        if self.returned is not None:
            self.steps.append(now - self.returned)
        self.returned = time.perf_counter()
        return legal[len(legal) // 2]


async def api_steps(game: str, seed: int, caps: dict[str, int], folder: Path) -> list[float]:
    """The step times of one run through the Python API."""
    watch = Stepwatch()
    path = folder / f"api-{game}-{seed}.jsonl"
    await sunbot.play_async(game, seed=seed, strategy=watch, transcript=path, **caps)
    return watch.steps


async def _raw_act(client: ClientSession, arguments: dict[str, Any]) -> types.CallToolResult:
    request = types.ClientRequest(
        types.CallToolRequest(params=types.CallToolRequestParams(name="act", arguments=arguments))
    )
    return await client.send_request(request, types.CallToolResult)


async def mcp_acts(
    client: ClientSession, game: str, seed: int, cap: int, checked: bool
) -> list[float]:
    """The ``act`` round trips of one run over ``client`` (the middle legal action)."""
    started = await client.call_tool("start_game", {"game": game, "seed": seed, "cap": cap})
    data = started.structuredContent
    assert data is not None and not started.isError, started.content
    assert data["status"] == "your-turn"
    pos = data
    times: list[float] = []
    for _ in range(10_000):
        if pos["status"] != "your-turn":
            break
        arguments = {"game": pos["game"], "choice": len(pos["legalActions"]) // 2}
        t0 = time.perf_counter()
        if checked:
            result = await client.call_tool("act", arguments)
        else:
            result = await _raw_act(client, arguments)
        times.append(time.perf_counter() - t0)
        out = result.structuredContent
        assert out is not None and not result.isError, result.content
        pos = out["position"]
    return times


def _ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


async def measure(seeds: list[int], days: int, voyages: int) -> list[list[str]]:
    """One row per game and path: median step or act (ms), and the overhead."""
    games = {"naptuft": ("max_days", days), "keelhold": ("max_voyages", voyages)}
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ.setdefault("SUNBOT_STATE_DIR", str(folder / "state"))
        env = {**os.environ, "XDG_DATA_HOME": str(folder / "data")}
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "sunbot", "mcp", "--transcripts", str(folder / "stdio")],
            env=env,
        )
        server = create_server(McpOptions(transcripts=folder / "memory"))
        async with (
            create_connected_server_and_client_session(server) as memory,
            stdio_client(params) as (read, write),
            ClientSession(read, write) as stdio,
        ):
            await stdio.initialize()
            for game, (unit, cap) in games.items():
                got: dict[str, list[float]] = {
                    "api": [], "memory raw": [], "memory checked": [], "stdio raw": [],
                    "stdio checked": [],
                }  # fmt: skip
                for seed in seeds:  # side by side: each path on each seed in turn
                    got["api"] += await api_steps(game, seed, {unit: cap}, folder)
                    got["memory raw"] += await mcp_acts(memory, game, seed, cap, False)
                    got["memory checked"] += await mcp_acts(memory, game, seed, cap, True)
                    got["stdio raw"] += await mcp_acts(stdio, game, seed, cap, False)
                    got["stdio checked"] += await mcp_acts(stdio, game, seed, cap, True)
                base = _ms(got["api"])
                rows.append([game, "API step", f"{len(got['api']):,}", f"{base:.2f}", "-"])
                for path in ("memory raw", "memory checked", "stdio raw", "stdio checked"):
                    p50 = _ms(got[path])
                    rows.append(
                        [game, f"MCP act, {path}", f"{len(got[path]):,}", f"{p50:.2f}",
                         f"{p50 - base:+.2f} ({p50 / base:.1f}x)"]
                    )  # fmt: skip
    return rows


def main() -> None:
    """Print the table (and write it into the docs with ``--write-docs``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="runs per game and path")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--days", type=int, default=2, help="Naptuft's cap")
    parser.add_argument("--voyages", type=int, default=2, help="Keelhold's cap")
    parser.add_argument("--write-docs", action="store_true", help="update docs/benchmarks/mcp.md")
    args = parser.parse_args()
    seeds = list(range(args.seed, args.seed + args.seeds))
    rows = asyncio.run(measure(seeds, args.days, args.voyages))
    header = ["game", "path", "steps", "median ms", "added over the API step (median)"]
    print(" | ".join(header))
    for row in rows:
        print(" | ".join(row))
    if args.write_docs:
        sys.path.insert(0, str(Path(__file__).parent))
        from docs_block import markdown_table, write_block

        note = (
            "Median wall time of one step through the Python API, and of one `act` call's"
            " round trip over MCP for the same step (raw: a client that does not check"
            " results; checked: `ClientSession.call_tool`, which validates each result"
            " against the tool's output schema)."
        )
        print(write_block("mcp", "mcp-overhead", f"{note}\n\n{markdown_table(header, rows)}"))


if __name__ == "__main__":
    main()
