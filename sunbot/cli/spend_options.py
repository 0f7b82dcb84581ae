"""The daily spend caps' options, shared by ``sunbot play``, ``bench`` and ``tournament``.

``--daily-requests``, ``--daily-tokens``, ``--daily-usd`` and ``--spend-store`` make a
:class:`~sunbot.spend.caps.SpendCaps` (:func:`spend_caps`); ``--on-cap wait`` has a bench
sleep until the day turns instead of stopping (:func:`wait_for_next_day`). The caps hold
across every run sharing the store (``docs/guide-long-runs.md``).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from sunbot.agents.spec import parse_price
from sunbot.spend.caps import SpendCaps, default_store

DailyRequests = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Stop once today's requests to a server reach N (each server its own count;"
        " every run sharing --spend-store counts, retries too).",
    ),
]
DailyTokens = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Stop once today's model tokens (prompt + completion) reach N, over every run"
        " sharing --spend-store.",
    ),
]
DailyUsd = Annotated[
    float | None,
    typer.Option(
        min=0.000001,
        help="Stop once today's model spending reaches this many USD (at --llm-price), over"
        " every run sharing --spend-store.",
    ),
]
SpendStore = Annotated[
    Path | None,
    typer.Option(
        dir_okay=False,
        help="The SQLite ledger the daily caps count in (default: spend.sqlite in the"
        " state folder, $SUNBOT_STATE_DIR).",
    ),
]


class OnCap(StrEnum):
    """What a bench does when a daily cap stops it."""

    stop = "stop"
    wait = "wait"


OnCapOption = Annotated[
    OnCap,
    typer.Option(
        help="When a daily cap is reached: 'stop' (the rest runs with --resume), or 'wait'"
        " until the day turns (00:00 UTC) and go on.",
    ),
]


def spend_caps(
    requests: int | None,
    tokens: int | None,
    usd: float | None,
    store: Path | None,
    price: str | None = None,
) -> SpendCaps | None:
    """The caps the options ask for (``None`` without any cap).

    Raises:
        ValueError: ``--daily-usd`` without ``--llm-price``, a malformed price, or a store
            path that is a folder (the one-line reason, naming the option).
    """
    if requests is None and tokens is None and usd is None:
        return None
    if usd is not None and price is None:
        raise ValueError("--daily-usd needs --llm-price (the cost of a token)")
    path = store or default_store()
    if path.is_dir():
        raise ValueError(f"--spend-store {path}: a folder, not a file")
    cost = parse_price(price) if price is not None else None
    return SpendCaps(path, requests=requests, tokens=tokens, usd=usd, price=cost)


def next_day(now: datetime | None = None) -> datetime:
    """The next 00:00 UTC after ``now`` (default: now), when the daily caps start over."""
    now = now or datetime.now(UTC)
    return datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)


def wait_for_next_day(tick_s: float = 30.0) -> None:
    """Sleep until the next 00:00 UTC (plus a second), in ticks of ``tick_s`` seconds so a
    stop signal's handler runs meanwhile; bounded by the day."""
    until = next_day() + timedelta(seconds=1)
    while (left := (until - datetime.now(UTC)).total_seconds()) > 0:
        time.sleep(min(tick_s, left))
