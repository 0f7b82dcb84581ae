"""A league of Harvest Watch opponents, written from the rule text as outside players.

Every style is a :class:`sunbot.strategies.Strategy` for Harvest Watch: a class built from
``rng`` and keyword parameters with defaults, with ``sample(rng)`` for a member with random
parameters, so draws make a population (:func:`make`, :data:`LEAGUE`). The styles read only
their seat's view: foods, speeches, ballots, the fine, their own ``caught``/``collided``.

**Tuning and held out.** :data:`TUNING` names the styles a strategy may be tuned against;
:data:`HELD_OUT` names the styles kept back to measure how a strategy does against players
it has not seen. **Never tune a strategy against a held-out style** (nor against the
held-out tables of :mod:`sunbot.testing.hw_league.tables`): their figures are only
meaningful while no choice was made by looking at them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sunbot.strategies.harvest_watch_reciprocator import Reciprocator

from ._base import Record, Style
from .keepers import Bloc, LastNight, Retaliator, Vengeful, Watchful
from .mixture import Mixture
from .plain_spoken import PlainSpoken
from .social import JointOffer, Loyal, Mimic
from .thieves import Greedy, Liar, RichThief, Sneak, WeakThief
from .trust import Cycler, FalseFarmer, Juror, Turncoat, VoteBuyer
from .two_faced import TwoFaced

#: Style name -> its class (call it with ``rng`` and parameters; ``.sample(rng)`` draws one).
LEAGUE: dict[str, Callable[..., Any]] = {
    cls.style: cls
    for cls in (
        LastNight,
        JointOffer,
        Vengeful,
        Bloc,
        Watchful,
        Retaliator,
        Greedy,
        RichThief,
        Reciprocator,
        Mixture,
        WeakThief,
        Sneak,
        Liar,
        Mimic,
        Loyal,
        TwoFaced,
        PlainSpoken,
        Turncoat,
        FalseFarmer,
        Juror,
        VoteBuyer,
        Cycler,
    )
}
#: Styles a strategy may be tuned against.
TUNING: list[str] = [
    "last_night",
    "joint_offer",
    "vengeful",
    "bloc",
    "watchful",
    "retaliator",
    "greedy",
    "rich_thief",
    "reciprocator",
    "mixture",
    "two_faced",
    "plain_spoken",
    "turncoat",
    "false_farmer",
    "juror",
]
#: Styles held out from tuning: measure against them, never tune on them. The last two
#: (of the styles that exploit trust, :mod:`~sunbot.testing.hw_league.trust`) were held
#: out when they were written, before any strategy was tuned against their siblings.
HELD_OUT: list[str] = ["weak_thief", "sneak", "liar", "mimic", "loyal", "vote_buyer", "cycler"]


def make(name: str, rng: random.Random, **params: Any) -> Any:
    """A league player of style ``name`` using ``rng``, with ``params`` over the defaults.

    Raises:
        KeyError: ``name`` is not a style of :data:`LEAGUE` (the message lists them).
        TypeError: a parameter the style does not take.
    """
    if name not in LEAGUE:
        raise KeyError(f"{name!r} is not a league style: {', '.join(sorted(LEAGUE))}")
    return LEAGUE[name](rng, **params)


def sample(name: str, rng: random.Random) -> dict[str, Any]:
    """Random parameters for a member of style ``name`` (its ``sample_params``).

    Raises:
        KeyError: ``name`` is not a style of :data:`LEAGUE`.
    """
    if name not in LEAGUE:
        raise KeyError(f"{name!r} is not a league style: {', '.join(sorted(LEAGUE))}")
    params: dict[str, Any] = LEAGUE[name].sample_params(rng)  # type: ignore[attr-defined]
    return params


__all__ = [
    "HELD_OUT",
    "LEAGUE",
    "TUNING",
    "Bloc",
    "Cycler",
    "FalseFarmer",
    "Greedy",
    "JointOffer",
    "Juror",
    "LastNight",
    "Liar",
    "Loyal",
    "Mimic",
    "Mixture",
    "PlainSpoken",
    "Reciprocator",
    "Record",
    "Retaliator",
    "RichThief",
    "Sneak",
    "Style",
    "Turncoat",
    "TwoFaced",
    "Vengeful",
    "VoteBuyer",
    "Watchful",
    "WeakThief",
    "make",
    "sample",
]
