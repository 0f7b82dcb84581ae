"""Issue 12 cases 2 and 6: redaction is linear in the text, and no seat token reaches any
log line of ``sunbot serve`` at any level (trace included), however the query spells it."""

from __future__ import annotations

import io
import logging
import time
from typing import Any

import httpx
import pytest
import uvicorn

from sunbot._text.redaction import RedactTokens, redact, redact_target
from sunbot.server import TokenCodec, create_app, serving
from sunbot.server.redaction import uvicorn_log_config
from tests.conftest import LoopbackServer
from tests.server.test_matches_access_log import SECRET, access_record, filtered


@pytest.mark.parametrize("unit", ["a", "/a.", "-", "%2F", "a?"])
def test_redaction_of_a_60kb_target_is_linear(unit):
    target = "/api/games/" + unit * (60_000 // len(unit))
    t0 = time.perf_counter()
    redact(target)
    redact_target(target)
    filtered(access_record(target))
    RedactTokens().filter(logging.LogRecord("x", 5, __file__, 1, "%s", (target,), None))
    # the backtracking pattern took ~28 s here; linear code takes milliseconds
    assert time.perf_counter() - t0 < 1.0


@pytest.mark.parametrize(
    "query",
    ["x='&to%6Ben={t}", 'x="&token={t}', "x= &to%6Ben={t}", "a=1&x'y=2&%74oken={t}"],
)
def test_quotes_and_spaces_in_a_target_do_not_hide_a_token(query):
    q = query.format(t="S3CRET")
    for path in ("/api/games/keelhold/init", "/api/matches/m"):
        line = filtered(access_record(f"{path}?{q}"))
        assert "S3CRET" not in line, line


def test_long_token_like_runs_are_redacted_anywhere():
    assert redact(f"seat 3 has {SECRET} now") == "seat 3 has *** now"
    assert redact("match u75XHTGEG1M1jAV6 round 4") == "match u75XHTGEG1M1jAV6 round 4"
    scope = {"path": "/api/matches/m", "query_string": f"x=1&to%6Ben={SECRET}".encode()}
    record = logging.LogRecord("uvicorn.asgi", 5, __file__, 1, "Started scope=%s", (scope,), None)
    RedactTokens().filter(record)
    assert SECRET not in record.getMessage() and "Started scope=" in record.getMessage()


def test_tracebacks_are_redacted():
    try:
        raise ValueError(f"bad token={SECRET}")
    except ValueError:
        import sys

        record = logging.LogRecord("sunbot.server", 40, __file__, 1, "boom", None, sys.exc_info())
    RedactTokens().filter(record)
    assert record.exc_text and SECRET not in record.exc_text and "ValueError" in record.exc_text


def test_served_match_at_trace_level_logs_no_token(monkeypatch):
    """``sunbot serve``'s own uvicorn config at ``trace``: every handler's output, whatever
    logger wrote it, is free of the seat token; trace lines were written."""
    out = io.StringIO()

    def to_buffer() -> dict[str, Any]:
        cfg = uvicorn_log_config()
        for handler in cfg["handlers"].values():
            handler["stream"] = out
        return cfg

    monkeypatch.setattr(serving, "uvicorn_log_config", to_buffer)

    def config(port: int) -> uvicorn.Config:
        app = create_app(TokenCodec())
        return serving.serve_config(app, host="127.0.0.1", port=port, log_level="trace")

    with LoopbackServer(None, config) as srv, httpx.Client(base_url=srv.url) as http:
        created = http.post("/api/matches/harvest-watch", json={"seed": 1}).json()
        mid, token = created["matchId"], created["seats"][0]["token"]
        for q in (f"token={token}", f"x='&to%6Ben={token}", f"%74oken={token}"):
            assert http.get(f"/api/matches/{mid}?{q}").status_code == 200
        http.post(f"/api/matches/{mid}/commands", json={"token": token, "round": 1, "actions": []})
        http.get(f"/api/games/keelhold/init?x='&to%6Ben={token}")
        http.get(f"/nowhere/{token}")
    text = out.getvalue()
    assert "Started scope" in text and "HTTP connection made" in text  # trace was on
    assert f"GET /api/matches/{mid}?*** HTTP/1.1" in text
    assert token not in text


def test_url_passwords_are_redacted():
    line = 'HTTP Request: GET http://player:pw-123@127.0.0.1:8000/api/games "HTTP/1.1 200 OK"'
    assert redact(line) == 'HTTP Request: GET http://***@127.0.0.1:8000/api/games "HTTP/1.1 200 OK"'
