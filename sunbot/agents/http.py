"""A bot behind an HTTP endpoint: POST the decision as JSON, the answer's body is the action.

:class:`HttpStrategy` POSTs the same object an exec bot reads on its stdin
(:mod:`sunbot.agents.exec`: ``id``, ``game``, ``observation``, ``legalActions``, and under a
move clock ``deadlineMs``, also sent as the :data:`DEADLINE_HEADER` header) and takes the
answer's JSON body as the action (or ``{"id": .., "action": ..}``, matched by id). What is the
bot's error (:class:`~sunbot.agents.clock.BotError`, one line each): a redirect (none is
followed), a status outside 2xx, a body that is not JSON or is over :data:`MAX_BODY_BYTES`, a
connection refused twice. Only a connection error is retried, once: the request never left,
and a bot is not a stateless server, so nothing that may have reached it is sent again.
``user:password@`` in the URL is sent as basic auth and never shown; messages, logs, totals
and transcripts name the bot by ``scheme://host:port/path`` (no query either).
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import tenacity

from sunbot._text.safe import remember, safe
from sunbot._text.terminal import outside
from sunbot.agents._guard import BotError
from sunbot.agents.clock import DecisionTimeout, ms_left
from sunbot.client.http import url_problem

#: Largest answer body read, in bytes; a longer one is the bot's error.
MAX_BODY_BYTES = 1 << 20
#: Seconds one decision may wait for the bot when no move clock bounds it.
DEFAULT_TIMEOUT_S = 60.0
#: The request header giving a clocked decision's ``deadlineMs`` (as its body does).
DEADLINE_HEADER = "X-Sunbot-Deadline-Ms"
#: Seconds between the first connection attempt and the one retry.
RETRY_WAIT_S = 0.1


def public_label(url: httpx.URL) -> str:
    """``scheme://host:port/path`` of ``url``: what may be shown of a bot's endpoint."""
    return str(url.copy_with(userinfo=b"", query=None, fragment=None))


class HttpStrategy:
    """A bot answering ``POST url`` (module doc).

    Args:
        url: ``http://`` or ``https://`` endpoint, e.g. ``http://127.0.0.1:8080/move``.
        game: the game's slug, sent on every request.
        timeout_s: seconds one decision may take when no move clock bounds it.
        transport: an httpx transport (tests); ``None`` uses the network.

    Raises:
        ValueError: ``url`` is not an absolute http(s) URL with a host.
    """

    blocking = True

    def __init__(
        self,
        url: str,
        *,
        game: str,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        from sunbot._text import redaction

        problem = url_problem(url)
        if problem is not None:
            raise ValueError(f"http bot: {problem}")
        parsed = httpx.URL(url)
        self.game = game
        self.timeout_s = timeout_s
        self.label = outside(public_label(parsed), 200)
        self._url = parsed.copy_with(userinfo=b"")
        auth = None
        if parsed.username or parsed.password:
            remember(parsed.password)  # scrubbed by value from every message we make
            auth = httpx.BasicAuth(parsed.username, parsed.password)
        redaction.install()  # httpx logs request URLs
        self._client = httpx.Client(
            transport=transport,
            auth=auth,
            follow_redirects=False,
            timeout=timeout_s,
            headers={"user-agent": "sunbot", "accept": "application/json"},
        )
        self._decisions = self._late = self._retries = 0
        self._last: dict[str, Any] | None = None
        self._max_ms = 0.0

    def __repr__(self) -> str:
        return f"HttpStrategy({self.label})"

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        """The bot's answer (no move clock; bounded by ``timeout_s``).

        Raises:
            BotError: a redirect, a status outside 2xx, a body that is not JSON or too big,
                no connection (after one retry), no answer within ``timeout_s``.
        """
        return self.choose_by(observation, legal_actions, None)

    def choose_by(
        self, observation: Any, legal_actions: list[Any], deadline: float | None, /
    ) -> Any:
        """The bot's answer by ``deadline`` (a :func:`time.monotonic` instant, or ``None``).

        Raises:
            DecisionTimeout: the deadline passed first (the request is dropped).
            BotError: as :meth:`choose`.
        """
        self._decisions += 1
        n = self._decisions
        started = time.monotonic()
        ceiling = started + self.timeout_s
        until = ceiling if deadline is None else min(deadline, ceiling)
        request = {"id": n, "game": self.game, "observation": observation}
        request["legalActions"] = legal_actions
        # the time it really has: the clock, or its own timeout_s when that comes first
        told = None if deadline is None else min(deadline, ceiling)
        if (left := ms_left(told)) is not None:  # advisory: the clock is still ours
            request["deadlineMs"] = left
        body = json.dumps(request, separators=(",", ":")).encode()
        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(2),
            retry=tenacity.retry_if_exception_type(httpx.ConnectError),
            wait=tenacity.wait_fixed(RETRY_WAIT_S),
            before_sleep=lambda _: self._count_retry(),
            reraise=True,
        )
        try:
            for attempt in retrying:
                with attempt:
                    status, raw = self._post(body, until, n, deadline)
        except httpx.ConnectError as exc:
            raise self._error(f"could not connect at decision {n}: {safe(exc, 120)}") from None
        except (httpx.TimeoutException, _Late):
            if deadline is not None and deadline < ceiling and time.monotonic() >= deadline:
                self._late += 1
                raise DecisionTimeout(f"http bot {self.label}: late at decision {n}") from None
            raise self._error(f"no answer within {self.timeout_s:g} s at decision {n}") from None
        except httpx.TransportError as exc:
            raise self._error(f"{type(exc).__name__} at decision {n}: {safe(exc, 120)}") from None
        action = self._action(status, raw, n)
        ms = (time.monotonic() - started) * 1000
        self._max_ms = max(self._max_ms, ms)
        self._last = {"ms": round(ms, 3), "status": status}
        return action

    def _count_retry(self) -> None:
        self._retries += 1

    def _post(self, body: bytes, until: float, n: int, deadline: float | None) -> tuple[int, bytes]:
        """One POST: ``(status, body)``, the body read in chunks up to the cap and ``until``."""
        left = until - time.monotonic()
        if left <= 0:
            raise _Late
        headers = {"content-type": "application/json"}
        if deadline is not None:  # the time left as this attempt is sent, as in the body
            headers[DEADLINE_HEADER] = str(ms_left(min(deadline, until)))
        with self._client.stream(
            "POST", self._url, content=body, headers=headers, timeout=left
        ) as resp:
            if resp.is_redirect:
                raise self._error(
                    f"answered HTTP {resp.status_code} (a redirect) at decision {n}; "
                    "redirects are not followed: give the bot's final URL"
                )
            chunks: list[bytes] = []
            size = 0
            for chunk in resp.iter_bytes():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise self._error(
                        f"answered a body over {MAX_BODY_BYTES} bytes at decision {n}"
                    )
                chunks.append(chunk)
                if time.monotonic() > until:
                    raise _Late
            return resp.status_code, b"".join(chunks)

    def _action(self, status: int, raw: bytes, n: int) -> Any:
        text = raw.decode("utf-8", "replace").strip()
        if not 200 <= status < 300:
            said = f": {outside(text, 120)!r}" if text else ""
            raise self._error(f"answered HTTP {status} at decision {n}{said}")
        try:
            answer = json.loads(raw)
        except (ValueError, RecursionError):
            raise self._error(
                f"answered a body that is not JSON at decision {n}: {outside(text, 80)!r}"
            ) from None
        if isinstance(answer, dict) and answer.keys() == {"id", "action"}:
            if type(answer["id"]) is not int or answer["id"] != n:
                raise self._error(f"answered decision {outside(answer['id'], 20)} at decision {n}")
            return answer["action"]
        return answer

    def _error(self, text: str) -> BotError:
        return BotError(f"http bot {self.label}: {text}")

    def last_decision(self) -> dict[str, Any] | None:
        """``{"ms": ..., "status": ...}`` of the last answer."""
        return self._last

    def totals(self) -> dict[str, Any]:
        """``{kind: "http", url, decisions, late, retries, maxMs}`` (``url`` without
        credentials or query)."""
        return {
            "kind": "http",
            "url": self.label,
            "decisions": self._decisions,
            "late": self._late,
            "retries": self._retries,
            "maxMs": round(self._max_ms, 3),
        }

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()


class _Late(Exception):
    """The move clock ran out while the answer was still coming."""


__all__ = ["DEADLINE_HEADER", "DEFAULT_TIMEOUT_S", "MAX_BODY_BYTES", "HttpStrategy", "public_label"]
