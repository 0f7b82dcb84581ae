"""Planted rule bugs: server options that break one rule the texts determine.

Each bug changes the position the rules give, after the rules ran, in one determined field
(and only when its condition holds), so the mirror must flag that field at the first step
the bug touches. Single-player bugs see ``(before, action, after)`` internal states;
Harvest Watch bugs see ``(before, after)`` engine states of one beat (the applied commands
are in ``after["log"][-1]``). Each returns whether it touched the position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

State = dict[str, Any]


@dataclass(frozen=True)
class Bug:
    """One planted bug: its game, the field it breaks, and the change."""

    name: str
    slug: str
    field: str
    doc: str
    apply: Callable[..., bool]


def _lot_pay(before: State, action: Any, after: State) -> bool:
    if action.get("type") != "PLACE" or after["chain"] == 0:
        return False
    after["score"] += 1
    return True


def _trim(before: State, action: Any, after: State) -> bool:
    if action.get("type") != "PLACE" or after["trim"] == 0:
        return False
    after["trim"] += 1
    return True


def _safe_bays(before: State, action: Any, after: State) -> bool:
    if len(after["safeBays"]) < 2:
        return False
    dropped = after["safeBays"].pop()
    after["listingBays"] = [b for b in after["listingBays"] if b != dropped]
    return True


def _quota(before: State, action: Any, after: State) -> bool:
    if action.get("type") != "NEXT_DAY":
        return False
    after["dayQuota"] += 1
    return True


def _settled(before: State, action: Any, after: State) -> bool:
    if action.get("type") != "MOVE":
        return False
    after["cats"][action["cat"]]["settled"] = 1
    return True


def _day_bonus(before: State, action: Any, after: State) -> bool:
    if not (before["phase"] == "day" and after["phase"] == "sunset"):
        return False
    after["score"] += 10
    return True


def _restore(before: State, action: Any, after: State) -> bool:
    if action.get("type") != "care" or after["phase"] == "over":
        return False
    need = {"feed": "food", "play": "joy", "brush": "cleanliness", "nap": "energy"}[action["care"]]
    if before["needs"][need] > 63:
        return False
    after["needs"][need] += 1
    after["score"] += 1
    return True


def _nap_day_bonus(before: State, action: Any, after: State) -> bool:
    if not (before["phase"] == "care" and after["phase"] == "dayBreak"):
        return False
    if min(after["needs"].values()) < 30:
        return False
    after["score"] += 30
    return True


def _streak(before: State, action: Any, after: State) -> bool:
    if action.get("type") != "care" or after["phase"] == "over":
        return False
    if not (before["wishStreak"] > 0 and after["wishStreak"] == 0):
        return False
    after["wishStreak"] = before["wishStreak"]
    return True


def _acts(after: State) -> dict[int, dict[str, Any]]:
    entry = after["log"][-1] if after["log"] else {}
    if entry.get("phase") != "action":
        return {}
    return {int(s): c for s, c in entry["applied"].items()}


def _guard_cost(before: State, after: State) -> bool:
    hit = False
    for seat, act in _acts(after).items():
        if act == {"act": "guard"} and after["alive"][seat] and after["food"][seat] > 5:
            after["food"][seat] -= 5
            hit = True
    return hit


def _farm(before: State, after: State) -> bool:
    hit = False
    for seat, act in _acts(after).items():
        if act == {"act": "farm"} and after["alive"][seat] and after["food"][seat] > 5:
            after["food"][seat] -= 5
            hit = True
    return hit


def _fine_share(before: State, after: State) -> bool:
    """A tenth of a fine goes missing: the shares add up to less than the fine."""
    pr = after.get("punishResult")
    if before["phase"] != "vote" or not pr or pr["punished"] is None:
        return False
    paid = [m for m in sorted(pr["shares"], key=int) if pr["shares"][m] > 0]
    if not paid:
        return False
    pr["shares"][paid[0]] -= 1
    after["food"][int(paid[0])] -= 1
    return True


BUGS: dict[str, Bug] = {
    b.name: b
    for b in (
        Bug(
            "keelhold-lot-pay",
            "keelhold",
            "score",
            "a shipping turn pays 1 point too many",
            _lot_pay,
        ),
        Bug("keelhold-trim", "keelhold", "trim", "trim after a placement is off by one", _trim),
        Bug(
            "keelhold-safe-bays",
            "keelhold",
            "safeBays",
            "the last safe hatch is left out",
            _safe_bays,
        ),
        Bug("sunloaf-quota", "sunloaf", "dayQuota", "a new day's quota is one too high", _quota),
        Bug("sunloaf-settled", "sunloaf", "cats", "a moved cat keeps settled 1, not 0", _settled),
        Bug("sunloaf-day-bonus", "sunloaf", "score", "the day bonus pays 10 too many", _day_bonus),
        Bug("naptuft-restore", "naptuft", "needs", "a care restores 37, not 36", _restore),
        Bug(
            "naptuft-day-bonus", "naptuft", "score", "the day bonus is 150, not 120", _nap_day_bonus
        ),
        Bug("naptuft-streak", "naptuft", "wishStreak", "an expired wish keeps the streak", _streak),
        Bug(
            "hw-guard-cost",
            "harvest-watch",
            "food",
            "a guard's night costs 1.5, not 1.0",
            _guard_cost,
        ),
        Bug("hw-farm", "harvest-watch", "food", "farm adds 1.5, not 2.0", _farm),
        Bug(
            "hw-fine-share",
            "harvest-watch",
            "punishResult",
            "a tenth of a fine goes missing (shares add up to less)",
            _fine_share,
        ),
    )
}
