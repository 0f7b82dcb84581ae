"""Async client for the platform's stateless single-player API (the platform protocol).

The transport is injected (httpx): the same code talks to the embedded server in-process
(``httpx.ASGITransport``), to ``sunbot serve`` on loopback, or to the live service. Every
call goes through :class:`~sunbot.client.retry.RetryPolicy`. An illegal action is not an
error: :meth:`GameboardClient.act` returns a :class:`Rejected`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import httpx
from pydantic import ValidationError
from tenacity import RetryCallState

from sunbot._text import redaction
from sunbot._text.safe import remember, safe
from sunbot.client.answers import MAX_BODY_BYTES, decode, refusal_reason, too_large
from sunbot.client.models import (
    ActionAnswer,
    Envelope,
    GameIndex,
    RefusalBody,
    first_error,
    read_index,
)
from sunbot.client.retry import (
    RETRY_STATUSES,
    CrossOriginRedirect,
    MalformedResponse,
    RetryInterrupted,
    RetryPolicy,
    ServerRefused,
    TransientHTTPError,
    is_retryable,
    parse_retry_after,
)
from sunbot.client.routes import ROUTES
from sunbot.client.spec_check import check_spec

log = logging.getLogger("sunbot.client")

#: Seconds an idle pooled connection is kept: well under servers' usual keep-alive timeout
#: (uvicorn and ``sunbot serve``: 5 s), so the client never reuses a connection the server
#: is closing at that very moment.
KEEPALIVE_S = 2.0
#: Redirects followed per request (a loop of redirects is then an error, not a hang).
MAX_REDIRECTS = 5


def public_url(url: str) -> str:
    """``url`` without its ``user:password@`` part: what a transcript, a log or the screen
    may show of a ``--server`` URL (the client still sends the credentials)."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "<unreadable URL>"
    return str(parsed.copy_with(userinfo=b"")) if parsed.userinfo else url


#: Base URL used with an in-process transport.
LOCAL_BASE_URL = "http://sunbot.local"


def url_problem(server: object) -> str | None:
    """Why ``server`` is not a server origin (an absolute ``http``/``https`` URL with a host,
    such as ``https://gameboard.gg``), as a one-line error naming the value
    (``"'127.0.0.1:8765' is not a URL: did you mean http://127.0.0.1:8765?"``); ``None`` if
    it is."""
    url: httpx.URL | None
    try:
        url = httpx.URL(server) if isinstance(server, str) else None
    except (httpx.InvalidURL, ValueError, TypeError):
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        if isinstance(server, str) and server and "://" not in server:
            return f"{server!r:.80} is not a URL: did you mean http://{server:.80}?"
        return f"{server!r:.80} is not a server URL such as https://gameboard.gg"
    if url.port is not None and not 1 <= url.port <= 65535:
        return f"port {url.port} is out of range (1..65535) in {server!r:.80}"
    return None


@dataclass
class Position:
    """A position the server answered: the envelope and the raw JSON it came from.

    ``state`` is the server's ``state`` when it is a JSON object (``None`` when it sent
    only a token, or a ``state`` that is an id such as ``"g1"``); ``observation`` is the
    server's ``observation`` when it is an object, else ``state`` when that is one, else
    ``{"value": <observation>}`` for an observation of another JSON type (a game sunbot
    does not know may show its board as a string), else ``{}``.
    """

    envelope: Envelope
    raw: dict[str, Any]

    @property
    def state(self) -> dict[str, Any] | None:
        state = self.envelope.state
        return state if isinstance(state, dict) else None

    @property
    def observation(self) -> dict[str, Any]:
        obs = self.envelope.observation
        if isinstance(obs, dict):
            return obs
        if self.state is not None:
            return self.state
        return {} if obs is None else {"value": obs}

    @property
    def legal_actions(self) -> list[Any]:
        return self.envelope.legalActions

    @property
    def score(self) -> int | float:
        return self.envelope.score

    @property
    def game_over(self) -> bool:
        return self.envelope.gameOver

    def carry(self) -> dict[str, Any]:
        """What the next action request carries: whichever the server gave, the token when
        it gave one (any JSON string, sent back as it came), else its ``state`` (any JSON
        value: a whole plain state, or an id), never both.

        Raises:
            MalformedResponse: the answer held neither.
        """
        if self.envelope.stateToken is not None:
            return {"stateToken": self.envelope.stateToken}
        if self.envelope.state is not None:
            return {"state": self.envelope.state}
        raise MalformedResponse("the answer carries neither stateToken nor state")


@dataclass
class Contact:
    """Whether a server ever answered a client (:class:`~sunbot.client.retry.RetryPolicy`
    gives a server never reached only ``unreached_seconds``)."""

    answered: bool = False


@dataclass
class Rejected:
    """HTTP 200 ``{ok: false}``: the server refused the action; the position is unchanged."""

    reason: str
    legal_actions: list[Any] | None
    raw: dict[str, Any] = field(repr=False)


class GameboardClient:
    """Async client of the init/action API.

    Args:
        base_url: server origin, e.g. ``https://gameboard.gg`` (default: the in-process name).
        transport: an httpx transport (e.g. ``httpx.ASGITransport(app=...)``); ``None`` uses
            the network.
        policy: retry bounds (:class:`RetryPolicy`).
        timeout: seconds per request phase (connect, each read, write, pool).
        deadline: seconds one attempt may take in all, however slowly bytes trickle in
            (default ``2 * timeout``, well inside the policy's budget); past it the attempt
            fails as a timeout and is retried.
    """

    def __init__(
        self,
        base_url: str = LOCAL_BASE_URL,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        policy: RetryPolicy | None = None,
        timeout: float = 15.0,
        deadline: float | None = None,
    ) -> None:
        redaction.install()  # httpx logs request URLs, credentials included
        self.base_url = base_url.rstrip("/")
        self._origin = _origin(httpx.URL(self.base_url))
        remember(httpx.URL(self.base_url).password)  # redacted by value from every message
        self.timeout = timeout
        self.policy = policy or RetryPolicy()
        self.deadline = deadline if deadline is not None else 2 * timeout
        self.retries = 0
        #: Whether any answer (any HTTP status) ever came from the server; shared by the
        #: clients of one :class:`~sunbot.client.matches.MatchClient`.
        self.contact = Contact()
        self._stop = asyncio.Event()
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport,
            timeout=timeout,
            limits=httpx.Limits(keepalive_expiry=KEEPALIVE_S),
            follow_redirects=True,  # a moved path on the same origin
            max_redirects=MAX_REDIRECTS,
            event_hooks={"request": [self._same_origin, self._count_request]},
            headers={"user-agent": "sunbot", "accept": "application/json"},
        )

    async def _same_origin(self, request: httpx.Request) -> None:
        """httpx's request hook, run before every request it sends, redirects included:
        a request to another scheme, host or port than ``base_url`` (a redirect elsewhere,
        which would carry our state token or seat token there) is refused.

        Raises:
            CrossOriginRedirect: the request's origin is not ``base_url``'s.
        """
        if _origin(request.url) != self._origin:
            where = request.url.copy_with(query=None, userinfo=b"", fragment=None)
            raise CrossOriginRedirect(
                f"the server redirected {request.method} to another origin ({safe(where, 120)});"
                f" only redirects within {_show_origin(self._origin)} are followed"
            )

    async def _count_request(self, request: httpx.Request) -> None:
        """httpx's request hook, after :meth:`_same_origin`: while daily spend caps are in
        force (:func:`sunbot.spend.meter.current`), each request to a server, retries
        included, is counted against its daily request cap before it is sent (the
        in-process embedded server is not counted).

        Raises:
            sunbot.spend.SpendCapReached: the request would pass the cap (not sent).
        """
        from sunbot.spend.meter import current

        meter = current()
        if meter is None or self.base_url == LOCAL_BASE_URL:
            return
        await asyncio.to_thread(meter.take_request, _show_origin(self._origin))

    async def __aenter__(self) -> GameboardClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    def interrupt(self) -> None:
        """Stop waiting to retry: a retry wait in progress, and every later one, ends at
        once with :class:`~sunbot.client.retry.RetryInterrupted` (a Ctrl-C must not sit
        out a 60 s retry budget). Call it on the client's event loop (from a signal
        handler: ``loop.call_soon_threadsafe(client.interrupt)``)."""
        self._stop.set()

    async def _sleep(self, seconds: float) -> None:
        """The policy's wait, cut short by :meth:`interrupt`."""
        if not self._stop.is_set():
            waits: list[asyncio.Future[Any]] = [
                asyncio.ensure_future(self.policy.sleep(seconds)),
                asyncio.ensure_future(self._stop.wait()),
            ]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()
        if self._stop.is_set():
            raise RetryInterrupted(f"interrupted while waiting {seconds:.1f} s to retry")

    def _on_retry(self, state: RetryCallState) -> None:
        self.retries += 1
        exc = state.outcome.exception() if state.outcome is not None else None
        what = f"{type(exc).__name__}: {exc}" if exc is not None else "?"
        # a first retry is routine (a 429 on a rate-limited route, one dropped connection) and
        # is counted in the run's summary; a request that fails again is worth a warning
        level = logging.INFO if state.attempt_number == 1 else logging.WARNING
        log.log(level, "retrying after %s (attempt %d)", what, state.attempt_number)

    async def request_json(
        self,
        route: str,
        *,
        params: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
        parse: Callable[[Any], Any] | None = None,
        retry_on: Callable[[BaseException], bool] = is_retryable,
        **path: str,
    ) -> Any:
        """Call ``ROUTES[route]`` with retries and return the decoded JSON body.

        ``parse`` (optional) checks the decoded body inside the retry loop: it raises
        :class:`MalformedResponse` for a body of the wrong shape, which is retried.
        ``retry_on`` narrows what is retried for a request that is not safe to repeat
        (:func:`~sunbot.client.retry.is_unprocessed`, :func:`~sunbot.client.retry.never`).

        Raises:
            ServerRefused: a 4xx other than 429, or a 500 (not retried).
            TransientHTTPError, MalformedResponse, httpx.TransportError: still failing when
                the retry budget ran out.
        """
        r = ROUTES[route]
        url = r.url(**path)
        retrying = self.policy.retrying(
            self._on_retry, retry_on, self._sleep, answered=lambda: self.contact.answered
        )
        async for attempt in retrying:
            with attempt:
                data = await self._once(r.method, url, params, body)
                if parse is not None:
                    parse(data)
                return data
        raise AssertionError("unreachable: tenacity reraises")  # pragma: no cover

    async def _once(
        self, method: str, url: str, params: dict[str, Any] | None, body: dict[str, Any] | None
    ) -> Any:
        headers = None if body is None else _JSON_BODY
        sent = _sent_secrets(params, body)
        try:
            async with asyncio.timeout(self.deadline):
                async with self._http.stream(
                    method, url, params=params, content=_encode(body), headers=headers
                ) as resp:
                    self.contact.answered = True
                    raw = await _read_capped(resp)
        except TimeoutError:
            raise httpx.ReadTimeout(
                f"{method} {url}: the answer was not complete within {self.deadline:g} s"
            ) from None
        except httpx.TimeoutException as exc:  # httpx's own message is often empty
            phase = type(exc).__name__.removesuffix("Timeout").lower() or "request"
            raise type(exc)(
                f"{method} {url}: no {phase} progress within {self.timeout:g} s"
            ) from None
        status = resp.status_code
        if status in RETRY_STATUSES:
            raise TransientHTTPError(
                status,
                refusal_reason(raw, resp, sent, plain=True),
                parse_retry_after(resp.headers.get("retry-after")),
            )
        if status >= 400:
            raise ServerRefused(status, refusal_reason(raw, resp, sent))
        return decode(raw, resp)

    async def games(self, *, retry: bool = True) -> GameIndex:
        """``GET /api/games``: the index of games. ``retry=False``: only a rate limit (429)
        is waited out; any other failure ends the call at once."""
        retry_on = is_retryable if retry else _rate_limited
        data = await self.request_json("games", parse=_parse_index, retry_on=retry_on)
        return _parse_index(data)

    async def spec(self, slug: str, name: str | None = None) -> dict[str, Any]:
        """``GET /api/games/{slug}/spec``: the game's self-documenting ``spec`` (goal,
        scoring, rules, action grammar), checked to be ``slug``'s (and named ``name``, the
        index's name, when given: :func:`~sunbot.client.spec_check.check_spec`).

        Raises:
            ServerRefused: 4xx (an unknown game, or a server without this route).
            MalformedResponse: the answer has no ``spec`` object.
            WrongGame: the answer names another game (not retried).
        """
        data = await self.request_json("spec", slug=slug)
        check_spec(data, slug, name).raise_if_wrong()
        spec = data.get("spec") if isinstance(data, dict) else None
        if not isinstance(spec, dict):
            raise MalformedResponse("spec answer has no spec object")
        return spec

    async def init(self, slug: str, seed: int | None = None) -> Position:
        """Start a run of ``slug``; ``seed`` ``None`` lets the server pick.

        Raises:
            WrongGame: the answer (its ``slug`` or ``spec.slug``) names another game, so no
                action is sent (:func:`~sunbot.client.spec_check.check_spec`).
            ServerRefused, MalformedResponse, TransientHTTPError, httpx.TransportError: as
                :meth:`request_json`, or an init refused with ``{ok: false}``.
        """
        params = {} if seed is None else {"seed": seed}
        data = await self.request_json("init", params=params, parse=_parse_answer, slug=slug)
        answer = _parse_answer(data)
        if isinstance(answer, RefusalBody):
            raise ServerRefused(200, f"init refused: {answer.reason}")
        check_spec(data, slug, where="init answer").raise_if_wrong()
        return Position(answer, data)

    async def act(self, slug: str, position: Position, action: Any) -> Position | Rejected:
        """Send ``action`` from ``position``; a refusal comes back as :class:`Rejected`."""
        body = {**position.carry(), "action": action}
        data = await self.request_json("action", body=body, parse=_parse_answer, slug=slug)
        answer = _parse_answer(data)
        if isinstance(answer, RefusalBody):
            return Rejected(answer.reason, answer.legalActions, data)
        return Position(answer, data)


#: Content type of a request body.
_JSON_BODY = {"content-type": "application/json"}


def _encode(body: dict[str, Any] | None) -> bytes | None:
    """The request body as ASCII JSON: text that UTF-8 cannot carry (a lone surrogate from a
    strategy) goes out as a JSON escape for the server to judge, instead of failing here."""
    return None if body is None else json.dumps(body, separators=(",", ":")).encode("ascii")


def _rate_limited(exc: BaseException) -> bool:
    return isinstance(exc, TransientHTTPError) and exc.status == 429


def _parse_index(data: Any) -> GameIndex:
    try:
        return read_index(data)
    except ValueError as exc:
        raise MalformedResponse(f"game index: {exc}") from None


def _parse_answer(data: Any) -> Envelope | RefusalBody:
    try:
        answer: Envelope | RefusalBody = ActionAnswer.validate_python(data)
    except ValidationError as exc:
        raise MalformedResponse(  # whole JSON: a retry gets the same bytes, past a glitch
            f"answer does not match the envelope: {first_error(exc)}", retry="brief"
        ) from None
    return answer


def _sent_secrets(params: dict[str, Any] | None, body: dict[str, Any] | None) -> tuple[str, ...]:
    """The tokens a request carries (``token``/``stateToken`` of its query or body)."""
    out = []
    for part in (params or {}, body or {}):
        for key in ("token", "stateToken"):
            if isinstance(part.get(key), str):
                out.append(part[key])
    return tuple(out)


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` with the scheme's default port made explicit."""
    default = {"http": 80, "https": 443}.get(url.scheme)
    return (url.scheme, url.host, url.port or default)


def _show_origin(origin: tuple[str, str, int | None]) -> str:
    scheme, host, port = origin
    return f"{scheme}://{host}:{port}"


async def _read_capped(resp: httpx.Response) -> bytes:
    """The body, or :func:`~sunbot.client.answers.too_large` as soon as its declared length
    or the bytes read pass :data:`MAX_BODY_BYTES` (not retried)."""
    declared = resp.headers.get("content-length", "")
    if declared.isdigit() and len(declared) < 20 and int(declared) > MAX_BODY_BYTES:
        raise too_large(MAX_BODY_BYTES)
    chunks: list[bytes] = []
    size = 0
    async for chunk in resp.aiter_bytes():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise too_large(MAX_BODY_BYTES)
        chunks.append(chunk)
    return b"".join(chunks)
