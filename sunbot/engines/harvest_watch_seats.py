"""What each Harvest Watch seat is shown, and what the house seats store as a beat opens.

Shared by every place a match is played: our match server (:mod:`sunbot.server.match_state`),
the in-process engine table that ``sunbot bench``, tournaments and the PettingZoo
environment play on (:mod:`sunbot.runs.seat_engine`), and strategies' tests, so each hands a
seat the same ``data`` object (Harvest Watch §2.3, §4, §5) and draws the house bots' commands
from the match RNG in the same order (§2.7).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from sunbot.engines import harvest_watch as hw

Command = dict[str, Any]
#: A house-bot policy: ``(state, seat, memory, rng, house_seats=...) -> command`` (§2.7);
#: ours is :func:`sunbot.engines.harvest_watch.house_command`. Another server's bots (a
#: local choice) plug in here.
HousePolicy = Callable[..., Command]


def seat_data(
    state: dict[str, Any], seat: int, *, can_act: bool, pending: list[Any] | None
) -> dict[str, Any]:
    """The view's ``data`` object for ``seat`` (§2.3, §4, §5).

    ``round``, ``phase``; ``legal`` (action beat) or ``schema.example`` (speech, vote,
    diary) only when ``can_act``; ``pending`` when not ``None``; ``summary`` (the position
    when the current beat opened); ``result`` once done.
    """
    seen = hw.view(state, seat)
    phase = seen["summary"]["phase"]
    data: dict[str, Any] = {"round": state["round"], "phase": phase}
    if can_act:
        if phase == "action":
            data["legal"] = hw.legal_commands(state, seat)
        else:
            data["schema"] = {"example": hw.default_command(phase)}
    if pending is not None:
        data["pending"] = pending
    data["summary"] = seen["summary"]
    if "result" in seen:
        data["result"] = seen["result"]
    return data


def house_commands(
    state: dict[str, Any],
    house: Sequence[int],
    memories: dict[int, dict[str, Any]],
    rng: random.Random,
    *,
    policy: HousePolicy = hw.house_command,
) -> dict[int, list[Command]]:
    """The lists the living house seats store as a beat opens (§2.7): ``{seat: [command]}``,
    asked in ascending seat order, which is the order of their draws on the match ``rng``.

    ``house`` lists every house seat of the match (living or not: a house bot pairs only
    with house seats); ``memories[seat]`` is that bot's own memory, updated in place.

    Raises:
        sunbot.engines.IllegalAction: the match is done.
    """
    out: dict[int, list[Command]] = {}
    for seat in sorted(house):
        if state["alive"][seat]:
            out[seat] = [policy(state, seat, memories[seat], rng, house_seats=house)]
    return out
