"""The assistant's whole session, the same over every transport: list the tools and games,
play Naptuft and Keelhold to their ends, a Harvest Watch seat to the end of its match and a
game sunbot has no engine for on the unseen-games server; then check what each left."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import ClientSession

import sunbot
from sunbot.transcripts.jsonl import read_transcript
from tests.mcp.helpers import play, position_of, replay_strict, speaker

#: The tools every server offers (suggest too when started with it).
TOOLS = {"list_games", "rules", "start_game", "observe", "act", "end_game", "resume_game"}


def _first(observation: Any, legal: list[Any]) -> Any:
    return legal[0]


async def _start(client: ClientSession, **arguments: Any) -> dict[str, Any]:
    return position_of(await client.call_tool("start_game", {"agent": "tester", **arguments}))


async def _same_as_the_api(
    client: ClientSession, slug: str, seed: int, cap: int | None, server: str | None
) -> dict[str, Any]:
    """Play ``slug`` over MCP with the first legal action every time, and check that the
    run scores, steps and ends as the same strategy through the Python API does."""
    options: dict[str, Any] = {"game": slug, "seed": seed}
    if cap is not None:
        options["cap"] = cap
    if server is not None:
        options["server"] = server
    end, sent = await play(client, await _start(client, **options))
    caps = {"keelhold": "max_voyages", "naptuft": "max_days"}
    kw = {caps[slug]: cap} if slug in caps and cap is not None else {}
    same = await sunbot.play_async(slug, seed=seed, strategy=_first, server=server, **kw)
    assert end["status"] == "over", end
    assert end["gameOver"] is True
    assert (end["score"], end["result"]["steps"], end["result"]["endedBy"]) == (
        same.score, same.steps, same.ended_by,
    )  # fmt: skip
    assert sent == same.steps - (1 if same.ended_by == "cap" else 0)  # the cap's end action
    kind = "rules" if server is None else "generic"
    assert end["checks"] == {
        "kind": kind, "responsesChecked": same.steps + 1, "divergences": 0,
    }  # fmt: skip
    return end


async def every_kind(client: ClientSession, unseen: str, folder: Path, *, suggest: bool) -> None:
    """The session (module doc); ``unseen``: the unseen-games server's URL, which the
    server was started with; ``folder``: its transcript folder."""
    listed = (await client.list_tools()).tools
    names = {t.name for t in listed}
    assert names == TOOLS | ({"suggest"} if suggest else set())
    for tool in listed:  # typed input, structured output
        assert tool.inputSchema["type"] == "object" and tool.outputSchema is not None
    start = next(t for t in listed if t.name == "start_game")
    assert start.inputSchema["properties"]["seed"]["anyOf"][0]["type"] == "integer"

    games = (await client.call_tool("list_games", {})).structuredContent
    assert games is not None
    kinds = {g["slug"]: (g["kind"], g["support"]) for g in games["games"]}
    assert kinds["naptuft"] == ("single", "rules")
    assert kinds["harvest-watch"] == ("match", "rules")
    there = (await client.call_tool("list_games", {"server": unseen})).structuredContent
    assert there is not None
    assert {g["slug"]: g["support"] for g in there["games"]}["take-away"] == "generic"
    rules = await client.call_tool("rules", {"game": "take-away", "server": unseen})
    assert not rules.isError and "Action grammar" in rules.content[0].text

    ended = [
        await _same_as_the_api(client, "naptuft", 7, 1, None),
        await _same_as_the_api(client, "keelhold", 7, 1, None),
        await _same_as_the_api(client, "take-away", 5, None, unseen),
    ]

    pos = await _start(client, game="harvest-watch", seed=3, seat=2, others="farmer")
    assert pos["seat"] == 2 and pos["slug"] == "harvest-watch"
    if suggest:
        hint = (await client.call_tool("suggest", {"game": pos["game"]})).structuredContent
        assert hint is not None and hint["strategy"] == "adaptive"
    end, sent = await play(client, pos, speaker)
    assert end["status"] == "over" and end["result"]["endedBy"] == "rules", end["result"]
    ranks = end["result"]["ranks"]
    assert len(ranks) == 6 and all(1 <= r <= 6 for r in ranks)
    assert end["score"] == sum(r > ranks[2] for r in ranks)  # seats ranked below ours
    assert end["checks"]["divergences"] == 0 and end["checks"]["responsesChecked"] > sent
    ended.append(end)
    match = read_transcript(folder / end["transcript"])
    assert match.header["strategy"] == "farmer,farmer,mcp:tester,farmer,farmer,farmer"
    said = [
        r["body"]["actions"]
        for r in match.other
        if r["type"] == "command" and r["seat"] == 2 and (r.get("answer") or {}).get("ok")
    ]
    assert [{"speech": "seat 2 farms today"}] in said  # our own words were stored

    page = await client.read_resource(end["replay"])  # type: ignore[arg-type]
    html = page.contents[0]
    assert html.mimeType == "text/html" and "sunbot-data" in getattr(html, "text", "")
    for end in ended:
        path = folder / end["transcript"]
        replay_strict(path)
        t = read_transcript(path)
        assert t.result is not None and t.result["endedBy"] in ("rules", "cap")
        label = t.header["strategy"]
        assert label == "mcp:tester" or "mcp:tester" in label.split(",")
        line = json.dumps(t.result)
        assert "token" not in line.lower() or "***" in line
