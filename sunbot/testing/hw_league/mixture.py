"""The mixture style: a random style each day, drawn from a weighted set of tuning styles."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ._base import Command, Data, Style
from .keepers import Bloc, LastNight, Retaliator, Vengeful, Watchful
from .social import JointOffer
from .thieves import Greedy, RichThief

#: The styles a mixture draws from: tuning styles only, so no held-out play leaks in.
PARTS: dict[str, type[Style]] = {
    cls.style: cls
    for cls in (LastNight, Watchful, Vengeful, Retaliator, Bloc, JointOffer, Greedy, RichThief)
}


@dataclass(eq=False)
class Mixture(Style):
    """Plays one style per day, drawn at speech1 by ``weights`` (``{style: weight}``, names
    of :data:`PARTS`) with its own ``rng``; every part sees every beat, so each keeps its
    own record of the match.

    Raises:
        ValueError: a weight names no style of :data:`PARTS`, or the weights are not
            positive.
    """

    style = "mixture"
    weights: dict[str, float] = field(
        default_factory=lambda: {"last_night": 1.0, "vengeful": 1.0, "rich_thief": 1.0}
    )

    @classmethod
    def sample_params(cls, rng: random.Random) -> dict[str, Any]:
        """Three parts drawn from :data:`PARTS`, weights 1-3."""
        names = rng.sample(sorted(PARTS), 3)
        return {"weights": {n: float(rng.randint(1, 3)) for n in names}}

    def __post_init__(self) -> None:
        super().__post_init__()
        unknown = sorted(set(self.weights) - set(PARTS))
        if unknown or not self.weights or min(self.weights.values()) <= 0:
            raise ValueError(f"mixture weights {self.weights!r}: positive, over {sorted(PARTS)}")
        self.parts = {n: PARTS[n](random.Random(self.rng.random())) for n in sorted(self.weights)}
        self.today = next(iter(self.parts))
        self.drawn_on = 0

    def choose(self, data: Data, legal_actions: list[Command]) -> Command:
        """Every part answers (so each keeps its record); today's part's answer is sent."""
        day = int((data.get("summary") or {}).get("day", 0))
        if day != self.drawn_on:
            names = list(self.parts)
            self.today = self.rng.choices(names, [self.weights[n] for n in names])[0]
            self.drawn_on = day
        answers = {n: p.choose(data, legal_actions) for n, p in self.parts.items()}
        return answers[self.today]
