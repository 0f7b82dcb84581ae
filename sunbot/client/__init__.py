"""Async platform client: one route table, one retry policy, typed answers."""

from sunbot.client.http import LOCAL_BASE_URL, GameboardClient, Position, Rejected
from sunbot.client.matches import MatchClient, SeatResult, SeatTicket, play_match, play_seat
from sunbot.client.retry import (
    ClientError,
    MalformedResponse,
    RetryInterrupted,
    RetryPolicy,
    ServerRefused,
    TransientHTTPError,
)
from sunbot.client.spec_check import WrongGame

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
    "SeatResult",
    "SeatTicket",
    "ServerRefused",
    "TransientHTTPError",
    "WrongGame",
    "play_match",
    "play_seat",
]
