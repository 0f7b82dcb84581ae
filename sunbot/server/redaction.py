"""The served app's logging config, with seat tokens redacted from every handler.

The redaction itself (what a record loses, and why) is :mod:`sunbot._text.redaction`, which
the client uses too.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from sunbot._text.redaction import RedactTokens


def uvicorn_log_config(base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """uvicorn's logging config (``base``, default its ``LOGGING_CONFIG``) with
    :class:`~sunbot._text.redaction.RedactTokens` on every handler, so records of any logger
    that reach them, trace dumps included, are redacted; ``sunbot`` records go to the same
    handler."""
    if base is None:
        from uvicorn.config import LOGGING_CONFIG

        base = LOGGING_CONFIG
    config: dict[str, Any] = copy.deepcopy(dict(base))
    filter_ref = f"{RedactTokens.__module__}.{RedactTokens.__qualname__}"
    config.setdefault("filters", {})["redact"] = {"()": filter_ref}
    for handler in config.get("handlers", {}).values():
        handler["filters"] = [*handler.get("filters", []), "redact"]
    config.setdefault("loggers", {}).setdefault(
        "sunbot", {"handlers": ["default"], "level": "INFO", "propagate": False}
    )
    return config
