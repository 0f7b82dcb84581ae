"""Seat tokens never reach the uvicorn access log, however the query string spells ``token``
(the server percent-decodes parameter names: ``?to%6Ben=...`` authenticates too)."""

from __future__ import annotations

import logging
import threading
import time

import httpx
import pytest
import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter

from sunbot._text.redaction import RedactTokens, redact, redact_query
from sunbot.server import TokenCodec, create_app
from tests.conftest import free_port

#: uvicorn's access-log call (protocols/http/*_impl.py): format and argument order.
ACCESS_FORMAT = '%s - "%s %s HTTP/%s" %d'
#: uvicorn's default access-log line (``uvicorn.config.LOGGING_CONFIG``).
ACCESS_LINE: str = LOGGING_CONFIG["formatters"]["access"]["fmt"]
SECRET = "s_laGCHcjGTpVdIdEGb6Z0M-a-IZzulsQ-xURwVsk-E"

#: Query strings the server reads as ``token`` (each decodes to it under parse_qsl).
TOKEN_QUERIES = [
    "token={t}",
    "to%6Ben={t}",
    "%74oken={t}",
    "%74%6F%6B%65%6E={t}",
    "TO%6BEN={t}",  # not a token for the server (names are case-sensitive), still redacted
    "x=1&to%6Ben={t}",
    "to%6Ben={t}&x=1",
    "token=&to%6Ben={t}",
    "token={t}&token={t}",
]


def access_record(target: str) -> logging.LogRecord:
    """A record exactly as uvicorn logs a request for ``target``."""
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        ACCESS_FORMAT,
        ("127.0.0.1:5555", "GET", target, "1.1", 200),
        None,
    )


def filtered(record: logging.LogRecord) -> str:
    """The line uvicorn's default access formatter prints for ``record`` after the filter."""
    assert RedactTokens().filter(record) is True  # never drops a record
    return AccessFormatter(ACCESS_LINE, use_colors=False).format(record)


@pytest.mark.parametrize("query", TOKEN_QUERIES)
def test_match_route_queries_are_redacted_whole(query):
    line = filtered(access_record(f"/api/matches/u75XHTGEG1M1jAV6?{query.format(t=SECRET)}"))
    assert SECRET not in line
    assert '"GET /api/matches/u75XHTGEG1M1jAV6?*** HTTP/1.1" 200' in line


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        # other routes keep their other parameters byte for byte
        ("/api/games/x/init?seed=1&to%6Ben=S&a=%41", "/api/games/x/init?seed=1&to%6Ben=***&a=%41"),
        ("/other?tok%65n=S", "/other?tok%65n=***"),
        ("/other?to+ken=S&token", "/other?to+ken=S&token=***"),  # '+' is a space: not token
        ("/other?seed=1&x=2", "/other?seed=1&x=2"),
        ("/api/games", "/api/games"),
        # a percent-encoded match route is still a match route
        ("/api/%6Datches/ID?q=S", "/api/%6Datches/ID?***"),
        ("/api/matches/ID?", "/api/matches/ID?"),
    ],
)
def test_other_routes_redact_token_parameters_after_decoding(target, expected):
    assert redact(target) == expected


def test_redact_query_on_its_own():
    assert redact_query("/api/matches/m", "anything=at&all") == "***"
    assert redact_query("/api/games", "a=1&%74oken=S") == "a=1&%74oken=***"
    assert redact_query("/api/games", "") == ""


def test_tokens_in_messages_and_request_lines():
    # a whole request line as one argument, and a literal token in a plain message
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        "%s",
        (f"GET /api/matches/m?to%6Ben={SECRET} HTTP/1.1",),
        None,
    )
    RedactTokens().filter(record)
    assert record.getMessage() == "GET /api/matches/m?*** HTTP/1.1"
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, f"polled /api/matches/m?token={SECRET} ok", None, None
    )
    RedactTokens().filter(record)
    assert record.getMessage() == "polled /api/matches/m?*** ok"
    # a token in a format string next to placeholders: the formatted message is redacted
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, f"seat %d token={SECRET}%s", (3, "!"), None
    )
    RedactTokens().filter(record)
    assert record.getMessage() == "seat 3 token=***"
    # keyword-style arguments
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "%(path)s", ({"path": f"/api/matches/m?{SECRET}"},), None
    )
    RedactTokens().filter(record)
    assert record.getMessage() == "/api/matches/m?***"


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.setFormatter(AccessFormatter(ACCESS_LINE, use_colors=False))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_real_access_log_of_a_served_match_holds_no_token():
    """uvicorn serving the app with its access log on: the seat token is accepted under
    every spelling, and no logged line carries it."""
    app = create_app(TokenCodec())
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="info", lifespan="off")
    )
    access = logging.getLogger("uvicorn.access")  # configured by the Config above
    lines = _Lines()
    access.addHandler(lines)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.01)
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as http:
            created = http.post("/api/matches/harvest-watch", json={"seed": 1}).json()
            mid, token = created["matchId"], created["seats"][0]["token"]
            statuses = {}
            for query in TOKEN_QUERIES:
                q = query.format(t=token)
                statuses[q] = http.get(f"{base}/api/matches/{mid}?{q}").status_code
            assert http.get(f"/api/matches/{mid}/nope?token={token}").status_code in (404, 405)
        # the server read the token from every lower-case spelling
        assert statuses[f"to%6Ben={token}"] == statuses[f"%74oken={token}"] == 200
        assert statuses[f"TO%6BEN={token}"] == 403
        deadline = time.monotonic() + 5
        while len(lines.lines) < len(TOKEN_QUERIES) + 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        access.removeHandler(lines)
    assert any(isinstance(f, RedactTokens) for f in access.filters)
    views = [line for line in lines.lines if f"GET /api/matches/{mid}" in line]
    assert len(views) == len(TOKEN_QUERIES) + 1, lines.lines
    assert all(token not in line for line in lines.lines), lines.lines
    assert f'"GET /api/matches/{mid}?*** HTTP/1.1" 200' in views[1]  # the to%6Ben= one
