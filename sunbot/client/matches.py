"""Async client of the match protocol and the seat loop (Harvest Watch
§2 "Match protocol over HTTP", §2.8 "Client loop", and the rule text's Platform section).

:class:`MatchClient` calls the four match routes of :data:`~sunbot.client.routes.ROUTES`
through :class:`~sunbot.client.http.GameboardClient`, so answers are read, capped and
turned into errors in one place, under the one :class:`~sunbot.client.retry.RetryPolicy`
wherever a retry is safe: view GETs (429, 503, dropped connections, ..., and a 500, since
a view changes with the clock) and create (429, 503, dropped connections, ...); a
command POST only on a 429 or 503 (the server says it stored nothing); join never (a
repeat could take a second seat). A command whose fate is unknown (a dropped connection, a
502/504, a 500) is never re-sent blindly: the seat loop re-reads the view instead.

:func:`play_seat` is the platform loop: follow ``next.rel``, act while ``remainMs > 0``,
otherwise sleep ``pollAfterMs`` and GET; one command per beat with the view's ``round``; a
refusal or a failed POST is answered by a fresh GET (never a re-POST of the same body), and
after ``illegal_command`` the seat sends once ``legal[0]`` or ``schema.example``.
:func:`play_match` plays several seats of one match concurrently with asyncio.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import httpx
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from sunbot._text.safe import describe, remember, safe, traceback_text
from sunbot.client.http import LOCAL_BASE_URL, GameboardClient
from sunbot.client.pacing import StallWatch, clamp_poll_ms, near_deadline
from sunbot.client.retry import (
    MalformedResponse,
    RetryPolicy,
    ServerRefused,
    TransientHTTPError,
    is_retryable_read,
    is_unprocessed,
    never,
)
from sunbot.observations.harvest_watch import legal_actions
from sunbot.strategies import Outcome, notify_end

log = logging.getLogger("sunbot.client.matches")

#: Errors after which a POST's fate is unknown: the loop re-reads the view.
POST_FAILURES = (httpx.TransportError, TransientHTTPError, MalformedResponse)
#: Refused stores in one beat after which the seat stops acting and waits for the beat.
MAX_REFUSALS_PER_BEAT = 2
#: Most requests one seat makes in a match (a 30-day match at the slowest beats is a few
#: thousand polls at the clamped interval): every loop is bounded.
MAX_SEAT_REQUESTS = 200_000


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class NextLink(_Open):
    """``next``: with ``rel`` ``act`` the seat may POST a command; any other form means GET
    after ``pollAfterMs``. The rule text names only ``rel: act`` and a GET, so the other
    form's ``rel``, and ``method`` and ``href`` of both, are the server's (ours: ``poll``
    and a path, §2.3); the loop reads only ``rel``."""

    rel: str | None = None
    method: str | None = None
    href: str | None = None


class MatchData(_Open):
    """``data`` of a view; the fields the loop relies on are typed, the rest kept.
    ``phase`` is our server's copy of ``summary.phase`` (the text names only the latter):
    another server may leave it out."""

    round: StrictInt
    phase: str | None = None
    summary: dict[str, Any]
    legal: list[Any] | None = None
    pending: list[Any] | None = None
    result: dict[str, Any] | None = None


class MatchView(_Open):
    """A GET view, or a command POST's success (then ``ok`` is true) (§2.3, §2.4).

    ``status`` is a word: the text names ``starting`` and ``running`` but not the finished
    one (ours ``done``), so :attr:`finished` also reads ``summary.phase``, which the text
    fixes as ``done`` at the end. ``next`` may be null or left out once finished.
    """

    ok: bool | None = None
    status: str
    remainMs: StrictInt = Field(ge=0)
    pollAfterMs: StrictInt = Field(ge=0)
    next: NextLink | None = None
    data: MatchData

    @property
    def finished(self) -> bool:
        """The match is over: status ``done`` or, whatever the status word, the summary's
        phase ``done`` (the rule text's State section)."""
        return self.status == "done" or self.data.summary.get("phase") == "done"


def observation_of(raw_data: dict[str, Any]) -> dict[str, Any]:
    """The observation a strategy gets: the view's ``data`` with ``phase`` set from
    ``summary.phase`` (the text's field; ``data.phase`` is only our server's copy, which
    another server may omit or use otherwise)."""
    summary = raw_data.get("summary")
    phase = summary.get("phase") if isinstance(summary, dict) else None
    return {**raw_data, "phase": phase} if isinstance(phase, str) else dict(raw_data)


class CommandRefused(_Open):
    """HTTP 200 ``{ok: false, reason, round}``: nothing was stored (§2.4)."""

    ok: Literal[False]
    reason: str
    round: StrictInt | None = None


@dataclass
class Answer:
    """A decoded view (``view``) or refusal (``refused``) and the raw JSON it came from."""

    raw: dict[str, Any]
    view: MatchView | None = None
    refused: CommandRefused | None = None


def _parse_view(data: Any) -> MatchView:
    try:
        return MatchView.model_validate(data)
    except ValidationError as exc:
        raise MalformedResponse(f"match view: {exc.errors()[0]['msg']}") from None


def _parse_answer(data: Any) -> Answer:
    if isinstance(data, dict) and data.get("ok") is False:
        try:
            return Answer(data, refused=CommandRefused.model_validate(data))
        except ValidationError as exc:
            raise MalformedResponse(f"refusal: {exc.errors()[0]['msg']}") from None
    return Answer(data, view=_parse_view(data))


@dataclass(frozen=True)
class SeatTicket:
    """A seat and its secret token (``repr`` hides the token)."""

    seat: int
    token: str = field(repr=False)

    def __post_init__(self) -> None:
        remember(self.token)  # redacted by value from every message we print, log or write


class MatchClient:
    """The four match routes.

    Args:
        base_url, transport, timeout: as for :class:`GameboardClient`.
        policy: the retry policy (see the module doc for what each route retries).
    """

    def __init__(
        self,
        base_url: str = LOCAL_BASE_URL,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        policy: RetryPolicy | None = None,
        timeout: float = 15.0,
    ) -> None:
        policy = policy or RetryPolicy()
        self.reads = GameboardClient(base_url, transport=transport, policy=policy, timeout=timeout)
        self.writes = GameboardClient(base_url, transport=transport, policy=policy, timeout=timeout)
        self.writes.contact = self.reads.contact  # one server: an answer to either counts

    @property
    def retries(self) -> int:
        """Requests retried so far."""
        return self.reads.retries + self.writes.retries

    async def __aenter__(self) -> MatchClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close both connection pools."""
        await self.reads.aclose()
        await self.writes.aclose()

    async def create(
        self,
        slug: str,
        *,
        seats: int = 1,
        beat_ms: dict[str, int] | None = None,
        start_ms: int | None = None,
        seed: int | None = None,
    ) -> tuple[str, list[SeatTicket]]:
        """Create a match (§2.1); returns ``(matchId, tickets sorted by seat)``.

        Raises:
            ServerRefused: 400 ``bad_request`` (a field out of range), 404 unknown game.
            MalformedResponse: the answer lacks ``matchId`` or ``seats``.
        """
        body: dict[str, Any] = {"seats": seats}
        if beat_ms is not None:
            body["beatMs"] = beat_ms
        if start_ms is not None:
            body["startMs"] = start_ms
        if seed is not None:
            body["seed"] = seed
        data = await self.writes.request_json("match_create", body=body, slug=slug)
        try:
            tickets = [SeatTicket(int(s["seat"]), str(s["token"])) for s in data["seats"]]
            return str(data["matchId"]), tickets
        except (KeyError, TypeError, ValueError):
            raise MalformedResponse("create answer lacks matchId or seats") from None

    async def join(self, match_id: str) -> SeatTicket:
        """Take the lowest free seat (§2.2). Raises ``ServerRefused`` 409 when full."""
        data = await self.writes.request_json(
            "match_join", body={}, retry_on=never, match_id=match_id
        )
        try:
            return SeatTicket(int(data["seat"]), str(data["token"]))
        except (KeyError, TypeError, ValueError):
            raise MalformedResponse("join answer lacks seat or token") from None

    async def view(self, match_id: str, token: str) -> Answer:
        """GET the seat's view (§2.3), retried by the policy, a 500 included
        (:func:`~sunbot.client.retry.is_retryable_read`)."""
        data = await self.reads.request_json(
            "match_view",
            params={"token": token},
            parse=_parse_view,
            retry_on=is_retryable_read,
            match_id=match_id,
        )
        return Answer(data, view=_parse_view(data))

    async def command(self, match_id: str, token: str, round_: int, actions: list[Any]) -> Answer:
        """POST ``{token, round, actions}`` (§2.4): a view (``ok``) or a refusal; sent
        again only after a 429 or 503 (nothing was stored)."""
        body = {"token": token, "round": round_, "actions": actions}
        data = await self.writes.request_json(
            "match_commands", body=body, retry_on=is_unprocessed, match_id=match_id
        )
        return _parse_answer(data)


class MatchStrategy(Protocol):
    """What the loop needs of a strategy: the one contract of every game,
    ``choose(observation, legal_actions) -> command`` for the current beat (``observation``
    is the view's ``data`` object, ``legal_actions`` its
    :func:`~sunbot.observations.harvest_watch.legal_actions`; see
    :class:`sunbot.strategies.Strategy` for the optional hooks)."""

    def choose(self, observation: dict[str, Any], legal_actions: list[Any], /) -> Any:
        """One command for the current beat."""
        ...


def fallback_command(data: dict[str, Any]) -> Any:
    """``legal[0]`` on the action beat, else ``schema.example`` (§2.8's one retry)."""
    legal = data.get("legal")
    if legal:
        return legal[0]
    return (data.get("schema") or {}).get("example", {"speech": "\u2026"})


#: ``on_event(seat, kind, record)``: ``kind`` is ``view`` (every view read or returned),
#: ``command`` (``{round, actions, answer}``, refusals and failures included, and ``agent``:
#: the decision's record when there is one) or ``timeout`` (``{round, agent}``: a decision
#: past its deadline, so nothing was sent).
OnEvent = Callable[[int, str, dict[str, Any]], None]


@dataclass
class SeatResult:
    """How one seat's loop ended: ``ranks`` once done; ``error`` when it stopped early;
    ``agent``: the agent's totals with the move clock's counters, as a single-player run's
    (:meth:`~sunbot.agents.clock.Decider.totals`), ``{}`` for an unclocked in-process one."""

    seat: int
    ranks: list[int] | None = None
    last: dict[str, Any] | None = None
    commands: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    post_failures: int = 0
    polls: int = 0
    clamped_polls: int = 0
    error: str | None = None
    error_traceback: str | None = None
    timeouts: int = 0
    agent: dict[str, Any] = field(default_factory=dict)


#: Seconds kept back from a beat's ``remainMs`` for the command to reach the server: a
#: clocked decision gets ``remainMs / 1000`` minus this (at most a fifth of what is left).
POST_MARGIN_S = 0.25


def beat_budget(remain_ms: int) -> float:
    """Seconds a clocked decision may take on a beat with ``remain_ms`` left."""
    left = max(0.0, remain_ms / 1000)
    return left - min(POST_MARGIN_S, left / 5)


async def _poll(
    view: MatchView, res: SeatResult, sleep: Callable[[float], Awaitable[None]], watch: StallWatch
) -> None:
    """Sleep the clamped ``pollAfterMs`` (counted in ``clamped_polls``, and logged once,
    unless it only fell below the floor near a deadline); raise
    :class:`~sunbot.client.pacing.Stalled` once ``watch`` says the server stopped."""
    watch.check()
    poll = clamp_poll_ms(view.pollAfterMs)
    if poll != view.pollAfterMs and not near_deadline(view.pollAfterMs, view.remainMs):
        if not res.clamped_polls:
            log.warning(
                "seat %d: the server's pollAfterMs %d clamped to %d ms (then every time)",
                res.seat,
                view.pollAfterMs,
                poll,
            )
        res.clamped_polls += 1
    res.polls += 1
    await sleep(poll / 1000)
    watch.slept(poll / 1000)


def final_ranks(view: MatchView, seat: int) -> list[int]:
    """``data.result.ranks`` of a finished view: one positive whole number per seat.

    Raises:
        ValueError: missing, not a list, too short for ``seat``, or an entry that is not a
            whole number from 1 (a bool, a float, null, a string, ...); the message shows
            the value. The rule text's Finish section ranks every seat from 1.
    """
    ranks = (view.data.result or {}).get("ranks")
    if (
        not isinstance(ranks, list)
        or not 0 <= seat < len(ranks)
        or not all(type(r) is int and r >= 1 for r in ranks)
    ):
        raise ValueError(f"the server's final ranks are not whole numbers from 1: {ranks!r:.200}")
    return ranks


async def play_seat(
    client: MatchClient,
    match_id: str,
    ticket: SeatTicket,
    strategy: MatchStrategy,
    *,
    on_event: OnEvent | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    move_timeout: float | None = None,
) -> SeatResult:
    """Play one seat to the end of the match (§2.8) and return its :class:`SeatResult`.

    Decisions go through the move clock (:class:`sunbot.agents.clock.Decider`). With a
    ``move_timeout``, or a ``blocking`` agent (a model, another process), each is also
    bounded by the beat's ``remainMs`` (:func:`beat_budget`); a decision past its deadline
    sends nothing, so the rules' default for a missed beat applies, and counts in
    ``timeouts``; the seat is not asked again in that beat (a slow model would otherwise be
    called, and billed, once per poll until the beat closes). A bot's ``SystemExit``,
    ``os._exit`` or ``fork`` ends the seat as its error.

    Errors the retry policy could not absorb (and a strategy error) end the loop with
    ``error`` set instead of raising, so sibling seats keep playing. ``pollAfterMs`` is
    clamped (:func:`~sunbot.client.pacing.clamp_poll_ms`; ``clamped_polls`` counts it,
    logged once); a server that stops advancing
    (:class:`~sunbot.client.pacing.StallWatch`), or a loop past :data:`MAX_SEAT_REQUESTS`,
    ends the seat with an error naming it. Final ranks that are not one whole number from
    1 per seat (:func:`final_ranks`) leave ``ranks`` ``None`` and set ``error``.
    """
    from sunbot.agents.clock import Decider

    res = SeatResult(ticket.seat)
    emit = on_event or (lambda *_: None)
    refused: Counter[int] = Counter()
    missed: set[int] = set()  # rounds whose decision ran out of time
    watch = StallWatch()
    decider = Decider(strategy, move_timeout_s=move_timeout)
    clocked = move_timeout is not None or decider.blocking
    try:
        ans = await client.view(match_id, ticket.token)
        for _ in range(MAX_SEAT_REQUESTS):
            view = ans.view
            assert view is not None
            res.last = ans.raw
            emit(ticket.seat, "view", ans.raw)
            if view.finished:
                try:
                    res.ranks = final_ranks(view, ticket.seat)
                except ValueError as exc:  # the mirror reports it too; no traceback to show
                    res.error = safe(exc)
                _notify_end(strategy, observation_of(ans.raw["data"]), res)
                return res
            raw_data = observation_of(ans.raw["data"])
            rnd = view.data.round
            watch.see(rnd, view.status, view.remainMs)
            act = view.next is not None and view.next.rel == "act" and view.remainMs > 0
            act = act and rnd not in missed  # one decision a beat: a late one is not re-asked
            if not act or refused[rnd] >= MAX_REFUSALS_PER_BEAT:
                await _poll(view, res, sleep, watch)
                ans = await client.view(match_id, ticket.token)
                continue
            record = None
            if refused[rnd] == 0:
                legal = legal_actions(raw_data)
                decision = await decider.decide(
                    raw_data, legal, budget_s=beat_budget(view.remainMs) if clocked else None,
                    fallback=lambda: None,
                )  # fmt: skip
                if decision.error is not None:
                    raise decision.error
                record = decider.last_decision()
                if decision.timed_out:  # missed: the beat's default applies
                    missed.add(rnd)
                    res.timeouts += 1
                    emit(ticket.seat, "timeout", {"round": rnd, "agent": record})
                    await _poll(view, res, sleep, watch)
                    ans = await client.view(match_id, ticket.token)
                    continue
                cmd = decision.action
            else:
                cmd = fallback_command(raw_data)
            res.commands += 1
            try:
                got = await client.command(match_id, ticket.token, rnd, [cmd])
            except (*POST_FAILURES, ServerRefused) as exc:  # fate unknown: read, never re-send
                if isinstance(exc, ServerRefused) and exc.status != 500:
                    raise  # a 4xx: the command itself is wrong, which ends the seat
                res.post_failures += 1
                emit(ticket.seat, "command", {"round": rnd, "actions": [cmd], "error": safe(exc)})
                ans = await client.view(match_id, ticket.token)
                continue
            event: dict[str, Any] = {"round": rnd, "actions": [cmd], "answer": got.raw}
            if record:
                event["agent"] = record
            emit(ticket.seat, "command", event)
            if got.view is not None:
                ans = got
                continue
            assert got.refused is not None
            reason = safe(got.refused.reason)
            res.refusals[reason] += 1
            if reason == "illegal_command":
                refused[rnd] += 1
            log.info("seat %d: %s on round %d", ticket.seat, reason, rnd)
            ans = await client.view(match_id, ticket.token)
        raise RuntimeError(f"no end of the match after {MAX_SEAT_REQUESTS} requests")
    except Exception as exc:  # one seat's failure must not stop its siblings
        res.error = describe(exc)
        res.error_traceback = traceback_text(traceback.format_exc())
        last = res.last.get("data") if res.last else None
        last = observation_of(last) if isinstance(last, dict) else None
        _notify_end(strategy, last, res)
        return res
    finally:
        decider.close()
        res.agent = _agent_totals(strategy, decider, clocked)


def _agent_totals(strategy: MatchStrategy, decider: Any, clocked: bool) -> dict[str, Any]:
    """The seat's ``agent`` totals, on the single-player path's terms
    (:meth:`sunbot.runs.loop.Run.finish`): when the strategy keeps ``totals()`` or ran
    under the clock; a ``totals()`` that raises is logged and leaves ``{}``."""
    if not (callable(getattr(strategy, "totals", None)) or clocked):
        return {}
    try:
        return dict(decider.totals())
    except Exception:
        log.warning("the agent's totals() failed", exc_info=True)
        return {}


def seat_score(seat: int, ranks: list[int] | None) -> int:
    """Seats ranked strictly below ``seat`` (0-5): a match's score for one seat; 0 when
    ``ranks`` has no whole-number rank for every seat (see :func:`final_ranks`)."""
    if not ranks or not 0 <= seat < len(ranks) or not all(type(r) is int for r in ranks):
        return 0
    return sum(r > ranks[seat] for r in ranks)


def _notify_end(strategy: MatchStrategy, data: Any, res: SeatResult) -> None:
    """The strategy's optional ``on_end`` hook, with the seat's outcome."""
    outcome: Outcome = {
        "game": "harvest-watch",
        "score": seat_score(res.seat, res.ranks),
        "endedBy": "error" if res.error else "rules",
        "error": res.error,
    }
    notify_end(strategy, data if isinstance(data, dict) else None, outcome)


async def play_match(
    client: MatchClient,
    match_id: str,
    players: list[tuple[SeatTicket, MatchStrategy]],
    *,
    on_event: OnEvent | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    move_timeout: float | None = None,
) -> list[SeatResult]:
    """Play every ``(ticket, strategy)`` of one match concurrently; results in that order."""
    seats = (
        play_seat(client, match_id, t, s, on_event=on_event, sleep=sleep, move_timeout=move_timeout)
        for t, s in players
    )
    return list(await asyncio.gather(*seats))
