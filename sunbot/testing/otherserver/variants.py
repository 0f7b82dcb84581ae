"""Legitimate variants: readings of the rule texts that differ from our server's and are
just as faithful (issue 11, point 2). Each is opt-in (``OtherOptions.variants``, the
``--variant`` flag) so a test can show the mirror accepts it with 0 divergences.

Every variant names its game and what it changes; the decision behind each (the rule text
does not determine the value, or never promises the field) is written in the field table
of ``docs/rules/<game>.md``. Single-player variants see the internal state after a step
(``before`` is ``None`` at init) or the served state; Harvest Watch ones the engine state
after a beat (``before``, ``after``) or a seat's served summary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sunbot.engines import harvest_watch as hw

State = dict[str, Any]


@dataclass(frozen=True)
class Variant:
    """One legitimate variant: its game, what it does, and where it acts.

    ``state`` changes the internal (or engine) position after the rules ran: ``(before,
    after)`` with ``before`` ``None`` at init; ``served`` changes what is served (a copy).
    Each returns whether it changed anything (the server records the variants that acted).
    """

    name: str
    slug: str
    doc: str
    state: Callable[[State | None, State], bool] | None = None
    served: Callable[[State], bool] | None = None


def _spare_high(before: State | None, after: State) -> bool:
    """After a fining vote: the fine's spare tenths go to the highest-numbered recipients
    (ours: the lowest), and a recipient with a 0 share is left out of ``shares``."""
    pr = after.get("punishResult")
    if before is None or before["phase"] != "vote" or not pr or pr["punished"] is None:
        return False
    ballots = after["votes"]
    counts: dict[int, int] = {}
    for b in ballots.values():
        if b.get("punish") == pr["punished"]:
            counts[b["giveTo"]] = counts.get(b["giveTo"], 0) + 1
    fine, total = pr["fine"], sum(counts.values())
    theirs = {m: fine * c // total for m, c in counts.items()}
    for m in sorted(counts, reverse=True)[: fine - sum(theirs.values())]:
        theirs[m] += 1
    ours = {int(m): v for m, v in pr["shares"].items()}
    for m, amount in theirs.items():
        after["food"][m] += amount - ours[m]
    pr["shares"] = {str(m): theirs[m] for m in sorted(theirs) if theirs[m]}
    return theirs != ours


def _list_out_seats(before: State | None, after: State) -> bool:
    """Speeches and ballots list the seats already out too, with what their empty command
    list gives: the ellipsis, an abstention (the text keys them by seat and never says only
    living seats appear)."""
    key = {"speech1": "speeches1", "speech2": "speeches2", "vote": "votes"}.get(
        before["phase"] if before is not None else ""
    )
    if before is None or key is None or after[key] is None:
        return False
    out = [s for s in range(len(after["alive"])) if not before["alive"][s]]
    for seat in out:
        after[key][str(seat)] = dict(hw.default_command("vote")) if key == "votes" else hw.ELLIPSIS
    return bool(out)


def _night_cost_null(summary: State) -> bool:
    """``nightCost`` null on every beat (the text fixes it only on diary and done)."""
    changed = summary.get("nightCost") is not None
    summary["nightCost"] = None
    return changed


def _fine_null(summary: State) -> bool:
    """No fine: ``fine`` null instead of 0.0 (the text fixes no value when nobody is fined)."""
    pr = summary.get("punishResult")
    if isinstance(pr, dict) and pr.get("punished") is None:
        pr["fine"] = None
        return True
    return False


def _no_streak(obs: State) -> bool:
    """Naptuft: ``wishStreak`` and ``lastCare`` left out (the text never says the
    observation shows them)."""
    found = "wishStreak" in obs or "lastCare" in obs
    obs.pop("wishStreak", None)
    obs.pop("lastCare", None)
    return found


def _count_from_one(obs: State) -> bool:
    """Naptuft: moments numbered 1..12 and windows 1..3, as a player reads them (the text
    does not say where the count starts)."""
    for key in ("moment", "window"):
        obs[key] += 1
    return True


def _cargo_from_one(before: State | None, after: State) -> bool:
    """Keelhold: cargo types numbered 1..cargoTypes (the text does not say from 0)."""
    first = 0 if before is None else before["nextCrateId"]
    new = [c for c in after["queue"] if c["id"] >= first and c["cargo"] is not None]
    for crate in new:
        crate["cargo"] += 1
    return bool(new)


def _keep_settled(before: State | None, after: State) -> bool:
    """Sunloaf: the cats already in the room keep their ``settled`` over NEXT_DAY (the text
    never says a streak restarts overnight)."""
    if before is None or before.get("phase") != "sunset" or after["day"] != before["day"] + 1:
        return False
    for old, new in zip(before["cats"], after["cats"], strict=False):
        new["settled"] = old["settled"]
    return any(c["settled"] for c in before["cats"])


def _band_three(before: State | None, after: State) -> bool:
    """Sunloaf: the band lights 3 lines at once, every day (the text does not say how many;
    ours 2). Set as each day opens, at init and by NEXT_DAY, before any turn resolves."""
    if before is not None and after["day"] == before["day"]:
        return False
    after["bandWidth"] = 3
    return True


def _unsent_keys(state: State) -> bool:
    """Sunloaf: keys the text never promises are not served: the dogs' speed (a key our
    spec adds; the day fixes it), a null lattice parity, which cat is big, the dogs' tiles
    and a null result."""
    lay = state["layout"]
    found = "dogSpeed" in lay
    lay.pop("dogSpeed", None)
    if lay.get("latticeParity", 0) is None:
        del lay["latticeParity"]
    for cat in state["cats"]:
        cat.pop("big", None)
    state.pop("dogs", None)
    if state.get("result", "") is None:
        del state["result"]
    return found


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "hw-spare-high",
            "harvest-watch",
            "a fine's spare tenths go to the highest recipients; 0 shares unlisted",
            state=_spare_high,
        ),
        Variant(
            "hw-list-out-seats",
            "harvest-watch",
            "speeches and votes list out seats (ellipsis, abstention)",
            state=_list_out_seats,
        ),
        Variant(
            "hw-night-cost-null",
            "harvest-watch",
            "nightCost is null on every beat",
            served=_night_cost_null,
        ),
        Variant(
            "hw-fine-null",
            "harvest-watch",
            "punishResult.fine is null when nobody is fined",
            served=_fine_null,
        ),
        Variant(
            "naptuft-no-streak",
            "naptuft",
            "wishStreak and lastCare are not served",
            served=_no_streak,
        ),
        Variant(
            "naptuft-count-from-1",
            "naptuft",
            "moment and window are numbered from 1",
            served=_count_from_one,
        ),
        Variant(
            "keelhold-cargo-1", "keelhold", "cargo types are numbered from 1", state=_cargo_from_one
        ),
        Variant("sunloaf-band-3", "sunloaf", "the band lights 3 lines", state=_band_three),
        Variant(
            "sunloaf-unsent-keys",
            "sunloaf",
            "dogSpeed, a null latticeParity, big, dogs and a null result are not served",
            served=_unsent_keys,
        ),
        Variant(
            "sunloaf-keep-settled",
            "sunloaf",
            "cats keep settled over NEXT_DAY",
            state=_keep_settled,
        ),
    )
}
