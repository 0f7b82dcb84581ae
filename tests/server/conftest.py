"""Fixtures of the match-route tests: a fake clock, the app on it, an HTTP client.

A test module that needs another start time overrides ``clock``; one that needs another
client overrides ``http`` (test_app.py does)."""

from __future__ import annotations

import httpx
import pytest

from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock


@pytest.fixture
def clock():
    return FakeClock(10_000)


@pytest.fixture
def match_app(clock):
    return create_app(TokenCodec(), clock=clock)


@pytest.fixture
async def http(match_app):
    transport = httpx.ASGITransport(app=match_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c
