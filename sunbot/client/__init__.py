"""Async platform client: one route table, one retry policy, typed answers."""

from sunbot import _compat
from sunbot.client.http import LOCAL_BASE_URL, GameboardClient, Position, Rejected
from sunbot.client.matches import MatchClient, SeatTicket
from sunbot.client.retry import (
    ClientError,
    MalformedResponse,
    RetryInterrupted,
    RetryPolicy,
    ServerRefused,
    TransientHTTPError,
)
from sunbot.client.spec_check import WrongGame

#: The seat loop's names that lived here, moved to :mod:`sunbot.runs` (one release).
__getattr__ = _compat.forward_moved_names(__name__)

__all__ = [
    "LOCAL_BASE_URL",
    "ClientError",
    "GameboardClient",
    "MalformedResponse",
    "MatchClient",
    "Position",
    "Rejected",
    "RetryInterrupted",
    "RetryPolicy",
    "SeatTicket",
    "ServerRefused",
    "TransientHTTPError",
    "WrongGame",
]
