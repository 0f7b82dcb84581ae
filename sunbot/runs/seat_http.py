"""The HTTP seat backend: a seat of a match on any match server, through
:class:`~sunbot.client.matches.MatchClient` (Harvest Watch §2 "Match protocol over HTTP", §2.8
"Client loop", and the rule text's Platform section).

:class:`HttpSeat` follows ``next.rel``: the seat may act while ``next.rel`` is ``act`` and
``remainMs > 0``; otherwise it sleeps ``pollAfterMs`` (clamped:
:func:`~sunbot.client.pacing.clamp_poll_ms`) and GETs again. A command whose fate is unknown
(a dropped connection, a 502/504, a 500) is :class:`~sunbot.runs.seats.CommandLost`; a 4xx
ends the seat. A server that stops advancing (:class:`~sunbot.client.pacing.StallWatch`)
ends it too, with an error naming it. :func:`play_seat` and :func:`play_match` play seats
of a match on a server through the one seat loop (:mod:`sunbot.runs.seats`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from sunbot.client.matches import Answer, MatchClient, MatchView, SeatTicket, observation_of
from sunbot.client.pacing import StallWatch, clamp_poll_ms, near_deadline
from sunbot.client.retry import MalformedResponse, ServerRefused, TransientHTTPError
from sunbot.runs.seats import (
    CommandLost,
    MatchStrategy,
    OnEvent,
    SeatResult,
    SeatView,
    Sent,
    play_seats,
)
from sunbot.runs.seats import play_seat as _play_seat

log = logging.getLogger("sunbot.runs.seat_http")

#: Errors after which a POST's fate is unknown: the loop re-reads the view.
POST_FAILURES = (httpx.TransportError, TransientHTTPError, MalformedResponse)
#: Seconds kept back from a beat's ``remainMs`` for the command to reach the server: a
#: clocked decision gets ``remainMs / 1000`` minus this (at most a fifth of what is left).
POST_MARGIN_S = 0.25

Sleep = Callable[[float], Awaitable[None]]


def beat_budget(remain_ms: int) -> float:
    """Seconds a clocked decision may take on a beat with ``remain_ms`` left."""
    left = max(0.0, remain_ms / 1000)
    return left - min(POST_MARGIN_S, left / 5)


class HttpSeat:
    """One seat of match ``match_id`` on the server behind ``client``.

    Args:
        client: the match client (its retry policy applies to every route).
        match_id: the match.
        ticket: the seat and its secret token.
        sleep: how to wait between polls (tests pass a fake clock's).
        result: where the poll counters go (``polls``, ``clamped_polls``); a fresh one
            when ``None``.
    """

    def __init__(
        self,
        client: MatchClient,
        match_id: str,
        ticket: SeatTicket,
        *,
        sleep: Sleep = asyncio.sleep,
        result: SeatResult | None = None,
    ) -> None:
        self.client = client
        self.match_id = match_id
        self.ticket = ticket
        self.seat = ticket.seat
        self._sleep = sleep
        self._watch = StallWatch()
        self.counters = result or SeatResult(ticket.seat)

    def _seen(self, raw: dict[str, Any], view: MatchView) -> SeatView:
        finished = view.finished
        if not finished:
            self._watch.see(view.data.round, view.status, view.remainMs)
        can_act = view.next is not None and view.next.rel == "act" and view.remainMs > 0
        return SeatView(
            raw, observation_of(raw["data"]), view.data.round, finished, can_act,
            beat_budget(view.remainMs),
        )  # fmt: skip

    def _of(self, answer: Answer) -> SeatView:
        assert answer.view is not None
        return self._seen(answer.raw, answer.view)

    async def view(self) -> SeatView:
        """GET the seat's view (retried by the client's policy)."""
        return self._of(await self.client.view(self.match_id, self.ticket.token))

    async def command(self, round_: int, actions: list[Any]) -> Sent:
        """POST ``{token, round, actions}``; a refusal is :attr:`Sent.refused`.

        Raises:
            CommandLost: a dropped connection, a 5xx or a malformed answer: the command may
                have been stored.
            sunbot.client.ServerRefused: a 4xx (the command itself is wrong).
        """
        try:
            got = await self.client.command(self.match_id, self.ticket.token, round_, actions)
        except (*POST_FAILURES, ServerRefused) as exc:
            if isinstance(exc, ServerRefused) and exc.status != 500:
                raise  # a 4xx: the command itself is wrong, which ends the seat
            raise CommandLost(str(exc)) from exc
        if got.view is not None:
            return Sent(got.raw, view=self._seen(got.raw, got.view))
        assert got.refused is not None
        return Sent(got.raw, refused=got.refused.reason)

    async def wait(self, view: SeatView) -> SeatView:
        """Sleep the view's clamped ``pollAfterMs`` and GET again.

        Raises:
            sunbot.client.pacing.Stalled: the server stopped advancing.
        """
        self._watch.check()
        asked = view.raw.get("pollAfterMs")
        remain = view.raw.get("remainMs")
        asked = asked if type(asked) is int else 0
        remain = remain if type(remain) is int else 0
        poll = clamp_poll_ms(asked)
        res = self.counters
        if poll != asked and not near_deadline(asked, remain):
            if not res.clamped_polls:
                log.warning(
                    "seat %d: the server's pollAfterMs %d clamped to %d ms (then every time)",
                    self.seat,
                    asked,
                    poll,
                )
            res.clamped_polls += 1
        res.polls += 1
        await self._sleep(poll / 1000)
        self._watch.slept(poll / 1000)
        return await self.view()

    def missed(self, round_: int) -> None:
        """Nothing to do: the server's clock resolves the beat."""

    def leave(self, error: BaseException | None = None) -> None:
        """Nothing to do: the server's clock plays on without us."""


async def play_seat(
    client: MatchClient,
    match_id: str,
    ticket: SeatTicket,
    strategy: MatchStrategy,
    *,
    on_event: OnEvent | None = None,
    sleep: Sleep = asyncio.sleep,
    move_timeout: float | None = None,
) -> SeatResult:
    """Play one seat of ``match_id`` on the server behind ``client`` to the end of the match
    through the one seat loop (:func:`sunbot.runs.seats.play_seat`, whose rules apply);
    the result carries the seat's poll counters too."""
    seat = HttpSeat(client, match_id, ticket, sleep=sleep)
    res = await _play_seat(seat, strategy, on_event=on_event, move_timeout=move_timeout)
    res.polls, res.clamped_polls = seat.counters.polls, seat.counters.clamped_polls
    return res


async def play_match(
    client: MatchClient,
    match_id: str,
    players: list[tuple[SeatTicket, MatchStrategy]],
    *,
    on_event: OnEvent | None = None,
    sleep: Sleep = asyncio.sleep,
    move_timeout: float | None = None,
) -> list[SeatResult]:
    """Play every ``(ticket, strategy)`` of one match on a server concurrently; results in
    that order (each through :func:`play_seat`)."""
    seats = [HttpSeat(client, match_id, t, sleep=sleep) for t, _ in players]
    results = await play_seats(
        [(s, strategy) for s, (_, strategy) in zip(seats, players, strict=True)],
        on_event=on_event,
        move_timeout=move_timeout,
    )
    for seat, res in zip(seats, results, strict=True):
        res.polls, res.clamped_polls = seat.counters.polls, seat.counters.clamped_polls
    return results
