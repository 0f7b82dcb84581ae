"""Decisions of a model kept to be played again without the model.

:class:`DecisionCache` keeps each chat answer under a key that names everything that made it:
the endpoint (its public URL), the model, the request's parameters (``temperature``,
``max_tokens``, ``seed``, ...), the response format or tools, and the messages. The same
question asked again is answered from the cache at 0 tokens; a prompt that changed by one
character is a new key. With ``--llm-cache DIR`` (``LLMStrategy(cache=DIR)``) the answers
are files in a folder, one per key (``DIR/ab/abcdef....json``), written whole, so runs and
bench workers can share one folder.

:class:`RecordedCalls` is the cache a transcript holds: each decision's calls as the run
recorded them (answers, and calls that got none). ``sunbot replay --rerun`` plays the run
again from it (:mod:`sunbot.rerun.llm`): the same prompts find the same answers,
so the same actions are played and no endpoint is called.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger("sunbot.agents.llm")

#: Version of the key's recipe and of the files (a new recipe makes new keys).
KEY_VERSION = 1
#: Largest cache file read, bytes (an answer is at most 16 MiB on the wire, but a decision's
#: answer kept is far smaller; a bigger file is not ours).
FILE_MAX = 4 << 20


def request_key(
    *,
    endpoint: str,
    model: str,
    params: Mapping[str, Any],
    messages: list[dict[str, Any]],
    response_format: dict[str, Any] | None = None,
    tools: list[dict[str, Any]] | None = None,
    variant: str | None = None,
) -> str:
    """The cache key of one chat request: the SHA-256 (64 hex digits) of its parts as
    canonical JSON (sorted keys). ``endpoint`` is the URL without credentials or query;
    ``variant`` a label that keeps two strategies asking the same from sharing answers (a
    bench's null variant)."""
    body = {
        "v": KEY_VERSION,
        "endpoint": endpoint,
        "model": model,
        "params": {k: v for k, v in sorted(params.items()) if v is not None},
        "messages": [{"role": m.get("role"), "content": m.get("content")} for m in messages],
        "responseFormat": response_format,
        "tools": tools,
    }
    if variant is not None:
        body["variant"] = variant
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()


class CacheMiss(RuntimeError):
    """An offline replay met a request its record does not hold (the prompt changed)."""


class Cache(Protocol):
    """What :class:`~sunbot.agents.llm.LLMStrategy` asks of a cache: ``lookup(key,
    decision, attempt)`` gives a recorded reply as :meth:`Reply.to_json
    <sunbot.agents._llm_client.Reply.to_json>`'s dict, a dict ``{"error": reason, "late":
    bool}`` for a call that got no answer, or ``None`` (ask the endpoint); ``store(key,
    reply)`` keeps a new answer."""

    def lookup(self, key: str, decision: int, attempt: int) -> dict[str, Any] | None: ...

    def store(self, key: str, reply: dict[str, Any]) -> None: ...


class DecisionCache:
    """Answers in a folder, one JSON file per key; a file that cannot be read is a miss
    (with a warning), one that cannot be written is skipped (with a warning): the cache
    never stops a run.

    Args:
        folder: the cache's folder (created when missing).

    Raises:
        ValueError: ``folder`` exists and is not a folder.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise ValueError(f"--llm-cache {self.folder}: not a folder")
        self.hits = self.misses = 0

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def lookup(self, key: str, decision: int, attempt: int) -> dict[str, Any] | None:
        """The answer kept under ``key``, or ``None``."""
        path = self._path(key)
        try:
            if not path.is_file() or path.stat().st_size > FILE_MAX:
                self.misses += 1
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("decision cache: %s unreadable (%s); asking the model", path.name, exc)
            self.misses += 1
            return None
        if not isinstance(data, dict) or data.get("key") != key or "reply" not in data:
            self.misses += 1
            return None
        self.hits += 1
        reply = data["reply"]
        return reply if isinstance(reply, dict) else None

    def store(self, key: str, reply: dict[str, Any]) -> None:
        """Keep ``reply`` under ``key`` (a file written whole)."""
        from sunbot._text.atomic_write import write_atomic

        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps({"v": KEY_VERSION, "key": key, "reply": reply}) + "\n")
        except OSError as exc:
            log.warning("decision cache: cannot write %s (%s)", path, exc)


class RecordedCalls:
    """The calls a transcript recorded, as a cache (never written to).

    Args:
        calls: per decision (in order), its calls: dicts with ``key`` and either a reply
            (:meth:`Reply.to_json <sunbot.agents._llm_client.Reply.to_json>`'s keys) or
            ``error``.
        follow: when a key is not found, answer with the call the run made at the same
            decision and attempt (the same game path under a changed prompt, whose prompts
            :func:`sunbot.rerun.llm.rerun` compares); ``False``: a miss.
        offline: a miss raises :class:`CacheMiss` (no endpoint may be asked) instead of
            returning ``None``; :attr:`missed_at` keeps where.
    """

    def __init__(
        self, calls: list[list[dict[str, Any]]], *, follow: bool = False, offline: bool = False
    ) -> None:
        self.calls = calls
        self.follow, self.offline = follow, offline
        self.by_key = {c["key"]: c for d in calls for c in d if isinstance(c.get("key"), str)}
        self.hits = self.misses = self.followed = 0
        self.missed_at: tuple[int, int] | None = None

    def lookup(self, key: str, decision: int, attempt: int) -> dict[str, Any] | None:
        """The recorded call of ``key`` (else, when following, of ``decision``'s
        ``attempt``, both from 1), or ``None``."""
        found = self.by_key.get(key)
        if found is None and self.follow and 0 < decision <= len(self.calls):
            made = self.calls[decision - 1]
            if 0 < attempt <= len(made):
                found = made[attempt - 1]
                self.followed += 1
        if found is None:
            self.misses += 1
            if self.offline:
                self.missed_at = self.missed_at or (decision, attempt)
                raise CacheMiss(f"decision {decision}, call {attempt}: not in the record")
            return None
        self.hits += 1
        return found

    def store(self, key: str, reply: dict[str, Any]) -> None:
        """Nothing: a transcript's record is not changed."""


__all__ = ["KEY_VERSION", "Cache", "CacheMiss", "DecisionCache", "RecordedCalls", "request_key"]
