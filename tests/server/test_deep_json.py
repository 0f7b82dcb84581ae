"""Issue 12 case 7: deeply nested JSON on any POST route is a 400 refusal, never a 500
(json.loads and the rules' deep comparisons recurse; a RecursionError went uncaught)."""

from __future__ import annotations

import pytest

from tests.server.matchkit import create


def deep(depth: int, leaf: str = "1") -> bytes:
    return ("[" * depth + leaf + "]" * depth).encode()


@pytest.mark.parametrize("depth", [200, 5_000, 100_000])
async def test_deep_bodies_are_refused_on_every_post_route(http, depth):
    mid, tokens = await create(http, seats=1, seed=2, startMs=0)
    action = b'{"stateToken": "x", "action": ' + deep(depth) + b"}"
    command = b'{"token": "' + tokens[0].encode() + b'", "round": 1, "actions": ' + deep(depth)
    command += b"}"
    for path, body in [
        ("/api/games/keelhold/action", action),
        ("/api/matches/harvest-watch", deep(depth)),
        (f"/api/matches/{mid}/commands", command),
        (f"/api/matches/{mid}/join", deep(depth)),
    ]:
        r = await http.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        assert r.json()["ok"] is False and "nested" in r.json()["reason"]


async def test_a_deep_command_on_the_action_beat_is_refused_not_a_crash(http, clock):
    mid, tokens = await create(http, seats=1, seed=2, startMs=0)
    nested: object = {"act": "farm"}
    for _ in range(20):  # within the limit: an ordinary illegal command
        nested = {"act": nested}
    r = await http.post(
        f"/api/matches/{mid}/commands",
        json={"token": tokens[0], "round": 1, "actions": [nested]},
    )
    assert r.status_code == 200 and r.json()["reason"] == "illegal_command"
