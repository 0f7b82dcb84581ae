"""What ``sunbot tournament`` prints: the standings as rich tables, and the errored matches.

The cells are :mod:`sunbot.bench.tournament_report`'s text, shown as plain ``Text``
(:func:`sunbot.cli.bench_output.text_table`: an entrant's name, a bot file's path, is never
read as rich markup); error lines are escaped; control characters in either (a bot's
error text, an ESC in a bot file's name) are shown as ``\ufffd``, never obeyed.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from sunbot._text.terminal import printable
from sunbot.bench.ratings import leaderboard_order
from sunbot.bench.tournament_report import crosstable_rows, leaderboard_rows, paired_rows
from sunbot.bench.tournament_standings import Standings
from sunbot.bench.verdict import standings_verdict
from sunbot.cli.bench import plural
from sunbot.cli.bench_output import text_table

#: Errored matches (runs) the terminal names; the rest are counted.
SHOWN_ERRORS = 10


def show_standings(console: Console, s: Standings, run: str, report: Path | None) -> None:
    """Print the leaderboard (rank, strategy, mu, sigma, ordinal, matches) and the
    crosstable, or the paired ranking and the win matrix; then the verdict
    (:mod:`sunbot.bench.verdict`) and a closing line with the counts and the report's
    path."""
    order = [r.strategy for r in leaderboard_order(s.ratings)] + [r.strategy for r in s.ranking]
    if s.kind == "match":
        board = text_table(f"{s.game} · run {run} · leaderboard", *leaderboard_rows(s.ratings), 2)
        console.print(board)
        head = "head to head: share of seat pairs the row won (W-L-T: won-lost-tied)"
        console.print(text_table(head, *crosstable_rows(s.table or {}, order)))
        done = f"{plural(len(s.matches), 'match')} rated"
    else:
        if s.ranking:
            title = f"{s.game} · run {run} · paired ranking"
            console.print(text_table(title, *paired_rows(s.ranking), 2))
        if s.wins:
            head = "row vs column on the same seeds: share won (W-L-T: won-lost-tied)"
            console.print(text_table(head, *crosstable_rows(s.wins, order)))
        done = f"{plural(s.played - len(s.errors), 'run')} ranked"
    console.print(escape(printable(f"verdict: {standings_verdict(s)}")), soft_wrap=True)
    line = f"{done}, {len(s.errors):,} errored of {s.scheduled:,}"
    console.print(escape(line + (f" · report {report}" if report else "")), soft_wrap=True)


def show_errors(console: Console, s: Standings) -> None:
    """Print the errored matches (runs): how many, and the first :data:`SHOWN_ERRORS` by
    name with their one-line errors."""
    n = len(s.errors)
    console.print(
        f"[yellow]{escape(plural(n, s.unit))} ended on an error and"
        f" {'is' if n == 1 else 'are'} left out of the standings:[/]"
    )
    for e in s.errors[:SHOWN_ERRORS]:
        console.print(escape(printable(f"  {e.label()}: {e.error}")), soft_wrap=True)
    if n > SHOWN_ERRORS:
        console.print(f"  ... and {n - SHOWN_ERRORS:,} more (--json lists them)")
