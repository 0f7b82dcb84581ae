"""The bench report's plots and runs table: censoring, labels, legends, replay links."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sunbot.bench.analysis import analyse
from sunbot.bench.plots import kaplan_meier, survival_plot
from sunbot.bench.report import write_report
from tests.bench.test_report import BASE, rows


def test_kaplan_meier_by_hand() -> None:
    # died at 2, 3, 3, 5; capped at 4, 6, 6 (censored: still going when the cap stopped them)
    done = [replace(BASE, progress=p) for p in (2, 3, 3, 5)]
    capped = [replace(BASE, progress=p, ended_by="cap") for p in (4, 6, 6)]
    t, share = kaplan_meier(done + capped, 6)
    assert list(t) == [1, 2, 3, 4, 5, 6]
    # at risk 7 past 2 (one dies): 6/7; past 3, 6 at risk, 2 die: 6/7 * 4/6 = 4/7;
    # past 4 one censored; past 5, 3 at risk, 1 dies: 4/7 * 2/3 = 8/21
    assert share == pytest.approx([1, 1, 6 / 7, 4 / 7, 4 / 7, 8 / 21])


def test_without_censoring_it_is_the_plain_share_alive() -> None:
    runs = [replace(BASE, progress=p) for p in (1, 2, 2, 4)]
    _, share = kaplan_meier(runs, 4)
    assert share == pytest.approx([1, 0.75, 0.25, 0.25])
    _, all_capped = kaplan_meier([replace(r, ended_by="cap") for r in runs], 4)
    assert np.all(all_capped == 1)


def test_survival_plot_marks_capped_runs_with_a_legend() -> None:
    capped = [replace(r, ended_by="cap") for r in rows("a", [1, 2], [3, 3])]
    an = analyse("keelhold", [*capped, *rows("b", [1, 2], [1, 2])], ["a", "b"])
    svg = survival_plot(an)
    for text in ("voyage reached", "share of runs still going at that voyage"):
        assert text in svg  # axis labels kept as text
    assert "capped or errored run (censored there)" in svg
    no_cap = survival_plot(analyse("keelhold", rows("b", [1, 2], [1, 2]), ["b"]))
    assert "censored" not in no_cap


def test_report_is_one_file_with_labelled_plots_and_replay_links(tmp_path: Path) -> None:
    an = analyse("keelhold", [*rows("a", [5, 9], [1, 2]), *rows("b", [1, 2], [1, 1])], ["a", "b"])
    out = tmp_path / "r"
    (out / "replays").mkdir(parents=True)
    (out / "replays" / "b-seed2.html").write_text("page")
    page = write_report(an, out, {}, pages={("a", 1): "elsewhere/a1.html"}).read_text()
    for label in ("strategy", "score at the end of the run", "voyage reached", "seeds"):
        assert f">{label}<" in page or label in page
    for legend in ("median", "mean", "one run", "no difference", "mean difference"):
        assert legend in page
    assert "<a href='elsewhere/a1.html'>replay</a>" in page
    assert "<a href='replays/b-seed2.html'>replay</a>" in page
    assert page.count(">replay</a>") == 2  # the other two runs have no page


def _outside(fig, ax) -> bool:
    """The axes' legend lies wholly to the right of the axes (it covers no point)."""
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    return legend.x0 >= ax.get_window_extent(renderer).x1


def test_legends_cover_no_point_and_equal_survival_curves_both_show() -> None:
    from sunbot.bench.plots import paired_figure, score_figure, survival_figure

    # two strategies with the very same runs: the same survival curve, drawn twice
    an = analyse("keelhold", [*rows("a", [1, 2, 3], [1, 2, 3]), *rows("b", [1, 2, 3], [1, 2, 3])],
                 ["a", "b"])  # fmt: skip
    fig = survival_figure(an)
    (ax,) = fig.axes
    a_line, b_line = ax.get_lines()[:2]
    assert list(a_line.get_ydata()) == list(b_line.get_ydata())  # one curve under the other
    assert a_line.get_linestyle() != b_line.get_linestyle()
    assert a_line.get_linewidth() > b_line.get_linewidth()  # the one below is wider: both show
    assert _outside(fig, ax)
    fig = score_figure(an)
    assert _outside(fig, fig.axes[0])
    fig = paired_figure(an)
    assert all(_outside(fig, panel) for panel in fig.axes)
