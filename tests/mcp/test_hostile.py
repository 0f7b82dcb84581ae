"""What a hostile or careless client sends is held: unknown tools, wrong types, megabyte
arguments, paths for slugs or game ids, thousands of rapid calls, spent budgets. Each is a
tool error of one line or a refused action, never a crash; nothing is read or written
outside the transcript folder; the session goes on.

The server runs in this process, connected to the official SDK's client by memory streams
(the transport is the SDK's business: ``test_stdio`` and ``test_http`` cover it)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest
from mcp import ClientSession
from mcp.shared.memory import create_connected_server_and_client_session

from sunbot.mcp import Budget, McpOptions
from sunbot.mcp.server import create_server
from sunbot.transcripts.jsonl import read_transcript
from tests.mcp.helpers import position_of

MB = 1 << 20


@asynccontextmanager
async def session(tmp_path: Path, **options: Any) -> AsyncIterator[ClientSession]:
    folder = tmp_path / "transcripts"
    server = create_server(McpOptions(transcripts=folder, **options))
    async with create_connected_server_and_client_session(server) as client:
        yield client


def error_of(result: types.CallToolResult) -> str:
    assert result.isError, result.structuredContent
    text = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in text.strip() and len(text) < 1_000, text[:2000]
    return text


async def raw_call(client: ClientSession, name: str, arguments: dict[str, Any]) -> Any:
    """A tools/call the way a client that checks nothing sends it (no output validation)."""
    request = types.ClientRequest(
        types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
    )
    return await client.send_request(request, types.CallToolResult)


@pytest.fixture(autouse=True)
def _state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))


async def test_unknown_tools_and_wrong_types_are_tool_errors(tmp_path: Path) -> None:
    async with session(tmp_path) as client:
        assert "Unknown tool: rm_rf" in error_of(await client.call_tool("rm_rf", {}))
        assert "Unknown tool: suggest" in error_of(await client.call_tool("suggest", {"game": "x"}))
        wrong: list[tuple[str, dict[str, Any], str]] = [
            ("start_game", {"game": "naptuft", "seed": "seven"}, "seed"),
            ("start_game", {"game": "naptuft", "seed": 1.5}, "seed"),
            ("start_game", {"game": "naptuft", "seed": 2**70}, "seed"),
            ("start_game", {"game": 7}, "game"),
            ("start_game", {}, "game"),
            ("start_game", {"game": "naptuft", "cap": 0}, "cap"),
            ("start_game", {"game": "naptuft", "agent": "a b/c"}, "agent must be"),
            ("start_game", {"game": "harvest-watch", "seat": 6}, "seat"),
            ("start_game", {"game": "harvest-watch", "others": "exec:rm -rf /"}, "others must"),
            ("start_game", {"game": "naptuft", "server": "http://169.254.169.254"}, "is not one"),
            ("start_game", {"game": "naptuft", "seat": 1}, "seat and others"),
            ("observe", {"game": ["a"]}, "game"),
            ("observe", {"game": "no-such-game"}, "no game"),
            ("list_games", {"server": "file:///etc/passwd"}, "is not one"),
        ]
        for tool, arguments, named in wrong:
            assert named in error_of(await client.call_tool(tool, arguments)), (tool, arguments)
        pos = position_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 2}))
        game = pos["game"]
        for arguments, named in [
            ({"choice": "first"}, "choice"),
            ({"choice": -1}, "choice"),
            ({"choice": 5}, "not an index of the 5"),
            ({"choice": 0, "action": {"type": "end-run"}}, "exactly one"),
            ({}, "exactly one"),
        ]:
            assert named in error_of(await client.call_tool("act", {"game": game, **arguments}))
        assert position_of(await client.call_tool("observe", {"game": game}))["step"] == 0


async def test_a_refused_action_is_answered_with_the_reason_and_sends_nothing(
    tmp_path: Path,
) -> None:
    async with session(tmp_path) as client:
        pos = position_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 2}))
        path = tmp_path / "transcripts" / pos["transcript"]
        before = path.read_bytes()
        for bad in ({"type": "care", "care": "dance"}, "feed", None, [1, 2], {"type": "CARE"}):
            arguments = {"game": pos["game"], "action": bad}
            result = await client.call_tool("act", arguments)
            if bad is None:  # action null: as if no action was given
                assert "exactly one" in error_of(result)
                continue
            assert not result.isError
            out = result.structuredContent
            assert out is not None and (out["sent"], out["accepted"]) == (False, False)
            assert out["refused"] == "not one of the legal actions"
            assert out["position"]["legalActions"] == pos["legalActions"]
            assert "Refused, nothing was sent" in result.content[0].text  # type: ignore[union-attr]
        assert path.read_bytes() == before  # not a line more
        played = await client.call_tool(
            "act", {"game": pos["game"], "action": pos["legalActions"][1]}
        )
        assert played.structuredContent is not None
        assert played.structuredContent["accepted"] is True
        assert played.structuredContent["answer"] == {"ok": True, "divergences": []}


async def test_megabyte_arguments_are_refused_quickly(tmp_path: Path) -> None:
    huge = "x" * MB
    async with session(tmp_path) as client:
        for tool, arguments in [
            ("start_game", {"game": huge}),
            ("start_game", {"game": "naptuft", "agent": huge}),
            ("start_game", {"game": "naptuft", "server": huge}),
            ("observe", {"game": huge}),
            ("rules", {"game": huge}),
            ("resume_game", {"game": huge}),
        ]:
            error_of(await client.call_tool(tool, arguments))
        pos = position_of(await client.call_tool("start_game", {"game": "keelhold", "seed": 1}))
        result = await client.call_tool("act", {"game": pos["game"], "action": {"type": huge}})
        out = result.structuredContent
        assert out is not None and out["sent"] is False
        assert out["refused"].startswith("the action is 1,048,5")
        with_extra = await client.call_tool("observe", {"game": pos["game"], "junk": huge})
        assert position_of(with_extra)["status"] == "your-turn"  # unknown arguments ignored
        assert (tmp_path / "transcripts" / pos["transcript"]).stat().st_size < 64_000


async def test_paths_never_reach_the_file_system(tmp_path: Path) -> None:
    outside = tmp_path / "secret.jsonl"
    outside.write_text('{"type":"header"}\n', encoding="utf-8")
    before = sorted(tmp_path.rglob("*"))
    async with session(tmp_path) as client:
        for slug in ("../../etc/passwd", "naptuft/../x", "/etc/passwd", "..", "a\\b", "."):
            assert "is not a game slug" in error_of(
                await client.call_tool("start_game", {"game": slug, "server": "embedded"})
            )
        for game in ("../secret", "../../secret", "/tmp/x", "..", "naptuft/../../secret"):
            text = error_of(await client.call_tool("resume_game", {"game": game}))
            assert "is not a game id" in text or "no game" in text
        for uri in ("sunbot://replay/..%2Fsecret", "sunbot://transcript/../secret"):
            with pytest.raises(Exception, match=r"game id|Unknown resource|no game"):
                await client.read_resource(uri)  # type: ignore[arg-type]
    assert sorted(tmp_path.rglob("*")) == before


async def test_ten_thousand_rapid_calls_are_all_answered_and_the_budget_stops_them(
    tmp_path: Path,
) -> None:
    calls = 10_000
    budget = Budget(requests=calls // 2 + 2)  # the start, the half, the check
    async with session(tmp_path, budget=budget) as client:
        pos = position_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 9}))
        answers: list[Any] = []
        for _ in range(calls // 100):
            batch = [raw_call(client, "observe", {"game": f"g{i}"}) for i in range(100)]
            answers += await asyncio.gather(*batch)
        assert len(answers) == calls and all(a.isError for a in answers)
        texts = [a.content[0].text for a in answers]
        first_half = texts[: calls // 2]
        assert all("no game" in t for t in first_half)
        assert all("request budget" in t for t in texts[calls // 2 + 1 :])
        stopped = error_of(await client.call_tool("observe", {"game": pos["game"]}))
        assert stopped.startswith("Error executing tool observe: stopped: the session's request")
    t = read_transcript(tmp_path / "transcripts" / pos["transcript"])
    assert t.result is not None and t.result["endedBy"] == "interrupted" and t.error is None


async def test_budgets_stop_a_session_with_a_clear_reason(tmp_path: Path) -> None:
    async with session(tmp_path, budget=Budget(games=2, steps=3)) as client:
        pos = position_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 1}))
        other = position_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 2}))
        text = error_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 3}))
        assert "game budget (2 games) is spent" in text
        for _ in range(3):
            pos = position_of(await client.call_tool("act", {"game": pos["game"], "choice": 0}))
        text = error_of(await client.call_tool("act", {"game": other["game"], "choice": 0}))
        assert "step budget (3 actions) is spent" in text
        for game in (pos["game"], other["game"]):
            result = await client.call_tool("observe", {"game": game})
            assert "step budget" in error_of(result)  # every later call says why
    for game, steps in ((pos, 3), (other, 0)):
        t = read_transcript(tmp_path / "transcripts" / game["transcript"])
        assert t.result is not None and t.result["endedBy"] == "interrupted"
        assert len(t.steps) == steps


async def test_two_actions_at_once_on_one_game_play_one(tmp_path: Path) -> None:
    async with session(tmp_path) as client:
        pos = position_of(await client.call_tool("start_game", {"game": "keelhold", "seed": 5}))
        both = await asyncio.gather(
            raw_call(client, "act", {"game": pos["game"], "choice": 0}),
            raw_call(client, "act", {"game": pos["game"], "choice": 1}),
        )
        played = [r for r in both if not r.isError and r.structuredContent["sent"]]
        assert len(played) == 1
        now = position_of(await client.call_tool("observe", {"game": pos["game"]}))
        assert now["step"] == 1


async def test_end_game_stops_it_and_a_finished_game_is_not_resumed(tmp_path: Path) -> None:
    async with session(tmp_path) as client:
        pos = position_of(await client.call_tool("start_game", {"game": "naptuft", "seed": 4}))
        ended = (await client.call_tool("end_game", {"game": pos["game"]})).structuredContent
        assert ended is not None and ended["resumable"] is True
        assert ended["position"]["stopReason"] == "ended by the client (end_game)"
        late = await client.call_tool("act", {"game": pos["game"], "choice": 0})
        assert late.structuredContent is not None and late.structuredContent["sent"] is False
        again = position_of(await client.call_tool("resume_game", {"game": pos["game"]}))
        assert again["status"] == "your-turn"
        done = position_of(await client.call_tool("act", {"game": pos["game"], "choice": 4}))
        assert done["status"] == "over"  # end-run
        text = error_of(await client.call_tool("resume_game", {"game": pos["game"]}))
        assert "finished run" in text
