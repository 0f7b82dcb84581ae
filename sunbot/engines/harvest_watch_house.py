"""House-bot policy for Harvest Watch (Harvest Watch §2.7, "House bots").

A house bot sees only what its own seat sees (the ``summary`` of
:func:`sunbot.engines.harvest_watch.view`), plus which seats are house seats (the server
knows; it passes ``house_seats``) and its own ``memory``. The server calls the engine's
:func:`~sunbot.engines.harvest_watch.house_command` for every living house seat, in
ascending seat order, once as each beat opens -- diary beats included, because that is
where the bot reads its ``caught`` list into memory; for a seat still in the match it asks
:func:`decide`. On the action beat each call makes exactly one ``rng.random()`` draw on the
match RNG; no other beat draws.

This module reads only the seat's summary, never the engine, so the engine can import it.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

STEAL_CHANCE = 0.1  # §2.7


def partner_of(seat: int, living_house: list[int]) -> int | None:
    """Living house seats, ascending, pair off (a0, a1), (a2, a3)...; the odd one is alone."""
    if seat not in living_house:
        return None
    i = living_house.index(seat)
    j = i + 1 if i % 2 == 0 else i - 1
    return living_house[j] if j < len(living_house) else None


def _remember(memory: dict[str, Any], caught: list[int]) -> None:
    seen = set(memory.get("caught", [])) | set(caught)
    memory["caught"] = sorted(seen)


def decide(
    summary: dict[str, Any],
    memory: dict[str, Any],
    rng: random.Random,
    *,
    house_seats: Collection[int],
) -> dict[str, Any]:
    """The §2.7 command of the living house seat whose view's summary is ``summary``.

    ``memory`` is this bot's own JSON-compatible dict (``{"caught": [...]}``, every seat
    that ever appeared in its ``caught``), updated in place. A seat that is out, or a match
    that is done, is the engine's to answer
    (:func:`~sunbot.engines.harvest_watch.house_command`).
    """
    seat: int = summary["you"]
    phase = summary["phase"]
    if "caught" in summary:
        _remember(memory, summary["caught"])
    living: list[int] = summary["aliveSeats"]
    living_house = [s for s in living if s in set(house_seats)]
    partner = partner_of(seat, living_house)
    day = summary["day"]
    if phase == "speech1":
        plan = f"I cooperate with seat {partner}." if partner is not None else "I guard."
        return {"speech": f"Seat {seat}: {plan}"}
    if phase == "speech2":
        return {"speech": f"Seat {seat} holds {summary['food']:.1f}."}
    if phase == "diary":
        return {"diary": f"Day {day} noted."}
    if phase == "vote":
        suspects = sorted(s for s in memory.get("caught", []) if s in living)
        if suspects:
            target = suspects[0]
            recipients = [s for s in living if s not in (target, seat)]
            if recipients:
                return {"punish": target, "giveTo": recipients[0]}
        return {"punish": None}
    # action: one draw per bot per action beat
    if rng.random() < STEAL_CHANCE:
        others = [s for s in living if s != seat]
        foods = summary["foods"]
        richest = max(others, key=lambda s: (foods[s], -s))
        return {"act": "steal", "target": richest}
    if partner is not None:
        return {"act": "farm_coop", "with": partner}
    return {"act": "guard"}
