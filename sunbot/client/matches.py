"""Async client of the match protocol (Harvest Watch §2 "Match protocol over HTTP", and the
rule text's Platform section): the routes and their answers, nothing of how a seat plays.

:class:`MatchClient` calls the four match routes of :data:`~sunbot.client.routes.ROUTES`
through :class:`~sunbot.client.http.GameboardClient`, so answers are read, capped and
turned into errors in one place, under the one :class:`~sunbot.client.retry.RetryPolicy`
wherever a retry is safe: view GETs (429, 503, dropped connections, ..., and a 500, since
a view changes with the clock) and create (429, 503, dropped connections, ...); a
command POST only on a 429 or 503 (the server says it stored nothing); join never (a
repeat could take a second seat). A command whose fate is unknown (a dropped connection, a
502/504, a 500) is never re-sent blindly: the seat loop (:mod:`sunbot.runs.seats`, over
:class:`sunbot.runs.seat_http.HttpSeat`) re-reads the view instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from sunbot import _compat
from sunbot._text.safe import remember
from sunbot.client.http import LOCAL_BASE_URL, GameboardClient
from sunbot.client.retry import (
    MalformedResponse,
    RetryPolicy,
    is_retryable_read,
    is_unprocessed,
    never,
)

#: The seat loop's names that lived here, moved to :mod:`sunbot.runs` (one release).
__getattr__ = _compat.forward_moved_names(__name__)


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
