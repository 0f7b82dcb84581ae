"""The server's identity is read with one attempt: a server that answers garbage must not
cost a run a second retry budget before it even starts (issue 11 follow-up)."""

from __future__ import annotations

import httpx

from sunbot.client import GameboardClient
from sunbot.runs.remote import identify
from tests.conftest import FAST_RETRY


async def test_identify_makes_one_attempt_and_gives_none_on_garbage():
    calls = {"n": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        return httpx.Response(200, text="<html>maintenance</html>")

    client = GameboardClient(transport=httpx.MockTransport(handler), policy=FAST_RETRY)
    async with client:
        assert await identify(client) is None
    assert calls["n"] == 1 and client.retries == 0


async def test_identify_waits_out_a_rate_limit():
    calls = {"n": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] == 1:
            return httpx.Response(429, headers={"Retry-After": "0"}, text="slow down")
        return httpx.Response(200, json={"service": "x", "games": [], "localChoices": "y"})

    client = GameboardClient(transport=httpx.MockTransport(handler), policy=FAST_RETRY)
    async with client:
        assert await identify(client) == {"service": "x", "localChoices": "y"}
    assert calls["n"] == 2


async def test_identify_reads_our_servers_local_choices(asgi_client):
    from sunbot.games import LOCAL_CHOICES

    assert await identify(asgi_client) == {"service": "sunbot-local", "localChoices": LOCAL_CHOICES}
