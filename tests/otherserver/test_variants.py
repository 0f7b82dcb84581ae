"""Other faithful readings of what the rule texts leave open (issue 11, point 2): the other
server plays each one (``--variant``) and a whole run through it has 0 divergences. The
decision behind each is in the field tables of ``docs/rules/<game>.md``."""

from __future__ import annotations

from typing import Any

import pytest

from sunbot.testing.otherserver.variants import VARIANTS
from tests.otherserver.conftest import other_server, play, records

RUNS: dict[str, tuple[str, ...]] = {
    "keelhold": ("--seed", "7", "--max-voyages", "2"),
    "sunloaf": ("--seed", "7", "--max-days", "3", "--strategy", "reference"),
    "naptuft": ("--seed", "7", "--max-days", "2"),
    "harvest-watch": ("--seed", "3", "--seats", "4"),
}


def _games() -> list[Any]:
    marks = {"harvest-watch": [pytest.mark.slow]}  # a match takes ~20 s
    return [pytest.param(slug, marks=marks.get(slug, [])) for slug in RUNS]


@pytest.mark.parametrize("slug", _games())
def test_every_variant_of_a_game_plays_with_zero_divergences(tmp_path, slug):
    names = frozenset(n for n, v in VARIANTS.items() if v.slug == slug)
    path = tmp_path / "run.jsonl"
    with other_server(variants=names, throttle_every=11) as (srv, opts):
        res = play(srv.url, slug, path, *RUNS[slug])
    assert res.exit_code == 0, res.output
    assert opts.variant_hits == names  # each variant acted in this run
    recs = records(path)
    found = [d for r in recs for d in ((r.get("mirror") or {}).get("divergences") or [])]
    assert found == []
    assert any((r.get("mirror") or {}) for r in recs)  # the mirror did run
    listed = [f for f in recs[-1]["unknownFields"] if ".speeches" in f or ".votes" in f]
    assert listed == []  # out seats listed in speeches and votes are accepted quietly
