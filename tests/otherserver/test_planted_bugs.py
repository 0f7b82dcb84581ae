"""Planted rule bugs on the other server (unknown fields and 429s on): the mirror flags
each at the first step it touches, naming the field it broke (issue 11, point 7).

The server records where each bug first acted (``OtherOptions.bug_hits``), so the tests
know the step without guessing; a bug the run never reaches fails the test.
"""

from __future__ import annotations

from typing import Any

import pytest

from sunbot.testing.otherserver import BUGS
from tests.otherserver.conftest import other_server, play, records

RUNS: dict[str, tuple[str, ...]] = {
    "keelhold": ("--seed", "7", "--max-voyages", "2"),
    "sunloaf": ("--seed", "7", "--max-days", "2", "--strategy", "reference"),
    "naptuft": ("--seed", "7", "--max-days", "4"),
    "harvest-watch": ("--seed", "3", "--seats", "4"),
}
#: A bug the default strategy rarely meets gets a run that does meet it.
RUN_FOR_BUG = {"naptuft-streak": ("--seed", "4", "--max-days", "3", "--strategy", "random")}
#: Bugs the mirror cannot flag yet (a strict xfail each, with the reason).
KNOWN_GAPS: dict[str, str] = {}


def _bugs() -> list[Any]:
    """Every bug; a known gap is a strict xfail, and a match (~20 s) is slow."""
    out = []
    for name in BUGS:
        marks = [pytest.mark.slow] if BUGS[name].slug == "harvest-watch" else []
        if name in KNOWN_GAPS:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[name]))
        out.append(pytest.param(name, marks=marks))
    return out


def _first_divergence(recs: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    for rec in recs:
        found = (rec.get("mirror") or {}).get("divergences") or []
        if found:
            return rec, found
    raise AssertionError("the mirror flagged nothing")


def _touched(rec: dict[str, Any], where: dict[str, Any]) -> bool:
    if rec["type"] == "view":  # a match: the first view after the bug's beat resolved
        return rec["body"]["data"]["round"] in (where["round"], where["round"] + 1)
    state = (rec.get("response") or {}).get("state") or {}
    return all(state.get(k) == v for k, v in where.items())


@pytest.mark.parametrize("name", _bugs())
def test_bug_is_flagged_at_its_first_step(tmp_path, name):
    bug = BUGS[name]
    path = tmp_path / "run.jsonl"
    with other_server(bugs=frozenset({name}), throttle_every=11) as (srv, opts):
        res = play(srv.url, bug.slug, path, *RUN_FOR_BUG.get(name, RUNS[bug.slug]))
    assert res.exit_code == 0, res.output
    hits = [h for h in opts.bug_hits if h["bug"] == name]
    assert hits, f"the run never reached {name}"
    recs = records(path)
    first, found = _first_divergence(recs)
    assert _touched(first, hits[0]["where"]), (first.get("index"), hits[0], found)
    assert any(bug.field in str(d.get("path")) for d in found), found
