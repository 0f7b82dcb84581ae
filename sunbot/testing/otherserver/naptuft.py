"""Naptuft on the other server: another deck, another starting need, other ``cause`` words.

Local choices made another way (Naptuft §3, §4 "Deck generation"): every need starts at
80; descriptor ``k`` is drawn from a hash of the seed and ``k`` (a shuffled care order, the
wish its first 1-2 cares on days 1-3, 1-3 on days 4-8, 2-4 later; pressure 0 to
``min(3, 1 + (day - 1) // 4)``); a finished run's ``cause`` reads ``"ended by the player"``
or ``"<need>, <need> ran out"``, words the text never names. What the text fixes (wishes of
distinct cares, a loss of ``6 + pressure`` capped at 8, ...) is the engine's.
"""

from __future__ import annotations

from typing import Any

from sunbot.engines import naptuft as nt
from sunbot.testing.otherserver.draw import generator

GAME = "naptuft"
INITIAL_NEED = 80


def descriptor(seed: int, k: int) -> dict[str, Any]:
    """This server's descriptor ``k`` of ``seed``: ``{wish, pressure}``."""
    rnd = generator(GAME, seed, "window", k)
    day = k // 3 + 1
    low, high = (1, 2) if day <= 3 else (1, 3) if day <= 8 else (2, 4)
    order = list(nt.CARES)
    rnd.shuffle(order)
    cap = min(3, 1 + (day - 1) // 4)
    return {
        "wish": order[: rnd.randint(low, high)],
        "pressure": {n: rnd.randint(0, cap) for n in nt.NEEDS},
    }


def init(seed: int) -> dict[str, Any]:
    """The opening state (internal form, hidden parts included)."""
    return nt.init_with(seed, descriptor, INITIAL_NEED)


def step(state: dict[str, Any], action: Any) -> dict[str, Any]:
    """The rules' next state with this server's deck.

    Raises:
        IllegalAction: the rules refuse ``action``.
    """
    return nt.step_with(state, action, descriptor)


def cause_words(cause: str | None) -> str | None:
    """This server's wording of a ``cause`` (the texts name none)."""
    if cause is None:
        return None
    if cause == "end-run":
        return "ended by the player"
    return ", ".join(cause.removeprefix("zero:").split(",")) + " ran out"


def served(state: dict[str, Any]) -> dict[str, Any]:
    """The observation as served (``state`` equals it): hidden parts off, own wording."""
    obs = nt.observation(state)
    obs["cause"] = cause_words(obs["cause"])
    return obs
