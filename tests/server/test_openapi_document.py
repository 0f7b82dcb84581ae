"""What the OpenAPI document says, checked against what the server answers, case by case:
the cases schemathesis found (issue 26 case 9) and the shape of the document itself."""

from __future__ import annotations

import jsonschema
import pytest

from sunbot.games import MAX_SEED, MIN_SEED
from sunbot.server import TokenCodec, create_app


@pytest.fixture(scope="module")
def doc():
    return create_app(TokenCodec()).openapi()


def _ops(doc):
    return {(m.upper(), p): op for p, item in doc["paths"].items() for m, op in item.items()}


def _param(op, name):
    [param] = [p for p in op["parameters"] if p["name"] == name]
    return param["schema"]


def test_the_document_declares_every_route_body_and_status(doc):
    ops = _ops(doc)
    assert {p for _, p in ops} == {
        "/api/games", "/api/games/{slug}/spec", "/api/games/{slug}/init",
        "/api/games/{slug}/action", "/api/matches/{name}", "/api/matches/{match_id}/join",
        "/api/matches/{match_id}/commands",
    }  # fmt: skip
    for key in [("POST", "/api/matches/{name}"), ("POST", "/api/matches/{match_id}/commands")]:
        body = ops[key]["requestBody"]["content"]["application/json"]["schema"]
        assert body["type"] == "object" and "$ref" not in str(body)
    assert ops[("POST", "/api/matches/{match_id}/commands")]["requestBody"]["required"] is True
    assert set(ops[("POST", "/api/matches/{name}")]["responses"]) >= {"200", "400", "404", "429"}
    assert set(ops[("GET", "/api/matches/{name}")]["responses"]) >= {"200", "403", "404"}
    assert all("422" not in op["responses"] for op in ops.values())
    assert "'ge'" not in str(doc) and "'le'" not in str(doc)  # pydantic's names, not JSON Schema's


def test_slugs_are_the_games_served(doc):
    ops = _ops(doc)
    single = ["keelhold", "naptuft", "sunloaf"]
    assert _param(ops[("GET", "/api/games/{slug}/init")], "slug")["enum"] == single
    assert _param(ops[("POST", "/api/games/{slug}/action")], "slug")["enum"] == single
    assert _param(ops[("GET", "/api/games/{slug}/spec")], "slug")["enum"] == [
        "harvest-watch",
        *single,
    ]
    assert _param(ops[("POST", "/api/matches/{name}")], "name")["enum"] == ["harvest-watch"]
    assert "enum" not in _param(ops[("GET", "/api/matches/{name}")], "name")  # a match id


def test_init_seed_is_bounded_in_the_document(doc):
    seed = _param(_ops(doc)[("GET", "/api/games/{slug}/init")], "seed")
    assert seed == {"type": "integer", "minimum": MIN_SEED, "maximum": MAX_SEED}


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("seed=-5.7e25", "badRequest: seed must be a decimal integer, got '-5.7e25'"),
        ("seed=0.0", "badRequest: seed must be a decimal integer, got '0.0'"),
        ("seed=false&seed=false&seed=0.0", "badRequest: seed is given more than once"),
        ("seed=1&seed=1", "badRequest: seed is given more than once"),
        ("seed=", "badRequest: seed must be a decimal integer, got ''"),
        ("seed=%2B7", "badRequest: seed must be a decimal integer, got '+7'"),
        ("seed=%207", "badRequest: seed must be a decimal integer, got ' 7'"),
        ("seed=" + "9" * 19, "badRequest: seed must fit a signed 64-bit integer"),
        ("seed=" + "1" * 5000, "badRequest: seed must be a decimal integer, got '1111"),
    ],
)
async def test_init_refuses_what_the_document_refuses(http, query, reason):
    r = await http.get(f"/api/games/keelhold/init?{query}")
    assert r.status_code == 400 and r.json()["reason"].startswith(reason), r.text
    assert len(r.json()["reason"]) < 120


@pytest.mark.parametrize(("query", "seed"), [("seed=7", 7), ("seed=-7", -7), ("seed=007", 7)])
async def test_init_takes_decimal_seeds(http, query, seed):
    r = await http.get(f"/api/games/keelhold/init?{query}")
    assert r.status_code == 200 and r.json()["state"]["seed"] == seed


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({"stateToken": None, "state": None, "action": {}}, False),  # schemathesis ST202
        ({"action": {}}, False),
        ({"stateToken": "x", "action": {}}, True),
        ({"stateToken": "x", "state": None, "action": {}}, True),
        ({"state": {}, "action": {}}, True),
        ({"state": {}, "stateToken": None, "action": {}}, True),
        ({"stateToken": "x"}, False),
        ({"stateToken": 5, "action": {}}, False),
    ],
)
async def test_the_action_body_needs_a_token_or_a_state(http, doc, body, valid):
    schema = dict(doc["components"]["schemas"]["ActionRequest"])
    assert jsonschema.Draft202012Validator(schema).is_valid(body) is valid
    r = await http.post("/api/games/keelhold/action", json=body)
    assert r.status_code == 400  # a made-up token or an empty state: refused all the same
    if not valid:
        assert r.json()["reason"].startswith("badRequest"), r.text


async def test_a_create_body_of_null_is_refused_and_none_is_the_defaults(http):
    r = await http.post(
        "/api/matches/harvest-watch", content=b"null", headers={"content-type": "application/json"}
    )
    assert (r.status_code, r.json()) == (400, {"ok": False, "reason": "bad_request"})
    r = await http.post("/api/matches/harvest-watch")
    assert r.status_code == 200 and len(r.json()["seats"]) == 1


@pytest.mark.parametrize(
    ("body", "status", "seats"),
    [
        ({"seats": 3.0, "startMs": 600000.0}, 200, 3),  # one number to JSON Schema
        ({"seats": 3.5}, 400, 0),
        ({"seats": True}, 400, 0),
        ({"seats": "3"}, 400, 0),
        ({"beatMs": {"diary": -1110}}, 400, 0),  # below the documented minimum of 10
        ({"seed": 2.0**63}, 400, 0),
    ],
)
async def test_create_reads_integers_as_the_document_does(http, body, status, seats):
    r = await http.post("/api/matches/harvest-watch", json=body)
    assert r.status_code == status, r.text
    if status == 200:
        assert len(r.json()["seats"]) == seats


async def test_a_view_with_the_token_repeated_is_refused(http):
    """``?token=x&token=<seat's>`` was the seat's view (the last copy won); the document
    allows one token, and which of two counts is not the server's to guess."""
    seat = (await http.post("/api/matches/harvest-watch", json={})).json()
    match_id, token = seat["matchId"], seat["seats"][0]["token"]
    assert (await http.get(f"/api/matches/{match_id}", params={"token": token})).status_code == 200
    for query in [f"token=x&token={token}", f"token={token}&token={token}"]:
        r = await http.get(f"/api/matches/{match_id}?{query}")
        assert (r.status_code, r.json()) == (403, {"ok": False, "reason": "bad_token"})
