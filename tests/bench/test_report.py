"""analyse() and the report on hand-made rows: the numbers the tables and plots show."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from rich.console import Console

from sunbot.bench.analysis import analyse, num
from sunbot.bench.jobs import Result
from sunbot.bench.report import write_report
from sunbot.cli.bench_output import compare_table, summary_table

BASE = Result(
    game="keelhold",
    strategy="a",
    seed=1,
    cap=None,
    score=0,
    progress=1,
    progress_field="voyage",
    cause="lurch",
    ended_by="rules",
    error=None,
    steps=1,
    refused=0,
    decisions=1,
    seat=None,
    rank=None,
    table="",
    seating="",
    lineup="",
    win_share=None,
    decision_p50_ms=0.5,
    decision_p95_ms=1.0,
    wall_s=0.01,
    version="0",
)


def rows(strategy, scores, progress):
    return [
        replace(BASE, strategy=strategy, seed=i + 1, score=s, progress=p)
        for i, (s, p) in enumerate(zip(scores, progress, strict=True))
    ]


def render(table) -> str:
    console = Console(width=250, record=True, file=io.StringIO())
    console.print(table)
    return console.export_text()


def test_per_strategy_numbers_and_pairs():
    a = rows("a", [2, 4, 4, 5, 10], [1, 2, 2, 3, 5])
    b = rows("b", [1, 2, 3, 4, 5], [1, 1, 1, 2, 2])
    an = analyse("keelhold", [*b, *a], ["a", "b"])
    sa, sb = an.strategies
    assert (sa.name, sb.name) == ("a", "b")
    assert (sa.score.mean, sa.score.median, sa.score.q1, sa.score.q3) == (5.0, 4.0, 4.0, 5.0)
    assert sa.progress.median == 2.0
    t, share = sa.survival
    assert t.tolist() == [1, 2, 3, 4, 5]  # one horizon for every strategy
    assert share.tolist() == [1.0, 0.8, 0.4, 0.2, 0.2]
    assert sb.survival[1].tolist() == [1.0, 0.4, 0.0, 0.0, 0.0]
    [(x, y, p)] = an.pairs
    assert (x, y, p.n, p.mean_diff) == ("a", "b", 5, 2.0)  # diffs 1, 2, 1, 1, 5
    assert (p.better, p.worse, p.ties) == (5, 0, 0)
    assert sa.wins is None
    text = render(summary_table(an, "t"))
    assert "4-5" in text and "0.500/1.000" in text


def test_match_rank_one_rate_counts_draws():
    ranks = [1, 1, 3, 6, 1]
    causes = ["win", "draw", "lost", "lost", "win"]
    m = [
        replace(
            BASE,
            game="harvest-watch",
            strategy="c",
            seed=i,
            rank=r,
            cause=c,
            seat=0,
            progress_field="day",
        )
        for i, (r, c) in enumerate(zip(ranks, causes, strict=True))
    ]
    [s] = analyse("harvest-watch", m, ["c"]).strategies
    assert (s.wins.wins, s.wins.n, s.sole, s.draws) == (3, 5, 2, 1)
    assert s.wins.low == pytest.approx(0.230724, abs=1e-6)  # Wilson 3 of 5
    text = render(summary_table(analyse("harvest-watch", m, ["c"]), "t"))
    assert "rank-1 rate" in text and "60.0% [23.1%, 88.2%]" in text and "2/1" in text
    # win share: two sole wins (1.0 each), one two-way draw (0.5), two losses: 2.5 / 5
    shares = [1.0, 0.5, 0.0, 0.0, 1.0]
    m = [replace(r, win_share=w) for r, w in zip(m, shares, strict=True)]
    text = render(summary_table(analyse("harvest-watch", m, ["c"]), "t"))
    assert "win share" in text and "50.0%" in text


def test_report_files(tmp_path):
    an = analyse(
        "keelhold",
        [*rows("a", [5, 9, 700], [1, 2, 3]), *rows("b", [1, 2, 3], [1, 1, 2])],
        ["a", "b"],
    )
    page = write_report(an, tmp_path / "r", {"run": "x<y"}).read_text()
    assert "x&lt;y" in page and "<h2>Paired on the same seeds</h2>" in page
    # one file: three inline plots, nothing loaded from beside it
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == ["report.html"]
    assert page.count("<svg") == 3 and "<img" not in page and "src=" not in page


def test_compare_table_pairs_the_same_strategy_across_runs():
    a = analyse("keelhold", rows("s", [1, 2, 3], [1, 1, 1]), ["s"])
    b = analyse(
        "keelhold", [*rows("s", [2, 4, 6], [1, 1, 1]), *rows("t", [1, 1, 1], [1, 1, 1])], ["s", "t"]
    )
    text = render(compare_table("A1", a, "B1", b))
    assert "A1 (A) vs B1 (B)" in text
    rows_s, rows_t = (next(x for x in text.splitlines() if x.startswith(f"│ {n} ")) for n in "st")
    # B - A on seeds 1-3: 1, 2, 3 -> mean 2; all positive, exact p = 2 / 2^3
    assert "2 on 3" in rows_s and "0.25" in rows_s
    assert rows_t.split("│")[2].strip() == "0"  # no runs of t in A: not paired


def test_num_format():
    assert (num(float("nan")), num(3.0), num(2.345), num(123456.7)) == ("-", "3", "2.35", "123,457")


def test_tables_show_names_and_labels_verbatim_not_as_rich_markup():
    a = analyse("keelhold", rows("[bold]s[/]", [1, 2, 3], [1, 1, 1]), ["[bold]s[/]"])
    assert "│ [bold]s[/] " in render(summary_table(a, "run [ray]x"))
    assert "run [ray]x" in render(summary_table(a, "run [ray]x"))
    text = render(compare_table("[ray]a", a, "[i]b", a))
    assert "[ray]a (A) vs [i]b (B)" in text and "│ [bold]s[/] " in text


def test_errored_jobs_are_counted_not_averaged_in():
    ok = rows("a", [100, 300], [2, 4])
    bad = [
        replace(BASE, strategy="a", seed=9, score=0, ended_by="error", error="KeyError: 'x'"),
        replace(BASE, strategy="a", seed=7, score=0, ended_by="error", error="ValueError: y"),
    ]
    other = rows("b", [50, 50], [1, 1])
    (a, b) = analyse("keelhold", [*ok, *bad, *other], ["a", "b"]).strategies
    assert (a.score.n, a.score.mean, a.progress.median) == (2, 200, 3)  # not (0+0+100+300)/4
    assert (a.errors, a.first_error) == (2, "seed 7: ValueError: y")
    assert (b.errors, b.first_error) == (0, None)
    (_, _, paired) = analyse("keelhold", [*ok, *bad, *other], ["a", "b"]).pairs[0]
    assert paired.n == 2  # seeds 1 and 2 only


def test_a_group_whose_every_job_errored_shows_no_choose_time():
    bad = [replace(BASE, strategy="a", seed=s, score=0, ended_by="error", error="E: x")
           for s in (1, 2)]  # fmt: skip
    ok = [replace(r, decision_p50_ms=0.025, decision_p95_ms=0.037) for r in rows("b", [5], [1])]
    text = render(summary_table(analyse("keelhold", [*bad, *ok], ["a", "b"]), "t"))
    cells = {ln.split("│")[1].strip(): [c.strip() for c in ln.split("│")[1:-1]]
             for ln in text.splitlines() if ln.startswith("│ ")}  # fmt: skip
    head = next(ln for ln in text.splitlines() if "choose ms" in ln)
    col = [c.strip() for c in head.split("┃")[1:-1]].index("choose ms p50/p95")
    assert cells["a"][col] == "-" and cells["b"][col] == "0.025/0.037"
    assert "nan" not in text and cells["a"][col - 1] == "0/2"  # capped/errors
