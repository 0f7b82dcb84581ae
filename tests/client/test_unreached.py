"""A server never reached (connection refused on the very first request) fails fast, in
``RetryPolicy.unreached_seconds``; a server that answered before keeps the whole budget
(docs/decisions.md, Fail fast on a server never reached)."""

from __future__ import annotations

import json
import time

import httpx
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.client import GameboardClient, RetryPolicy
from sunbot.server import TokenCodec, create_app
from tests.conftest import free_port

QUICK = RetryPolicy(total_seconds=30, initial_wait=0.02, max_wait=0.05, unreached_seconds=0.3)


class Outage(httpx.AsyncBaseTransport):
    """Our server, refusing every connection for ``seconds`` after its first answer."""

    def __init__(self, seconds: float) -> None:
        self.inner = httpx.ASGITransport(app=create_app(TokenCodec()))
        self.seconds = seconds
        self.down_since: float | None = None
        self.refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down_since is not None and time.monotonic() - self.down_since < self.seconds:
            self.refused += 1
            raise httpx.ConnectError("connection refused", request=request)
        response = await self.inner.handle_async_request(request)
        self.down_since = self.down_since or time.monotonic()
        return response


async def test_a_server_never_reached_fails_within_the_short_budget():
    t0 = time.monotonic()
    async with GameboardClient(f"http://127.0.0.1:{free_port()}", policy=QUICK) as c:
        try:
            await c.init("keelhold", 7)
        except httpx.ConnectError:
            pass
        else:
            raise AssertionError("a closed port answered")
        assert not c.contact.answered and c.retries >= 1  # a few quick attempts, not one
    assert time.monotonic() - t0 < 0.3 + 0.5
    assert RetryPolicy().unreached_seconds == 3.0


async def test_a_server_that_answered_before_keeps_the_whole_budget():
    outage = Outage(seconds=0.8)  # well past unreached_seconds (0.3)
    async with GameboardClient(transport=outage, policy=QUICK) as c:
        pos = await c.init("keelhold", 7)
        after = await c.act("keelhold", pos, pos.legal_actions[0])
    assert c.contact.answered and outage.refused >= 3 and c.retries == outage.refused
    assert after.score == 0 and not after.game_over


def test_play_against_a_wrong_address_ends_fast_with_the_reason_in_the_summary(tmp_path):
    path = tmp_path / "run.jsonl"
    args = ["play", "keelhold", "--seed", "1", "--quiet", "--transcript", str(path)]
    t0 = time.monotonic()
    res = CliRunner().invoke(
        app, [*args, "--server", f"http://127.0.0.1:{free_port()}"], env={"COLUMNS": "200"}
    )
    assert time.monotonic() - t0 < 10  # the default 3 s budget, not 60 s
    assert res.exit_code == 1, res.output
    rows = [" ".join(line.split()) for line in res.output.splitlines()]
    assert "│ ended by │ error (ConnectError: All connection attempts failed) │" in rows
    assert "rerun with -v" not in res.output  # a traceback adds nothing to a refused connection
    result = json.loads(path.read_text().splitlines()[-1])
    assert result["endedBy"] == "error" and result["error"].startswith("ConnectError")


def test_probe_of_a_wrong_address_fails_fast():
    t0 = time.monotonic()
    res = CliRunner().invoke(app, ["probe", f"http://127.0.0.1:{free_port()}"])
    assert time.monotonic() - t0 < 10 and res.exit_code == 1
    assert "cannot read" in res.output and "All connection attempts failed" in res.output
