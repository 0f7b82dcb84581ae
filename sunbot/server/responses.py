"""The server's one JSON response class: an answer rendered once, that cannot fail to encode.

A route returns the answer it built as this response, so FastAPI's generic conversion pass
(``jsonable_encoder``, a Python call per value of the envelope) never runs: the body is
rendered once, by orjson when the content is plain JSON, else by the standard library.

- The bytes are the same either way: compact separators, UTF-8 text unescaped.
- Text UTF-8 cannot carry (a lone surrogate such as ``"\\ud800"``, valid JSON that a
  client can send) goes out as a JSON escape instead of turning every later answer into a
  500. Inputs are checked for that already (Harvest Watch text,
  :func:`sunbot.engines.harvest_watch.validate_command`); this is the last line.
- An integer beyond 64 bits (orjson refuses it) is written by the standard library.
- Never ``NaN`` or ``Infinity`` in an answer (they are not JSON): orjson writes a
  non-finite float as ``null`` (none of our engines makes a float; ``docs/decisions.md``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi.responses import JSONResponse


def render_json(content: Any) -> bytes:
    """``content`` as compact UTF-8 JSON (``\\uXXXX`` escapes for text UTF-8 cannot encode).

    Raises:
        TypeError: ``content`` holds something JSON has no form for.
    """
    try:
        body = orjson.dumps(content)
    except TypeError:  # a lone surrogate, an integer past 64 bits, a key not a string
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")
    return body


class SafeJSONResponse(JSONResponse):
    """``JSONResponse`` rendered by :func:`render_json`."""

    def render(self, content: Any) -> bytes:
        """Compact UTF-8 JSON; ``\\uXXXX`` escapes for text UTF-8 cannot encode."""
        return render_json(content)
