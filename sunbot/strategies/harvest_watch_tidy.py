"""A Harvest Watch summary made safe for the strategies' readers.

The ``coalition`` family (``coalition``, ``adaptive-v1``, ``adaptive-v2``, ``adaptive-v3``,
``adaptive``) indexes stores and seat memories by the seat numbers a summary names. A
server not built like ours may name seats no store belongs to, key speeches or ballots with
text that is not a seat number, send a speech that is not text, or a store that is not a
finite number. The Harvest Watch rules (``docs/rules/harvest-watch.md``) leave no room for
any of these, so :func:`tidy` drops them (and cuts very long speeches) before a strategy
reads the summary: a strategy reads less, it never fails on what it was shown.
"""

from __future__ import annotations

import math
from typing import Any

from sunbot.engines import harvest_watch as hw

#: Longest speech a strategy reads, in characters (the rules allow 200).
SPEECH_READ = 1000
#: Digits in a seat number at most (a 5000-digit key is not a seat; ``int`` refuses it).
_SEAT_DIGITS = 4


def _seat(x: Any, n: int) -> int | None:
    """``x`` as a seat number below ``n`` (an int, not a bool), else ``None``."""
    return x if type(x) is int and 0 <= x < n else None


def _key(k: Any, n: int) -> int | None:
    """A JSON object key naming a seat below ``n`` (ASCII digits only), else ``None``."""
    if not isinstance(k, str) or not (0 < len(k) <= _SEAT_DIGITS) or not k.isascii():
        return None
    return _seat(int(k), n) if k.isdigit() else None


def _number(x: Any) -> float:
    ok = isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
    return float(x) if ok else 0.0


def _speeches(v: Any, n: int) -> dict[str, str]:
    if not isinstance(v, dict):
        return {}
    return {str(s): t[:SPEECH_READ] for k, t in v.items()
            if (s := _key(k, n)) is not None and isinstance(t, str)}  # fmt: skip


def _ballot(b: Any, n: int) -> dict[str, Any] | None:
    if not isinstance(b, dict) or "punish" not in b or b["punish"] is None:
        return {"punish": None} if isinstance(b, dict) else None
    punish, give = _seat(b["punish"], n), _seat(b.get("giveTo"), n)
    return None if punish is None else {"punish": punish, "giveTo": give}


def _votes(v: Any, n: int) -> dict[str, dict[str, Any]]:
    if not isinstance(v, dict):
        return {}
    return {str(s): got for k, b in v.items()
            if (s := _key(k, n)) is not None and (got := _ballot(b, n)) is not None}  # fmt: skip


def _punish_result(v: Any, n: int) -> dict[str, Any] | None:
    if not isinstance(v, dict):
        return None
    if v.get("punished") is None:
        return {"punished": None, "fine": _number(v.get("fine")), "shares": {}}
    punished, shares = _seat(v.get("punished"), n), v.get("shares")
    if punished is None or not isinstance(shares, dict):
        return None
    kept = {str(s): _number(x) for k, x in shares.items() if (s := _key(k, n)) is not None}
    return {"punished": punished, "fine": _number(v.get("fine")), "shares": kept}


def tidy(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its ``summary`` cleaned (module doc); ``data`` is not changed.

    Shapes: ``foods`` every entry a finite float (else 0.0), at most six (the rule text's
    seats; entries past seat 5 are dropped); ``aliveSeats``, ``caught``,
    ``collided`` only seats that have a store, each once; ``speeches1``/``speeches2`` only seat keys
    with text, each cut to :data:`SPEECH_READ` characters; ``votes`` only seat keys with a
    ballot ``{"punish": None}`` or ``{"punish": N, "giveTo": M or None}``; a
    ``punishResult`` that names no seat with a store is dropped. A summary without a
    ``foods`` list is returned as it is (nothing can be checked against it).
    """
    s = data.get("summary")
    if not isinstance(s, dict) or not isinstance(s.get("foods"), list):
        return data
    foods = [_number(f) for f in s["foods"][: hw.MAX_SEATS]]  # a table has six seats
    n = len(foods)
    out = {**s, "foods": foods}
    for key in ("aliveSeats", "caught", "collided"):
        if key in s:
            seats = s[key] if isinstance(s[key], list) else []
            out[key] = list(dict.fromkeys(x for x in seats if _seat(x, n) is not None))
    for key in ("speeches1", "speeches2"):
        if key in s:
            out[key] = _speeches(s[key], n)
    if "votes" in s:
        out["votes"] = _votes(s["votes"], n)
    if "punishResult" in s:
        result = _punish_result(s["punishResult"], n)
        if result is None:
            del out["punishResult"]
        else:
            out["punishResult"] = result
    if "food" in s:
        out["food"] = _number(s["food"])
    return {**data, "summary": out}


__all__ = ["SPEECH_READ", "tidy"]
