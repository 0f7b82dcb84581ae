"""A Harvest Watch strategy against the league of opponents (``sunbot.testing.hw_league``).

    python benchmarks/harvest_watch_league.py --tables issue --matches 100 --jobs 2
    python benchmarks/harvest_watch_league.py --ours reciprocator --tables held-out --json
    python benchmarks/harvest_watch_league.py --tables all --jobs 2 --write-docs  # the docs
    python benchmarks/harvest_watch_league.py --tables tuning --versions  # earlier defaults

For each table (five league seats), ``--matches`` matches (seeds 1..N): the six players
are dealt to seats by a uniform shuffle of the match seed, exactly as
``benchmarks/harvest_watch.py`` does (its play loop and tallies are imported, not copied),
and every player ``i`` gets its own ``random.Random(seed * 1000 + i)`` (ours is 0). Our
strategy and each reference strategy (:data:`REFERENCES`) take our seat in turn, at the
same table and seeds. Per table: win share (a draw among k seats counts 1/k), rank-1 and
sole wins of ours, each reference's win share, and the best reference. Per group (issue,
tuning, held-out, reported apart): the mean win share and the worst table of every player.

**Robustness** (per group and over every table measured): our share minus the best
reference's at each table (the ``gap``); its mean, and the worst table. **Versions**
(``--versions``): every earlier default (the registered ``adaptive-v<n>`` names) takes our
seat too; per table, our share minus the best earlier default's (the ``drop``), and the
tables where it falls more than :data:`DROP_LIMIT` below it.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import typer

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harvest_watch as hwbench

from sunbot import strategies
from sunbot.server.match_state import SEATS
from sunbot.testing import hw_league
from sunbot.testing.hw_league.tables import GROUPS, Table, tables

app = typer.Typer(add_completion=False)
#: The reference strategies measured in our seat at every table.
REFERENCES = ("guard", "farmer", "coalition", "reciprocator")
#: The registered names of the earlier defaults (``--versions``).
VERSION = re.compile(r"adaptive-v(\d+)")
#: How far below the best earlier default a table may fall before the report flags it.
DROP_LIMIT = 0.03
_CHUNK = 10


def versions(ours: str) -> list[str]:
    """The earlier defaults registered for Harvest Watch (``adaptive-v1``, ...), oldest
    first, ``ours`` left out."""
    found = {}
    for name in strategies.names("harvest-watch"):
        if (m := VERSION.fullmatch(name)) and name != ours:
            found[name] = int(m.group(1))
    return sorted(found, key=found.__getitem__)


def play_league_match(
    seed: int, ours: str, table: Table, times: list[float] | None = None
) -> tuple[int, list[int]]:
    """One match of strategy ``ours`` (a registered Harvest Watch name) against ``table``.

    Returns our seat and the final ranks (index = seat). ``times`` collects the seconds of
    each of our ``choose`` calls on action beats.
    """
    rng = random.Random(seed)
    order = list(range(SEATS))
    rng.shuffle(order)  # order[i] = the seat of player i (0 = ours), as harvest_watch.py
    me = order[0]
    bots: dict[int, Any] = {
        me: strategies.create("harvest-watch", ours, random.Random(seed * 1000))
    }
    for i, (style, params) in enumerate(table.seats, start=1):
        bots[order[i]] = hw_league.make(style, random.Random(seed * 1000 + i), **params)
    state = hwbench.play_loop(seed, rng, bots, [], {me}, times)
    return me, list(state["result"]["ranks"])


_Job = tuple[int, str, Table, int, int, bool]  # table index, player, table, seeds, timing
_Done = tuple[int, str, list[tuple[float, int, bool]], list[float]]


def _chunk(job: _Job) -> _Done:
    """Play seeds ``first..last`` of one (table, player): ``(share, rank, sole)`` each."""
    index, player, table, first, last, timing = job
    out: list[tuple[float, int, bool]] = []
    times: list[float] | None = [] if timing else None
    for seed in range(first, last + 1):
        me, ranks = play_league_match(seed, player, table, times)
        firsts = ranks.count(1)
        share = 1 / firsts if ranks[me] == 1 else 0.0
        out.append((share, ranks[me], ranks[me] == 1 and firsts == 1))
    return index, player, out, times or []


def _jobs(todo: list[Table], players: list[str], matches: int, timing: bool) -> Iterator[_Job]:
    for i, table in enumerate(todo):
        for player in players:
            for first in range(1, matches + 1, _CHUNK):
                yield i, player, table, first, min(matches, first + _CHUNK - 1), timing


def measure(
    todo: list[Table], players: list[str], matches: int, jobs: int = 1, timing: bool = False
) -> dict[tuple[int, str], hwbench.Row]:
    """Every player at every table, ``matches`` seeds each: ``{(table index, player): Row}``
    (rank-1, sole wins, win share of the player's seat; times of ``players[0]`` when
    ``timing``). ``jobs > 1`` plays in a process pool of that many workers."""
    rows = {(i, p): hwbench.Row(f"{p} vs {t.name}") for i, t in enumerate(todo) for p in players}
    work = list(_jobs(todo, players, matches, timing))
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = list(pool.map(_chunk, work))
    else:
        done = [_chunk(w) for w in work]
    for index, player, results, times in done:
        row = rows[(index, player)]
        for share, rank, sole in results:
            row.matches += 1
            row.finishes += 1
            row.rank1 += rank == 1
            row.sole += sole
            row.share += share
            row.shares.append(share)
        if player == players[0]:
            row.times += times
    for row in rows.values():
        row.seconds = time.perf_counter() - t0
    return rows


def _spread(entries: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """The mean of ``entry[key]`` over ``entries`` and the entry where it is lowest."""
    worst = min(entries, key=lambda e: e[key])
    return {
        "mean": sum(e[key] for e in entries) / len(entries),
        "worst": worst[key],
        "worst_table": worst["name"],
    }


def report(
    todo: list[Table],
    players: list[str],
    rows: dict[tuple[int, str], hwbench.Row],
    older: list[str] | None = None,
) -> dict[str, Any]:
    """The JSON-ready report: ``tables`` (one entry per table: group, styles, each
    player's ``share`` / ``rank1`` / ``sole`` rates with 95% Wilson intervals of the last
    two, ``rank1_ci95`` / ``sole_ci95``, the best reference and our ``gap`` to it, and with
    ``older`` (earlier defaults among ``players``) the best of them and our ``drop`` to it),
    ``groups`` (per group and player: ``mean`` share and ``worst`` table),
    ``robustness`` (per group and ``all`` tables: the ``mean`` gap, the ``worst`` one and
    its ``worst_table``) and, with ``older``, ``drops`` (the same of the drop)."""
    older = older or []
    ours = players[0]
    refs = [p for p in players[1:] if p not in older]
    out: dict[str, Any] = {
        "ours": ours,
        "references": refs,
        "versions": older,
        "tables": [],
        "groups": {},
        "robustness": {},
        "drops": {},
    }
    for i, t in enumerate(todo):
        entry: dict[str, Any] = {"name": t.name, "group": t.group, "styles": t.styles()}
        for p in players:
            r = rows[(i, p)]
            n = max(1, r.matches)
            entry[p] = {"share": r.share / n, "rank1": r.rank1 / n, "sole": r.sole / n}
            entry[p]["rank1_ci95"] = list(hwbench.wilson(r.rank1, r.matches))
            entry[p]["sole_ci95"] = list(hwbench.wilson(r.sole, r.matches))
        if refs:
            best = max(refs, key=lambda p: entry[p]["share"])
            entry["best_reference"] = best
            entry["gap"] = entry[ours]["share"] - entry[best]["share"]
        if older:
            top = max(older, key=lambda p: entry[p]["share"])
            entry["best_version"] = top
            entry["drop"] = entry[ours]["share"] - entry[top]["share"]
        entry["matches"] = rows[(i, ours)].matches
        if rows[(i, ours)].times:
            entry["p50_p95_max_ms"] = list(hwbench.percentiles(rows[(i, ours)].times))
        out["tables"].append(entry)
    for g in GROUPS:
        mine = [e for e in out["tables"] if e["group"] == g]
        if not mine:
            continue
        out["groups"][g] = {
            p: {
                "mean": sum(e[p]["share"] for e in mine) / len(mine),
                "worst": min(mine, key=lambda e: e[p]["share"])["name"],
                "worst_share": min(e[p]["share"] for e in mine),
            }
            for p in players
        }
    groups = {g: [e for e in out["tables"] if e["group"] == g] for g in GROUPS}
    groups = {g: mine for g, mine in groups.items() if mine}
    if out["tables"]:
        groups["all"] = out["tables"]
    for g, mine in groups.items():
        if refs:
            out["robustness"][g] = _spread(mine, "gap")
        if older:
            out["drops"][g] = _spread(mine, "drop")
    return out


def _print(rep: dict[str, Any]) -> None:
    """The report as text: per table and player, win share then rank-1 / sole wins (%)."""
    players = [rep["ours"], *rep["references"]]
    head = "".join(f"{p[:15]:>17}" for p in players)
    for g in GROUPS:
        mine = [e for e in rep["tables"] if e["group"] == g]
        if not mine:
            continue
        print(f"\n== {g} tables ({mine[0]['matches']} matches each): "
              "win share, rank-1/sole wins (%)")  # fmt: skip
        print(f"{'table':<26}{head}  best reference (gap)")
        for e in mine:
            cells = "".join(
                f"{e[p]['share']:9.1%} {100 * e[p]['rank1']:3.0f}/{100 * e[p]['sole']:<3.0f}"
                for p in players
            )
            best = f"{e.get('best_reference', '-')} ({e.get('gap', 0.0):+.1%})"
            print(f"{e['name'][:25]:<26}{cells}  {best}")
        for e in mine:
            if "p50_p95_max_ms" in e:
                p50, p95, top = e["p50_p95_max_ms"]
                print(f"  {e['name']}: {rep['ours']} action choose p50/p95/max "
                      f"{p50:.1f}/{p95:.1f}/{top:.1f} ms")  # fmt: skip
        s = rep["groups"][g]
        print(f"{'mean':<26}" + "".join(f"{s[p]['mean']:9.1%}        " for p in players))
        print(f"{'worst':<26}" + "".join(f"{s[p]['worst_share']:9.1%}        " for p in players))
        print(f"{'worst table':<26}" + "".join(f"{s[p]['worst'][:16]:>17}" for p in players))
        if g in rep["robustness"]:
            print(_spread_text("gap to the best reference", rep["robustness"][g]))
        if rep["versions"]:
            _print_versions(rep, mine)
            print(_spread_text("drop to the best earlier default", rep["drops"][g]))
    if "all" in rep["robustness"]:
        print(
            "\n" + _spread_text("all tables: gap to the best reference", rep["robustness"]["all"])
        )
    if "all" in rep["drops"]:
        print(_spread_text("all tables: drop to the best earlier default", rep["drops"]["all"]))


def _spread_text(what: str, spread: dict[str, Any]) -> str:
    """One line: the mean and the worst of a gap or drop, in points."""
    return (
        f"{what}: mean {100 * spread['mean']:+.1f} points, "
        f"worst {100 * spread['worst']:+.1f} points ({spread['worst_table']})"
    )


def _print_versions(rep: dict[str, Any], mine: list[dict[str, Any]]) -> None:
    """Per table: our share and every earlier default's, and our drop to the best one."""
    players = [rep["ours"], *rep["versions"]]
    print(f"{'table':<26}" + "".join(f"{p[:12]:>13}" for p in players) + "  drop")
    for e in mine:
        cells = "".join(f"{e[p]['share']:13.1%}" for p in players)
        flag = "  below the limit" if e["drop"] < -DROP_LIMIT else ""
        print(f"{e['name'][:25]:<26}{cells}  {100 * e['drop']:+.1f}{flag}")


def _counted(styles: str) -> str:
    """``"bloc,bloc,liar"`` as ``"bloc ×2, liar"`` (first-seen order)."""
    names = styles.split(",")
    seen = list(dict.fromkeys(names))
    return ", ".join(n if names.count(n) == 1 else f"{n} ×{names.count(n)}" for n in seen)


def markdown(rep: dict[str, Any]) -> str:
    """The report as Markdown tables, one per group (win share per player, our rank-1 and
    sole wins, the best reference and our gap to it; then the mean and the worst table)."""
    players = [rep["ours"], *rep["references"]]
    lines: list[str] = []
    for g in GROUPS:
        mine = [e for e in rep["tables"] if e["group"] == g]
        if not mine:
            continue
        lines += [f"**{g} tables** ({mine[0]['matches']} matches each): win share", ""]
        lines.append("| table | seats | " + " | ".join(f"`{p}`" for p in players)
                     + f" | `{rep['ours']}` rank-1 / sole | best reference (gap) |")  # fmt: skip
        lines.append("|---" * (len(players) + 4) + "|")
        for e in mine:
            me = e[rep["ours"]]
            cells = " | ".join(f"{e[p]['share']:.1%}" for p in players)
            best = f"`{e.get('best_reference', '-')}` ({e.get('gap', 0.0):+.1%})"
            lines.append(f"| {e['name']} | {_counted(e['styles'])} | {cells} | "
                         f"{me['rank1']:.1%} / {me['sole']:.1%} | {best} |")  # fmt: skip
        s = rep["groups"][g]
        lines.append(
            "| **mean** | | " + " | ".join(f"{s[p]['mean']:.1%}" for p in players) + " | | |"
        )
        worst = " | ".join(f"{s[p]['worst_share']:.1%} ({s[p]['worst']})" for p in players)
        lines += [f"| **worst** | | {worst} | | |", ""]
        if g in rep["robustness"]:
            what = f"Robustness (`{rep['ours']}`'s share minus the best reference's, per table)"
            lines += [_spread_text(what, rep["robustness"][g]) + ".", ""]
        if rep["versions"]:
            lines += _versions_markdown(rep, g, mine)
    for key, what in (("robustness", "the best reference"), ("drops", "the best earlier default")):
        if "all" in rep[key]:
            lines += [
                _spread_text(f"**All tables**, our share minus {what}", rep[key]["all"]) + ".",
                "",
            ]
    return "\n".join(lines)


def _versions_markdown(rep: dict[str, Any], g: str, mine: list[dict[str, Any]]) -> list[str]:
    """A group's table of our share against every earlier default's (the drop to the best
    one in points, in bold where it is below :data:`DROP_LIMIT`)."""
    players = [rep["ours"], *rep["versions"]]
    lines = [f"**{g} tables, against the earlier defaults**: win share", ""]
    lines.append("| table | " + " | ".join(f"`{p}`" for p in players) + " | best earlier (drop) |")
    lines.append("|---" * (len(players) + 2) + "|")
    for e in mine:
        cells = " | ".join(f"{e[p]['share']:.1%}" for p in players)
        drop = f"{100 * e['drop']:+.1f}"
        drop = f"**{drop}**" if e["drop"] < -DROP_LIMIT else drop
        lines.append(f"| {e['name']} | {cells} | `{e['best_version']}` ({drop}) |")
    what = f"Drop (`{rep['ours']}`'s share minus the best earlier default's)"
    return [*lines, "", _spread_text(what, rep["drops"][g]) + ".", ""]


@app.command()
def main(
    ours: str = typer.Option("", help="Our strategy (default: the registry's default)."),
    matches: int = typer.Option(100, min=1, help="Matches per table and player (seeds 1..N)."),
    which: str = typer.Option(
        "all", "--tables", help="issue, tuning, held-out or all (tuning and held-out apart)."
    ),
    only: str = typer.Option(
        "", help="Only the tables whose name contains this text (e.g. 'plain_spoken')."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    as_markdown: bool = typer.Option(False, "--markdown", help="Print Markdown tables."),
    write_docs: bool = typer.Option(
        False, "--write-docs", help="Also write the tables into docs/benchmarks/harvest-watch.md."
    ),
    jobs: int = typer.Option(1, min=1, help="Worker processes."),
    timing: bool = typer.Option(False, help="Time our choose on action beats."),
    with_versions: bool = typer.Option(
        False, "--versions", help="Also play every earlier default (adaptive-v1, ...) in our seat."
    ),
) -> None:
    """Win share of ours and of every reference at each league table (module doc)."""
    player = ours or strategies.default_name("harvest-watch")
    valid = strategies.names("harvest-watch")
    if player not in valid:
        raise typer.BadParameter(f"{player!r}: not one of {', '.join(valid)}", param_hint="--ours")
    try:
        todo = tables(which)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--tables") from None
    todo = [t for t in todo if only in t.name]
    if not todo:
        raise typer.BadParameter(f"no {which} table's name contains {only!r}", param_hint="--only")
    older = versions(player) if with_versions else []
    players = [player, *(r for r in REFERENCES if r != player), *older]
    t0 = time.perf_counter()
    rep = report(todo, players, measure(todo, players, matches, jobs, timing), older)
    rep["seconds"] = round(time.perf_counter() - t0, 1)
    if write_docs:
        from docs_block import write_block

        print(write_block("harvest-watch", "harvest-watch-league", markdown(rep)))
    if as_json:
        print(json.dumps(rep, indent=1))
    elif as_markdown:
        print(markdown(rep))
    else:
        _print(rep)
        print(f"\n({rep['seconds']} s, {jobs} job(s))")


if __name__ == "__main__":
    app()
