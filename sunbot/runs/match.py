"""A match run on a match server (Harvest Watch; its rules: ``docs/rules/harvest-watch.md``):
our seats, their mirrors, the transcript and the result record.

Local (default): the embedded server in-process (``transport``, handed in by
:mod:`sunbot.api`: real clock, short beats), a match created with our strategy in ``--seats
K`` seats and house bots in the rest, played through
:class:`~sunbot.client.matches.MatchClient` exactly as a remote one. ``--server URL`` creates
the match there (server default beat lengths); ``--server URL --match ID`` joins an existing
match for ``K`` seats. Every seat is played by the one seat loop
(:func:`sunbot.runs.seats.play_seat` over :class:`sunbot.runs.seat_http.HttpSeat`)
concurrently, with a :class:`~sunbot.mirror.harvest_watch.MatchMirror` each, and every view
and command goes to the JSON Lines transcript (``docs/transcripts.md``).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import httpx

from sunbot import strategies
from sunbot._text.safe import describe
from sunbot.agents.spec import create_agent
from sunbot.client import ClientError, MatchClient, RetryPolicy, SeatTicket
from sunbot.client.http import public_url
from sunbot.mirror import Divergence
from sunbot.mirror.harvest_watch import MatchMirror
from sunbot.observations.harvest_watch_outcome import final_summary
from sunbot.runs.loop import bounded_record
from sunbot.runs.seat_http import play_match
from sunbot.runs.seats import MatchStrategy, SeatResult
from sunbot.runs.summary import MAX_LISTED, listed, merge_agent_totals
from sunbot.transcripts.bounds import cut_view
from sunbot.transcripts.jsonl import TranscriptWriter

#: Beat lengths of a local match, ms: short, since our bots answer in about a millisecond
#: and house bots at once (a beat resolves early once every living seat stored); a seat
#: that stored first polls after at most half a beat, so one beat costs <= 125 ms.
LOCAL_BEAT_MS = {"speech": 250, "vote": 250, "action": 250, "diary": 250}
#: Beat lengths of a local match whose seats are clocked or slow (a language model, a bot
#: in another process, ``--move-timeout``): long enough for a model's answer.
LOCAL_SLOW_BEAT_MS = {"speech": 20_000, "vote": 10_000, "action": 10_000, "diary": 20_000}
#: How many of a seat's latest distinct views a new view is compared with before it is
#: written in full (``docs/transcripts.md``: ``sameAs``).
REPEAT_WINDOW = 2
T = TypeVar("T")
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
    """Per-seat mirrors, transcript lines and the latest view for the live display.

    A view's (or a command answer's) unknown fields larger than
    :data:`~sunbot.transcripts.bounds.MAX_UNKNOWN_FIELD_BYTES` are cut before it is
    checked, recorded or kept (:func:`~sunbot.transcripts.bounds.cut_view`): the line
    says so in ``cut``, ``cut_fields`` counts them."""

    writer: TranscriptWriter | None
    strict: bool
    mirrors: dict[int, MatchMirror] = field(default_factory=dict)
    latest: dict[str, Any] | None = None
    views: int = 0
    recent: dict[int, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    t0: float = field(default_factory=time.perf_counter)
    cut_fields: int = 0
    cut_paths: set[str] = field(default_factory=set)
    #: ``seat -> (day, phase)`` of the seat's latest view showing it in / first showing it out
    seen_in: dict[int, tuple[int, str]] = field(default_factory=dict)
    seen_out: dict[int, tuple[int, str]] = field(default_factory=dict)

    def on_event(self, seat: int, kind: str, record: dict[str, Any]) -> None:
        """The seat loops' callback (``view``, ``command`` or ``timeout``)."""
        mirror = self.mirrors.setdefault(seat, MatchMirror(seat))
        line: dict[str, Any] = {"type": kind, "seat": seat}
        cut = None
        if kind == "timeout":  # nothing was sent: the line marks the missed decision
            agent = record.get("agent") or {"timedOut": True}
            line.update(round=record.get("round"), agent=bounded_record(agent))
        elif kind == "command":
            answer, cut = cut_view(record.get("answer"))
            if isinstance(answer, dict) and answer.get("ok") is True:
                mirror.note_command(record["round"], record["actions"])
                answer = redact(answer)
            elif answer is None:  # lost (dropped, 500, 502/504): it may have been stored
                mirror.note_unsure(record["round"], record["actions"])
            body = {"token": "***", "round": record["round"], "actions": record["actions"]}
            line.update(round=record["round"], body=body, answer=answer, error=record.get("error"))
            if record.get("agent"):  # the decision's record, as on a single-player step
                line["agent"] = bounded_record(record["agent"])
        else:
            self.views += 1
            record, cut = cut_view(record)
            self._note_fate(seat, record)
            found = mirror.check(record)
            if seat == min(self.mirrors):
                self.latest = record
            body = redact(record)
            line.update(index=self.views, **self._body_or_repeat(seat, body))
            line["mirror"] = {"ok": not found, "divergences": [d.to_json() for d in found]}
        if cut is not None:
            line["cut"] = cut.to_json()
            self.cut_fields += cut.fields
            self.cut_paths.update(cut.paths)
        line["elapsedMs"] = round((time.perf_counter() - self.t0) * 1000, 3)
        if self.writer is not None:
            self.writer.write(line)
        if self.strict and kind == "view" and any(m.divergences for m in self.mirrors.values()):
            raise StrictStop("mirror divergence under --strict")

    def _note_fate(self, seat: int, view: Any) -> None:
        """Keep the beat of the seat's latest view showing it in and of its first showing it
        out (its own ``summary.alive``), for :func:`out_night_bounds`."""
        data = view.get("data") if isinstance(view, dict) else None
        summary = data.get("summary") if isinstance(data, dict) else None
        if not isinstance(summary, dict) or view.get("status") == "starting":
            return
        day, phase, alive = summary.get("day"), summary.get("phase"), summary.get("alive")
        if type(day) is not int or not isinstance(phase, str) or type(alive) is not bool:
            return
        if alive:
            self.seen_in[seat] = (day, phase)
        else:
            self.seen_out.setdefault(seat, (day, phase))

    def out_night(self, seat: int) -> tuple[int | None, list[int] | None]:
        """``(night, None)`` when the seat's out-night is known (a mirror saw it, or its own
        views leave one night), ``(None, [first, last])`` when they leave a range, else
        ``(None, None)`` (still in, never seen out, or views that contradict)."""
        for mirror in self.mirrors.values():
            if seat in mirror.out_nights:
                return mirror.out_nights[seat], None
        bounds = out_night_bounds(self.seen_in.get(seat), self.seen_out.get(seat))
        if bounds is None:
            return None, None
        return (bounds[0], None) if bounds[0] == bounds[1] else (None, list(bounds))

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


def out_night_bounds(
    last_in: tuple[int, str] | None, first_out: tuple[int, str] | None
) -> tuple[int, int] | None:
    """The nights a seat may have gone out on, ``(first, last)``, from the ``(day, phase)``
    of its latest view showing it in and of its first showing it out (``None``: no such
    view). Seats go out only at a night's cost (``docs/rules/harvest-watch.md``, the action
    beat), so a seat in on day ``d`` before its diary went out on night ``d`` or later
    (``d + 1`` after it), and one out on day ``d``'s diary or done on night ``d`` at the
    latest (``d - 1`` on an earlier beat). ``None`` when never seen out, or when the views
    contradict each other (a server's fault, which the mirror reports)."""
    if first_out is None:
        return None
    first = 1 if last_in is None else last_in[0] + (last_in[1] in ("diary", "done"))
    last = first_out[0] - (first_out[1] not in ("diary", "done"))
    return (first, last) if first <= last else None


async def _seats(
    client: MatchClient,
    game: str,
    seed: int,
    seats: int,
    server: str | None,
    match_id: str | None,
    start_ms: int | None = None,
    beat_ms: dict[str, int] | None = None,
) -> tuple[str, list[SeatTicket]]:
    if match_id is not None:
        return match_id, [await client.join(match_id) for _ in range(seats)]
    if server is None:
        beats = beat_ms or LOCAL_BEAT_MS
        return await client.create(game, seats=seats, beat_ms=beats, start_ms=0, seed=seed)
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
    on_recorder: Callable[[MatchRecorder], None] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    policy: RetryPolicy | None = None,
    make: Callable[[random.Random], MatchStrategy] | None = None,
    start_ms: int | None = None,
    announce: Callable[[str], None] | None = None,
    move_timeout: float | None = None,
    beat_ms: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Play one match and return the transcript's ``result`` record (see the module doc),
    plus ``final`` (the last view) and ``mirrorDivergences`` (the list), which the transcript
    does not get. ``make(rng)`` builds each seat's strategy (default: ``strategy`` from the
    registry). ``start_ms``: a created match's countdown (others may join meanwhile);
    ``announce(match_id)`` is called once the match exists. ``beat_ms``: a match we create
    on the embedded server gets these beat lengths (default :data:`LOCAL_BEAT_MS`, or
    :data:`LOCAL_SLOW_BEAT_MS` for clocked or slow seats). Cancelling the task (Ctrl-C)
    ends it with ``endedBy: interrupted`` and the result line still written. Whatever the
    retry ``policy`` could not absorb ends the match with
    ``endedBy: error`` and a one-line ``error``, never an exception."""
    if server is None and transport is None:
        raise ValueError("a match on the embedded server needs its transport (sunbot.api)")
    client = MatchClient(server or "http://sunbot.local", transport=transport, policy=policy)
    rec = MatchRecorder(writer, strict)
    if writer is not None:  # a joined match's seed is its creator's: not ours to record
        shown = None if match_id is not None else seed
        writer.header(game, shown, strategy, public_url(server) if server else "embedded")
    if on_recorder is not None:  # a face's live view follows rec.latest
        on_recorder(rec)
    interrupted = False
    started = time.perf_counter()
    results: list[SeatResult] = []
    error: str | None = None
    mid = match_id
    try:
        build = make or (lambda rng: cast(MatchStrategy, create_agent(game, strategy, rng)))
        bots = [build(random.Random(seed * 1000 + i)) for i in range(seats)]
        slow = move_timeout is not None or any(getattr(b, "blocking", False) for b in bots)
        async with client:
            mid, tickets = await _seats(
                client, game, seed, seats, server, match_id, start_ms,
                beat_ms or (LOCAL_SLOW_BEAT_MS if slow else None),
            )  # fmt: skip
            if announce is not None:
                announce(mid)
            for t in tickets:
                rec.mirrors[t.seat] = MatchMirror(t.seat)
            players = list(zip(tickets, bots, strict=True))
            for _, bot in players:  # the optional hook; a joined match's seed is not ours
                strategies.notify_start(bot, game, seed if match_id is None else None, None)
            results = await play_match(
                client, mid, players, on_event=rec.on_event, move_timeout=move_timeout
            )
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
    fs = final_summary(rec.latest)
    foods, living = fs.get("foods"), fs.get("aliveSeats")
    fates = {r.seat: rec.out_night(r.seat) for r in results}
    unknown = {f for m in rec.mirrors.values() for f in m.unknown_fields} | rec.cut_paths
    ordered = sorted(results, key=lambda r: r.seat)
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
                "outNight": fates[r.seat][0],
                **({"outNightBetween": b} if (b := fates[r.seat][1]) else {}),
                "commands": r.commands,
                "refusals": dict(r.refusals),
                "postFailures": r.post_failures,
                "pollsClamped": r.clamped_polls,
                "error": r.error,
                **({"timeouts": r.timeouts} if r.timeouts else {}),
                **({"agent": r.agent} if r.agent else {}),
            }
            for r in ordered
        ],
        "steps": sum(r.commands for r in results),
        "refused": sum(sum(r.refusals.values()) for r in results),
        **({"timeouts": n} if (n := sum(r.timeouts for r in results)) else {}),
        **({"agent": a} if (a := merge_agent_totals([r.agent for r in ordered])) else {}),
        "divergences": len(rec.divergences),
        "endedBy": ended,
        "responsesChecked": sum(m.responses_checked for m in rec.mirrors.values()),
        "beatsChecked": sum(m.beats_checked for m in rec.mirrors.values()),
        "nightsUndecided": sum(m.nights_undecided for m in rec.mirrors.values()),
        "unknownFields": listed(sorted(unknown)),
        **({"unknownFieldsNotListed": n} if (n := len(unknown) - MAX_LISTED) > 0 else {}),
        **({"cutFields": rec.cut_fields} if rec.cut_fields else {}),
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


def at_seat(values: Any, seat: int) -> float | None:
    """``values[seat]`` when it is a number (a server's ``foods``), else ``None``."""
    if isinstance(values, list) and 0 <= seat < len(values):
        v = values[seat]
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None
    return None
