"""Counting and refusing against the daily caps: :class:`Meter`, one per process.

- **Model decisions**: before a language model's decision, :meth:`Meter.check_model`
  refuses once today's tokens or money reached their cap; after it,
  :meth:`Meter.charge_model` adds what the agent reported for the decision
  (``promptTokens + completionTokens``, its cost at the caps' price). A report below 0
  counts as 0, and one decision counts as at most the whole daily cap (an infinite one
  as the cap): a model or endpoint that reports billions of tokens stops the day's runs
  with that said in the reason, and cannot record more than a day's cap. A decision
  already under way when another run reaches the cap still counts, so the total can pass
  the cap by at most one decision per run going at that moment; none starts after.
- **Requests to a server**: :meth:`Meter.take_request` counts each request before it is
  sent, retries included, and refuses the one that would pass the cap (never past it).

The meter in use is process-wide (:func:`active`, :func:`current`): the run loop, the
client and the agents find it there, and a bench worker sets the one its job carries.
"""

from __future__ import annotations

import math
from typing import Any

from sunbot.spend.caps import SpendCaps
from sunbot.spend.ledger import Ledger, utc_day

#: The ledger's meters: model tokens, model money, requests to one server (+ its origin).
TOKENS, USD, REQUESTS = "model-tokens", "model-usd", "requests"


class SpendCapReached(RuntimeError):
    """A daily cap is reached: nothing more is spent today. The message is one line
    naming the cap, what was spent, the day and the ledger."""


def requests_meter(origin: str) -> str:
    """The ledger meter of requests to ``origin`` (``"requests http://host:port"``)."""
    return f"{REQUESTS} {origin}"


def _reported(value: Any) -> float:
    """A reported count as a number: a number below 0 (or none) as 0, an infinite or
    NaN one (JSON's ``1e999``) as infinite, which the caller caps."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    if not math.isfinite(value):
        return math.inf
    return float(value) if value > 0 else 0.0


class Meter:
    """Counts this process's spending in the ledger of ``caps`` and refuses past a cap.

    ``stopped`` is the reason of the first refusal (``None`` until one), ``flags`` the
    reports it did not take as given (a decision above the whole cap), ``counted`` what
    this process added: ``tokens``, ``usd``, ``requests``.
    """

    def __init__(self, caps: SpendCaps, today: Any = utc_day) -> None:
        self.caps, self.today = caps, today
        self.stopped: str | None = None
        self.flags: list[str] = []
        self.counted: dict[str, float] = {"tokens": 0, "usd": 0.0, "requests": 0}
        self._ledger: Ledger | None = None

    @property
    def ledger(self) -> Ledger:
        """The ledger, opened on first use (a worker opens its own)."""
        if self._ledger is None:
            self._ledger = Ledger(self.caps.store, self.today)
        return self._ledger

    def close(self) -> None:
        """Close the ledger if it was opened."""
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None

    def begin(self) -> None:
        """Start a new job in this process: forget the last one's refusal and flags."""
        self.stopped = None
        self.flags = []

    def _refuse(self, reason: str) -> SpendCapReached:
        if self.flags:
            reason += f"; {self.flags[0]}"
        if self.stopped is None:
            self.stopped = reason
        return SpendCapReached(reason)

    def _where(self) -> str:
        return f"on {self.today()} (UTC) in {self.caps.store}"

    def check_model(self) -> None:
        """Refuse a model decision once today's tokens or money reached the cap.

        Raises:
            SpendCapReached: the reason, e.g. ``daily model-token cap reached: 10,230 of
                10,000 tokens on 2026-12-06 (UTC) in ...``.
        """
        caps = self.caps
        if caps.tokens is not None:
            used = self.ledger.used(TOKENS)
            if used >= caps.tokens:
                raise self._refuse(
                    f"daily model-token cap reached: {used:,.0f} of {caps.tokens:,} tokens"
                    f" {self._where()}"
                )
        if caps.usd is not None:
            spent = self.ledger.used(USD)
            if spent >= caps.usd:
                raise self._refuse(
                    f"daily model-spend cap reached: ${spent:,.4f} of ${caps.usd:,.4f}"
                    f" {self._where()}"
                )

    def charge_model(self, record: dict[str, Any] | None) -> None:
        """Add one decision's tokens and cost (from the agent's record of it:
        ``promptTokens``, ``completionTokens``) to today's meters, each report taken as a
        number at least 0 and the decision as at most the whole daily cap."""
        if not record or not self.caps.model_limited:
            return
        prompt = _reported(record.get("promptTokens"))
        completion = _reported(record.get("completionTokens"))
        tokens = prompt + completion
        caps = self.caps
        if caps.tokens is not None and tokens > caps.tokens:
            self.flags.append(
                f"one decision reported {tokens:,.0f} tokens, more than the whole daily"
                f" cap: counted as {caps.tokens:,}"
            )
            share = prompt / tokens if math.isfinite(tokens) else 0.5
            prompt, completion = caps.tokens * share, caps.tokens * (1 - share)
            tokens = float(caps.tokens)
        elif not math.isfinite(tokens):  # no token cap: an infinite report costs the USD cap
            prompt = completion = tokens = 0.0 if caps.usd is None else math.inf
        cost = 0.0
        if caps.price is not None and tokens:
            cost = (prompt * caps.price[0] + completion * caps.price[1]) / 1e6
            cost = cost if not math.isnan(cost) else math.inf  # inf * a zero price
        if caps.usd is not None and cost > caps.usd:
            self.flags.append(
                f"one decision cost ${cost:,.2f} by its reported tokens, more than the whole"
                f" daily cap: counted as ${caps.usd:,.4f}"
            )
            cost = caps.usd
        if not math.isfinite(tokens):
            tokens = 0.0  # no token cap: the cost above stands for it
        self.ledger.add(TOKENS, tokens)
        self.counted["tokens"] += tokens
        if caps.usd is not None:
            self.ledger.add(USD, cost)
            self.counted["usd"] += cost

    def take_request(self, origin: str) -> None:
        """Count one request to ``origin`` before it is sent.

        Raises:
            SpendCapReached: it would pass the daily request cap (it is not counted).
        """
        cap = self.caps.requests
        if cap is None:
            return
        if self.ledger.take(requests_meter(origin), 1, cap) is None:
            raise self._refuse(
                f"daily request cap reached for {origin}: {cap:,} requests {self._where()}"
            )
        self.counted["requests"] += 1

    def today_spent(self) -> dict[str, float]:
        """Today's totals in the ledger, every meter (``{meter: amount}``)."""
        return self.ledger.day()


_active: Meter | None = None


def active(caps: SpendCaps | None) -> Meter | None:
    """Make a meter of ``caps`` this process's (``None``: none); returns it. The meter
    already in use is kept when its caps are the same (a worker's next job)."""
    global _active
    if caps is None or not caps.limited:
        deactivate()
        return None
    if _active is None or _active.caps != caps:
        deactivate()
        _active = Meter(caps)
    return _active


def current() -> Meter | None:
    """This process's meter, if any (:func:`active`)."""
    return _active


def deactivate() -> None:
    """Drop this process's meter (closing its ledger)."""
    global _active
    if _active is not None:
        _active.close()
    _active = None
