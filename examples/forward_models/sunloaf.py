"""Sunloaf's rules engine as a forward model, for any server of it: one that shows its
random cursor (this project's) or one that does not (another Gameboard server).

sunbot knows Sunloaf (its engine, its mirror), so this file is not needed to play it; it
shows how a known engine becomes a model of the contract, and it is what ``sunbot certify``
checks against another server's Sunloaf (``sunbot.testing.otherserver``, which keeps no
``rng`` in its answers and adds fields of its own).

Within a day the rules decide everything, and the model steps the engine exactly. A new
day's room is the server's own choice: the rule text fixes some of it (the band's dwell,
the dogs' number and speed, the lattice, the double serves, the cats' ranges, a roster that
opens with two cats and grows to five) and leaves the rest to the server (how much
furniture, shade and cloud, how many serves and when, where everything stands, the dogs'
loops, which cat joins when, the day's par). So the model says it draws
(``stochastic = True``): where the server shows its cursor, the new day is drawn with our
generator from that cursor, which is exact on our server; where it does not, every local
choice is drawn over the range the rules allow (:class:`AnyRoom`), so certify checks those
fields by shape and range, and search averages over the rooms a server may make.
"""

from __future__ import annotations

import random
from typing import Any

from sunbot.engines import sunloaf
from sunbot.engines import sunloaf_gen as gen
from sunbot.engines.sunloaf_fast import RANGE

#: The bounds the draws of a new day keep to where the rules leave a number to the server:
#: furniture pieces, shade length, cloud turns, serves, and a dog loop's rectangle's rows
#: and columns less one.
FURNITURE, SHADE, CLOUDS, SERVES, DOG_SIDE = (0, 10), (1, 4), (0, 4), (1, 5), (1, 4)
#: The first turn a serve may fall on (a mat counts down three turns before its serve).
FIRST_SERVE = 3
#: The cats a run opens with and grows to (the rules); which day each joins is the server's.
OPENING_CATS, ALL_CATS = 2, 5


class AnyRoom:
    """A new day's local choices drawn from ``rng`` over the range the rules allow (the
    engine's ``Generation``: ramp row, room, par); what the rules fix is kept."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def day_params(self, day: int) -> gen.DayParams:
        """The rules' columns of ``day``'s ramp row, the server's columns drawn."""
        fixed = gen.day_params(day)
        serves = self.rng.randint(*SERVES)
        return fixed._replace(
            furniture=self.rng.randint(*FURNITURE),
            shade_length=self.rng.randint(*SHADE),
            clouds=self.rng.randint(*CLOUDS),
            serves=serves,
            bowls=serves + serves // 2 if day >= 15 else serves,
        )

    def generate_room(self, state: dict[str, Any]) -> None:
        """The room, its bowls and any cats joining, drawn (mutates ``state``)."""
        rng, day = self.rng, state["day"]
        prm = self.day_params(day)
        turns = prm.turns_in_day
        cats: list[dict[str, Any]] = state["cats"]
        taken = {c["tile"] for c in cats}

        def free() -> int:
            tile = rng.choice([x for x in range(49) if x not in taken])
            taken.add(tile)
            return tile

        furniture = sorted(free() for _ in range(prm.furniture))
        hearth = free()
        joined = OPENING_CATS if day == 1 else rng.randint(len(cats), ALL_CATS)
        for cid in range(len(cats), joined):
            cats.append({"id": cid, "tile": free(), "settled": 0, "range": RANGE[cid],
                         "big": cid == 3})  # fmt: skip
        clouds = sorted(rng.sample(range(1, turns - 1), min(prm.clouds, turns - 2)))
        serve_turns = sorted(rng.sample(range(FIRST_SERVE, turns), prm.serves))
        bowls = [
            {"mat": free(), "serveTurn": t}
            for j, t in enumerate(serve_turns)
            for _ in range(2 if day >= 15 and j % 2 == 1 else 1)
        ]
        state["layout"] = {
            "window": rng.choice("NESW"),
            "furniture": furniture,
            "hearth": hearth,
            "dogLoops": [self._loop(set(furniture)) for _ in range(prm.dogs)],
            "dogSpeed": prm.dog_speed,
            "shadeLength": prm.shade_length,
            "latticeParity": rng.randrange(2) if prm.lattice else None,
            "cloudTurns": clouds,
        }
        state["bowls"] = sorted(bowls, key=lambda b: (b["serveTurn"], b["mat"]))

    def _loop(self, furniture: set[int]) -> list[int]:
        """A dog's loop: a rectangle's edge clear of furniture, walked either way round."""
        for _ in range(100):
            r0, c0 = self.rng.randrange(6), self.rng.randrange(6)
            r1 = min(r0 + self.rng.randint(*DOG_SIDE), 6)
            c1 = min(c0 + self.rng.randint(*DOG_SIDE), 6)
            loop = gen.dog_loop(r0, c0, r1, c1)
            if not furniture.intersection(loop):
                return loop if self.rng.random() < 0.5 else [loop[0], *reversed(loop[1:])]
        return gen.dog_loop(0, 0, 1, 1)

    def day_par(self, state: dict[str, Any]) -> int:
        """The day's par: between nothing and what our reference policy earns in the room."""
        return self.rng.randint(0, gen.day_par(state))


class Sunloaf:
    """The engine's state; a new day drawn from the server's cursor when it is shown, else
    over the range the rules allow (module doc)."""

    game = "sunloaf"
    stochastic = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.any_room = AnyRoom(rng)

    def from_observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The observation as an engine state (``rng`` the cursor shown, else ``None``)."""
        state = {k: v for k, v in observation.items() if k in _FIELDS}
        state["rng"] = observation.get("rng")
        return state

    def legal_actions(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """The engine's legal actions."""
        return sunloaf.legal_actions(state)

    def step(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """The engine's step; a new day from the cursor shown, else drawn."""
        shown = state["rng"] is not None
        return sunloaf.step_with(state, action, gen.LOCAL if shown else self.any_room)

    def observation(self, state: dict[str, Any]) -> dict[str, Any]:
        """The engine's observation without the cursor (a server that shows one shows a
        number the model reads back, not one it predicts)."""
        shown = sunloaf.observation(state)
        shown.pop("rng", None)
        return shown

    def score(self, state: dict[str, Any]) -> float:
        """The engine's score."""
        return sunloaf.score(state)

    def is_over(self, state: dict[str, Any]) -> bool:
        """The engine's end."""
        return sunloaf.is_over(state)


#: The fields of an engine state (the rest of an observation is another server's own).
_FIELDS = frozenset(sunloaf.observation(sunloaf.init(0)))
