"""``sunbot probe`` on games sunbot does not know: the generic checks say what each lacks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from typer.testing import CliRunner

from sunbot.cli import app
from sunbot.client import GameboardClient
from sunbot.generic.probe import probe_generic
from sunbot.probe.report import fit, run_probe
from sunbot.testing.unseen import create_unseen_app
from tests.conftest import FAST_RETRY, LoopbackServer

runner = CliRunner()
OURS = ["keelhold", "sunloaf", "naptuft", "harvest-watch"]
GRAMMAR = {
    "type": "object",
    "properties": {"type": {"const": "step"}},
    "required": ["type"],
}


def flawed_app() -> FastAPI:
    """Games counting to 3 with one flaw each (``fine`` has none): ``no-legal`` sends no
    ``legalActions``, ``no-spec`` no spec, ``bad-grammar`` a grammar that is no JSON Schema,
    ``broken-init`` answers 500, ``refuses`` refuses the action it lists, ``untyped`` lists
    actions without a type."""
    flawed = FastAPI()
    slugs = ["fine", "no-legal", "no-spec", "bad-grammar", "broken-init", "refuses", "untyped"]

    def answer(slug: str, n: int) -> dict[str, Any]:
        legal: list[Any] = [] if n >= 3 else [{"type": "step"}]
        if slug == "untyped" and legal:
            legal = ["step"]
        out: dict[str, Any] = {
            "ok": True, "state": {"n": n}, "observation": {"n": n}, "legalActions": legal,
            "score": n, "gameOver": n >= 3,
        }  # fmt: skip
        if slug == "no-legal":
            del out["legalActions"]
        return out

    @flawed.get("/api/games")
    def index() -> dict[str, Any]:
        return {"games": [{"slug": s, "name": s.title()} for s in slugs], "count": len(slugs)}

    @flawed.get("/api/games/{slug}/init")
    def init(slug: str) -> Any:
        if slug == "broken-init":
            return JSONResponse({"ok": False, "reason": "kaputt"}, status_code=500)
        spec: dict[str, Any] = {"goal": "count to 3", "actionSchema": GRAMMAR}
        if slug == "bad-grammar":
            spec["actionSchema"] = {"type": 5}
        out = answer(slug, 0)
        return out if slug == "no-spec" else {**out, "spec": spec}

    @flawed.post("/api/games/{slug}/action")
    async def act(slug: str, request: Request) -> Any:
        body = await request.json()
        n = int(body["state"]["n"])
        if slug == "refuses":
            return {
                "ok": False,
                "reason": "not now",
                "legalActions": answer(slug, n)["legalActions"],
            }
        return answer(slug, n + 1)

    return flawed


def test_the_unseen_games_are_playable_generically():
    transport = httpx.ASGITransport(app=create_unseen_app(rate_limit_every=3))
    reports, rec = asyncio.run(run_probe("http://unseen", 7, 4, True, transport, FAST_RETRY))
    by = {r.slug: r for r in reports}
    assert list(by) == [*OURS, "hidden-number", "take-away", "tic-tac-toe"]
    for slug in OURS:  # listed nowhere there: reported, not judged
        assert not by[slug].listed and by[slug].error == "not listed in /api/games"
    where = {
        "hidden-number": "actionGrammar",
        "take-away": "actions",
        "tic-tac-toe": "actionSchema",
    }
    for slug, key in where.items():
        r = by[slug]
        assert r.support == "generic" and r.playable and r.error is None, r
        assert r.missing == [] and r.findings == [] and r.grammar is not None
        assert r.grammar.found_at == f"spec.{key}" and r.grammar.error is None
    assert by["hidden-number"].carry == "state only" and by["hidden-number"].steps == 4
    assert by["tic-tac-toe"].carry == "stateToken"
    assert by["take-away"].steps == 3  # seed 7: 12 stones; take 1 each time, the house wins
    assert fit(reports) and rec.throttled > 0


def test_each_flaw_is_named_and_fails_the_probe():
    with LoopbackServer(flawed_app()) as srv:
        res = runner.invoke(app, ["probe", srv.url, "--json", "--retry-seconds", "0.5"])
        text = runner.invoke(
            app, ["probe", srv.url, "--retry-seconds", "0.5"], env={"COLUMNS": "250"}
        )
    assert res.exit_code == 1 and text.exit_code == 1, res.output
    by = {g["slug"]: g for g in json.loads(res.stdout)["games"]}
    fine = by["fine"]
    assert fine["playable"] and fine["support"] == "generic" and fine["steps"] == 3
    assert fine["grammar"]["found_at"] == "spec.actionSchema" and fine["findings"] == []
    lacks = by["no-legal"]
    assert not lacks["playable"] and lacks["missing"] == ["legalActions"]
    assert lacks["error"] == "the init answer is not a position (see missing)"
    nospec = by["no-spec"]
    assert not nospec["playable"] and nospec["missing"] == ["spec"] and nospec["steps"] == 3
    assert nospec["grammar"]["error"] == "no spec in the init answer, so no action grammar"
    bad = by["bad-grammar"]
    assert not bad["playable"] and bad["missing"] == [] and bad["steps"] == 3
    assert bad["grammar"]["error"].startswith("spec.actionSchema is not a valid JSON Schema")
    assert not by["broken-init"]["playable"]
    assert by["broken-init"]["error"] == "ServerRefused: HTTP 500: kaputt"
    refuses = by["refuses"]
    assert refuses["error"] == "a legal action was refused: not now" and refuses["steps"] == 0
    assert any("refusal.listed" in f for f in refuses["findings"])
    untyped = by["untyped"]
    assert untyped["playable"] and untyped["missing"] == []  # a finding, not a lack
    assert untyped["findings"] and "generic check action.type" in untyped["findings"][0]
    shown = " ".join(text.stdout.split())
    assert "no-legal: missing: legalActions" in shown
    assert "bad-grammar: grammar: spec.actionSchema is not a valid JSON Schema" in shown
    assert "broken-init: error: ServerRefused: HTTP 500: kaputt" in shown
    assert "keelhold: not listed in /api/games (not judged)" in shown
    rows = {ln.split("│")[1].strip(): ln.split("│")[2].strip()
            for ln in text.stdout.splitlines() if ln.count("│") == 9}  # fmt: skip
    assert rows["fine"] == "yes" and rows["no-spec"] == "NO" and rows["keelhold"] == "unlisted"


async def test_probe_generic_reads_the_opening_as_it_came():
    client = GameboardClient(transport=httpx.ASGITransport(app=flawed_app()), policy=FAST_RETRY)
    async with client:
        found = await probe_generic(client, "no-legal", 1, 5)
        fine = await probe_generic(client, "fine", 1, 2)  # stops after its step budget
    assert found.missing == ["legalActions"] and found.carry is None and not found.playable
    assert fine.steps == 2 and fine.playable and fine.carry == "state only"


def test_a_server_listing_nothing_is_not_fit():
    empty = FastAPI()

    @empty.get("/api/games")
    def index() -> dict[str, Any]:
        return {"games": [], "count": 0}

    with LoopbackServer(empty) as srv:
        res = runner.invoke(app, ["probe", srv.url])
    assert res.exit_code == 1, res.output
