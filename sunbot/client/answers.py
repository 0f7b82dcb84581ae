"""An answer body read within bounds: decoded JSON, or one line saying what is wrong with it.

:func:`decode` turns a success body into JSON and raises
:class:`~sunbot.client.retry.MalformedResponse` when it cannot, marked with
for how long asking again can help (its ``retry``; ``docs/decisions.md``, "Answers no
retry can parse"):

- ``"full"`` budget: an empty body, a body cut short (JSON that stops mid-value, UTF-8 that
  stops mid-character): what a dropped connection leaves;
- ``"brief"`` (3 s): an HTML page (a proxy's glitch, or a web site's origin rather than the
  API's: the only answer that asks "is the server URL the API's origin?") and any other
  text that is not JSON (an error in the middle of the body);
- ``"none"``: a body over :data:`MAX_BODY_BYTES`, nesting deeper than :data:`MAX_DEPTH`
  levels, an integer of more digits than Python reads (4,300), UTF-8 broken mid-body.

:func:`refusal_reason` is what a refusal or a rate limit may say of its body in our one-line
errors: the server's ``reason`` string scrubbed and clipped, or only the URL, kind and size
of a body that is not JSON, never an HTML page.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import orjson

from sunbot._text.safe import safe
from sunbot._text.terminal import printable
from sunbot.client.retry import MalformedResponse

__all__ = ["MAX_BODY_BYTES", "MAX_DEPTH", "decode", "refusal_reason"]

#: Largest answer body read, in bytes; a longer one is a :class:`MalformedResponse`.
MAX_BODY_BYTES = 16 * 1024 * 1024
#: Deepest nesting of arrays and objects accepted in an answer (the four games need < 10).
MAX_DEPTH = 200
#: What the rest of a body may be when JSON stopped mid-value (``tru``, ``-``, ``1e``).
_CUT_TAILS = frozenset(
    {"t", "tr", "tru", "f", "fa", "fal", "fals", "n", "nu", "nul", "-", "."}
    | {"e", "E", "e+", "e-", "E+", "E-"}
)
#: Characters of a plain-text body shown in a rate limit's or gateway's reason.
_PLAIN = 120
_DIGITS = re.compile(r"value has (\d+) digits")
_TAG = re.compile(r"<\s*[!/?]?[A-Za-z]")
#: 20 digits in a row: past what orjson reads as an integer (it would give a float).
_LONG_DIGITS = re.compile(rb"[0-9]{20}")


def too_large(limit: int) -> MalformedResponse:
    """The error of a body over ``limit`` bytes (not retried)."""
    return MalformedResponse(f"the server's answer is larger than {limit:,} bytes", retry="none")


def decode(raw: bytes, resp: httpx.Response) -> Any:
    """``raw`` (the body of ``resp``, a success status) as JSON.

    Raises:
        MalformedResponse: one line saying what is wrong (module doc); its ``retry`` says
            for how long another attempt may get a whole answer.
    """
    try:
        if _LONG_DIGITS.search(raw):  # an integer orjson would read as a float
            raise orjson.JSONDecodeError("long digits", "", 0)
        data = orjson.loads(raw)  # the common case, in a few microseconds
    except orjson.JSONDecodeError:  # NaN, long integers, bad text...: the standard
        data = _loads(raw, resp)  # library's reading and its one-line errors
    # a body with fewer brackets than MAX_DEPTH cannot nest deeper (a count in C)
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and depth(data) > MAX_DEPTH:
        raise _deep()
    return data


def _loads(raw: bytes, resp: httpx.Response) -> Any:
    """``raw`` read by the standard library's JSON reader, or the one-line error."""
    try:
        return json.loads(raw)
    except RecursionError:  # the C decoder's own guard, ~1,000 levels: far past ours
        raise _deep() from None
    except UnicodeDecodeError as exc:
        cut = exc.reason == "unexpected end of data"
        raise MalformedResponse(
            f"the server's answer is not UTF-8 text ({exc.reason} at byte {exc.start:,})",
            retry="full" if cut else "none",
        ) from None
    except json.JSONDecodeError as exc:
        raise _not_json(raw, resp, exc) from None
    except ValueError as exc:  # int() refused a number of too many digits
        found = _DIGITS.search(str(exc))
        digits = f"{int(found.group(1)):,}" if found else "thousands of"
        raise MalformedResponse(
            f"the server's answer holds an integer with {digits} digits", retry="none"
        ) from None


def depth(value: Any) -> int:
    """Levels of arrays and objects in ``value`` (``1`` for ``[]``, ``0`` for ``5``),
    counted without recursion and given up past :data:`MAX_DEPTH` (returns
    ``MAX_DEPTH + 1``)."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        todo.extend((c, level + 1) for c in children if isinstance(c, dict | list))
    return deepest


def _deep() -> MalformedResponse:
    return MalformedResponse(
        f"the server's answer nests deeper than {MAX_DEPTH} levels", retry="none"
    )


def looks_html(raw: bytes, resp: httpx.Response) -> bool:
    """The body is a web page: an HTML content type, or text opening with a tag."""
    kind = resp.headers.get("content-type", "").split(";")[0].strip().lower()
    head = raw[:512].lstrip().lower()
    web = kind in ("text/html", "application/xhtml+xml")
    return web or head.startswith((b"<!doctype", b"<html"))


def _not_json(raw: bytes, resp: httpx.Response, exc: json.JSONDecodeError) -> MalformedResponse:
    """What a body that is not JSON was: cut short (retried), a web page (the origin
    hint), or other text (the decoder's complaint and where)."""
    what = where(resp, raw)
    if looks_html(raw, resp):
        return MalformedResponse(
            f"HTTP {resp.status_code} {what}: is the server URL the API's origin?",
            retry="brief",
        )
    tail = exc.doc[exc.pos :].strip()
    if exc.msg.startswith("Unterminated string") or not tail or tail in _CUT_TAILS:
        return MalformedResponse(f"HTTP {resp.status_code} {what}: the answer stops short")
    return MalformedResponse(
        f"HTTP {resp.status_code} {what}: {exc.msg} at character {exc.pos:,}", retry="brief"
    )


def where(resp: httpx.Response, raw: bytes) -> str:
    """``from GET https://host/path is not JSON (text/html, 1234 bytes)``: the URL without
    its query (a seat token travels there), the content type, never the body itself."""
    url = resp.request.url.copy_with(query=None, userinfo=b"")
    kind = printable(safe(resp.headers.get("content-type", "no content type").split(";")[0], 60))
    return f"from {resp.request.method} {url} is not JSON ({kind}, {len(raw):,} bytes)"


def refusal_reason(
    raw: bytes, resp: httpx.Response, sent: tuple[str, ...] = (), *, plain: bool = False
) -> str:
    """What our error line says of a refusal's or a rate limit's body: the server's
    ``reason`` (a JSON string; every secret we hold and every token ``sent`` redacted,
    then clipped to :data:`~sunbot._text.safe.MAX_TEXT` characters), with ``plain`` (a 429
    or a gateway status: ``busy``) a plain-text body's first line without markup (clipped
    to 120 characters), else for a body that is not JSON, an HTML page above all, only its
    URL, kind and size. Markup is never echoed:
    a reason that holds tags is described, not shown."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        if plain and not looks_html(raw, resp):
            lines = raw[:4096].decode("utf-8", "replace").strip().splitlines()
            if lines and not _TAG.search(lines[0]):
                return printable(safe(lines[0], _PLAIN, extra=sent))
        return f"the answer {where(resp, raw)}"
    if isinstance(data, dict) and isinstance(data.get("reason"), str):
        reason = data["reason"]
        if _TAG.search(reason):
            return f"a reason in markup ({len(reason):,} characters, not shown)"
        return safe(reason, extra=sent)
    return "no reason given"
