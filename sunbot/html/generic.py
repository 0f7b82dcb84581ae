"""What a replay page draws of a game sunbot has no board for: the observation as a tree.

A frame: ``rows``, the observation walked depth first, one ``[depth, key, text, path]``
per field (``text``: a scalar as JSON, a string as it is, an object as ``{n}``, a list as
``[n]``, cut to :data:`MAX_TEXT` characters; ``path``: ``a.b[2]`` as divergence paths
name fields), at most :data:`MAX_ROWS` of them and at most :data:`MAX_DEPTH` deep;
``more``: rows left out; and, after :func:`mark_changes`, ``changed``: the paths whose
text differs from the frame before (or that are new). The text is the server's and is
hostile: the page puts it on the board with ``textContent`` only (``assets/generic.js``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_ROWS", "MAX_TEXT", "flatten", "frame", "mark_changes", "progress"]

Frame = dict[str, Any]
Row = list[Any]
#: Fields drawn of one observation.
MAX_ROWS = 200
#: Nesting drawn (deeper values are shown as ``{n}`` / ``[n]`` only).
MAX_DEPTH = 8
#: Characters of one drawn key or value.
MAX_TEXT = 120


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return _cut(value)
    try:
        return _cut(json.dumps(value, ensure_ascii=False, allow_nan=True))
    except (TypeError, ValueError):
        return _cut(repr(value))


def flatten(value: Any, max_rows: int = MAX_ROWS) -> tuple[list[Row], int]:
    """``(rows, more)``: ``value``'s fields depth first (see the module docstring), and a
    count of those left out past ``max_rows`` (at least that many: the fields inside a
    left-out object are not counted)."""
    rows: list[Row] = []
    more = 0

    def children(depth: int, path: str, node: Any) -> list[tuple[int, str, str, Any]]:
        nonlocal more
        pairs: Iterable[tuple[Any, Any]] = (
            node.items() if isinstance(node, dict) else enumerate(node)
        )
        items = list(itertools.islice(pairs, max_rows))
        more += len(node) - len(items)
        if isinstance(node, dict):
            return [(depth, _cut(str(k)), f"{path}.{k}" if path else str(k), v) for k, v in items]
        return [(depth, f"[{i}]", f"{path}[{i}]", v) for i, v in items]

    if isinstance(value, dict | list):
        stack = children(0, "", value)[::-1]
    else:
        stack = [(0, "value", "value", value)]
    while stack:
        depth, key, path, node = stack.pop()
        if len(rows) >= max_rows:
            more += 1
            continue
        if isinstance(node, dict | list):
            size = f"{{{len(node)}}}" if isinstance(node, dict) else f"[{len(node)}]"
            rows.append([depth, key, size, path])
            if depth + 1 < MAX_DEPTH:
                stack.extend(children(depth + 1, path, node)[::-1])
        else:
            rows.append([depth, key, _scalar(node), path])
    return rows, more


def frame(observation: dict[str, Any]) -> Frame:
    """The drawn fields of any observation (see the module docstring)."""
    rows, more = flatten(observation)
    return {"rows": rows, "more": more}


def progress(observation: dict[str, Any]) -> str:
    """``5 fields`` (a game sunbot does not know has no progress it can name)."""
    return f"{len(observation)} field{'s' if len(observation) != 1 else ''}"


def mark_changes(frames: Sequence[Frame | None]) -> list[Frame | None]:
    """``frames`` with ``changed`` added to each drawn one: the paths whose text differs
    from the last drawn frame before it, or that it did not have (none on the first)."""
    out: list[Frame | None] = []
    before: dict[str, str] | None = None
    for f in frames:
        if f is None:
            out.append(None)
            continue
        now = {row[3]: row[2] for row in f["rows"]}
        changed = [] if before is None else [p for p, t in now.items() if before.get(p) != t]
        out.append({**f, "changed": changed})
        before = now
    return out
