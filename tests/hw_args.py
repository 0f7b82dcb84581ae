"""Test helper: the two arguments the match loop passes to a Harvest Watch strategy."""

from typing import Any

from sunbot.observations.harvest_watch import legal_actions


def hw_args(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``(data, legal_actions(data))``: call ``bot.choose(*hw_args(data))``."""
    return data, legal_actions(data)
