"""Spend caps that hold across runs: requests to a server, model tokens and money per day.

A day's spending is kept in a small SQLite file shared by every run on the machine
(:class:`~sunbot.spend.ledger.Ledger`, default ``~/.local/state/sunbot/spend.sqlite``), so
the caps hold across ``sunbot play``, ``sunbot bench``, ``sunbot tournament``, their
workers and any number of them running at once. :class:`~sunbot.spend.caps.SpendCaps`
says what may be spent (``--daily-requests``, ``--daily-tokens``, ``--daily-usd``);
:class:`~sunbot.spend.meter.Meter` counts and refuses, raising
:class:`~sunbot.spend.meter.SpendCapReached` with the reason in one line. Guide:
``docs/guide-long-runs.md``.
"""

from sunbot.spend.caps import SpendCaps, default_store
from sunbot.spend.ledger import Ledger, utc_day
from sunbot.spend.meter import Meter, SpendCapReached, active, current, deactivate

__all__ = [
    "Ledger",
    "Meter",
    "SpendCapReached",
    "SpendCaps",
    "active",
    "current",
    "deactivate",
    "default_store",
    "utc_day",
]
