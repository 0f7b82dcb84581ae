"""Deprecated: the run loop moved to :mod:`sunbot.runs` (``sunbot.runs.loop``,
``sunbot.runs.remote``, ``sunbot.runs.summary``). This module re-exports the old names for
one release and warns on import."""

from __future__ import annotations

import warnings

from sunbot.runs.loop import (
    MAX_REFUSALS_IN_A_ROW,
    MAX_SAME_POSITION,
    MAX_STEPS,
    OnPosition,
    ServerMisbehaved,
    StrategyFailed,
    one_line,
)
from sunbot.runs.remote import identify, play_run
from sunbot.runs.summary import EndedBy, MatchSeat, RunSummary, result_record

warnings.warn(
    "sunbot.runner is deprecated: import from sunbot (RunSummary, play_run) or sunbot.runs",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = [
    "MAX_REFUSALS_IN_A_ROW",
    "MAX_SAME_POSITION",
    "MAX_STEPS",
    "EndedBy",
    "MatchSeat",
    "OnPosition",
    "RunSummary",
    "ServerMisbehaved",
    "StrategyFailed",
    "identify",
    "one_line",
    "play_run",
    "result_record",
]
