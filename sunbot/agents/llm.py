"""Language-model agents: any OpenAI-compatible chat model behind any Gameboard game.

:class:`LLMStrategy` is a strategy (:class:`sunbot.strategies.Strategy`) whose ``choose``
asks a chat model for the action: the system prompt carries the game's served ``spec``,
each turn's message the observation, the numbered legal actions and the last few
decisions; the answer is read as JSON (or an action number), checked against the action
grammar and the legal actions, asked again with the reason when it does not fit, and
replaced by a fallback action after ``max_attempts`` calls. Structured output narrows the
answer to the legal actions where the endpoint supports it. Free text in an observation
(Harvest Watch's speeches) reaches the model only as labelled, untrusted data.

:func:`render_prompt` gives the first decision's messages without calling a model (the
dry run); :func:`parse_llm_spec` reads the command line's ``llm:MODEL``. Guide:
``docs/guide-llm.md``. Needs ``pip install 'sunbot[llm]'`` (the ``openai`` SDK, Jinja2).
"""

from __future__ import annotations

import collections
import json
import logging
import math
import os
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from sunbot._text.safe import remember, scrub
from sunbot.agents._llm_parse import (
    Judge,
    Verdict,
    action_schema,
    response_format,
    split_thinking,
    text_command,
)
from sunbot.agents._llm_prompt import HistoryEntry, Prompter, Templates, history_entry
from sunbot.agents._llm_records import RECORD_MAX, Tally, new_record
from sunbot.agents.health import phase_of
from sunbot.agents.llm_cache import Cache, DecisionCache, request_key

log = logging.getLogger("sunbot.agents.llm")

#: Seconds kept free at the end of a Harvest Watch beat for sending the command.
BEAT_MARGIN_S = 1.0
#: A call needs at least this many seconds; with less left the decision falls back (late).
MIN_CALL_S = 0.25
#: Decisions in a row whose calls failed or ran out of time without an answer (endpoint
#: down, or never finishing one) before ``choose`` raises; not on a Harvest Watch beat.
MAX_FAILED_DECISIONS = 3
STRUCTURED = ("auto", "json_schema", "off")
#: How a decision is asked: ``structured`` (a JSON Schema of the answer, where the endpoint
#: supports it), ``text`` (plain text, read by the parser), ``tools`` (each kind of legal
#: action a function the model calls).
MODES = ("structured", "text", "tools")
#: Tokens an answer may take unless told otherwise: an action is 10-40, a speech at most
#: about 70; the bound ends a model that would otherwise write until the call's timeout.
DEFAULT_MAX_TOKENS = 256
#: The first call of a run may take this many times ``timeout_s``: the endpoint reads the
#: whole system prompt then (later calls reuse it from its prompt cache).
COLD_START_FACTOR = 2.0
_INSTALL = (
    "LLMStrategy needs the openai and jinja2 packages: the llm extra, pip install '.[llm]'"
    " in a checkout (pip install 'sunbot[llm]' where sunbot is installed by name)"
)

Fallback = Callable[[dict[str, Any], list[Any]], Any]


def _calls_text(reply: Any) -> str:
    """A reply's tool calls as text, for the re-ask's copy of the answer."""
    return "; ".join(f"called {name}({arguments})" for name, arguments in reply.tool_calls)


class LLMError(RuntimeError):
    """The endpoint cannot serve this run (wrong key, unknown model, endpoint down or out
    of time for :data:`MAX_FAILED_DECISIONS` decisions in a row); the message is one line
    without the API key."""


def parse_llm_spec(text: str) -> dict[str, Any]:
    """``{"model": MODEL}`` from the command line's ``llm:MODEL`` (everything after the
    first ``llm:``, so ``llm:qwen2.5:7b`` is the model ``qwen2.5:7b``); pass it on as
    ``LLMStrategy(**parse_llm_spec(text), game=...)``.

    Raises:
        ValueError: the text does not start with ``llm:`` or names no model.
    """
    head, sep, model = text.strip().partition(":")
    if head != "llm" or not sep:
        raise ValueError(f"{text!r:.80} is not llm:MODEL")
    if not model.strip():
        raise ValueError("llm: give a model name after the colon, e.g. llm:gpt-4o-mini")
    return {"model": model.strip()}


def is_llm_spec(text: str) -> bool:
    """``True`` for a strategy name of the form ``llm:MODEL``."""
    return text.strip().startswith("llm:")


def _known_spec(game: str) -> Any:
    """The spec sunbot's own engine serves for ``game``, or ``None`` for another game."""
    try:
        from sunbot.games import get_game

        return get_game(game).spec
    except Exception:  # an unknown game or a broken spec: play without one
        return None


def render_prompt(
    game: str,
    observation: dict[str, Any],
    legal_actions: list[Any],
    spec: dict[str, Any] | None = None,
    prompt: str | Path | None = None,
) -> list[dict[str, str]]:
    """The messages of a run's first decision (``[{"role": "system", ...}, {"role":
    "user", ...}]``), as :class:`LLMStrategy` would send them, without calling a model:
    the dry run. ``spec``: the served spec (``None``: sunbot's own for a game it knows);
    ``prompt``: a template as for :class:`LLMStrategy`.

    Raises:
        ValueError: the template is missing, does not compile or does not render.
        ImportError: Jinja2 is not installed.
    """
    try:
        templates = Templates(prompt)
    except ImportError:
        raise ImportError(_INSTALL) from None
    prompter = Prompter(game, spec if spec is not None else _known_spec(game), templates)
    return [
        {"role": "system", "content": prompter.system(legal_actions[0] if legal_actions else {})},
        {
            "role": "user",
            "content": prompter.turn(
                observation, legal_actions, step=1, history=[], last_error=None
            ),
        },
    ]


class LLMStrategy:
    """A chat model as the player of one game (the strategy contract, with ``on_start``,
    ``last_decision``, ``totals`` and ``close``).

    Args:
        model: the endpoint's model name.
        game: the game's slug (any slug; the served spec tells the model the rules).
        base_url: the API root, e.g. ``http://127.0.0.1:11434/v1``; ``None``:
            ``OPENAI_BASE_URL``, else the SDK's default.
        api_key: ``None``: ``OPENAI_API_KEY``, else the placeholder ``"unused"`` (local
            endpoints need none). Never recorded, logged or shown.
        temperature, seed, reasoning_effort: request fields, sent when given.
        max_tokens: the answer's bound in tokens (default :data:`DEFAULT_MAX_TOKENS`;
            ``None`` or 0: not sent, the endpoint's own).
        timeout_s: seconds one call may take, SDK retries included (the run's first call:
            :data:`COLD_START_FACTOR` times as long). An observation with ``remainMs`` (a
            Harvest Watch beat's time left) bounds the whole decision, all its calls, by
            ``min(timeout_s, remainMs / 1000 - BEAT_MARGIN_S)``; a decision that runs out
            of time falls back and counts as ``late``.
        prompt: a template file or folder (``docs/guide-llm.md``); ``None``: the default.
        history: past decisions shown each turn (0: none).
        max_attempts: calls per decision (the first and the re-asks), at least 1.
        mode: one of :data:`MODES`: ``structured`` (the default), ``text`` or ``tools``
            (an endpoint that refuses tools stops the run with a one-line error).
        structured: in ``structured`` mode, ``auto`` (dropped for the run when the
            endpoint refuses it) or ``json_schema`` (always); ``off`` is ``mode="text"``.
        rng: the run's generator (accepted for the registry; the model makes the choices).
        client: an ``openai.OpenAI`` to use instead of building one.
        price: USD per million prompt and completion tokens, for ``costUsd``.
        fallback: ``fallback(observation, legal_actions)`` for a decision without an
            accepted answer; ``None`` (or an answer of it that is not legal): the first
            legal action.
        cache: a folder (``--llm-cache DIR``) or a cache object
            (:mod:`sunbot.agents.llm_cache`): an answer to the same request (endpoint,
            model, parameters, messages) is taken from it at 0 tokens, a new one kept in it.
        variant: a label kept in the cache key (a bench's null variant asks what its twin
            asks, and must not be answered from the twin's answers).

    Raises:
        ValueError: a bad argument or prompt template (one line).
        ImportError: ``openai`` or ``jinja2`` is missing.
    """

    blocking: ClassVar[bool] = True

    def __init__(
        self,
        model: str,
        *,
        game: str,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
        seed: int | None = None,
        reasoning_effort: str | None = None,
        timeout_s: float = 60.0,
        prompt: str | Path | None = None,
        history: int = 8,
        max_attempts: int = 3,
        mode: str = "structured",
        structured: str = "auto",
        rng: random.Random | None = None,
        client: Any = None,
        price: tuple[float, float] | None = None,
        fallback: Fallback | None = None,
        cache: str | Path | Cache | None = None,
        variant: str | None = None,
    ) -> None:
        if not model or not isinstance(model, str):
            raise ValueError("model: give a model name")
        if structured not in STRUCTURED:
            raise ValueError(f"structured must be one of {', '.join(STRUCTURED)}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if structured == "off":
            mode = "text"
        if max_tokens is not None and (isinstance(max_tokens, bool) or max_tokens < 0):
            raise ValueError("max_tokens must be a whole number of tokens, at least 1")
        if temperature is not None and not (math.isfinite(temperature) and 0 <= temperature <= 2):
            raise ValueError("temperature must be a number from 0 to 2")
        if not (math.isfinite(timeout_s) and timeout_s > 0):
            raise ValueError("timeout_s must be a positive number of seconds")
        if max_attempts < 1 or history < 0:
            raise ValueError("max_attempts must be at least 1 and history at least 0")
        if price is not None and (len(price) != 2 or min(price) < 0):
            raise ValueError("price: two numbers, USD per million input and output tokens")
        try:
            from sunbot.agents._llm_client import Endpoint

            self._templates = Templates(prompt)
        except ImportError:
            raise ImportError(_INSTALL) from None
        self.model, self.game, self.timeout_s = model, game, timeout_s
        self.max_attempts, self.structured, self.rng = max_attempts, structured, rng
        self.mode, self.max_tokens, self.variant = mode, (max_tokens or None), variant
        self.price, self.fallback = price, fallback
        self._cache: Cache | None = DecisionCache(cache) if isinstance(cache, str | Path) else cache
        key = api_key or os.environ.get("OPENAI_API_KEY") or "unused"
        remember(key)
        self._url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        params = {
            "temperature": temperature,
            "max_tokens": self.max_tokens,
            "seed": seed,
            "reasoning_effort": reasoning_effort,
        }
        self.params = {k: v for k, v in params.items() if v is not None}
        self._endpoint = Endpoint(
            model,
            base_url=self._url,
            api_key=key,
            timeout_s=timeout_s,
            client=client,
            params=params,
        )
        #: the endpoint as the cache key names it (its URL without credentials or query)
        self.endpoint_id = self._where()
        self._history: collections.deque[HistoryEntry] = collections.deque(maxlen=history)
        self._schema_ok = mode == "structured"
        self._reset(None, None)

    def __repr__(self) -> str:
        return f"LLMStrategy(model={self.model!r}, game={self.game!r}, endpoint={self._where()!r})"

    # -- the contract -------------------------------------------------------------------

    def on_start(
        self, game: str, seed: int | None, *, cap: int | None = None, spec: Any = None
    ) -> None:
        """Start a run: keep the served ``spec`` (``None``: sunbot's own for a game it
        knows), forget the last run's history, zero the counters."""
        self.game = game
        self._reset(spec, cap)

    def _reset(self, spec: Any, cap: int | None) -> None:
        self.spec = spec if spec is not None else _known_spec(self.game)
        self._judge = Judge(self.game, self.spec)
        self._prompter = Prompter(self.game, self.spec, self._templates, cap)
        self._history.clear()
        self._pending: tuple[int, Any, Any, bool] | None = None
        self._last_error: str | None = None
        self._failed_in_row = 0
        self._step = 0
        self._record: dict[str, Any] | None = None
        self._tally = Tally(self.max_tokens)
        self._calls_in_run = 0

    def choose(self, observation: dict[str, Any], legal_actions: list[Any], /) -> Any:
        """Ask the model for one of ``legal_actions`` (see the class doc).

        Returns:
            An element of ``legal_actions`` (a copy), or on a Harvest Watch speech or diary
            beat a command of that shape with the model's text; the fallback action when
            no answer was accepted.

        Raises:
            ValueError: ``legal_actions`` is empty.
            LLMError: the endpoint refuses us for good (see :class:`LLMError`).
        """
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        start = time.monotonic()
        self._step += 1
        if self._pending is not None and self._history.maxlen:
            step, action, before, fell = self._pending
            self._history.append(history_entry(step, action, before, observation, fell))
        system = self._prompter.system(legal_actions[0])
        turn = self._prompter.turn(
            observation,
            legal_actions,
            step=self._step,
            history=list(self._history),
            last_error=self._last_error,
        )
        messages = [{"role": "system", "content": system}, {"role": "user", "content": turn}]
        rec = new_record(self.model, phase_of(observation))
        deadline = start + self.timeout_s * self.max_attempts
        if self._calls_in_run == 0:
            deadline += self.timeout_s * (COLD_START_FACTOR - 1)
        remain = observation.get("remainMs") if isinstance(observation, dict) else None
        beat = isinstance(remain, int | float) and not isinstance(remain, bool)
        if isinstance(remain, int | float) and beat:
            deadline = min(deadline, start + min(self.timeout_s, remain / 1000 - BEAT_MARGIN_S))
        action = self._ask(messages, legal_actions, system, deadline, rec, beat)
        if action is None:
            action = self._fall_back(observation, legal_actions, system)
            rec["fallback"] = True
            self._tally.counts["fallbacks"] += 1
        self._last_error = rec["reason"] if rec["fallback"] else None
        self._tally.end_decision(self.game, rec)
        self._pending = (self._step, action, observation, rec["fallback"])
        self._record = rec
        log.debug("step %d: %d call(s), fallback %s", self._step, rec["attempts"], rec["fallback"])
        return action

    def _ask(
        self,
        messages: list[dict[str, Any]],
        legal_actions: list[Any],
        system: str,
        deadline: float,
        rec: dict[str, Any],
        beat: bool,
    ) -> Any:
        """The accepted action, or ``None`` (``rec`` says why). ``beat``: the decision is
        bound by a Harvest Watch beat's clock (``remainMs``)."""
        from sunbot.agents._llm_client import EndpointError, Reply
        from sunbot.agents._llm_tools import tool_set

        narrowed = (
            action_schema(self.game, legal_actions, self._judge.grammar)
            if self.mode == "structured"
            else None
        )
        tools = tool_set(self.game, legal_actions) if self.mode == "tools" else None
        while rec["attempts"] < self.max_attempts:
            limit = self.timeout_s * (COLD_START_FACTOR if self._calls_in_run == 0 else 1.0)
            call_deadline = min(deadline, time.monotonic() + limit)
            if call_deadline - time.monotonic() < MIN_CALL_S:
                rec["late"], rec["reason"] = True, "no time left for a call"
                self._tally.counts["late"] += 1
                return None
            rf = response_format(*narrowed) if narrowed and self._schema_ok else None
            offered = tools.tools if tools is not None else None
            extra = json.dumps([rf, offered]) if rf is not None or offered is not None else ""
            key = request_key(
                endpoint=self.endpoint_id, model=self.model, params=self.params,
                messages=messages, response_format=rf, tools=offered, variant=self.variant,
            )  # fmt: skip
            rec["attempts"] += 1
            self._tally.counts["calls"] += 1
            self._calls_in_run += 1
            call = self._tally.call_record(messages, rec, key)
            kept = self._cache.lookup(key, self._step, rec["attempts"]) if self._cache else None
            reply: Reply | None = None
            failure: EndpointError | None = None
            if kept is not None and "error" in kept:  # a recorded call that got no answer
                failure = EndpointError("late" if kept.get("late") else "failed",
                                        str(kept["error"]))  # fmt: skip
                self._tally.counts["cacheHits"] += 1
            elif kept is not None:
                try:
                    reply = Reply.from_json(kept)
                except ValueError:
                    kept = None
            if kept is None:
                t0 = time.monotonic()
                try:
                    reply = self._endpoint.complete(
                        messages, deadline=call_deadline, response_format=rf, tools=offered
                    )
                except EndpointError as exc:
                    if (
                        exc.kind == "format"
                        and self.mode == "structured"
                        and (self.structured == "auto")
                    ):
                        log.info("the endpoint refuses structured output; plain text from now on")
                        self._schema_ok = False
                        rec["attempts"] -= 1  # a probe of the endpoint, not a try of the model
                        rec["calls"].pop()
                        continue
                    if exc.sent and exc.kind == "late":
                        self._tally.add_cut(messages, rec, call, time.monotonic() - t0,
                                            extra=extra)  # fmt: skip
                    failure = exc
                if reply is not None and self._cache is not None:
                    self._cache.store(key, reply.to_json())
            if failure is not None:
                return self._failed(failure, rec, call, beat)
            assert reply is not None
            self._failed_in_row = 0
            self._tally.add_reply(reply, messages, rec, call, extra=extra, cached=kept is not None)
            text, _ = split_thinking(reply.text)
            verdict = self._verdict(reply, text, tools, legal_actions, system)
            if reply.refusal:
                verdict = Verdict(None, "the model refused to answer", "refused")
            elif verdict.action is None and reply.finish_reason == "length":
                cut = f"the answer was cut off at max_tokens ({self.max_tokens or 'the endpoint'})"
                verdict = Verdict(None, f"{cut}: {verdict.reason}", "truncated")
            call["outcome"], call["reason"] = verdict.outcome, verdict.reason
            if verdict.action is not None:
                return verdict.action
            rec["reason"] = verdict.reason
            if rec["attempts"] < self.max_attempts:
                self._tally.counts["reasks"] += 1
                said = text if text.strip() or not reply.tool_calls else _calls_text(reply)
                cmd = text_command(self.game, legal_actions)
                messages += [
                    {"role": "assistant", "content": said[:RECORD_MAX]},
                    {"role": "user", "content": self._prompter.reask(str(verdict.reason), cmd)},
                ]
        return None

    def _verdict(
        self, reply: Any, text: str, tools: Any, legal_actions: list[Any], system: str
    ) -> Verdict:
        """The judge's verdict on a reply: its tool calls (``tools`` mode), else its text."""
        if tools is None or not reply.tool_calls:
            return self._judge.verdict(text, legal_actions, system)
        read = [tools.action(name, arguments) for name, arguments in reply.tool_calls]
        actions = {json.dumps(a, sort_keys=True): a for a, _ in read if a is not None}
        if len(actions) > 1:
            why = f"the answer calls {len(actions)} different actions; call exactly one"
            return Verdict(None, why, "illegal")
        if not actions:
            return Verdict(None, read[0][1], "illegal")
        return self._judge.verdict(json.dumps(next(iter(actions.values()))), legal_actions, system)

    def _failed(self, exc: Any, rec: dict[str, Any], call: dict[str, Any], beat: bool) -> None:
        """Record a call that got no answer (``exc``, an ``EndpointError``); raise
        :class:`LLMError` when the endpoint cannot serve this run."""
        rec["reason"] = str(exc)
        call["reason"], call["outcome"] = str(exc), "failed"
        call["error"], call["late"] = str(exc), exc.kind == "late" or beat
        if exc.kind in ("fatal", "format"):
            raise LLMError(f"{self.model} at {self._where()}: {exc}") from None
        if exc.kind == "failed":
            self._tally.counts["errors"] += 1
        if exc.kind == "late" or beat:  # on a beat, any call that gave nothing is late
            rec["late"], call["outcome"] = True, "late"
            self._tally.counts["late"] += 1
        self._failed_in_row += 1  # failed or late: an endpoint that never finishes
        if not beat and self._failed_in_row >= MAX_FAILED_DECISIONS:
            raise LLMError(
                f"{self.model} at {self._where()}: {self._failed_in_row} decisions"
                f" in a row without an answer; last: {exc}"
            ) from None

    def _fall_back(self, observation: dict[str, Any], legal_actions: list[Any], system: str) -> Any:
        """The fallback's action when it gives a legal one, else the first legal action."""
        if self.fallback is not None:
            try:
                action = self.fallback(observation, legal_actions)
                if self._judge.legal(action, legal_actions, system):
                    return action
                log.warning("the fallback gave an action that is not legal; using the first")
            except Exception as exc:
                log.warning(
                    "the fallback failed (%s); using the first legal action", type(exc).__name__
                )
        return dict(legal_actions[0]) if isinstance(legal_actions[0], dict) else legal_actions[0]

    def _where(self) -> str:
        """The endpoint for messages: no key, no ``user:password@``, query or fragment of
        the URL (a gateway's key may stand there, as for an HTTP bot)."""
        url = re.sub(r"//[^/@]*@", "//***@", self._url or "the SDK's default endpoint")
        url = re.split(r"[?#]", url, maxsplit=1)[0]
        return scrub(url, [self._endpoint._key])

    # -- records --------------------------------------------------------------------------

    def last_decision(self) -> dict[str, Any] | None:
        """The record of the last ``choose``: ``model``, ``promptTokens``,
        ``completionTokens``, ``latencyMs`` (the calls' time), ``attempts`` (calls made),
        ``fallback``, ``late``, ``answer`` and ``reasoning`` (the last reply's text and the
        endpoint's reasoning text, each at most 4,096 characters, or ``None``) and
        ``reason`` (why the last answer was not accepted); ``None`` before the first."""
        return dict(self._record) if self._record is not None else None

    def totals(self) -> dict[str, Any]:
        """The run's counters: ``kind`` (``"llm"``), ``model``, ``calls``, ``decisions``,
        ``promptTokens``, ``completionTokens``, ``reasks``, ``fallbacks``, ``late``,
        ``errors`` (calls that failed), ``latencyMs`` (sum over calls), ``usageRaised``,
        ``usageCut`` and ``usageEstimated`` (calls whose ``usage`` was not believed, or
        not given), ``cacheHits``, ``structured`` (structured output still in use),
        ``mode``, ``health`` (per phase: :mod:`sunbot.agents.health`), ``request`` (what
        the cache key holds besides the messages: ``endpoint``, ``params``; a rerun's
        recipe) and, with a ``price``, ``costUsd``."""
        out = self._tally.totals(
            self.model, self._schema_ok and self.mode == "structured", self.price, self.game
        )
        out["mode"] = self.mode
        out["request"] = {
            "endpoint": self.endpoint_id,
            "params": dict(self.params),
            "maxAttempts": self.max_attempts,
            "history": self._history.maxlen,
            "timeoutS": self.timeout_s,
        }
        return out

    def close(self) -> None:
        """Close the connection pool (of a client this strategy built)."""
        self._endpoint.close()


__all__ = [
    "DEFAULT_MAX_TOKENS",
    "MODES",
    "LLMError",
    "LLMStrategy",
    "is_llm_spec",
    "parse_llm_spec",
    "render_prompt",
]
