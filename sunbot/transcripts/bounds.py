"""Bounds on what one server answer can add to a transcript and to memory.

A server may add fields to its answers that no rule text names (the platform protocol
allows it, "unknown extra fields anywhere in an answer: ignore them"). Ignored is not free:
every answer is recorded and held, so a server adding a megabyte of them to each answer
fills the disk. Two bounds (``docs/transcripts.md``, "Bounds"; ``docs/decisions.md``):

- **An unknown field larger than** :data:`MAX_UNKNOWN_FIELD_BYTES` (its key and its value
  as JSON) **is cut**: removed from the answer before it is checked, recorded or held, and
  the line says so in its ``cut`` object (:class:`Cut`). Only fields nothing reads are
  unknown: the top-level keys outside the protocol's envelope
  (:data:`sunbot.mirror.ENVELOPE_KEYS`; ``spec`` too in an action's answer, where nothing
  reads it) and, for a game the mirror knows, the keys its
  rules never name inside ``observation`` and inside ``state`` (exactly the keys the mirror
  strips before it replays the rules, so a cut never changes what it finds). The position a
  run carries (the ``stateToken``, or the ``state`` when the server gave no token) is never
  cut: the server needs it back whole, and so does ``--resume``.
- **A transcript holds at most a size** (:data:`DEFAULT_MAX_TRANSCRIPT_MB` MiB unless
  told otherwise) and a line at most :data:`MAX_LINE_BYTES`:
  the line that would pass either is not written, and the run ends with one line
  (:class:`TranscriptFull`), its transcript whole up to there.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sunbot._text.atomic_write import WriteFailed
from sunbot._text.safe import clip
from sunbot.mirror import ENVELOPE_KEYS
from sunbot.mirror.fields import KeyTemplate

MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest transcript line read (16 MiB). Real lines are a few KB (the largest in the
golden transcripts is under 6 KB); a longer line is reported as corrupt and never read
whole, so a file with no line ends cannot exhaust memory."""
#: Largest unknown field kept in an answer, in bytes of its key and value as JSON (16 KiB,
#: the bound of an agent's record too); a larger one is cut.
MAX_UNKNOWN_FIELD_BYTES = 16_384
#: A transcript's default size limit, in MiB (``sunbot play --max-transcript-mb``).
DEFAULT_MAX_TRANSCRIPT_MB = 64
#: Paths a line's ``cut`` object names (the count and bytes cover them all).
MAX_CUT_PATHS = 8
#: Characters of one path a ``cut`` object shows (a server chooses the key names).
MAX_PATH_TEXT = 120
#: A match view's fields the rule text names (Harvest Watch, "Platform"), at the top and
#: inside ``data``; every other one is unknown.
VIEW_KEYS = frozenset(
    ("ok", "status", "remainMs", "pollAfterMs", "next", "data", "reason", "round")
)
VIEW_DATA_KEYS = frozenset(("round", "phase", "summary", "legal", "schema", "pending", "result"))


@dataclass
class Cut:
    """What was cut from one answer: ``fields`` (how many), ``bytes`` (their size as JSON)
    and ``paths`` (the first :data:`MAX_CUT_PATHS`, each clipped), written as the line's
    ``cut`` object."""

    fields: int = 0
    bytes: int = 0
    paths: list[str] = field(default_factory=list)

    def add(self, path: str, size: int) -> None:
        """Count one cut field."""
        self.fields += 1
        self.bytes += size
        if len(self.paths) < MAX_CUT_PATHS:
            self.paths.append(clip(path, MAX_PATH_TEXT))

    def to_json(self) -> dict[str, Any]:
        """``{"fields", "bytes", "paths"}``."""
        return {"fields": self.fields, "bytes": self.bytes, "paths": list(self.paths)}


_BIG = 10**18


def json_size(value: Any, stop: int | None = None) -> int:
    """The length of ``value`` as compact JSON (``separators=(",", ":")``), counting each
    string by its characters (escapes and non-ASCII bytes are not counted extra: a bound's
    measure, not a byte count to the last byte). With ``stop``, counting ends as soon as the
    total passes it (the answer is then some number above ``stop``): deciding that a 3 MB
    answer is large costs 16 KiB of counting. No recursion (any depth is measured), no copy.
    """
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v) + 2
        elif isinstance(v, dict):
            total += 1 + max(len(v), 1)  # braces, and a comma between two members
            for key, sub in v.items():
                total += (len(key) if isinstance(key, str) else 20) + 3  # "key":
                stack.append(sub)
                if stop is not None and total > stop:
                    return total
        elif isinstance(v, list | tuple):
            total += 1 + max(len(v), 1)
            if stop is not None and total > stop:
                return total
            stack.extend(v)
        elif v is None or isinstance(v, bool):
            total += 5 if v is False else 4
        elif isinstance(v, int):  # its digits (a huge one's from its bits: no str() of it)
            total += len(str(v)) if -_BIG < v < _BIG else v.bit_length() * 30103 // 100000 + 2
        else:  # a float (at most 24 characters) or something JSON does not hold
            total += 24
        if stop is not None and total > stop:
            break
    return total


def _json_len(value: Any) -> int:
    """The length of ``value`` as compact JSON: ``json.dumps``'s (C, about 25 us for a
    5 KB answer), or :func:`json_size` for a value it cannot write (nested too deeply)."""
    try:
        return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str))
    except (ValueError, TypeError, RecursionError):
        return json_size(value)


def _size(key: str, value: Any) -> int:
    """Bytes of ``"key":value`` as compact JSON."""
    return len(key) + 3 + _json_len(value)


class AnswerCutter:
    """Cuts the oversized unknown fields of a single-player game's answers.

    Args:
        template: the keys the game's rules name, by path pattern (the mirror's
            :class:`~sunbot.mirror.fields.KeyTemplate`); ``None`` for a game sunbot has no
            engine for, or a run without the mirror: only the top-level fields outside the
            envelope are then unknown.
        limit: the largest unknown field kept (bytes).

    Attributes:
        fields, bytes: what was cut so far, over every answer.
        patterns: the path patterns of the fields cut (``junk``, ``state.extra``), for the
            run's list of unknown fields.
    """

    def __init__(
        self, template: KeyTemplate | None = None, limit: int = MAX_UNKNOWN_FIELD_BYTES
    ) -> None:
        self.template = template
        self.limit = limit
        self.fields = 0
        self.bytes = 0
        self.patterns: set[str] = set()

    def cut(
        self, raw: dict[str, Any] | None, *, opening: bool = True
    ) -> tuple[dict[str, Any] | None, Cut | None]:
        """``(raw without its oversized unknown fields, what was cut)``; ``(raw, None)``
        when nothing was (``raw`` itself, never copied then). ``raw`` is never changed: the
        objects on the way to a cut field are copied. Only unknown fields are measured (an
        answer without one costs a look at its keys), a field inside a list is named by
        its pattern (``state.queue[].tag``). With ``opening=False`` (an action's answer:
        the protocol has the ``spec`` in init's only, and nothing reads a later one) an
        oversized ``spec`` is unknown too."""
        if not isinstance(raw, dict):
            return raw, None
        found = Cut()
        out: dict[str, Any] | None = None
        for key in raw:
            known = key in ENVELOPE_KEYS and (opening or key != "spec")
            if not known and _size(key, raw[key]) > self.limit:
                out = dict(raw) if out is None else out
                self._drop(out, key, key, found)
        if self.template is not None:
            view = out if out is not None else raw
            state = view.get("state")
            obs = view.get("observation")
            parts = []
            if isinstance(obs, dict):  # read as the state too when there is no state object
                parts.append(("observation", obs, None if isinstance(state, dict) else "state"))
            if isinstance(state, dict) and isinstance(view.get("stateToken"), str):
                parts.append(("state", state, None))  # a carried state is never cut
            for name, value, also in parts:
                if _json_len(value) <= self.limit:  # every field's JSON lies inside it
                    continue
                new = self._walk(value, name, also, found)
                if new is not value:
                    out = dict(raw) if out is None else out
                    out[name] = new
        if out is None or not found.fields:
            return raw, None
        self.fields += found.fields
        self.bytes += found.bytes
        return out, found

    def _drop(self, obj: dict[str, Any], key: str, path: str, found: Cut) -> None:
        found.add(path, _size(key, obj.pop(key)))
        self.patterns.add(clip(path, MAX_PATH_TEXT))

    def _walk(self, value: Any, pat: str, also: str | None, found: Cut) -> Any:
        """``value`` (at pattern ``pat``; also read at ``also`` when not ``None``) with its
        oversized unknown keys cut, copied on the way to a cut; ``value`` itself when
        nothing under it was. Only objects and lists are entered."""
        assert self.template is not None
        if isinstance(value, list):
            items: list[Any] | None = None
            sub_also = None if also is None else f"{also}[]"
            for i, item in enumerate(value):
                if isinstance(item, dict | list):
                    new = self._walk(item, f"{pat}[]", sub_also, found)
                    if new is not item:
                        items = list(value) if items is None else items
                        items[i] = new
            return value if items is None else items
        keys = self.template.keys
        known = keys.get(pat)
        other = keys.get(also) if also is not None else None
        out: dict[str, Any] | None = None
        for key, sub in value.items():
            unknown = known is not None and key not in known
            if also is not None:  # unknown under both readings, or it is read
                unknown = unknown and other is not None and key not in other
            if unknown:
                if _size(key, sub) > self.limit:
                    out = dict(value) if out is None else out
                    self._drop(out, key, f"{pat}.{key}", found)
            elif isinstance(sub, dict | list):
                new = self._walk(
                    sub, f"{pat}.{key}", None if also is None else f"{also}.{key}", found
                )
                if new is not sub:
                    out = dict(value) if out is None else out
                    out[key] = new
        return value if out is None else out


def cut_view(raw: Any, limit: int = MAX_UNKNOWN_FIELD_BYTES) -> tuple[Any, Cut | None]:
    """A match view (or a command's answer) without its oversized unknown fields: those
    outside :data:`VIEW_KEYS` at the top and outside :data:`VIEW_DATA_KEYS` in ``data``
    (everything the rule text names, ``summary`` and ``result`` whole, is kept). Returns
    ``(view, what was cut)``, ``(raw, None)`` when nothing was; ``raw`` is never changed."""
    if not isinstance(raw, dict):
        return raw, None
    cutter = AnswerCutter(limit=limit)
    found = Cut()
    out = dict(raw)
    for key in raw:
        if key not in VIEW_KEYS and _size(key, raw[key]) > limit:
            cutter._drop(out, key, key, found)
    data = raw.get("data")
    if isinstance(data, dict):
        cut_data = dict(data)
        for key in data:
            if key not in VIEW_DATA_KEYS and _size(key, data[key]) > limit:
                cutter._drop(cut_data, key, f"data.{key}", found)
        if len(cut_data) != len(data):
            out["data"] = cut_data
    return (out, found) if found.fields else (raw, None)


def cut_note(records: Iterable[dict[str, Any] | None]) -> str | None:
    """One line on the lines of a transcript whose answers had unknown fields cut
    (``"3 lines were cut when recorded (12 unknown fields over 16 KiB, 2.1 MiB: junk, ...):
    init, step 1, step 2"``), ``None`` when none was. The checks read such a line as
    recorded: only fields nothing checks were left out."""
    where: list[str] = []
    fields = size = 0
    paths: list[str] = []
    for rec in records:
        cut = rec.get("cut") if isinstance(rec, dict) else None
        if not isinstance(cut, dict):
            continue
        assert isinstance(rec, dict)
        kind, index = rec.get("type"), rec.get("index")
        where.append(f"{kind} {index}" if index is not None else str(kind))
        fields += int(cut.get("fields") or 0)
        size += int(cut.get("bytes") or 0)
        paths += [p for p in cut.get("paths") or [] if isinstance(p, str) and p not in paths]
    if not where:
        return None
    shown = ", ".join(clip(p, 40) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
    lines = ", ".join(where[:5]) + (f" and {len(where) - 5} more" if len(where) > 5 else "")
    return (
        f"{len(where)} line(s) were cut when recorded ({fields} unknown fields over"
        f" {MAX_UNKNOWN_FIELD_BYTES // 1024} KiB, {size_text(size)}: {shown}): {lines};"
        " nothing the checks read was left out"
    )


class TranscriptFull(WriteFailed):
    """A line was not written: it would take the transcript past its size limit, or is
    longer than a transcript line may be. ``str()`` is one line; the transcript is whole
    up to the line before, and the result line is still written."""

    def __init__(self, path: Path, message: str) -> None:
        OSError.__init__(self, errno.EFBIG, message)
        self.path = path


def size_text(n: int) -> str:
    """``n`` bytes for a message: ``"512 bytes"``, ``"29.3 KiB"``, ``"3.1 MiB"``."""
    if n < 1024:
        return f"{n} bytes"
    if n < 1 << 20:
        return f"{n / 1024:.1f} KiB"
    return f"{n / 1048576:.1f} MiB"


__all__ = [
    "DEFAULT_MAX_TRANSCRIPT_MB",
    "MAX_LINE_BYTES",
    "MAX_UNKNOWN_FIELD_BYTES",
    "VIEW_DATA_KEYS",
    "VIEW_KEYS",
    "AnswerCutter",
    "Cut",
    "TranscriptFull",
    "cut_note",
    "cut_view",
    "json_size",
    "size_text",
]
