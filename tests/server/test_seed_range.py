"""Seeds are signed 64-bit integers on every route, and the served schema says so (the create
schema's minimum once stopped one short of what a signed 64-bit seed allows)."""

from __future__ import annotations

import pytest

from sunbot.games import MAX_SEED, MIN_SEED, seed_problem

LOW, HIGH = -(2**63), 2**63 - 1


def test_the_range_is_signed_64_bit():
    assert (MIN_SEED, MAX_SEED) == (LOW, HIGH) == (-9223372036854775808, 9223372036854775807)
    assert seed_problem(LOW) is None and seed_problem(HIGH) is None
    assert "signed 64-bit" in (seed_problem(LOW - 1) or "")
    assert seed_problem(True) == "seed must be an integer, got bool True"
    assert seed_problem(1.5, "--seed") == "--seed must be an integer, got float 1.5"


async def test_create_schema_and_server_agree_at_both_ends(http, match_app):
    route = match_app.openapi()["paths"]["/api/matches/{name}"]["post"]
    schema = route["requestBody"]["content"]["application/json"]["schema"]["properties"]["seed"]
    [bounds] = [b for b in schema["anyOf"] if b.get("type") == "integer"]
    assert (bounds["minimum"], bounds["maximum"]) == (LOW, HIGH)
    for seed, status in [(LOW, 200), (HIGH, 200), (LOW - 1, 400), (HIGH + 1, 400)]:
        r = await http.post("/api/matches/harvest-watch", json={"seed": seed})
        assert r.status_code == status, (seed, r.text)


@pytest.mark.parametrize("slug", ["keelhold", "sunloaf"])
async def test_init_takes_the_same_range(http, slug):
    for seed in (LOW, HIGH):
        r = await http.get(f"/api/games/{slug}/init", params={"seed": seed})
        assert r.status_code == 200 and r.json()["state"]["seed"] == seed
    r = await http.get(f"/api/games/{slug}/init", params={"seed": LOW - 1})
    assert r.status_code == 400 and "signed 64-bit" in r.json()["reason"]


@pytest.mark.parametrize("slug", ["keelhold", "sunloaf"])
async def test_a_plain_state_takes_the_same_range(http, slug):
    """A plain ``{state}`` once took seed 10^19 while init refused anything past 2^63 - 1."""
    opening = (await http.get(f"/api/games/{slug}/init", params={"seed": 5})).json()
    action = opening["legalActions"][0]
    for seed, status in [(LOW, 200), (HIGH, 200), (LOW - 1, 400), (HIGH + 1, 400), (10**19, 400)]:
        state = {**opening["state"], "seed": seed}
        r = await http.post(f"/api/games/{slug}/action", json={"state": state, "action": action})
        assert r.status_code == status, (seed, r.text)
        if status == 200:
            assert r.json()["state"]["seed"] == seed
        else:
            assert r.json()["reason"] == (
                f"badState: seed must fit a signed 64-bit integer ({LOW} to {HIGH})"
            )
