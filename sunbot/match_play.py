"""Deprecated: the match loop moved to :mod:`sunbot.runs.match`, the ``sunbot play`` match
command to :mod:`sunbot.cli_match`; re-exported for one release."""

from __future__ import annotations

import warnings

from sunbot.cli_match import play_match_command, until_interrupted
from sunbot.runs.match import (
    LOCAL_BEAT_MS,
    REPEAT_WINDOW,
    MatchRecorder,
    StrictStop,
    _seats,
    redact,
    run_match,
)

warnings.warn("sunbot.match_play is deprecated: use sunbot.runs.match", DeprecationWarning, 2)

__all__ = [
    "LOCAL_BEAT_MS",
    "REPEAT_WINDOW",
    "MatchRecorder",
    "StrictStop",
    "_seats",
    "play_match_command",
    "redact",
    "run_match",
    "until_interrupted",
]
