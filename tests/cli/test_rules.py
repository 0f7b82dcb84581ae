"""``sunbot rules GAME``: the served spec, as text and as JSON, from any server."""

from __future__ import annotations

import json

import httpx
import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.cli.rules import fetch_spec
from sunbot.games import get_game
from sunbot.server import TokenCodec, create_app

runner = CliRunner()


@pytest.mark.parametrize("game", ["keelhold", "sunloaf", "naptuft", "harvest-watch"])
def test_rules_print_the_served_spec(game):
    spec = get_game(game).spec
    res = runner.invoke(app, ["rules", game], env={"COLUMNS": "400"})
    assert res.exit_code == 0, res.output
    assert spec["goal"] in res.output
    for i, rule in enumerate(spec["rules"], 1):
        assert f"{i}. {rule}" in res.output
    assert "Action grammar" in res.output
    as_json = runner.invoke(app, ["rules", game, "--json"])
    assert json.loads(as_json.output) == spec


async def test_a_server_without_the_spec_route_is_asked_for_an_opening():
    inner = httpx.ASGITransport(app=create_app(TokenCodec()))
    asked: list[str] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        if request.url.path.endswith("/spec"):
            return httpx.Response(404, json={"ok": False, "reason": "not_found"})
        return await inner.handle_async_request(request)

    spec = await fetch_spec("naptuft", "http://other.test", httpx.MockTransport(handler))
    assert spec == get_game("naptuft").spec
    assert asked == ["/api/games/naptuft/spec", "/api/games/naptuft/init"]


def test_unknown_game_and_bad_server_are_usage_errors():
    res = runner.invoke(app, ["rules", "chess"])
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output
    res = runner.invoke(app, ["rules", "keelhold", "--server", "localhost:8000"])
    assert res.exit_code == 2 and "did you mean http://localhost:8000" in res.output
