"""Harvest Watch reference strategy ``reciprocator``: tit for tat on joint-farm offers and
on thefts (:class:`sunbot.testing.hw_league.reciprocator.Reciprocator`, where it lives as
one of the league's styles; this module registers it under the strategies)."""

from __future__ import annotations

from sunbot.testing.hw_league.reciprocator import Reciprocator

__all__ = ["Reciprocator"]
