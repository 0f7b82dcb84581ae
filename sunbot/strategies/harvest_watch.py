"""Harvest Watch strategies (Harvest Watch §7, "Notes for bot designers").

**The contract** is every game's (:class:`sunbot.strategies.Strategy`): a class built with
``rng: random.Random`` (its only randomness) that keeps its own memory and answers, once per
beat it may act on,

    choose(observation: dict, legal_actions: list[dict]) -> command

where ``observation`` is the view's ``data`` object (§2.3: ``round``, ``phase``, ``summary``,
and ``legal`` on the action beat or ``schema.example`` on the others) and
``legal_actions`` is :func:`sunbot.observations.harvest_watch.legal_actions` of it: the
action beat's ``legal``, every valid ballot on the vote beat, the example command on the
speech and diary beats. It returns one command: ``{"speech": text}`` (1-200 characters), a
ballot ``{"punish": null}`` / ``{"punish": N, "giveTo": M}``, one element of ``legal``
unchanged, or ``{"diary": text}`` (1-80 characters). The loop may skip beats (a slow poll),
so strategies read everything from the summary they are given and never assume they saw
the previous beat.

Strategies: :class:`~sunbot.strategies.harvest_watch_adaptive.Adaptive` (default, its own
module), :class:`Coalition`, :class:`Guard`, :class:`Farmer`,
:class:`RandomSeat`, :class:`House` (the §2.7 house-bot policy, playing as a seat).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from sunbot.engines.harvest_watch import house_command
from sunbot.mirror.harvest_watch import state_from_summary

from .harvest_watch_coalition import (
    Coalition,
    Command,
    Data,
    non_action,
    parse_speech,
)


class _Simple:
    """Base of the one-act baselines: the pinned example on talk, vote and diary beats."""

    game = "harvest-watch"
    act: ClassVar[Command] = {"act": "guard"}

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """``act`` on the action beat (it is always legal for a living seat), else the
        beat's example command."""
        if data["phase"] == "action":
            return dict(self.act)
        return non_action(data)


class Guard(_Simple):
    """Baseline: always guard (-1.0 a day, never robbed); out on night 5 (§7)."""

    act: ClassVar[Command] = {"act": "guard"}


class Farmer(_Simple):
    """Baseline: always farm (-1.0 a day, open to theft); out on night 5 at best (§7)."""

    act: ClassVar[Command] = {"act": "farm"}


class RandomSeat:
    """Baseline: a uniformly random legal act, a random valid ballot (or abstain), and
    short random talk."""

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """A random command that fits the beat (§3.6)."""
        phase, s = data["phase"], data["summary"]
        if phase == "action":
            return dict(self.rng.choice(legal_actions))
        if phase == "vote":
            living = s["aliveSeats"]
            target = self.rng.choice([None, *living])
            to = [m for m in living if m not in (target, s["you"])]
            if target is None or not to:
                return {"punish": None}
            return {"punish": target, "giveTo": self.rng.choice(to)}
        key = "diary" if phase == "diary" else "speech"
        return {key: f"Seat {s['you']}: {self.rng.choice(['hello', 'farm', 'watch'])}."}


class House:
    """The §2.7 house-bot policy playing as a seat (``sunbot.engines.harvest_watch_house``).

    A seat does not know which seats the server gave to house bots, so this player pairs
    off *all* living seats in ascending order, itself included; it uses its own ``rng``
    for the 0.1 steal draw and its own ``caught`` memory.
    """

    game = "harvest-watch"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.memory: dict[str, Any] = {}

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """The house command for this beat, from the state rebuilt from the summary."""
        s = data["summary"]
        state = state_from_summary(s)
        return house_command(state, s["you"], self.memory, self.rng, house_seats=s["aliveSeats"])


__all__ = ["Coalition", "Farmer", "Guard", "House", "RandomSeat", "non_action", "parse_speech"]
