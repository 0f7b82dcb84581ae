"""What ``sunbot play harvest-watch`` prints of a match: the line announcing it as soon as it
exists, and the closing summary (our seats' ranks, stores and fates, the winner and why).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from sunbot._text.terminal import outside, printable
from sunbot.cli.agent_rows import agent_rows, model_line
from sunbot.cli.console import make_console
from sunbot.views import harvest_watch as hw_view
from sunbot.views.common import line, summary_table

err_console = make_console(stderr=True)


def undecided(nights: int) -> str:
    """The mirror's note on the nights its search left open (``nightsUndecided``): shown
    only when some were, since those food changes went unchecked."""
    return f", {nights} night(s) undecided (search budget hit)" if nights else ""


def print_summary(console: Console, r: dict[str, Any], seed: int | None, strategy: str) -> None:
    """The summary table, titled by the match's seed, or by its id for a joined match
    (``seed`` ``None``: the seed is the creator's and no answer tells it)."""
    ranks = r["ranks"]
    rows: dict[str, Any] = {"match": r["matchId"]}
    if ranks:
        rows["score"] = f"{r['score']} (seats ranked below our best seat)"
    for seat in r["seats"]:
        line = hw_view.seat_line(
            seat["rank"], len(ranks or []), seat.get("food"), seat.get("alive"),
            seat.get("outNight"),
        )  # fmt: skip
        if between := seat.get("outNightBetween"):  # its views left a range, not one night
            line = line.replace(" · out", f" · out on a night from {between[0]} to {between[1]}")
        rows[f"our seat {seat['seat']}"] = line + (
            f" (error: {seat['error']})" if seat["error"] else ""
        )
    fs = hw_view.final_summary(r["final"])
    winner = hw_view.winner_line(ranks, fs.get("aliveSeats"), fs.get("day"))
    if winner is not None:
        rows["winner"] = winner
    if r["final"]:
        hidden = ("seat", "food", "rank-1 seats")  # our seats' rows and the winner say them
        rows.update({k: v for k, v in hw_view.summary(r["final"]).items() if k not in hidden})
    rows.update(
        {
            "commands": r["steps"],
            "refused": r["refused"],
            **_timeouts_row(r),
            "ended by": r["endedBy"] + (f" ({r['error']})" if r["error"] else ""),
            **_agent_rows(r),
            "mirror checked": f"{r['responsesChecked']} views, {r['beatsChecked']} beats"
            + undecided(r.get("nightsUndecided", 0)),
            "divergences": r["divergences"],
            "retries": r["retries"],
            "time": f"{r['elapsedMs'] / 1000:.2f} s",
        }
    )
    run = f"seed {seed}" if seed is not None else f"match {r['matchId']}"
    console.print(summary_table(f"harvest-watch · {run} · {strategy}", rows))


def _timeouts_row(r: dict[str, Any]) -> dict[str, str]:
    """``timeouts``: decisions past their deadline (the beat's default applied), as a
    single-player summary shows them, per seat when several of ours timed out; none at 0."""
    total = r.get("timeouts") or 0
    if not total:
        return {}
    per = [f"seat {s['seat']}: {s['timeouts']}" for s in r["seats"] if s.get("timeouts")]
    return {"timeouts": f"{total}" + (f" ({', '.join(per)})" if len(r["seats"]) > 1 else "")}


def _agent_rows(r: dict[str, Any]) -> dict[str, str]:
    """The agent's rows as a single-player summary has them (:func:`agent_rows`), over
    all our seats; when our seats' models differ in their counts, one ``model, seat N``
    row each."""
    rows = agent_rows(r.get("agent") or {})
    own = [(s["seat"], s["agent"]) for s in r["seats"] if s.get("agent", {}).get("kind") == "llm"]
    if len(own) > 1 and any(a != own[0][1] for _, a in own):
        rows.update({f"model, seat {n}": printable(model_line(a)) for n, a in own})
    return rows


def announcement(mid: str, server: str | None, joined: str | None, wait: int | None) -> str:
    """The line printed as soon as the match exists (plain text). How others join a created
    match is said only when they can: with ``--wait`` above 0 the match waits that long
    (``startMs``); without it the server's own countdown applies (3 s on ours, spec
    ``harvest-watch.md`` §2.1), after which its house bots fill every free seat."""
    if server is None:
        return f"match {mid} (embedded server)"
    if joined is not None:
        return f"joined match {mid} on {server}"
    if wait is None:
        return (
            f"match {mid} on {server}: the server's house bots fill the free seats when its"
            " start countdown ends (to let others join, add --wait SECONDS)"
        )
    if wait == 0:
        return (
            f"match {mid} on {server}: started at once, the server's house bots in the free seats"
        )
    how = f"sunbot play harvest-watch --server {server} --match {mid}"
    return f"match {mid}: others can join for {wait} s with {how}"


def announce_match(mid: str, server: str | None, joined: str | None, wait: int | None) -> None:
    """Print :func:`announcement` on stderr (the id is the server's: outside text)."""
    err_console.print(line(announcement(outside(mid), server, joined, wait)), soft_wrap=True)
