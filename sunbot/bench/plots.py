"""The bench report's plots, drawn by matplotlib (Agg) as SVG text to put inline in the page.

- :func:`score_plot`: score per run and strategy: box (quartiles), median line, mean marker
  and one dot per run.
- :func:`survival_plot`: share of runs still going at each voyage/day, the Kaplan-Meier
  estimate (``scipy.stats.ecdf`` on censored data) in which a run that was capped or
  errored is *censored* at the voyage/day it reached (it had not ended by the rules), drawn
  as a ``+`` on its strategy's curve.
- :func:`paired_plot`: per pair of strategies, the histogram of per-seed differences.

Every plot has labelled axes and a legend for every marker it draws, placed outside the
axes so it never covers a point; survival curves differ in line style and width, so two
strategies with the same curve both stay visible (the first drawn is the widest). Text
stays text in the SVG (``svg.fonttype = none``), so labels can be searched and read by
screen readers. ``*_figure`` build a plot as a matplotlib figure; the ``*_plot`` functions
return it as SVG.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.ticker import MaxNLocator
from scipy.stats import CensoredData, ecdf

from sunbot._text.terminal import printable

if TYPE_CHECKING:
    from sunbot.bench.analysis import Analysis
    from sunbot.bench.jobs import Result

#: How a run's end counts on the survival curve: ended by the rules is an event, else censored.
EVENT = "rules"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"
    plt.rcParams["svg.hashsalt"] = "sunbot-bench"
    return plt


def to_svg(fig: Any) -> str:
    """The figure as an ``<svg>`` element (no XML prolog), then closed."""
    plt = _pyplot()
    buf = io.StringIO()
    fig.tight_layout()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def kaplan_meier(results: Sequence[Result], horizon: int) -> tuple[np.ndarray, np.ndarray]:
    """``(t, share)``: ``share[i]`` estimates the fraction of runs still going at voyage/day
    ``t[i] = i + 1`` (``1..horizon``). A run ended by the rules at ``p`` was going at
    ``1..p``; a capped or errored run is censored at ``p`` (going at ``1..p``, unknown after).
    Without censoring this is the plain share of runs with ``progress >= t``."""
    t = np.arange(1, horizon + 1)
    done = [r.progress for r in results if r.ended_by == EVENT]
    cut = [r.progress for r in results if r.ended_by != EVENT]
    if not results:
        return t, np.zeros(len(t))
    if not done:
        return t, np.ones(len(t))
    sf = ecdf(CensoredData(uncensored=done, right=cut)).sf
    # alive at t = P(T >= t) = P(T > t - 0.5) on whole voyages/days
    return t, np.asarray(sf.evaluate(t - 0.5), dtype=float)


#: Survival curves' line styles, in strategy order (then repeated).
LINE_STYLES = ("-", "--", "-.", ":")


def _legend_outside(ax: Any, **kwargs: Any) -> None:
    """The axes' legend to the right of them, where it covers nothing drawn."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kwargs)


def score_plot(a: Analysis) -> str:
    """Box plot of scores per strategy with every run as a dot (SVG)."""
    return to_svg(score_figure(a))


def score_figure(a: Analysis) -> Any:
    """:func:`score_plot` as a matplotlib figure."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4))
    names = [printable(s.name) for s in a.strategies]
    data = [[r.score for r in s.results] for s in a.strategies]
    ax.boxplot(data, tick_labels=names, showmeans=True, meanprops={"marker": "^"})
    for i, values in enumerate(data, start=1):
        jitter = np.random.default_rng(i).uniform(-0.15, 0.15, len(values))
        ax.scatter(np.full(len(values), i) + jitter, values, s=6, alpha=0.35, color="tab:blue")
    flat = [v for vs in data for v in vs if v > 0]
    scale = ""
    if flat and max(flat) > 100 * max(1, min(flat)):
        ax.set_yscale("symlog")
        scale = " (symmetric log scale)"
    ax.set_xlabel("strategy")
    ax.set_ylabel(f"score at the end of the run{scale}")
    ax.set_title(f"{a.game}: score per run")
    handles = [
        plt.Line2D([], [], color="tab:orange", label="median"),
        plt.Line2D([], [], marker="^", linestyle="", color="green", label="mean"),
        plt.Line2D([], [], marker="s", linestyle="", markerfacecolor="none", color="black",
                   label="box: quartiles Q1-Q3, whiskers 1.5 IQR"),
        plt.Line2D([], [], marker="o", linestyle="", color="black", markerfacecolor="none",
                   label="outlier"),
        plt.Line2D([], [], marker="o", linestyle="", color="tab:blue", alpha=0.5, markersize=3,
                   label="one run"),
    ]  # fmt: skip
    _legend_outside(ax, handles=handles, fontsize=7)
    return fig


def survival_plot(a: Analysis) -> str:
    """Kaplan-Meier share of runs still going per voyage/day, censored runs marked (SVG)."""
    return to_svg(survival_figure(a))


def survival_figure(a: Analysis) -> Any:
    """:func:`survival_plot` as a matplotlib figure."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 4))
    horizon = max((r.progress for s in a.strategies for r in s.results), default=0)
    censored_any = False
    count = len(a.strategies)
    for i, s in enumerate(a.strategies):
        t, share = kaplan_meier(s.results, horizon)
        style = LINE_STYLES[i % len(LINE_STYLES)]
        width = 1.2 + 1.6 * (count - 1 - i)  # the first drawn is the widest: none hides
        (line,) = ax.step(
            t, share, where="post", label=printable(s.name), linestyle=style, linewidth=width
        )
        cut = sorted({r.progress for r in s.results if r.ended_by != EVENT and r.progress >= 1})
        if cut:
            censored_any = True
            ax.plot(
                cut, [share[p - 1] for p in cut], "+", markersize=11, mew=2, color=line.get_color()
            )
    if censored_any:
        ax.plot([], [], "+", color="black", markersize=11, mew=2,
                label="capped or errored run (censored there)")  # fmt: skip
    ax.set_xlabel(f"{a.progress_field} reached")
    ax.set_ylabel(f"share of runs still going at that {a.progress_field}")
    ax.set_ylim(0, 1.05)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # whole voyages/days
    ax.set_title(f"{a.game}: survival (Kaplan-Meier)")
    _legend_outside(ax, fontsize=8)
    return fig


def paired_plot(a: Analysis) -> str:
    """Histograms of per-seed score differences for each pair of strategies (SVG)."""
    return to_svg(paired_figure(a))


def paired_figure(a: Analysis) -> Any:
    """:func:`paired_plot` as a matplotlib figure (one panel per pair)."""
    plt = _pyplot()
    by = {s.name: s for s in a.strategies}
    fig, axes = plt.subplots(len(a.pairs), 1, figsize=(8, 3.2 * len(a.pairs)), squeeze=False)
    for ax, (x, y, p) in zip(axes[:, 0], a.pairs, strict=True):
        first = {r.seed: float(r.score) for r in by[x].results}
        second = {r.seed: float(r.score) for r in by[y].results}
        diff = [first[k] - second[k] for k in sorted(set(first) & set(second))]
        ax.hist(diff, bins=30, label="seeds per bin")
        ax.axvline(0, color="black", linewidth=1, label="no difference")
        ax.axvline(
            p.mean_diff, color="red", linewidth=1, label=f"mean difference {p.mean_diff:,.1f}"
        )
        x, y = printable(x), printable(y)  # a label is text in the SVG, never a control
        ax.set_xlabel(f"score of {x} minus {y} on the same seed")
        ax.set_ylabel("seeds")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"{x} - {y} per seed")
        _legend_outside(ax, fontsize=8)
    return fig


def figures(a: Analysis) -> list[tuple[str, str]]:
    """``(title, svg)`` of every plot of the report, in order."""
    out = [("Score distribution per strategy", score_plot(a)), ("Survival curve", survival_plot(a))]
    if a.pairs:
        out.append(("Paired differences", paired_plot(a)))
    return out
