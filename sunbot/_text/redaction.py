"""Secrets out of the logs of a server and a client, at every level, in time linear in the text.

Seat tokens travel in the view route's query string (as pinned), so uvicorn's access log
and its ``trace`` dumps (the ASGI scope, with ``query_string``) would show them. Every
record that reaches a logger named here (:func:`install`), or a handler of the served app's
logging config (:func:`sunbot.server.redaction.uvicorn_log_config`), is rewritten by
:class:`RedactTokens`:

- an access record's request target: on match routes the whole query becomes ``***``;
  elsewhere the value of every parameter whose name, decoded as the server decodes it
  (``?to%6Ben=`` is ``token``), contains ``token``;
- any other message, formatted first (so dict and bytes arguments such as the trace
  scope are covered) and its traceback too: every ``PATH?QUERY`` as above, every literal
  ``token=VALUE``, and every run of :data:`SECRET_RUN` characters (a seat token is 43,
  a state token or a key longer; match ids are 16), whatever names it.

Every step is a split, a partition or a regex without nested repetition: a 60 KB request
target costs a few milliseconds, not the tens of seconds a backtracking pattern took.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from urllib.parse import unquote, unquote_plus

from sunbot._text.safe import REDACTED, scrub

#: Routes whose query strings are redacted whole (the seat-token routes).
MATCH_ROUTES = "/api/matches"
#: Loggers of a served app (the access log, uvicorn's errors and trace dumps, our own) and
#: of a client (httpx logs each request's URL, a ``user:password@`` included).
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn.asgi", "uvicorn", "sunbot", "httpx")
#: A literal ``token=VALUE`` (a message that is not a request target).
_LITERAL = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)
#: Long runs of token characters (plain or percent-encoded): redacted wherever they stand.
SECRET_RUN = re.compile(r"[A-Za-z0-9_%-]{32,}")
#: The ``user:password@`` of a URL.
_USERINFO = re.compile(r"(?<=://)[^/\s@\"']+@")
#: Separators of free text into words (a request target never holds them).
_WORDS = re.compile(r"([\s\"']+)")


def _is_token_name(raw: str) -> bool:
    """Whether a raw query parameter name is ``token`` (or holds it) once decoded as the
    server decodes it (``parse_qsl``: ``+`` is a space, then percent-decoding)."""
    return "token" in unquote_plus(raw).strip().lower()


def redact_query(path: str, query: str) -> str:
    """``query`` with seat tokens removed: ``***`` for the whole query on match routes,
    else every parameter whose decoded name contains ``token`` keeps its name and gets the
    value ``***``. The rest is kept byte for byte."""
    if not query:
        return query
    if MATCH_ROUTES in unquote(path):
        return REDACTED
    pieces = []
    for piece in query.split("&"):  # parse_qsl's only separator
        name = piece.partition("=")[0]
        pieces.append(f"{name}={REDACTED}" if _is_token_name(name) else piece)
    return "&".join(pieces)


def redact_target(target: str) -> str:
    """A request target ``PATH?QUERY`` (the access log's argument) with its secrets gone."""
    path, sep, query = target.partition("?")
    out = f"{path}{sep}{redact_query(path, query)}" if sep else path
    return SECRET_RUN.sub(REDACTED, out)


def redact(text: str) -> str:
    """Free text (a request line, a trace dump, any message) with seat tokens redacted:
    each word holding ``?`` as a request target, then literal ``token=VALUE`` and long
    token-like runs anywhere. First, every secret a client holds
    (:func:`sunbot._text.safe.remember`: seat tokens, URL passwords) goes by value,
    whatever its shape."""
    words = _WORDS.split(scrub(text))
    for i in range(0, len(words), 2):  # even items are words, odd ones separators
        word = words[i]
        if "?" in word:
            path, _, query = word.partition("?")
            words[i] = f"{path}?{redact_query(path, query)}"
    out = _LITERAL.sub(rf"\1{REDACTED}", "".join(words))
    out = _USERINFO.sub(f"{REDACTED}@", out)
    return SECRET_RUN.sub(REDACTED, out)


def _is_access(record: logging.LogRecord) -> bool:
    args = record.args
    return (
        record.name == "uvicorn.access"
        and isinstance(args, tuple)
        and len(args) == 5
        and isinstance(args[2], str)
    )


class RedactTokens(logging.Filter):
    """Logging filter that rewrites a record so it carries no seat token (see the module
    doc); it never drops a record. Access records keep their five arguments (uvicorn's
    access formatter reads them); any other record is formatted, then redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` in place; always ``True``."""
        if getattr(record, "_sunbot_redacted", False):
            return True
        record._sunbot_redacted = True
        if _is_access(record):
            args = list(record.args)  # type: ignore[arg-type]
            args[2] = redact_target(str(args[2]))
            record.args = tuple(args)
            record.msg = redact(str(record.msg))
        else:
            record.msg, record.args = redact(_message(record)), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except (TypeError, ValueError):  # a malformed format: keep what can be shown
        args = record.args
        shown = dict(args) if isinstance(args, Mapping) else args
        return f"{record.msg} {shown!r}"


def install(loggers: tuple[str, ...] = LOGGERS) -> None:
    """Add one :class:`RedactTokens` to each of ``loggers`` (idempotent)."""
    for name in loggers:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


__all__ = [
    "LOGGERS",
    "MATCH_ROUTES",
    "SECRET_RUN",
    "RedactTokens",
    "install",
    "redact",
    "redact_query",
    "redact_target",
]
