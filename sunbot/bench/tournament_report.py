"""The tournament's report page: one self-contained HTML file in the bench report's style.

Match games (Harvest Watch): the leaderboard (OpenSkill mu, sigma, ordinal), the
crosstable and, folded away, every match with its lineup and ranks. Single-player games:
the paired ranking and the win matrix. Every name and value is escaped (entrant names are
outside text: a bot file's path, a plug-in's name). Written with
:func:`sunbot.atomic_write.write_atomic`: whole or not at all.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from sunbot._text.atomic_write import write_atomic
from sunbot.bench.analysis import WLT, ci, num, wlt
from sunbot.bench.ratings import Crosstable, HeadToHead, PairedRank, Rating, leaderboard_order
from sunbot.bench.report import html_table, page_head
from sunbot.bench.tournament import MatchResult

#: The report's file name under the report folder.
REPORT_NAME = "tournament.html"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.0f}%"


def leaderboard_rows(ratings: Sequence[Rating]) -> tuple[list[str], list[list[str]]]:
    """The leaderboard as table text: head (rank, strategy, mu, sigma, ordinal, matches),
    then one row per entrant by ordinal."""
    head = ["#", "strategy", "mu", "sigma", "ordinal (mu - 3 sigma)", "matches"]
    ordered = leaderboard_order(ratings)
    rows = [
        [str(i), r.strategy, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.matches)]
        for i, r in enumerate(ordered, start=1)
    ]
    return head, rows


def _h2h_cell(h: HeadToHead) -> str:
    if h.meetings == 0:
        return "-"
    return f"{_pct(h.share)} ({wlt(h.ahead, h.behind, h.level)})"


def crosstable_rows(
    table: Crosstable, order: Sequence[str] = ()
) -> tuple[list[str], list[list[str]]]:
    """A crosstable (or win matrix) as table text: rows and columns in ``order`` (then any
    other names, sorted); each cell ``share (W-L-T)`` of the row against the
    column, ``-`` on the diagonal and for pairs that never met."""
    names = [n for n in order if n in table] + sorted(n for n in table if n not in order)
    head = ["row vs column", *names]
    rows = []
    for a in names:
        cells = [a]
        for b in names:
            h = table[a].get(b)
            cells.append("-" if a == b or h is None else _h2h_cell(h))
        rows.append(cells)
    return head, rows


def paired_rows(ranking: Sequence[PairedRank]) -> tuple[list[str], list[list[str]]]:
    """The paired ranking as table text: rank, entrant, seeds, mean score, difference to
    the first-ranked entrant with its 95% CI and Wilcoxon p, wins."""
    head = ["#", "strategy", "seeds", "mean score", "minus the best", "95% CI"]
    head += [WLT, "Wilcoxon p", "wins"]
    rows = []
    for r in ranking:
        p = r.vs_best
        row = [str(r.rank), r.strategy, str(r.seeds), num(r.mean)]
        if p is None:
            row += ["(best)", "-", "-", "-"]
        else:
            pv = "-" if math.isnan(p.p_value) else f"{p.p_value:.3g}"
            row += [num(p.mean_diff), ci(p.ci_low, p.ci_high), wlt(p.better, p.worse, p.ties)]
            row.append(pv)
        row.append(f"{r.wins:g}")
        rows.append(row)
    return head, rows


def _matches_table(matches: Sequence[MatchResult]) -> str:
    head = ["match", "seed", "lineup, seats 0-5 (rank)"]
    rows = [
        [
            str(m.match_index),
            str(m.seed),
            ", ".join(f"{n} ({r})" for n, r in zip(m.lineup, m.ranks, strict=True)),
        ]
        for m in matches
    ]
    return html_table(head, rows)


_CROSSTABLE_NOTE = (
    "Each cell: how the row's seats finished against the column's seats in the matches "
    "where both sat, as the share of seat pairs the row won (a level pair counts half) and "
    "W-L-T: the seat pairs the row won, lost and tied."
)
_WINS_NOTE = (
    "Each cell: on the seeds every entrant played, the share the row scored more than the "
    "column (a tie counts half) and W-L-T: the seeds the row won, lost and tied."
)


def tournament_page(
    game: str,
    meta: Mapping[str, str],
    *,
    ratings: Sequence[Rating] = (),
    table: Crosstable | None = None,
    ranking: Sequence[PairedRank] = (),
    wins: Crosstable | None = None,
    matches: Sequence[MatchResult] = (),
) -> str:
    """The report as one HTML document; sections appear for the parts given.

    Args:
        game: the game's slug (the title).
        meta: label -> value lines at the top (entrants, matches, seed, model, version...).
        ratings, table: match games: the leaderboard and the crosstable.
        ranking, wins: single-player games: the paired ranking and the win matrix.
        matches: match games: every match, listed folded at the end.
    """
    order = [r.strategy for r in leaderboard_order(ratings)]
    order += [r.strategy for r in ranking]
    parts = [
        page_head(f"sunbot tournament · {game}"),
        "<ul>",
        *(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>" for k, v in meta.items()),
        "</ul>",
    ]
    if ratings:
        parts += [
            "<h2>Leaderboard</h2><p>OpenSkill ratings: mu is the skill estimate, sigma its "
            "uncertainty, ordinal = mu - 3 sigma the skill the strategy very likely exceeds "
            "(the order of the table).</p>",
            html_table(*leaderboard_rows(ratings)),
        ]
    if table is not None:
        parts += ["<h2>Crosstable</h2>", f"<p>{_CROSSTABLE_NOTE}</p>"]
        parts.append(html_table(*crosstable_rows(table, order)))
    if ranking:
        parts += ["<h2>Paired ranking</h2>", html_table(*paired_rows(ranking))]
    if wins is not None:
        parts += ["<h2>Wins on the same seeds</h2>", f"<p>{_WINS_NOTE}</p>"]
        parts.append(html_table(*crosstable_rows(wins, order)))
    if matches:
        parts += [
            f"<h2>Matches</h2><details><summary>{len(matches)} matches, one row each</summary>",
            _matches_table(matches),
            "</details>",
        ]
    parts.append("</body></html>")
    return "\n".join(parts)


def write_tournament_report(
    out: Path,
    game: str,
    meta: Mapping[str, str],
    *,
    ratings: Sequence[Rating] = (),
    table: Crosstable | None = None,
    ranking: Sequence[PairedRank] = (),
    wins: Crosstable | None = None,
    matches: Sequence[MatchResult] = (),
) -> Path:
    """Write ``out/tournament.html`` (:func:`tournament_page`), creating ``out``.

    Returns:
        The page's path.

    Raises:
        OSError: ``out`` cannot be created; :class:`~sunbot.atomic_write.WriteFailed` (an
            ``OSError`` with a one-line message): the page cannot be written (nothing is
            left half written).
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / REPORT_NAME
    page = tournament_page(
        game, meta, ratings=ratings, table=table, ranking=ranking, wins=wins, matches=matches
    )
    write_atomic(path, page)
    return path
