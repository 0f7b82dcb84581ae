"""Harvest Watch: what the rule text leaves to the server in a resolved beat's summary
(issue 11, point 2; field table in ``docs/rules/harvest-watch.md``).

:func:`servers_choices` adopts the server's value into our engine's expectation once its
shape and the text's bounds hold, so :class:`~sunbot.mirror.harvest_watch.MatchMirror`
compares only what the rules determine.
"""

from __future__ import annotations

import math
from typing import Any

from sunbot.mirror import Finding


def tenths(x: float) -> int:
    """A shown food value (one decimal) back in integer tenths."""
    return round(x * 10)


def is_number(value: Any) -> bool:
    """A JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


#: How far a shown food may sit from a step of 0.1 and still be read as that step: binary
#: floats cannot hold most tenths, and a server adding them (0.1 + 0.2) shows
#: 0.30000000000000004 for 0.3.
STEP_TOLERANCE = 1e-6


def on_step(x: Any) -> Any:
    """``x`` snapped to its step of 0.1 when it is a number within :data:`STEP_TOLERANCE`
    of one (the rule text's State section: food in steps of 0.1); anything else unchanged,
    so a value between steps, or one that is not finite (``Infinity`` and ``NaN`` parse as
    JSON numbers), still differs."""
    if (
        not is_number(x)
        or not math.isfinite(x)
        or abs(x * 10 - round(x * 10)) > STEP_TOLERANCE * 10
    ):
        return x
    return round(x, 1)


def food_on_steps(summary: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``summary`` whose food-valued fields (``food``, ``foods``, a fine and its
    shares) are :func:`on_step`-snapped: how a server writes a tenth in binary is its own."""
    out = dict(summary)
    if "food" in out:
        out["food"] = on_step(out["food"])
    if isinstance(out.get("foods"), list):
        out["foods"] = [on_step(f) for f in out["foods"]]
    pr = out.get("punishResult")
    if isinstance(pr, dict):
        pr = out["punishResult"] = dict(pr)
        if "fine" in pr:
            pr["fine"] = on_step(pr["fine"])
        if isinstance(pr.get("shares"), dict):
            pr["shares"] = {k: on_step(v) for k, v in pr["shares"].items()}
    return out


def servers_choices(expected: dict[str, Any], got: dict[str, Any]) -> list[Finding]:
    """Adopt into ``expected`` (our engine's next summary) what the rule text leaves to the
    server, once its shape and the text's bounds hold (field table in
    ``docs/rules/harvest-watch.md``); findings for a value outside them.

    - ``nightCost`` before the night: any number or null, or left out (the text fixes it
      only on diary and done, where it is null);
    - ``punishResult`` when nobody is fined: ``fine`` any number or null, ``shares`` any
      object of 0 shares (the text gives their values only for a fine);
    - a fine's ``shares``: the text divides the fine by the giveTo counts and does not say
      where a spare tenth goes, so each share may be the proportional part rounded down or
      up, as long as they add up to the fine; a 0 share may be left out. The recipients'
      foods follow the server's shares.
    """
    if got.get("phase") not in ("diary", "done"):
        if "nightCost" not in got:
            expected.pop("nightCost", None)
        elif got["nightCost"] is None or is_number(got["nightCost"]):
            expected["nightCost"] = got["nightCost"]
    ours, theirs = expected.get("punishResult"), got.get("punishResult")
    if not (isinstance(ours, dict) and isinstance(theirs, dict)):
        return []
    if ours["punished"] is None and theirs.get("punished") is None:
        if theirs.get("fine") is None or is_number(theirs.get("fine")):
            ours["fine"] = theirs.get("fine")
        shares = theirs.get("shares")
        if isinstance(shares, dict) and all(v == 0 for v in shares.values()):
            ours["shares"] = shares
        return []
    if ours["punished"] != theirs.get("punished") or ours["fine"] != theirs.get("fine"):
        return []  # the comparison reports it
    return _their_shares(expected, got, theirs.get("shares"))


def _their_shares(expected: dict[str, Any], got: dict[str, Any], shares: Any) -> list[Finding]:
    pr = expected["punishResult"]
    fine = tenths(pr["fine"])
    counts: dict[str, int] = {}
    for ballot in (got.get("votes") or {}).values():
        if isinstance(ballot, dict) and ballot.get("punish") == pr["punished"]:
            counts[str(ballot.get("giveTo"))] = counts.get(str(ballot.get("giveTo")), 0) + 1
    total = sum(counts.values())
    if not isinstance(shares, dict) or not total or not set(shares) <= set(counts):
        return []
    if not all(is_number(v) for v in shares.values()):
        return []
    theirs = {m: tenths(shares.get(m, 0)) for m in counts}
    fair = all(fine * c // total <= theirs[m] <= -(-fine * c // total) for m, c in counts.items())
    if not fair or sum(theirs.values()) != fine:
        note = (
            "the fine divided by the giveTo counts: each share rounded down or up, adding up to it"
        )
        return [Finding("data.summary.punishResult.shares", pr["shares"], shares, note)]
    foods = expected["foods"]
    for m, amount in theirs.items():
        seat = int(m)
        delta = amount - tenths(pr["shares"].get(m, 0))
        foods[seat] = round(foods[seat] + delta / 10, 1)
        if seat == expected.get("you"):
            expected["food"] = foods[seat]
    pr["shares"] = shares
    return []
