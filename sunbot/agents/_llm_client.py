"""The chat endpoint of :class:`sunbot.agents.llm.LLMStrategy`, through the ``openai`` SDK.

Private helper, imported only when a strategy is built (so ``import sunbot`` does not need
the ``openai`` package). One :class:`Endpoint` makes one chat-completion call at a time
within a deadline: the SDK's own retries (``max_retries``, which honour ``Retry-After``)
run inside it, and the HTTP transport cuts each attempt's timeouts to the time left and
stops a retry that could not finish before the deadline. Every error leaves as
:class:`EndpointError` with a one-line message from which the API key is removed by value.
"""

from __future__ import annotations

import importlib
import math
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import openai

from sunbot._text.safe import clip, scrub

#: Retries the SDK makes after a 408/409/429/5xx or a dropped connection.
MAX_RETRIES = 2
#: Largest answer body read, in bytes; a longer one is a failed call (not held in memory).
MAX_BODY_BYTES = 16 << 20
#: Tool calls of one answer kept (``tools`` mode reads the first; more are re-asked).
TOOL_CALLS_KEPT = 8
#: Characters of one tool call's arguments kept.
TOOL_ARGUMENTS_MAX = 20_000
#: The longest backoff the SDK sleeps between attempts when no Retry-After is given, for
#: ``MAX_RETRIES`` retries (0.5 s, then 1 s).
_BACKOFF_MAX_S = 1.0

Kind = Literal["late", "format", "fatal", "failed"]


class EndpointError(Exception):
    """A call that gave no answer. ``kind``: ``late`` (out of time), ``format`` (the
    endpoint refused ``response_format`` or ``tools``), ``fatal`` (authentication, unknown
    model, bad request: asking again cannot help), ``failed`` (anything else, after the
    SDK's retries). ``sent``: the request went out (the endpoint may have read the prompt
    and written part of an answer before the call was cut: its tokens are charged). The
    message is one line without the API key."""

    def __init__(self, kind: Kind, message: str, sent: bool = False) -> None:
        super().__init__(message)
        self.kind: Kind = kind
        self.sent = sent


class _OutOfTime(openai.OpenAIError):
    """Raised inside the HTTP client when a (re)try cannot finish before the deadline; as
    an ``OpenAIError`` the SDK passes it on instead of retrying it."""


class _TooLarge(openai.OpenAIError):
    """Raised inside the HTTP client when an answer's body passes :data:`MAX_BODY_BYTES`."""


def _bounded_body(http: Any, inner: Any, endpoint: Endpoint) -> Any:
    """An answer body read chunk by chunk, ending the call (:class:`_OutOfTime`) once the
    deadline passes, however slowly the endpoint trickles it (a per-read timeout never
    fires then), and (:class:`_TooLarge`) once it passes :data:`MAX_BODY_BYTES`."""

    class BoundedBody(http.SyncByteStream):  # type: ignore[misc]
        def __iter__(self) -> Any:
            size = 0
            for chunk in inner:
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise _TooLarge(f"the answer is over {MAX_BODY_BYTES} bytes")
                if time.monotonic() >= endpoint._deadline:
                    raise _OutOfTime("the answer was still arriving at the deadline")
                yield chunk

        def close(self) -> None:
            inner.close()

    return BoundedBody()


@dataclass
class Reply:
    """One chat answer: the message's text, the reasoning text if any, the endpoint's
    token counts (``None`` when it sent no ``usage``), seconds spent, finish reason, a
    refusal, and the tool calls as ``(name, arguments text)`` pairs (``tools`` mode)."""

    text: str
    reasoning: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    finish_reason: str | None
    refusal: str | None
    tool_calls: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The reply as a JSON object (the decision cache's and the transcript's form)."""
        return {
            "text": self.text,
            "reasoning": self.reasoning,
            "promptTokens": self.prompt_tokens,
            "completionTokens": self.completion_tokens,
            "latencyMs": round(self.latency_s * 1000, 3),
            "finish": self.finish_reason,
            "refusal": self.refusal,
            "toolCalls": [list(c) for c in self.tool_calls],
        }

    @classmethod
    def from_json(cls, data: Any) -> Reply:
        """A reply from :meth:`to_json`'s form.

        Raises:
            ValueError: ``data`` is not that form.
        """
        try:
            calls = [(str(n), str(a)) for n, a in data.get("toolCalls") or []]
            text, reasoning = data["text"], data.get("reasoning")
            if not isinstance(text, str) or not isinstance(reasoning, str | None):
                raise TypeError("text")
            return cls(
                text=text,
                reasoning=reasoning,
                prompt_tokens=_count(data.get("promptTokens")),
                completion_tokens=_count(data.get("completionTokens")),
                latency_s=float(data.get("latencyMs") or 0) / 1000,
                finish_reason=_text_or_none(data.get("finish")),
                refusal=_text_or_none(data.get("refusal")),
                tool_calls=calls,
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            raise ValueError("not a recorded chat answer") from None


def _retry_wait(response: Any) -> float:
    """How long the SDK will sleep before retrying ``response`` (an upper bound)."""
    for header, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = response.headers.get(header)
        if value is None:
            continue
        try:
            wait = float(value) / divisor
        except ValueError:
            continue
        if math.isfinite(wait) and 0 < wait <= 120:
            return wait
    return _BACKOFF_MAX_S


def _deadline_transport(endpoint: Endpoint) -> Any:
    """An HTTP transport (of the HTTP library the installed SDK uses) that keeps each
    attempt inside ``endpoint``'s deadline: its timeouts are cut to the time left; an
    attempt after the deadline, a timeout at the deadline, and a retryable answer (408,
    409, 429, 5xx) whose wait would pass the deadline raise :class:`_OutOfTime`, which
    the SDK passes on at once instead of sleeping and retrying."""
    try:
        http: Any = importlib.import_module("httpx2")
    except ImportError:  # an SDK before its move to httpx2
        http = importlib.import_module("httpx")

    class DeadlineTransport(http.BaseTransport):  # type: ignore[misc]
        def __init__(self) -> None:
            self.inner = http.HTTPTransport()

        def handle_request(self, request: Any) -> Any:
            left = endpoint._deadline - time.monotonic()
            if left <= 0:
                raise _OutOfTime("out of time before the request")
            limits = dict(request.extensions.get("timeout") or {})
            request.extensions["timeout"] = {
                k: left if limits.get(k) is None else min(limits[k], left)
                for k in ("connect", "read", "write", "pool")
            }
            endpoint._sent = True  # from here the endpoint may read the prompt
            try:
                response = self.inner.handle_request(request)
            except http.TimeoutException as exc:
                if time.monotonic() >= endpoint._deadline - 0.05:
                    raise _OutOfTime("timed out at the deadline") from exc
                raise
            status = response.status_code
            retryable = status in (408, 409, 429) or status >= 500
            if retryable and time.monotonic() + _retry_wait(response) >= endpoint._deadline:
                response.close()
                raise _OutOfTime(f"HTTP {status}, and no time left to retry")
            response.stream = _bounded_body(http, response.stream, endpoint)
            return response

        def close(self) -> None:
            self.inner.close()

    return DeadlineTransport()


class Endpoint:
    """An OpenAI-compatible chat endpoint for one model.

    Args:
        model: the model name the endpoint knows.
        base_url: the API root (``…/v1``); ``None``: the SDK's default.
        api_key: the key sent as ``Authorization: Bearer``; never stored elsewhere,
            removed by value from every error message.
        timeout_s: the default per-call time bound, seconds.
        client: an ``openai.OpenAI`` to use as it is (tests: one over an in-process
            transport); its own timeout and retries then apply, without the deadline
            transport (each call's timeout is still the time left).
        params: extra request fields (``temperature``, ``max_tokens``, ``seed``,
            ``reasoning_effort``), sent only when not ``None``.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None,
        api_key: str,
        timeout_s: float,
        client: Any = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        self.model = model
        self._key = api_key
        self._deadline = math.inf
        #: whether the current call's request went out (set by the deadline transport; a
        #: client given from outside has none, so its requests count as sent)
        self._sent = client is not None
        self.params = {k: v for k, v in (params or {}).items() if v is not None}
        self.owned = client is None
        if client is None:
            http = openai.DefaultHttpxClient(transport=_deadline_transport(self))
            client = openai.OpenAI(
                api_key=api_key,
                base_url=base_url,
                timeout=timeout_s,
                max_retries=MAX_RETRIES,
                http_client=http,
            )
        self.client = client

    def _message(self, exc: BaseException) -> str:
        name = type(exc).__name__  # our own (private) errors say what happened by themselves
        text = str(exc) if name.startswith("_") else f"{name}: {exc}"
        status = getattr(exc, "status_code", None)
        if status is not None and str(status) not in text:
            text = f"HTTP {status} {text}"
        return clip(" ".join(scrub(text, [self._key]).split()))

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        deadline: float,
        response_format: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
    ) -> Reply:
        """One chat completion that ends by ``deadline`` (a ``time.monotonic()`` value);
        ``tools``: the functions the model must call one of (``tool_choice`` required).

        Raises:
            EndpointError: no usable answer (see its ``kind``).
        """
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EndpointError("late", "no time left for the call")
        extra: dict[str, Any] = dict(self.params)
        if response_format is not None:
            extra["response_format"] = response_format
        if tools is not None:
            extra["tools"], extra["tool_choice"] = tools, "required"
        shaped = response_format is not None or tools is not None
        self._deadline = deadline
        self._sent = not self.owned
        start = time.monotonic()
        try:
            answer = self.client.chat.completions.create(
                model=self.model, messages=messages, timeout=remaining, **extra
            )
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            kind: Kind = "format" if shaped else "fatal"
            raise EndpointError(kind, self._message(exc)) from None
        except (
            openai.AuthenticationError,
            openai.PermissionDeniedError,
            openai.NotFoundError,
        ) as exc:
            raise EndpointError("fatal", self._message(exc)) from None
        except (openai.APITimeoutError, _OutOfTime) as exc:
            said = f"no answer within {deadline - start:.3g} s ({self._message(exc)})"
            raise EndpointError("late", said, self._sent) from None
        except openai.OpenAIError as exc:
            late = time.monotonic() >= deadline
            kind = "late" if late else "failed"
            raise EndpointError(kind, self._message(exc), self._sent and late) from None
        except (ValueError, RecursionError) as exc:  # a body that is not JSON (or not UTF-8)
            raise EndpointError("failed", f"the answer is not JSON: {self._message(exc)}") from None
        finally:
            self._deadline = math.inf
        try:
            return _reply(answer, time.monotonic() - start)
        except (AttributeError, TypeError, IndexError, KeyError) as exc:
            raise EndpointError(
                "failed", f"the answer is not a chat completion: {self._message(exc)}"
            ) from None

    def close(self) -> None:
        """Close the HTTP client (only one this object made)."""
        if self.owned:
            self.client.close()


def _reply(answer: Any, latency_s: float) -> Reply:
    """The parts of a ``ChatCompletion`` the strategy records."""
    choices = getattr(answer, "choices", None) or []
    message = choices[0].message if choices else None
    text = (getattr(message, "content", None) or "") if message is not None else ""
    reasoning = None
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message, name, None)
        if isinstance(value, str) and value:
            reasoning = value
            break
    usage = getattr(answer, "usage", None)
    calls: list[tuple[str, str]] = []
    for call in (getattr(message, "tool_calls", None) or [])[:TOOL_CALLS_KEPT]:
        function = getattr(call, "function", None)
        called, arguments = getattr(function, "name", None), getattr(function, "arguments", None)
        if isinstance(called, str) and isinstance(arguments, str | None):
            calls.append((called[:200], (arguments or "")[:TOOL_ARGUMENTS_MAX]))
    return Reply(
        text=text if isinstance(text, str) else str(text),
        reasoning=reasoning,
        prompt_tokens=_count(getattr(usage, "prompt_tokens", None)),
        completion_tokens=_count(getattr(usage, "completion_tokens", None)),
        latency_s=latency_s,
        finish_reason=_text_or_none(choices[0].finish_reason if choices else None),
        refusal=_text_or_none(getattr(message, "refusal", None)),
        tool_calls=calls,
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
