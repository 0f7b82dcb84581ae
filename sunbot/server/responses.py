"""The server's one JSON response class: an answer that cannot fail to encode.

Starlette's ``JSONResponse`` writes UTF-8, which raises on a lone surrogate (``"\\ud800"``
is valid JSON, so a client can send one). Inputs are checked for that already (Harvest
Watch text, :func:`sunbot.engines.harvest_watch.validate_command`); this is the last line:
such text goes out as a JSON escape instead of turning every later answer into a 500.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse


class SafeJSONResponse(JSONResponse):
    """``JSONResponse`` that falls back to ASCII escapes when UTF-8 cannot carry the text."""

    def render(self, content: Any) -> bytes:
        """Compact UTF-8 JSON; ``\\uXXXX`` escapes for text UTF-8 cannot encode."""
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")
