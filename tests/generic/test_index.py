"""What a server lists and what sunbot has for it; served rules and their text."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from sunbot import strategies
from sunbot.client import GameboardClient
from sunbot.engines.keelhold_spec import SPEC as KEELHOLD_SPEC
from sunbot.generic import describe_spec, list_games, served_rules
from sunbot.generic.index import RULES_SEED, check_slug
from sunbot.server import TokenCodec, create_app
from sunbot.testing.otherserver import OtherOptions, create_other_app
from sunbot.testing.unseen import create_unseen_app
from sunbot.testing.unseen.take_away import SPEC as TAKE_AWAY_SPEC
from tests.conftest import FAST_RETRY


def client_of(app: Any) -> GameboardClient:
    return GameboardClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY)


async def test_the_unseen_games_are_generic():
    async with client_of(create_unseen_app(rate_limit_every=2)) as client:
        listed = await list_games(client)
    assert [(g.slug, g.support, g.strategies) for g in listed] == [
        ("hidden-number", "generic", ("random", "first", "search")),
        ("take-away", "generic", ("random", "first", "search")),
        ("tic-tac-toe", "generic", ("random", "first", "search")),
    ]
    assert listed[2].name == "Tic-Tac-Toe" and listed[2].genre == "board"
    assert listed[0].description == "Higher or lower: find the number in ten guesses."
    assert not any(g.replayable for g in listed)


async def test_our_games_have_rules_on_our_server_and_on_another():
    async with client_of(create_app(TokenCodec())) as client:
        ours = {g.slug: g for g in await list_games(client)}
    assert {s: g.support for s, g in ours.items()} == dict.fromkeys(
        ["keelhold", "sunloaf", "naptuft", "harvest-watch"], "rules"
    )
    assert ours["keelhold"].strategies == tuple(strategies.names("keelhold"))
    assert all(g.replayable for g in ours.values())  # it announces our local choices
    async with client_of(create_other_app(OtherOptions(throttle_every=0))) as client:
        other = {g.slug: g for g in await list_games(client)}
    assert other["naptuft"].support == "rules" and not other["naptuft"].replayable


def index_transport(rows: list[dict[str, Any]]) -> httpx.MockTransport:
    body = {"service": "odd", "count": len(rows), "games": rows}
    return httpx.MockTransport(lambda request: httpx.Response(200, json=body))


async def test_odd_rows_are_left_out_and_texts_made_safe():
    rows = [
        {"slug": "../../admin", "name": "x"},
        {"slug": "chess", "name": "Chess\x1b[2J", "description": "d" * 2000},
        {"slug": "chess", "name": "again"},
        {"slug": "keelhold", "name": "Keelhold"},
    ]
    async with GameboardClient(transport=index_transport(rows), policy=FAST_RETRY) as client:
        listed = await list_games(client)
    assert [(g.slug, g.support) for g in listed] == [("chess", "generic"), ("keelhold", "rules")]
    assert listed[0].name == "Chess\ufffd[2J" and len(listed[0].description or "") < 400
    assert listed[0].genre is None


async def test_served_rules_from_the_init_answer_when_there_is_no_spec_route():
    app = create_unseen_app()
    async with client_of(app) as client:
        spec = await served_rules(client, "take-away")
    assert spec == TAKE_AWAY_SPEC
    assert app.state.requests == 2  # the spec route once (404), then one init
    assert RULES_SEED == 1


async def test_served_rules_from_the_spec_route():
    async with client_of(create_app(TokenCodec())) as client:
        assert await served_rules(client, "keelhold") == KEELHOLD_SPEC


async def test_a_bad_slug_is_refused_before_any_request():
    async with client_of(create_unseen_app()) as client:
        with pytest.raises(ValueError, match="is not a game slug"):
            await served_rules(client, "a/../b")
    assert check_slug("tic-tac-toe") == "tic-tac-toe"


def test_describe_spec():
    spec = {
        "goal": "Win.",
        "scoring": "+1 a win",
        "rules": ["Take 1 to 3.", {"note": "an object"}],
        "actions": {"type": "object", "required": ["type"]},
        "version": 2,
        "tip": "line one\nline two\x07",
    }
    assert describe_spec(spec) == (
        "Goal\nWin.\n\n"
        "Scoring\n+1 a win\n\n"
        "Rules\n1. Take 1 to 3.\n" + json.dumps({"note": "an object"}, indent=2) + "\n\n"
        "Action grammar (spec.actions)\n"
        + json.dumps(spec["actions"], indent=2)
        + "\n\nversion\n2\n\n"
        "tip\nline one\nline two\ufffd\n"
    )


def test_describe_spec_of_an_unseen_game_names_its_grammar_key():
    text = describe_spec(TAKE_AWAY_SPEC)
    assert text.startswith("Goal\nTake the last stone of the pile.\n\nScoring\n")
    assert "Rules\n1. The pile starts with 5 + (seed mod 16) stones; you move first.\n" in text
    assert 'Action grammar (spec.actions)\n{\n  "type": "object",' in text
