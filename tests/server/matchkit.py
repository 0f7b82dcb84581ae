"""Helpers of the match-route tests."""

from __future__ import annotations

BEATS = {"speech": 1000, "vote": 800, "action": 1200, "diary": 500}


async def create(http, **body):
    """POST a create; returns ``(matchId, {seat: token})``."""
    r = await http.post("/api/matches/harvest-watch", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    return out["matchId"], {s["seat"]: s["token"] for s in out["seats"]}
