"""The server as the forward model (``--lookahead N``): search that asks the server "what
happens if", within a request budget and the move clock.

The platform's API is stateless: ``POST {state, action}`` from any position the server gave
answers the position after it. :class:`Lookahead` holds one run's lookahead: its own client
(the one retry policy of :mod:`sunbot.client.retry`, so a ``429`` waits its
``Retry-After``), a transposition cache keyed on (position, action) so no question is asked
twice, at most ``per_decision`` requests a decision and ``budget`` a run (a polite default:
:data:`DEFAULT_BUDGET`), at most :data:`IN_FLIGHT` requests at once, and the decision's
deadline (requests still out then are cancelled; the search answers with what it has).
:class:`ServerSim` is the search's simulator over it. Only positions the peek guard passed
are sent, as plain states (:mod:`sunbot.search.peek`).

Two things the run learns from the answers, so that a few requests go further
(:class:`ServerSim`): which of the state's top-level numbers count steps (went up by exactly
one on every step seen, such as ``moves``: left out of the search's transposition key, so
sliding a tile back or walking back in a maze is known as a position already reached), and
the positions the run stood on (a step back to one of them, the very same state, a reset
or an undo that counts its moves off, is a cycle: left out of the search).
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import logging
import threading
import time
from typing import Any

import httpx
import orjson

from sunbot.client import ClientError, GameboardClient, Position, Rejected, ServerRefused
from sunbot.client.models import Envelope
from sunbot.forward.predict import observation_of
from sunbot.search.mcts import OutOfBudget
from sunbot.search.novelty import Novelty
from sunbot.search.objective import Objective

log = logging.getLogger("sunbot.search")

#: Requests a run may spend looking ahead when ``--lookahead-budget`` is not given.
DEFAULT_BUDGET = 2_000
#: Requests in flight at once.
IN_FLIGHT = 4
#: Answers the transposition cache keeps (the oldest go first).
CACHE_SIZE = 20_000
#: Bytes of answers (as JSON) the cache keeps at most: a server whose positions grow fills
#: it by size long before it holds :data:`CACHE_SIZE` answers.
CACHE_BYTES = 128 << 20
#: Seconds kept free before a deadline for the search to answer.
MARGIN_S = 0.05
#: Seconds the lookahead's client may take to close.
CLOSE_S = 5.0


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _digest(answer: dict[str, Any]) -> bytes:
    """A short digest of what ``answer`` carries (a run remembers one a decision)."""
    return hashlib.blake2b(_key(carry_of(answer)).encode(), digest_size=16).digest()


def carry_of(answer: dict[str, Any]) -> dict[str, Any]:
    """What a lookahead sends from ``answer``: its plain ``state`` object when it has one
    (never a token beside it: the peek guard judged the state), else its token or id."""
    state = answer.get("state")
    if isinstance(state, dict):
        return {"state": state}
    token = answer.get("stateToken")
    if isinstance(token, str):
        return {"stateToken": token}
    return {"state": state}


#: Steps a top-level number of the state must have gone up by one on (and never otherwise)
#: before it counts as a step counter.
COUNTER_STEPS = 3


class Counters:
    """The top-level numbers of a server's state that count steps: each went up by exactly
    one on every step seen (at least :data:`COUNTER_STEPS` of them), as ``moves`` does in a
    puzzle that counts moves; a number that ever stayed, fell or jumped is no counter."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._broken: set[str] = set()
        self.paths: frozenset[str] = frozenset()

    def observe(self, before: Any, after: Any) -> None:
        """One step of the server's, from the state ``before`` to ``after``."""
        if not isinstance(before, dict) or not isinstance(after, dict):
            return
        changed = False
        for name, value in after.items():
            if name in self._broken:
                continue
            was = before.get(name)
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in (value, was))
            if numbers and value - was == 1:
                self._seen[name] = self._seen.get(name, 0) + 1
                changed = changed or self._seen[name] == COUNTER_STEPS
            else:
                self._broken.add(name)
                changed = changed or name in self.paths
        if changed:
            self.paths = frozenset(
                n for n, k in self._seen.items() if k >= COUNTER_STEPS and n not in self._broken
            )

    def strip(self, state: Any) -> Any:
        """``state`` without its step counters (``state`` itself when it has none)."""
        if not isinstance(state, dict) or not self.paths.intersection(state):
            return state
        return {k: v for k, v in state.items() if k not in self.paths}


class Lookahead:
    """One run's lookahead through a server (module doc).

    Args:
        server: the server's URL, or ``None`` for the embedded one.
        slug: the game.
        per_decision: requests one decision may send (``--lookahead N``), >= 1.
        budget: requests the run may send (``--lookahead-budget M``), >= 1.
        transport: an httpx transport to use instead of the network (tests).
        plain_only: expand only answers with a plain ``state`` (what the peek guard
            judges): an answer that comes back with only a token or an id is a leaf, never
            sent (``False`` under ``--allow-peek``, whose run is labelled clairvoyant).

    Attributes:
        requests: requests sent so far; ``decision_requests``: in this decision.
        cache_hits: questions answered from the cache.
        failures: requests that got no usable answer (refused, an error).
    """

    def __init__(
        self,
        server: str | None,
        slug: str,
        *,
        per_decision: int,
        budget: int = DEFAULT_BUDGET,
        transport: httpx.AsyncBaseTransport | None = None,
        in_flight: int = IN_FLIGHT,
        plain_only: bool = True,
    ) -> None:
        if per_decision < 1 or budget < 1:
            raise ValueError("lookahead: the per-decision and run budgets must be at least 1")
        self.server = server
        self.slug = slug
        self.per_decision = per_decision
        self.budget = budget
        self.in_flight = in_flight
        self.transport = transport
        self.requests = self.decision_requests = self.cache_hits = self.failures = 0
        self.decisions = 0
        #: the decision (1 for the first) during which the run's budget ran out, or None
        self.spent_at: int | None = None
        self.deadline: float | None = None
        self.plain_only = plain_only
        self._cache: collections.OrderedDict[tuple[str, str], dict[str, Any] | None] = (
            collections.OrderedDict()
        )
        self._sizes: dict[tuple[str, str], int] = {}
        self._bytes = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: GameboardClient | None = None
        self._retried = 0
        self.counters = Counters()
        self.stood: set[bytes] = set()  # digests of the positions the run stood on

    @property
    def retries(self) -> int:
        """The lookahead client's retries (a 429 waited out counts one), closed or not."""
        return self._retried + (self._client.retries if self._client is not None else 0)

    def _open(self) -> tuple[asyncio.AbstractEventLoop, GameboardClient]:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        if self._client is None:
            transport = self.transport
            if self.server is None and transport is None:
                from sunbot.server import TokenCodec, create_app

                transport = httpx.ASGITransport(app=create_app(TokenCodec.embedded()))
            if self.server is None:
                self._client = GameboardClient(transport=transport)
            else:
                self._client = GameboardClient(self.server, transport=transport)
        return self._loop, self._client

    def start_decision(self, deadline: float | None) -> None:
        """A new decision: its request count from 0, its deadline (``time.monotonic``)."""
        self.decision_requests = 0
        self.decisions += 1
        self.deadline = deadline

    def room(self, pairs: list[tuple[dict[str, Any], Any]]) -> int:
        """How many of ``pairs``, from the end, can be answered within this decision's and
        the run's requests left (a cached answer costs none)."""
        left = min(self.per_decision - self.decision_requests, self.budget - self.requests)
        fits = 0
        for answer, action in reversed(pairs):
            if (_key(carry_of(answer)), _key(action)) not in self._cache:
                if left <= 0:
                    break
                left -= 1
            fits += 1
        return fits

    def step_many(self, pairs: list[tuple[dict[str, Any], Any]]) -> list[dict[str, Any] | None]:
        """The server's answers to each ``(answer, action)``: from the cache, else asked
        (up to the budgets); ``None`` for an action the server refused or could not answer.

        Raises:
            OutOfBudget: a question could not be asked within the budgets or the deadline
                (those that were answered are cached for later).
        """
        keys = [(_key(carry_of(a)), _key(action)) for a, action in pairs]
        todo = [i for i, k in enumerate(keys) if k not in self._cache]
        self.cache_hits += len(pairs) - len(todo)
        left = min(self.per_decision - self.decision_requests, self.budget - self.requests)
        sent, short = todo[: max(left, 0)], len(todo) > max(left, 0)
        if sent:
            loop, client = self._open()
            timed_out = loop.run_until_complete(self._ask(client, pairs, keys, sent))
            if timed_out:
                raise OutOfBudget("the decision's deadline")
        if self.spent_at is None and self.requests >= self.budget:
            self.spent_at = self.decisions
            log.warning(
                "lookahead: the run's budget of %s requests is spent (decision %s); search"
                " chooses from what it already knows from here (--lookahead-budget M)",
                f"{self.budget:,}", self.spent_at,
            )  # fmt: skip
        if short:
            raise OutOfBudget("the request budget")
        out = []
        for k in keys:
            self._cache.move_to_end(k)
            out.append(self._cache[k])
        return out

    async def _ask(
        self,
        client: GameboardClient,
        pairs: list[tuple[dict[str, Any], Any]],
        keys: list[tuple[str, str]],
        sent: list[int],
    ) -> bool:
        """Ask the server about ``sent`` (at most :attr:`in_flight` at once) and cache the
        answers; whether the deadline cut it short."""
        gate = asyncio.Semaphore(self.in_flight)

        async def one(i: int) -> None:
            async with gate:
                answer, action = pairs[i]
                self.requests += 1
                self.decision_requests += 1
                self._store(keys[i], await self._act(client, answer, action))

        tasks = [asyncio.ensure_future(one(i)) for i in sent]
        left = None if self.deadline is None else self.deadline - MARGIN_S - time.monotonic()
        if left is not None and left <= 0:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return True
        done, pending = await asyncio.wait(tasks, timeout=left)
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        failed = [e for t in done if (e := t.exception()) is not None]  # each one retrieved
        if failed:
            raise failed[0]
        return bool(pending)

    async def _act(
        self, client: GameboardClient, answer: dict[str, Any], action: Any
    ) -> dict[str, Any] | None:
        carry = carry_of(answer)
        if self.plain_only and not isinstance(carry.get("state"), dict):
            self.failures += 1  # a token or an id the peek guard never judged: a leaf
            log.info("lookahead: an answer without a plain state is not sent back")
            return None
        body = {k: v for k, v in answer.items() if k not in ("state", "stateToken")} | carry
        try:
            position = Position(Envelope.model_validate(body), body)
            got = await client.act(self.slug, position, action)
        except ServerRefused as exc:
            self.failures += 1
            log.info("lookahead: the server refused a position (%s)", exc)
            return None
        except ClientError as exc:
            self.failures += 1
            raise OutOfBudget(f"the server could not answer ({exc})") from exc
        except ValueError:  # an answer we could not rebuild a position from
            self.failures += 1
            return None
        if isinstance(got, Rejected):
            self.failures += 1
            return None
        return got.raw

    def _store(self, key: tuple[str, str], answer: dict[str, Any] | None) -> None:
        size = len(orjson.dumps(answer, default=str)) if answer is not None else 0
        self._bytes += size - self._sizes.get(key, 0)
        self._cache[key], self._sizes[key] = answer, size
        self._cache.move_to_end(key)
        while len(self._cache) > 1 and (len(self._cache) > CACHE_SIZE or self._bytes > CACHE_BYTES):
            old, _ = self._cache.popitem(last=False)
            self._bytes -= self._sizes.pop(old, 0)

    def totals(self) -> dict[str, Any]:
        """``{requests, cacheHits, failures, retries, perDecision, budget, spentAt}``
        (``spentAt``: the decision the run's budget ran out in, or ``None``)."""
        return {
            "requests": self.requests,
            "cacheHits": self.cache_hits,
            "failures": self.failures,
            "retries": self.retries,
            "perDecision": self.per_decision,
            "budget": self.budget,
            "spentAt": self.spent_at,
        }

    def close(self) -> None:
        """Close the client and the event loop (safe to call twice; from a thread running
        another event loop too: the closing then runs on a thread of its own)."""
        loop, client = self._loop, self._client
        self._retried += client.retries if client is not None else 0
        self._loop = self._client = None
        if loop is None:
            return

        def shut() -> None:
            try:
                if client is not None:
                    loop.run_until_complete(client.aclose())
            finally:
                loop.close()

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            shut()
            return
        closer = threading.Thread(target=shut, name="sunbot-lookahead-close", daemon=True)
        closer.start()
        closer.join(timeout=CLOSE_S)


class ServerSim:
    """The server's answers as the search's simulator, rooted at ``answer`` (a position
    the peek guard passed). Deterministic: a position and an action always get the same
    answer (the cache keeps it). Costly: every step is a request."""

    deterministic = True
    costly = True

    def __init__(
        self,
        lookahead: Lookahead,
        answer: dict[str, Any],
        objective: Objective,
        novelty: Novelty | None = None,
    ) -> None:
        self.lookahead = lookahead
        self.answer = answer
        self.objective = objective
        self._novelty = novelty
        lookahead.stood.add(_digest(answer))  # the run stands on it

    def root(self) -> dict[str, Any]:
        """The answer decided from."""
        return self.answer

    def legal(self, state: dict[str, Any]) -> list[Any]:
        """The answer's ``legalActions``."""
        legal = state.get("legalActions")
        return list(legal) if isinstance(legal, list) else []

    def room(self, state: dict[str, Any], actions: list[Any]) -> int:
        """How many of ``actions`` (from the end) this decision can still ask about."""
        return self.lookahead.room([(state, a) for a in actions])

    def expand(self, state: dict[str, Any], actions: list[Any]) -> list[Any]:
        """The server's answers to each action (see :meth:`Lookahead.step_many`); an
        answer that is a position the run already stood on (the very same state: a reset,
        an undo that counts its moves off) is ``None``: going round in a circle teaches
        nothing (a decision whose every step does is played as one that found nothing)."""
        got = self.lookahead.step_many([(state, a) for a in actions])
        stood, counters = self.lookahead.stood, self.lookahead.counters
        before = state.get("state")
        out: list[Any] = []
        for answer in got:
            if answer is not None:
                counters.observe(before, answer.get("state"))
                if _digest(answer) in stood:
                    answer = None
            out.append(answer)
        return out

    def over(self, state: dict[str, Any]) -> bool:
        """The answer's ``gameOver``."""
        return state.get("gameOver") is True

    def value(self, state: dict[str, Any], *, leaf: bool) -> float:
        """The objective's value of the answer's score."""
        score = state.get("score")
        number = float(score) if isinstance(score, int | float) else 0.0
        return self.objective.value(number, self.over(state), observation_of(state))

    def key(self, state: dict[str, Any]) -> str | None:
        """The JSON of what the answer carries, its step counters left out (the same
        position reached later is the same position: :class:`Counters`)."""
        carry = carry_of(state)
        if "state" in carry:
            carry = {"state": self.lookahead.counters.strip(carry["state"])}
        return _key(carry)

    def novelty(self, state: dict[str, Any]) -> float:
        """What the answer's observation holds that the run has not seen."""
        return self._novelty.count(observation_of(state)) if self._novelty is not None else 0.0


__all__ = [
    "CACHE_SIZE",
    "COUNTER_STEPS",
    "DEFAULT_BUDGET",
    "IN_FLIGHT",
    "Counters",
    "Lookahead",
    "ServerSim",
    "carry_of",
]
