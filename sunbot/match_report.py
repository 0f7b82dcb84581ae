"""Deprecated: moved to :mod:`sunbot.cli_match_report` (a CLI module); re-exported for one
release."""

from __future__ import annotations

import warnings

from sunbot.cli_match_report import announce_match, announcement, print_summary, undecided
from sunbot.runs.match import at_seat

warnings.warn("sunbot.match_report is deprecated", DeprecationWarning, stacklevel=2)

__all__ = ["announce_match", "announcement", "at_seat", "print_summary", "undecided"]
