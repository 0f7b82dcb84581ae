"""``sunbot probe``: against our own server (in process) and the other server (loopback)."""

from __future__ import annotations

import asyncio
import copy
import json

import httpx
import pytest
from rich.console import Console
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.cli.probe import show_reports
from sunbot.probe.grammar import compare, find_grammar, samples_of
from sunbot.probe.report import run_probe
from sunbot.server import TokenCodec, create_app
from sunbot.testing.otherserver import OtherOptions, create_other_app
from sunbot.testing.otherserver.games import OtherGame
from tests.conftest import LoopbackServer

runner = CliRunner()
SINGLE = ("keelhold", "sunloaf", "naptuft")


def test_our_own_server_is_fully_compatible():
    transport = httpx.ASGITransport(app=create_app(TokenCodec()))
    reports, rec = asyncio.run(run_probe("http://ours", 7, 4, True, transport))
    by = {r.slug: r for r in reports}
    assert list(by) == [*SINGLE, "harvest-watch"]
    for slug in SINGLE:
        r = by[slug]
        assert r.playable and r.error is None and r.steps == 4, r
        assert r.carry == "stateToken" and r.missing == [] and r.unknown == []
        assert r.grammar is not None and r.grammar.same and r.grammar.found_at == "actionSchema"
    hw = by["harvest-watch"]
    assert hw.playable and hw.missing == [] and hw.carry == "seat token"
    assert any("round 1" in n for n in hw.notes)
    assert rec.throttled == 0
    console = Console(record=True, width=200)  # as the README says: one table, then details
    show_reports(console, reports, rec)
    text = console.export_text()
    rows = [ln.split("│")[1].strip() for ln in text.splitlines() if ln.count("│") == 9]
    assert text.count("compatibility") == 1 and rows == [*SINGLE, "harvest-watch"]
    assert any(ln.startswith("harvest-watch: match ") and "pollAfterMs" in ln
               for ln in text.splitlines())  # fmt: skip


def test_other_server_over_loopback_reports_its_differences():
    with LoopbackServer(create_other_app(OtherOptions(throttle_every=4))) as srv:
        res = runner.invoke(app, ["probe", srv.url, "--json", "--steps", "3"])
        play = runner.invoke(app, ["play", "naptuft", "--server", srv.url, "--seed", "1",
                                   "--max-days", "1", "--json", "--no-transcript"])  # fmt: skip
    assert res.exit_code == 0, res.output
    body = json.loads(res.stdout)
    by = {g["slug"]: g for g in body["games"]}
    # one naming: the path from the answer's root, in probe and in a run's unknownFields
    played = json.loads(play.stdout)["unknownFields"]
    assert "meta" in played and "meta" in by["naptuft"]["unknown"]
    assert not [f for f in by["naptuft"]["unknown"] if f.startswith("envelope.")]
    assert by["keelhold"]["carry"] == "state only" and by["sunloaf"]["carry"] == "stateToken"
    assert "state.seal" in by["keelhold"]["unknown"] and "meta" in by["naptuft"]["unknown"]
    assert all(by[s]["missing"] == [] and by[s]["steps"] == 3 for s in SINGLE)
    assert by["keelhold"]["grammar"]["found_at"] == "actionGrammar"
    assert by["keelhold"]["grammar"]["only_ours"] == by["keelhold"]["grammar"]["only_theirs"] == []
    assert body["throttled"] >= 1 and body["rateHeaders"] == {"retry-after": "0"}
    assert any("round 41" in n for n in by["harvest-watch"]["notes"])


def test_a_missing_field_and_a_looser_grammar_fail_the_probe(monkeypatch):
    from sunbot.testing.otherserver import games

    looser = OtherGame.spec

    def spec(self: OtherGame) -> dict:
        out = looser(self)
        out["actionGrammar"]["oneOf"][0]["additionalProperties"] = True
        return out

    monkeypatch.setattr(OtherGame, "spec", spec)
    kept = games.GAMES["naptuft"]
    monkeypatch.setitem(
        games.GAMES,
        "naptuft",
        OtherGame(**{**kept.__dict__, "served": lambda s: {
            **kept.served(s), "needs": {"zest": 5, **{
                k: v for k, v in kept.served(s)["needs"].items() if k != "joy"}}}}),
    )  # fmt: skip  # a nested field the rule text promises (Goal: four visible needs)
    with LoopbackServer(create_other_app(OtherOptions(throttle_every=0))) as srv:
        res = runner.invoke(app, ["probe", srv.url, "--no-match"])
    assert res.exit_code == 1, res.output
    text = " ".join(res.stdout.split())
    assert "naptuft: missing: state.needs.joy, observation.needs.joy" in text
    assert "state.needs.zest" in text  # an unknown nested field: listed, not a problem
    assert "no match created" in text and "only theirs accept" in text


def test_grammar_comparison_names_the_actions_that_differ():
    from sunbot.games import get_game

    ours = get_game("keelhold").spec["actionSchema"]
    theirs = copy.deepcopy(ours)
    theirs["oneOf"][0]["properties"]["bay"]["maximum"] = 5
    diff = compare(ours, {"grammar": theirs}, [{"type": "PLACE", "bay": 2}])
    assert diff.found_at == "grammar" and diff.only_theirs == []
    assert diff.only_ours == [{"type": "PLACE", "bay": 6}]
    assert compare(ours, {"goal": "x"}, []).error == "no action grammar found in spec"
    assert "not a valid JSON Schema" in str(compare(ours, {"schema": {"type": 5}}, []).error)
    assert find_grammar({"whatever": {"anyOf": []}}) == ("whatever", {"anyOf": []})
    assert {"type": "PLACE", "bay": 7} in samples_of(ours, [])


def test_a_served_grammar_with_a_catastrophic_pattern_is_compared_in_bounded_time():
    # compare() ran the server's grammar through a plain jsonschema validator: its
    # "^(a+)+$" against an offered action of 34 characters backtracks for ~15 minutes.
    import time

    from sunbot.games import get_game

    ours = get_game("keelhold").spec["actionSchema"]
    theirs = {"type": "object", "required": ["type"],
              "properties": {"type": {"type": "string", "pattern": "^(a+)+$"}}}  # fmt: skip
    start = time.perf_counter()
    diff = compare(ours, {"grammar": theirs}, [{"type": "a" * 34 + "!"}])
    assert time.perf_counter() - start < 2.0
    assert diff.error is None and diff.samples > 0
    assert {"type": "a" * 34 + "!"} in diff.only_theirs  # the pattern not run: theirs accepts


def test_usage_and_unreachable_servers():
    assert runner.invoke(app, ["probe", "ftp://x"]).exit_code == 2
    res = runner.invoke(app, ["probe", "127.0.0.1:8765"], env={"COLUMNS": "200"})
    assert res.exit_code == 2
    assert "'127.0.0.1:8765' is not a URL: did you mean http://127.0.0.1:8765?" in res.output
    with LoopbackServer(create_app(TokenCodec())) as srv:
        url = srv.url
    res = runner.invoke(app, ["probe", url, "--retry-seconds", "0.5"])  # nothing listens
    assert res.exit_code == 1 and "cannot read" in res.output


@pytest.mark.parametrize("steps", ["0", "51"])
def test_steps_are_bounded(steps):
    assert runner.invoke(app, ["probe", "http://x", "--steps", steps]).exit_code == 2


def test_fields_the_rules_never_promise_may_be_left_out():
    opts = OtherOptions(throttle_every=0, variants=frozenset({"naptuft-no-streak"}))
    with LoopbackServer(create_other_app(opts)) as srv:
        res = runner.invoke(app, ["probe", srv.url, "--json", "--no-match"])
    assert res.exit_code == 0, res.output
    by = {g["slug"]: g for g in json.loads(res.stdout)["games"]}
    nap = by["naptuft"]
    assert nap["playable"] and nap["missing"] == []
    assert {"state.wishStreak", "state.lastCare", "observation.lastCare"} <= set(nap["unpromised"])
    assert "state.rng" in by["keelhold"]["unpromised"]  # our cursor: not the rules'
    assert by["keelhold"]["missing"] == [] and by["keelhold"]["playable"]


def test_a_match_view_is_read_against_the_harvest_watch_text():
    with LoopbackServer(create_other_app(OtherOptions(throttle_every=0))) as srv:
        res = runner.invoke(app, ["probe", srv.url, "--json"])
    assert res.exit_code == 0, res.output
    hw = {g["slug"]: g for g in json.loads(res.stdout)["games"]}["harvest-watch"]
    assert hw["playable"] and hw["missing"] == []
    # this server's extras, at every level of the view: listed, never a problem
    assert {"serverTime", "data.hint", "data.summary.weather"} <= set(hw["unknown"])


def test_a_match_view_without_a_promised_summary_field_fails(monkeypatch):
    from sunbot.testing.otherserver import matches

    shown = matches.other_view

    def without_seats(*args: object) -> dict:
        view = shown(*args)  # type: ignore[arg-type]
        view["data"]["summary"].pop("aliveSeats")  # State: the living seat numbers
        return view

    monkeypatch.setattr(matches, "other_view", without_seats)
    with LoopbackServer(create_other_app(OtherOptions(throttle_every=0))) as srv:
        res = runner.invoke(app, ["probe", srv.url, "--json"])
    assert res.exit_code == 1, res.output
    hw = {g["slug"]: g for g in json.loads(res.stdout)["games"]}["harvest-watch"]
    assert hw["missing"] == ["data.summary.aliveSeats"] and not hw["playable"]
