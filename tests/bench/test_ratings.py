"""OpenSkill ratings against the library called directly, several seats of one entrant,
ties, the crosstable and the paired ranking on hand-made results, their JSON, and the
tournament report page."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from openskill.models import BradleyTerryFull, PlackettLuce

from sunbot.bench.jobs import Result
from sunbot.bench.ratings import (
    HeadToHead,
    Rating,
    crosstable,
    leaderboard_json,
    paired_json,
    paired_win_matrix,
    rank_paired,
    rate_matches,
    scores_of,
)
from sunbot.bench.tournament import MatchResult
from sunbot.bench.tournament_report import REPORT_NAME, write_tournament_report

SIX = ("a", "b", "c", "d", "e", "f")
MU, SIGMA = 25.0, 25 / 3


def _m(lineup, ranks, i=0):
    return MatchResult(i, i + 1, tuple(lineup), tuple(ranks))


def _by(ratings):
    return {r.strategy: r for r in ratings}


# --- rate_matches -----------------------------------------------------------------------


@pytest.mark.parametrize("model", [PlackettLuce, BradleyTerryFull])
def test_one_seat_each_is_exactly_the_library_s_rate(model):
    first = _m(SIX, (3, 1, 6, 2, 5, 4), 0)
    second = _m(("f", "e", "d", "c", "b", "a"), (2, 1, 5, 3, 6, 4), 1)  # no tie
    got = _by(rate_matches([first, second], model=model.__name__))
    # the library by hand: match 1, then match 2 from the ratings it left
    lib = model()
    p = {n: lib.rating() for n in SIX}
    for match in (first, second):
        out = lib.rate([[p[n]] for n in match.lineup], ranks=[float(r) for r in match.ranks])
        p = {n: team[0] for n, team in zip(match.lineup, out, strict=True)}
    for n in SIX:
        r = got[n]
        assert (r.mu, r.sigma) == pytest.approx((p[n].mu, p[n].sigma), rel=1e-12)
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma) == pytest.approx(p[n].ordinal())
        assert r.matches == 2


def test_ordering_is_by_ordinal_and_unknown_model_is_refused():
    ratings = rate_matches([_m(SIX, (1, 2, 3, 4, 5, 6))])
    assert [r.strategy for r in ratings] == list(SIX)
    assert all(x.ordinal > y.ordinal for x, y in itertools.pairwise(ratings))
    with pytest.raises(ValueError, match="unknown rating model 'Elo': use one of PlackettLuce"):
        rate_matches([], model="Elo")


def test_always_first_ends_above_always_last():
    matches = [_m(SIX, (1, 3, 2, 5, 4, 6), i) for i in range(10)]
    ratings = rate_matches(matches)
    assert [r.strategy for r in ratings] == ["a", "c", "b", "e", "d", "f"]  # as they finish
    assert ratings[0].mu > MU > ratings[-1].mu
    # with repeats too: a's two seats always 1st-2nd, c's always 5th-6th
    repeated = [_m(("a", "b", "c", "a", "b", "c"), (1, 3, 5, 2, 4, 6), i) for i in range(10)]
    assert [r.strategy for r in rate_matches(repeated)] == ["a", "b", "c"]


def test_a_six_way_draw_between_equals_moves_no_mu():
    draw = rate_matches([_m(SIX, (1,) * 6)])
    # the mean over the 720 orders; the variance shrinks as it would for any one order
    lib = PlackettLuce()
    strict = lib.rate([[lib.rating()] for _ in SIX], ranks=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    var = sum(team[0].sigma ** 2 for team in strict) / 6  # each seat sits each place 1/6
    assert [r.strategy for r in draw] == list(SIX)  # equal: by name
    for r in draw:
        assert r.mu == pytest.approx(MU)
        assert r.sigma == pytest.approx(math.sqrt(var))
        assert r.sigma < SIGMA


def test_a_shared_place_is_the_mean_of_its_orders():
    lib = PlackettLuce()
    strict = lib.rate([[lib.rating()] for _ in SIX], ranks=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    mu = [team[0].mu for team in strict]  # 27.54, 26.93, 26.17, 25.15, 23.63, 20.59
    level = _by(rate_matches([_m(SIX, (1, 1, 3, 4, 5, 6))]))
    # a and b share first: each gets the mean of first and second; the rest as strictly
    assert level["a"].mu == pytest.approx((mu[0] + mu[1]) / 2) == level["b"].mu
    assert [level[n].mu for n in "cdef"] == pytest.approx(mu[2:])
    # so a shared first place stays above third (the library's own tie rule puts it below)
    assert level["a"].mu > level["c"].mu
    tied_lib = lib.rate([[lib.rating()] for _ in SIX], ranks=[1.0, 1.0, 3.0, 4.0, 5.0, 6.0])
    assert tied_lib[0][0].mu < tied_lib[2][0].mu  # openskill.py #155, why we average
    # a tie lower down: c and d share third
    mid = _by(rate_matches([_m(SIX, (1, 2, 3, 3, 5, 6))]))
    assert mid["c"].mu == pytest.approx((mu[2] + mu[3]) / 2) == mid["d"].mu
    assert mid["e"].mu == pytest.approx(mu[4])


def test_several_seats_of_one_entrant_combine_their_updates():
    # a sits twice (1st and 2nd), b once (3rd): each of a's seats is rated against b only
    got = _by(rate_matches([_m(("a", "a", "b"), (1, 2, 3))]))
    lib = PlackettLuce()
    a, b = lib.rating(), lib.rating()
    win = lib.rate([[a], [b]], ranks=[1.0, 2.0])[0][0]  # either a seat: a win over b
    factor = win.sigma**2 / (SIGMA**2 + lib.tau**2)
    assert got["a"].mu == pytest.approx(MU + 2 * (win.mu - MU))
    assert got["a"].sigma == pytest.approx(math.sqrt(win.sigma**2 * factor))
    # b's one seat is rated against both of a's seats, as they finished
    lost = lib.rate([[a], [lib.rating()], [b]], ranks=[1.0, 2.0, 3.0])[2][0]
    assert (got["b"].mu, got["b"].sigma) == pytest.approx((lost.mu, lost.sigma))
    assert got["a"].matches == got["b"].matches == 1


def test_a_table_of_one_entrant_says_nothing_about_it():
    got = rate_matches([_m(("a",) * 6, (1, 2, 3, 4, 5, 6))])
    assert got == [Rating("a", MU, SIGMA, MU - 3 * SIGMA, 1)]


def test_own_seats_are_not_opponents():
    # a 1st and 6th, four b seats between: each a seat is rated against the b seats only,
    # so a's 1st-over-6th is no evidence; a moves by the two seat updates added up
    got = _by(rate_matches([_m(("a", "b", "b", "b", "b", "a"), (1, 2, 3, 4, 5, 6))]))
    lib = PlackettLuce()
    five = [[lib.rating()] for _ in range(5)]
    up = lib.rate(five, ranks=[1.0, 2.0, 3.0, 4.0, 5.0])[0][0].mu - MU  # a seat first of 5
    down = lib.rate(five, ranks=[5.0, 1.0, 2.0, 3.0, 4.0])[0][0].mu - MU  # a seat last of 5
    assert got["a"].mu == pytest.approx(MU + up + down)
    assert up > 0 > down


def test_unplayed_entrants_are_listed_and_results_are_deterministic():
    matches = [_m(SIX, (2, 1, 4, 3, 6, 5), i) for i in range(3)]
    one = rate_matches(matches, entrants=["zed", "a"])
    assert one == rate_matches(matches, entrants=["zed", "a"])
    assert _by(one)["zed"] == Rating("zed", MU, SIGMA, MU - 3 * SIGMA, 0)
    assert _by(one)["a"].matches == 3


# --- crosstable -------------------------------------------------------------------------


THREE = [
    _m(("a", "b", "c", "a", "b", "c"), (1, 2, 3, 4, 5, 6), 0),
    _m(("a", "a", "b", "b", "b", "b"), (1, 1, 3, 3, 3, 3), 1),
    _m(("b", "c", "b", "c", "c", "c"), (1, 2, 2, 4, 5, 6), 2),
]


def test_crosstable_counts_seat_pairs_of_three_hand_made_matches():
    t = crosstable(THREE)
    # match 0: a(1,4) b(2,5): 1>2, 1>5, 4<2, 4>5 -> 3 ahead 1 behind; match 1: 2 x 4 ahead
    assert t["a"]["b"] == HeadToHead(ahead=11, level=0, behind=1, meetings=2)
    assert t["b"]["a"] == HeadToHead(ahead=1, level=0, behind=11, meetings=2)
    assert t["a"]["c"] == HeadToHead(3, 0, 1, 1)  # they met in match 0 only
    # b-c: match 0 as a-b (3/0/1); match 2: b(1,2) c(2,4,5,6): 4 + 3 ahead, 2=2 level
    assert t["b"]["c"] == HeadToHead(10, 1, 1, 2)
    assert t["c"]["b"] == HeadToHead(1, 1, 10, 2)
    assert t["a"]["b"].share == pytest.approx(11 / 12)
    assert t["b"]["c"].share == pytest.approx(10.5 / 12)
    assert set(t) == {"a", "b", "c"} and "a" not in t["a"]
    assert math.isnan(crosstable([THREE[1], _m(("c", "d"), (1, 2))])["a"]["c"].share)


# --- single-player paired ranking -------------------------------------------------------


SCORES = {
    "a": {1: 10, 2: 20, 3: 30, 4: 0},
    "b": {1: 5, 2: 25, 3: 10},
    "c": {1: 10, 2: 0, 3: 5, 5: 7},
}


def test_rank_paired_on_the_shared_seeds():
    a, b, c = rank_paired(SCORES)  # shared seeds 1-3; means 20, 13.33, 5
    assert [(r.strategy, r.rank, r.seeds) for r in (a, b, c)] == [
        ("a", 1, 3), ("b", 2, 3), ("c", 3, 3)
    ]  # fmt: skip
    assert (a.mean, b.mean, c.mean) == pytest.approx((20, 40 / 3, 5))
    assert a.vs_best is None
    # b - a per seed: -5, +5, -20; c - a: 0, -20, -25
    assert b.vs_best.mean_diff == pytest.approx(-20 / 3)
    assert (b.vs_best.better, b.vs_best.worse, b.vs_best.ties) == (1, 2, 0)
    assert c.vs_best.mean_diff == pytest.approx(-15)
    assert (c.vs_best.better, c.vs_best.worse, c.vs_best.ties) == (0, 2, 1)
    # seed 1: a and c share the top (half each); seed 2: b; seed 3: a
    assert (a.wins, b.wins, c.wins) == (1.5, 1.0, 0.5)


def test_equal_means_share_a_rank_and_bad_input_is_refused():
    ranks = rank_paired({"x": {1: 1, 2: 3}, "y": {1: 3, 2: 1}, "z": {1: 9, 2: 9}})
    assert [(r.strategy, r.rank) for r in ranks] == [("z", 1), ("x", 2), ("y", 2)]
    with pytest.raises(ValueError, match="no seed was played by every entrant"):
        rank_paired({"x": {1: 1}, "y": {2: 1}})
    with pytest.raises(ValueError, match="seed 2: score nan is not a finite number"):
        rank_paired({"x": {1: 1, 2: math.nan}, "y": {1: 1}})
    with pytest.raises(ValueError, match="no entrants"):
        rank_paired({})


def test_paired_win_matrix():
    w = paired_win_matrix(SCORES)
    assert list(w) == ["a", "b", "c"]
    assert w["a"]["b"] == HeadToHead(ahead=2, level=0, behind=1, meetings=3)
    assert w["a"]["c"] == HeadToHead(ahead=2, level=1, behind=0, meetings=3)
    assert w["c"]["b"] == HeadToHead(ahead=1, level=0, behind=2, meetings=3)


def _row(strategy, seed, score, ended_by="rules"):
    return Result(
        game="keelhold", strategy=strategy, seed=seed, cap=None, score=score, progress=1,
        progress_field="voyage", cause=None, ended_by=ended_by, error=None, steps=1,
        refused=0, decisions=1, seat=None, rank=None, table="", seating="", lineup="",
        win_share=None, decision_p50_ms=None, decision_p95_ms=None, wall_s=0.0, version="0",
    )  # fmt: skip


def test_scores_of_bench_rows_leaves_errored_rows_out():
    rows = [_row("p", 1, 40), _row("p", 2, 0, "error"), _row("q", 1, 7), _row("q", 2, 9, "cap")]
    assert scores_of(rows) == {"p": {1: 40.0}, "q": {1: 7.0, 2: 9.0}}


# --- JSON and the report ----------------------------------------------------------------


def test_leaderboard_json_round_trips():
    ratings = rate_matches(THREE)
    doc = json.loads(json.dumps(leaderboard_json(list(reversed(ratings)), crosstable(THREE))))
    assert [r["strategy"] for r in doc["ratings"]] == [r.strategy for r in ratings]
    first = ratings[0]
    assert doc["ratings"][0] == {"strategy": first.strategy, "mu": first.mu,
                                 "sigma": first.sigma, "ordinal": first.ordinal,
                                 "matches": first.matches}  # fmt: skip
    assert doc["crosstable"]["a"]["b"] == {"ahead": 11, "level": 0, "behind": 1, "meetings": 2}


def test_paired_json_has_no_nan():
    one_seed = {"x": {1: 5}, "y": {1: 3}}  # one seed: no confidence interval
    ranking = rank_paired(one_seed)
    doc = paired_json(ranking, paired_win_matrix(one_seed))
    text = json.dumps(doc, allow_nan=False)  # strict JSON
    assert json.loads(text)["ranking"] == [
        {"strategy": "x", "rank": 1, "seeds": 1, "mean": 5.0, "wins": 1.0, "vsBest": None},
        {"strategy": "y", "rank": 2, "seeds": 1, "mean": 3.0, "wins": 0.0,
         "vsBest": {"meanDiff": -2.0, "ciLow": None, "ciHigh": None, "pValue": 1.0,
                    "better": 0, "worse": 1, "ties": 0}},
    ]  # fmt: skip


def test_report_page_shows_the_leaderboard_crosstable_and_escapes_names(tmp_path):
    hostile = "<script>alert(1)</script>.py:Bot"
    matches = [*THREE, _m(("a", hostile), (2, 1), 3)]
    ratings = rate_matches(matches)
    path = write_tournament_report(
        tmp_path / "out", "harvest-watch", {"entrants": "a, b, c"},
        ratings=ratings, table=crosstable(matches), matches=matches,
    )  # fmt: skip
    assert path == tmp_path / "out" / REPORT_NAME
    assert [p.name for p in path.parent.iterdir()] == [REPORT_NAME]  # no temporary file left
    page = path.read_text()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    top = ratings[0]
    assert (
        f"<td>1</td><td>{top.strategy}</td><td>{top.mu:.2f}</td><td>{top.sigma:.2f}</td>"
        f"<td>{top.ordinal:.2f}</td><td>{top.matches}</td>"
    ) in page
    assert "<td>92% (11-1-0)</td>" in page  # a against b, 11 of 12 seat pairs
    assert "4 matches, one row each" in page and "a (1), b (2), c (3)" in page


def test_report_page_for_a_single_player_tournament(tmp_path):
    path = write_tournament_report(
        tmp_path, "keelhold", {"seeds": "1-4"},
        ranking=rank_paired(SCORES), wins=paired_win_matrix(SCORES),
    )  # fmt: skip
    page = path.read_text()
    assert "<h2>Paired ranking</h2>" in page and "Leaderboard" not in page
    assert "<td>1</td><td>a</td><td>3</td><td>20</td><td>(best)</td>" in page
    assert "<td>b</td><td>3</td><td>13.33</td><td>-6.67</td>" in page
    assert "<td>67% (2-1-0)</td>" in page  # a scored more than b on 2 of 3 seeds
