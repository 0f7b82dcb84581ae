"""Harvest Watch on the other server: its own pacing, wording, numbering and house bots.

The match protocol's routes and the rules are ours (:class:`~sunbot.server.match_state.Match`
and the engine); the local choices differ (Harvest Watch §2 marks them
[PIN]): beats of 12/9/14/6 s and a 1.5 s countdown by default, ``pollAfterMs`` of
``min(300, remainMs // 3)`` (50 at 0: still shorter than the time left, as the platform
requires), rounds numbered from 41 (one more per beat), other ``lastPublic`` lines and
``schema.example`` commands, seats drawn by another generator, house bots that farm, guard
when low and sometimes steal, and unknown extra fields in every answer. Planted bugs
(:mod:`.bugs`) act as each beat resolves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from sunbot.engines import harvest_watch as hw
from sunbot.server.clock import Clock, MonotonicClock
from sunbot.server.match_registry import MatchRegistry
from sunbot.server.match_state import Match
from sunbot.testing.otherserver.draw import below

if TYPE_CHECKING:
    from sunbot.testing.otherserver.options import OtherOptions

BEAT_MS = {"speech": 12000, "vote": 9000, "action": 14000, "diary": 6000}
START_MS = 1500
ROUND_OFFSET = 40
EXAMPLES: dict[str, dict[str, Any]] = {
    "speech1": {"speech": "Good morning, table."},
    "speech2": {"speech": "Nothing to add."},
    "vote": {"punish": None},
    "diary": {"diary": "Quiet day."},
}


def poll_after(status: str, remain: int) -> int:
    """This server's ``pollAfterMs``: below ``remainMs`` whenever time remains."""
    if status == "done":
        return 0
    return min(300, remain // 3) if remain > 0 else 50


def house_bot(
    state: dict[str, Any],
    seat: int,
    memory: dict[str, Any],
    rng: random.Random,
    *,
    house_seats: Collection[int],
) -> dict[str, Any]:
    """This server's house bot (a local choice): polite words, no votes, farm or guard
    when below 2.0, and a steal from a random seat one time in seven."""
    phase = state["phase"]
    if phase in ("speech1", "speech2"):
        return {"speech": f"House seat {seat} is here."}
    if phase == "diary":
        return {"diary": "Another day."}
    if phase == "vote":
        return {"punish": None}
    legal = hw.legal_commands(state, seat) or [{"act": "guard"}]
    steals = [c for c in legal if c["act"] == "steal"]
    if steals and rng.random() < 1 / 7:
        return dict(rng.choice(steals))
    return {"act": "guard"} if state["food"][seat] < 20 else {"act": "farm"}


def _reword(summary: dict[str, Any]) -> None:
    text = str(summary.get("lastPublic", ""))
    summary["lastPublic"] = f"Bulletin, day {summary['day']} ({summary['phase']}): {text.lower()}"


def other_view(view: dict[str, Any], now: int, opts: OtherOptions) -> dict[str, Any]:
    """Our view of a seat turned into this server's: numbering, pacing, wording, extras,
    and the chosen variants of what is served."""
    out: dict[str, Any] = json.loads(json.dumps(view))
    data = out["data"]
    data["round"] += ROUND_OFFSET
    if "schema" in data:
        data["schema"] = {"example": dict(EXAMPLES[data["phase"]]), "maxLength": 200}
    _reword(data["summary"])
    opts.show("harvest-watch", data["summary"])
    data["summary"]["weather"] = "dry"
    data["hint"] = "act before the clock runs out"
    out["pollAfterMs"] = poll_after(out["status"], out["remainMs"])
    out["serverTime"] = now
    return out


def _resolver(opts: OtherOptions) -> Any:
    def resolve(state: dict[str, Any], commands: dict[int, list[Any]]) -> dict[str, Any]:
        new = hw.resolve_beat(state, commands)
        opts.vary("harvest-watch", state, new)
        for bug in opts.planted("harvest-watch"):
            if bug.apply(state, new):
                opts.record(bug, {"round": state["round"] + ROUND_OFFSET})
        return new

    return resolve


def add_match_routes(app: FastAPI, opts: OtherOptions, clock: Clock | None = None) -> None:
    """Add create, join, view and commands to ``app`` (same paths as the protocol's)."""
    reg = MatchRegistry()
    clk = clock or MonotonicClock()
    app.state.matches = reg

    def no(status: int, reason: str) -> JSONResponse:
        return JSONResponse({"ok": False, "reason": reason}, status)

    async def read(request: Request) -> Any:
        raw = await request.body()
        return json.loads(raw) if raw.strip() else {}

    def beats(raw: Any) -> dict[str, int] | None:
        out = dict(BEAT_MS)
        if raw is None:
            return out
        if not isinstance(raw, dict):
            return None
        for k, v in raw.items():
            if k not in out or type(v) is not int or not 10 <= v <= 600_000:
                return None
            out[k] = v
        return out

    @app.post("/api/matches/{slug}", response_model=None)
    async def create(slug: str, request: Request) -> Any:
        if slug != "harvest-watch":
            return no(404, "no_such_game")
        try:
            body = await read(request)
        except ValueError:
            return no(400, "bad_request")
        seats, start, seed = body.get("seats", 1), body.get("startMs", START_MS), body.get("seed")
        beat_ms = beats(body.get("beatMs"))
        ok_ints = all(type(v) is int for v in (seats, start)) and (
            seed is None or type(seed) is int
        )
        if beat_ms is None or not ok_ints or not 1 <= seats <= 6 or not 0 <= start <= 600_000:
            return no(400, "bad_request")
        now = clk.now_ms()
        match, taken = Match.create(
            seed=None if seed is None else below("harvest-watch", seed, 2**31, "match"),
            seats=seats,
            beat_ms=beat_ms,
            start_ms=start,
            now=now,
            house_policy=house_bot,
            resolver=_resolver(opts),
        )
        reg.add(match)
        return {
            "matchId": match.match_id,
            "seats": [{"seat": s, "token": t} for s, t in taken],
            "createdAt": now,
        }

    def find(match_id: str) -> Match | None:
        return reg.get(match_id)

    @app.post("/api/matches/{match_id}/join", response_model=None)
    async def join(match_id: str) -> Any:
        match = find(match_id)
        if match is None:
            return no(404, "no_such_match")
        async with match.lock:
            match.catch_up(clk.now_ms())
            got = match.join()
        return no(409, "full") if got is None else {"seat": got[0], "token": got[1], "v": 2}

    @app.get("/api/matches/{match_id}", response_model=None)
    async def view(match_id: str, token: str | None = None) -> Any:
        match = find(match_id)
        if match is None:
            return no(404, "no_such_match")
        async with match.lock:
            now = clk.now_ms()
            match.catch_up(now)
            seat = match.seat_of(token)
            if seat is None:
                return no(403, "bad_token")
            return other_view(match.view(seat, now), now, opts)

    @app.post("/api/matches/{match_id}/commands", response_model=None)
    async def commands(match_id: str, request: Request) -> Any:
        match = find(match_id)
        if match is None:
            return no(404, "no_such_match")
        try:
            body = await read(request)
        except ValueError:
            return no(400, "bad_request")
        token, round_, actions = body.get("token"), body.get("round"), body.get("actions")
        if not isinstance(token, str) or type(round_) is not int or not isinstance(actions, list):
            return no(400, "bad_request")
        async with match.lock:
            now = clk.now_ms()
            match.catch_up(now)
            seat = match.seat_of(token)
            if seat is None:
                return no(403, "bad_token")
            reason = match.store(seat, round_ - ROUND_OFFSET, actions, now)
            current = match.state["round"] + ROUND_OFFSET
            if reason is not None:
                return {"ok": False, "reason": reason, "round": current}
            return {"ok": True, **other_view(match.view(seat, now), now, opts)}
