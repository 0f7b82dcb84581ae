"""A language-model agent whose decisions count against the daily caps: :class:`MeteredAgent`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sunbot.spend.meter import Meter, current


class MeteredAgent:
    """``agent`` (a language-model strategy) with each decision checked and counted by
    this process's meter (:func:`sunbot.spend.meter.current`): before it,
    :meth:`~sunbot.spend.meter.Meter.check_model` (raising
    :class:`~sunbot.spend.meter.SpendCapReached` once a cap is reached: the model is not
    called); after it, even when it raised, :meth:`~sunbot.spend.meter.Meter.charge_model`
    with the tokens the agent's ``totals()`` grew by over the decision (every call of it,
    re-asks included). Everything else is the agent's own (``blocking``, ``on_start``,
    ``last_decision``, ``totals``, ``close``, ...)."""

    def __init__(self, agent: Any) -> None:
        self._agent = agent

    def __repr__(self) -> str:
        return f"MeteredAgent({self._agent!r})"

    def choose(self, observation: Any, legal_actions: list[Any], /) -> Any:
        """The agent's ``choose``, checked before and counted after (see the class doc).

        Raises:
            SpendCapReached: a daily cap was reached before this decision.
        """
        return self._metered(self._agent.choose, observation, legal_actions)

    def _metered(self, call: Callable[..., Any], *args: Any) -> Any:
        meter: Meter | None = current()
        if meter is None:
            return call(*args)
        meter.check_model()
        before = self._used()
        try:
            return call(*args)
        finally:
            after = self._used()
            meter.charge_model({k: after[k] - before.get(k, 0.0) for k in after})

    def _used(self) -> dict[str, float]:
        """The agent's token counters so far this run (``totals()``), numbers only."""
        try:
            totals = self._agent.totals()
        except Exception:  # an agent whose counters fail counts nothing, never stops a run
            return {}
        out: dict[str, float] = {}
        for key in ("promptTokens", "completionTokens"):
            value = totals.get(key) if isinstance(totals, dict) else None
            if isinstance(value, int | float) and not isinstance(value, bool):
                out[key] = float(value)
        return out

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._agent, name)
        if name == "choose_by" and callable(attr):  # a deadline-aware agent: metered too
            return lambda *args: self._metered(attr, *args)
        return attr
