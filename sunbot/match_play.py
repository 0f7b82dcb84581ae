"""``sunbot play`` for match games (Harvest Watch, ``shared/spec/harvest-watch.md`` §2).

Local (default): an in-process server (``httpx.ASGITransport``, real clock, short beats),
a match created with our strategy in ``--seats K`` seats and house bots in the rest, played
through :class:`~sunbot.client.matches.MatchClient` exactly as a remote one. ``--server URL``
creates the match there (server default beat lengths); ``--server URL --match ID`` joins an
existing match for ``K`` seats. Every seat runs its own :func:`play_seat` loop concurrently,
with a :class:`~sunbot.mirror.harvest_watch.MatchMirror` each, and every view and command
goes to the JSON Lines transcript (``docs/transcripts.md``).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
from rich.console import Console, RenderableType
from rich.live import Live

from sunbot import strategies
from sunbot.atomic_write import WriteFailed
from sunbot.client import ClientError, MatchClient, RetryPolicy, SeatResult, SeatTicket, play_match
from sunbot.client.http import public_url
from sunbot.client.matches import MatchStrategy
from sunbot.match_report import announce_match, at_seat, print_summary
from sunbot.mirror import Divergence
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.safe_text import describe
from sunbot.server import TokenCodec, create_app
from sunbot.stop_signals import STOP_SIGNALS, exit_code
from sunbot.terminal_text import line, outside, printable, tidy
from sunbot.transcripts import TranscriptWriter, default_path
from sunbot.views import harvest_watch as hw_view
from sunbot.views.common import live_view

#: Beat lengths of a local match, ms: short, since our bots answer in about a millisecond
#: and house bots at once (a beat resolves early once every living seat stored); a seat
#: that stored first polls after at most half a beat, so one beat costs <= 125 ms.
LOCAL_BEAT_MS = {"speech": 250, "vote": 250, "action": 250, "diary": 250}
#: How many of a seat's latest distinct views a new view is compared with before it is
#: written in full (``docs/transcripts.md``: ``sameAs``).
REPEAT_WINDOW = 2
EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_DIVERGED = 0, 1, 2, 3
T = TypeVar("T")
err_console = Console(stderr=True)
_TOKEN = re.compile(r"(token=)[^&\s\"']+")


class StrictStop(Exception):
    """Raised inside a seat loop to stop it at the first divergence (``--strict``)."""


def redact(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with the seat token in ``next.href`` replaced by ``***`` (transcripts keep
    no secrets; the token is the only proof of a seat)."""
    nxt = raw.get("next")
    if isinstance(nxt, dict) and isinstance(nxt.get("href"), str):
        return {**raw, "next": {**nxt, "href": _TOKEN.sub(r"\1***", nxt["href"])}}
    return raw


@dataclass
class MatchRecorder:
    """Per-seat mirrors, transcript lines and the latest view for the live display."""

    writer: TranscriptWriter | None
    strict: bool
    mirrors: dict[int, MatchMirror] = field(default_factory=dict)
    latest: dict[str, Any] | None = None
    views: int = 0
    recent: dict[int, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    t0: float = field(default_factory=time.perf_counter)

    def on_event(self, seat: int, kind: str, record: dict[str, Any]) -> None:
        """The seat loops' callback (``view`` or ``command``)."""
        mirror = self.mirrors.setdefault(seat, MatchMirror(seat))
        line: dict[str, Any] = {"type": kind, "seat": seat}
        if kind == "command":
            answer = record.get("answer")
            if isinstance(answer, dict) and answer.get("ok") is True:
                mirror.note_command(record["round"], record["actions"])
                answer = redact(answer)
            elif answer is None:  # lost (dropped, 500, 502/504): it may have been stored
                mirror.note_unsure(record["round"], record["actions"])
            body = {"token": "***", "round": record["round"], "actions": record["actions"]}
            line.update(round=record["round"], body=body, answer=answer, error=record.get("error"))
        else:
            self.views += 1
            found = mirror.check(record)
            if seat == min(self.mirrors):
                self.latest = record
            body = redact(record)
            line.update(index=self.views, **self._body_or_repeat(seat, body))
            line["mirror"] = {"ok": not found, "divergences": [d.to_json() for d in found]}
        line["elapsedMs"] = round((time.perf_counter() - self.t0) * 1000, 3)
        if self.writer is not None:
            self.writer.write(line)
        if self.strict and kind == "view" and any(m.divergences for m in self.mirrors.values()):
            raise StrictStop("mirror divergence under --strict")

    def _body_or_repeat(self, seat: int, body: dict[str, Any]) -> dict[str, Any]:
        """``{"body": body}``, or ``{"sameAs": index}`` when ``body`` equals one of the
        seat's last :data:`REPEAT_WINDOW` full view lines (a server answering the same view
        poll after poll, or two in turn, costs a short line each, not the whole view)."""
        recent = self.recent.setdefault(seat, [])
        same = next((i for i, b in recent if b == body), None)
        if same is not None:
            return {"sameAs": same}
        recent.append((self.views, body))
        del recent[:-REPEAT_WINDOW]
        return {"body": body}

    @property
    def divergences(self) -> list[Divergence]:
        """Every divergence of every seat."""
        return [d for m in self.mirrors.values() for d in m.divergences]


class _LiveView:
    def __init__(self, rec: MatchRecorder) -> None:
        self.rec = rec

    def __rich__(self) -> RenderableType:
        if not self.rec.latest:
            return "starting…"
        return hw_view.render(tidy(self.rec.latest), ours=list(self.rec.mirrors))


async def _seats(
    client: MatchClient,
    game: str,
    seed: int,
    seats: int,
    server: str | None,
    match_id: str | None,
    start_ms: int | None = None,
) -> tuple[str, list[SeatTicket]]:
    if match_id is not None:
        return match_id, [await client.join(match_id) for _ in range(seats)]
    if server is None:
        return await client.create(game, seats=seats, beat_ms=LOCAL_BEAT_MS, start_ms=0, seed=seed)
    return await client.create(game, seats=seats, seed=seed, start_ms=start_ms)


async def run_match(
    *,
    game: str,
    seed: int,
    strategy: str,
    server: str | None,
    match_id: str | None,
    seats: int,
    writer: TranscriptWriter | None,
    strict: bool,
    live: Live | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    policy: RetryPolicy | None = None,
    make: Callable[[random.Random], MatchStrategy] | None = None,
    start_ms: int | None = None,
    announce: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play one match and return the transcript's ``result`` record (see the module doc),
    plus ``final`` (the last view) and ``mirrorDivergences`` (the list), which the transcript
    does not get. ``make(rng)`` builds each seat's strategy (default: ``strategy`` from the
    registry). ``start_ms``: a created match's countdown (others may join meanwhile);
    ``announce(match_id)`` is called once the match exists. Cancelling the task (Ctrl-C)
    ends it with ``endedBy: interrupted`` and the result line still written. Whatever the
    retry ``policy`` could not absorb ends the match with
    ``endedBy: error`` and a one-line ``error``, never an exception."""
    if server is None and transport is None:
        transport = httpx.ASGITransport(app=create_app(TokenCodec()))
    client = MatchClient(server or "http://sunbot.local", transport=transport, policy=policy)
    rec = MatchRecorder(writer, strict)
    if writer is not None:  # a joined match's seed is its creator's: not ours to record
        shown = None if match_id is not None else seed
        writer.header(game, shown, strategy, public_url(server) if server else "embedded")
    if live is not None:
        live.update(_LiveView(rec))
    interrupted = False
    started = time.perf_counter()
    results: list[SeatResult] = []
    error: str | None = None
    mid = match_id
    try:
        async with client:
            mid, tickets = await _seats(client, game, seed, seats, server, match_id, start_ms)
            if announce is not None:
                announce(mid)
            for t in tickets:
                rec.mirrors[t.seat] = MatchMirror(t.seat)
            build = make or (
                lambda rng: cast(MatchStrategy, strategies.create(game, strategy, rng))
            )
            players = [(t, build(random.Random(seed * 1000 + i))) for i, t in enumerate(tickets)]
            for _, bot in players:  # the optional hook; a joined match's seed is not ours
                strategies.notify_start(bot, game, seed if match_id is None else None, None)
            results = await play_match(client, mid, players, on_event=rec.on_event)
    except (ClientError, httpx.HTTPError, OSError) as exc:
        error = describe(exc)
    except asyncio.CancelledError:  # Ctrl-C: stop here, but say so in the result line
        interrupted = True
    retries = client.retries
    errors = [r.error for r in results if r.error]
    ranks = next((r.ranks for r in results if r.ranks), None)
    best = (
        min((ranks[r.seat] for r in results if r.seat < len(ranks)), default=None)
        if ranks
        else None
    )
    ended = "rules" if ranks and not errors and error is None else "error"
    if errors and all("StrictStop" in e for e in errors):
        ended = "strict"
    if interrupted:
        ended = "interrupted"
    fs = hw_view.final_summary(rec.latest)
    foods, living = fs.get("foods"), fs.get("aliveSeats")
    out_nights = {s: n for m in rec.mirrors.values() for s, n in m.out_nights.items()}
    result = {
        "type": "result",
        "matchId": mid,
        "score": 0 if best is None or ranks is None else sum(r > best for r in ranks),
        "gameOver": ranks is not None,
        "ranks": ranks,
        "seats": [
            {
                "seat": r.seat,
                "rank": None if r.ranks is None else r.ranks[r.seat],
                "food": at_seat(foods, r.seat),
                "alive": None if not isinstance(living, list) else r.seat in living,
                "outNight": out_nights.get(r.seat),
                "commands": r.commands,
                "refusals": dict(r.refusals),
                "postFailures": r.post_failures,
                "pollsClamped": r.clamped_polls,
                "error": r.error,
            }
            for r in sorted(results, key=lambda r: r.seat)
        ],
        "steps": sum(r.commands for r in results),
        "refused": sum(sum(r.refusals.values()) for r in results),
        "divergences": len(rec.divergences),
        "endedBy": ended,
        "responsesChecked": sum(m.responses_checked for m in rec.mirrors.values()),
        "beatsChecked": sum(m.beats_checked for m in rec.mirrors.values()),
        "nightsUndecided": sum(m.nights_undecided for m in rec.mirrors.values()),
        "unknownFields": sorted({f for m in rec.mirrors.values() for f in m.unknown_fields}),
        "retries": retries,
        "elapsedMs": round((time.perf_counter() - started) * 1000, 1),
        "error": error or (errors[0] if errors else None),
        "errorTraceback": next((r.error_traceback for r in results if r.error_traceback), None),
        "final": redact(rec.latest) if rec.latest else None,
        "mirrorDivergences": rec.divergences,
    }
    if writer is not None and writer.failed is None:  # a full disk has no room for it
        writer.write({k: v for k, v in result.items() if k not in ("final", "mirrorDivergences")})
    return result


async def until_interrupted(run: Coroutine[Any, Any, T], got: list[int] | None = None) -> T:
    """Await ``run``; the first Ctrl-C or SIGTERM cancels it (``run`` then writes its result
    line and returns) and is appended to ``got`` (for the exit code). Outside the main
    thread, or where signals cannot be handled, it only awaits."""
    task = asyncio.ensure_future(run)
    loop = asyncio.get_running_loop()

    def stop(signum: int) -> None:
        if got is not None:
            got.append(signum)
        task.cancel()

    handled: list[int] = []
    try:
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, stop, sig)
            handled.append(sig)
    except (NotImplementedError, RuntimeError, ValueError):
        pass
    try:
        return await task
    finally:
        for handled_sig in handled:
            loop.remove_signal_handler(handled_sig)


def play_match_command(
    *,
    game: str,
    seed: int | None,
    strategy: str | None,
    server: str | None,
    match_id: str | None,
    seats: int,
    transcript: Path | None,
    write_transcript: bool,
    strict: bool,
    quiet: bool,
    console: Console,
    as_json: bool = False,
    wait: int | None = None,
) -> int:
    """Play a match from the CLI (see the module docstring); returns the exit code:
    0 the match ended by the rules, 1 an error, 2 bad usage, 3 a divergence under
    ``--strict``, 130 / 143 interrupted by Ctrl-C / SIGTERM (the result line is written).
    ``wait``: seconds a created match on ``server`` waits for other players (its id is
    printed at once)."""
    if wait is not None and (server is None or match_id is not None):
        console.print("[red]error:[/] --wait creates a match on --server that others can join")
        return EXIT_USAGE
    if match_id is not None and server is None:
        console.print("[red]error:[/] --match needs --server (the match lives there)")
        return EXIT_USAGE
    name = strategy or strategies.default_name(game)
    try:
        strategies.check(game, name)
    except strategies.UnknownStrategy as exc:
        console.print(line(("error:", "red"), " ", outside(exc, 2000)))
        return EXIT_USAGE
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    # a joined match's seed is its creator's: ours only seeds our strategies' random.Random
    match_seed = seed if match_id is None else None
    default = default_path(game, seed, name, match_id=match_id)
    path = (transcript or default) if write_transcript else None
    writer = TranscriptWriter(path) if path else None
    got: list[int] = []
    try:
        with live_view(console, "starting…", quiet) as live:
            result = asyncio.run(
                until_interrupted(
                    run_match(
                        game=game,
                        seed=seed,
                        strategy=name,
                        server=server,
                        match_id=match_id,
                        seats=seats,
                        writer=writer,
                        strict=strict,
                        live=live,
                        start_ms=None if wait is None else wait * 1000,
                        announce=lambda mid: announce_match(mid, server, match_id, wait),
                    ),
                    got,
                )
            )
    except WriteFailed as exc:  # the result line: no room for it
        err_console.print(line(("error:", "bold red"), " ", printable(exc)), soft_wrap=True)
        return EXIT_ERROR
    finally:
        if writer is not None:
            writer.close()
            if writer.lines == 0 and writer.path.exists():
                writer.path.unlink()  # not even a whole header: nothing to keep
    if writer is not None and writer.failed is not None:  # the disk filled up mid-match
        err_console.print(
            line(("error:", "bold red"), " ", printable(writer.failed)), soft_wrap=True
        )
        return EXIT_ERROR
    if as_json:
        shown = {k: v for k, v in result.items() if k not in ("final", "mirrorDivergences")}
        print(json.dumps({"game": game, "seed": match_seed, "strategySeed": seed,
                          "strategy": name, **shown,
                          "transcript": str(path) if path else None}))  # fmt: skip
    else:
        print_summary(console, result, match_seed, name)
    if result["endedBy"] == "interrupted":
        err_console.print("[yellow]interrupted[/]: the match goes on without us; result written")
        return exit_code(got[-1] if got else None)
    if as_json:
        pass
    elif path is not None:
        console.print(line(f"transcript: {printable(path)}"), soft_wrap=True)
    if result["endedBy"] == "error":
        from sunbot.cli_play import show_traceback

        show_traceback(result.get("errorTraceback"), path, result.get("error"))
    if result["endedBy"] == "strict" or (strict and result["divergences"]):
        return EXIT_DIVERGED
    return EXIT_OK if result["endedBy"] == "rules" else EXIT_ERROR
