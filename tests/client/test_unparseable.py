"""Answers no retry can parse end the call at once with one line saying what is wrong; a
body cut short is still retried (issue 26 cases 7 and 10)."""

from __future__ import annotations

import time

import httpx
import pytest

from sunbot.client import GameboardClient, MalformedResponse, RetryPolicy, TransientHTTPError
from sunbot.client import http as client_http
from sunbot.client.answers import MAX_DEPTH, depth

#: The default budget (60 s), real sleeps: a retried answer would take a minute.
REAL = RetryPolicy()


def serving(body: bytes, ctype: str = "application/json", status: int = 200):
    calls = {"n": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        return httpx.Response(status, content=body, headers={"content-type": ctype})

    return httpx.MockTransport(handler), calls


async def _init(transport: httpx.MockTransport, policy: RetryPolicy = REAL) -> None:
    async with GameboardClient("http://127.0.0.1:9", transport=transport, policy=policy) as c:
        await c.init("keelhold", 7)


@pytest.mark.parametrize(
    ("body", "ctype", "said"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "application/json", f"deeper than {MAX_DEPTH} levels"),
        (b"[" * 300 + b"]" * 300, "application/json", f"deeper than {MAX_DEPTH} levels"),
        (b'{"score": ' + b"7" * 5000 + b"}", "application/json", "an integer with 5,000 digits"),
        (b'{"a": "\xff"}', "application/json", "not UTF-8 text"),
    ],
)
async def test_unparseable_answer_fails_in_one_attempt_with_one_line(body, ctype, said):
    transport, calls = serving(body, ctype)
    t0 = time.monotonic()
    with pytest.raises(MalformedResponse) as err:
        await _init(transport)
    assert time.monotonic() - t0 < 3.0 and calls["n"] == 1
    message = str(err.value)
    assert said in message and "\n" not in message and len(message) < 200
    assert "origin" not in message  # the hint only where it makes sense


@pytest.mark.parametrize(
    ("body", "ctype", "said"),
    [
        (b"<!doctype html><html>app</html>", "text/html", "is the server URL the API's origin?"),
        (b"<html>app</html>", "text/plain", "is the server URL the API's origin?"),
        (b'{"ok": true} {"ok": true}', "application/json", "Extra data at character 13"),
        (b"{'ok': True}", "application/json", "Expecting property name"),
    ],
)
async def test_text_that_is_not_json_is_retried_only_briefly(body, ctype, said):
    transport, calls = serving(body, ctype)
    brief = RetryPolicy(initial_wait=0.01, max_wait=0.02, brief_seconds=0.3)  # real sleeps
    t0 = time.monotonic()
    with pytest.raises(MalformedResponse) as err:
        await _init(transport, brief)
    assert time.monotonic() - t0 < 1.5 and calls["n"] >= 2
    message = str(err.value)
    assert said in message and "\n" not in message and len(message) < 200
    assert ("origin" in message) == ("html" in body.decode())


async def test_too_large_answer_is_not_retried(monkeypatch):
    monkeypatch.setattr(client_http, "MAX_BODY_BYTES", 10_000)
    transport, calls = serving(b" " * 20_000)
    with pytest.raises(MalformedResponse, match="larger than 10,000 bytes"):
        await _init(transport)
    assert calls["n"] == 1


@pytest.mark.parametrize(
    "body", [b"", b'{"ok": true, "state": {"tu', b'{"a": tru', b'{"a": 12', b'{"a": "\xc3']
)
async def test_answer_cut_short_is_retried(body):
    transport, calls = serving(body)
    fast = RetryPolicy(attempts=3, initial_wait=0.001, max_wait=0.001)
    with pytest.raises(MalformedResponse, match=r"stops short|not UTF-8"):
        await _init(transport, fast)
    assert calls["n"] == 3  # what a dropped connection leaves: another attempt may be whole


def test_depth_counts_levels_without_recursion():
    assert [depth(5), depth([]), depth({"a": [1, {"b": []}]})] == [0, 1, 4]
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    assert depth(deep) == MAX_DEPTH + 1  # gives up past the bound


async def test_rate_limit_exhausted_never_echoes_the_html_page():
    page = b"<!DOCTYPE html><html><head><title>Too Many Requests</title></head>" + b"x" * 5000
    transport, calls = serving(page, "text/html", status=429)
    fast = RetryPolicy(attempts=2, initial_wait=0.001, max_wait=0.001)
    with pytest.raises(TransientHTTPError) as err:
        await _init(transport, fast)
    message = str(err.value)
    assert calls["n"] == 2 and "<" not in message and "Too Many" not in message
    assert (
        message.startswith("HTTP 429: the answer from GET") and "text/html, 5,066 bytes" in message
    )


@pytest.mark.parametrize(
    ("body", "ctype", "reason"),
    [
        (b"slow down, please\nsecond line", "text/plain", "slow down, please"),
        (b"<p>slow down</p>", "text/plain", "is not JSON (text/plain, 16 bytes)"),
        (b'{"reason": "<b>slow</b> down"}', "application/json", "a reason in markup"),
        (b'{"reason": "rate limited"}', "application/json", "rate limited"),
        (b"", "text/plain", "is not JSON (text/plain, 0 bytes)"),
    ],
)
async def test_rate_limit_reason_is_short_plain_text(body, ctype, reason):
    transport, _ = serving(body, ctype, status=429)
    fast = RetryPolicy(attempts=1)
    with pytest.raises(TransientHTTPError) as err:
        await _init(transport, fast)
    assert err.value.reason.endswith(reason) or reason in err.value.reason
    assert "<" not in err.value.reason


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"ok": true, "state": [1], "observation": {}, "legalActions": {"type": "x"},'
         b' "score": 0, "gameOver": false}', "legalActions: Input should be a valid list"),
        (b'{"ok": true, "state": {}, "observation": {}, "legalActions": [],'
         b' "score": true, "gameOver": null}', "does not match the envelope"),
        (b"[1, 2, 3]", "does not match the envelope"),
    ],
)  # fmt: skip
async def test_whole_json_of_the_wrong_shape_is_retried_only_briefly(body, said):
    # A server whose answers changed shape mid-run was asked again for the whole 60 s
    # budget (30 attempts): whole JSON comes back the same from a stateless call, so only
    # a glitch's few seconds are worth riding out.
    transport, calls = serving(body)
    brief = RetryPolicy(initial_wait=0.01, max_wait=0.02, brief_seconds=0.3)  # real sleeps
    t0 = time.monotonic()
    with pytest.raises(MalformedResponse) as err:
        await _init(transport, brief)
    assert time.monotonic() - t0 < 1.5 and calls["n"] >= 2
    message = str(err.value)
    assert said in message and "\n" not in message and len(message) < 300
    assert "origin" not in message
