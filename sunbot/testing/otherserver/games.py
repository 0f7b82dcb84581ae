"""The other server's single-player games: rules adapters, carry forms, extras, specs.

Per game: this server's ``init``/``step`` (the same rules engines with other local
choices), what it serves as ``state`` and ``observation``, how the position travels
(:mod:`.carry`), and the unknown extra fields it adds (a client must ignore them).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import sunbot.testing.otherserver.keelhold as keelhold
import sunbot.testing.otherserver.naptuft as naptuft
import sunbot.testing.otherserver.sunloaf as sunloaf
from sunbot.games import get_game

State = dict[str, Any]


@dataclass(frozen=True)
class OtherGame:
    """One single-player game as the other server plays it.

    Attributes:
        carry: ``seal`` (the ``{state}`` form: no token, the state comes back with its
            seal), ``signed`` (a readable signed JSON token) or ``id`` (a server-side id).
        internal: for ``seal``: the internal state from the state sent back.
        extra_state, extra_observation: unknown fields added to the served state and
            observation (ignored by a faithful client).
    """

    slug: str
    init: Callable[[int], State]
    step: Callable[[State, Any], State]
    served: Callable[[State], State]
    carry: Literal["seal", "signed", "id"]
    hidden: bool
    internal: Callable[[State], State] | None
    extra_state: dict[str, Any]
    extra_observation: dict[str, Any]

    def spec(self) -> dict[str, Any]:
        """This server's ``spec``: its own wording around the same action grammar."""
        ours = get_game(self.slug).spec
        return {
            "title": get_game(self.slug).name,
            "goal": f"Score as much as the rules allow. ({ours['goal']})",
            "howToScore": ours["scoring"],
            "rules": list(ours["rules"]),
            "actionGrammar": copy.deepcopy(ours["actionSchema"]),
            "version": "other-1",
        }


GAMES: dict[str, OtherGame] = {
    "keelhold": OtherGame(
        slug="keelhold",
        init=keelhold.init,
        step=keelhold.step,
        served=keelhold.served,
        carry="seal",
        hidden=False,
        internal=keelhold.internal,
        extra_state={"rev": 2, "hullName": "Marigold"},
        extra_observation={"tip": "keep her level"},
    ),
    "sunloaf": OtherGame(
        slug="sunloaf",
        init=sunloaf.init,
        step=sunloaf.step,
        served=sunloaf.served,
        carry="signed",
        hidden=False,
        internal=None,
        extra_state={"weather": {"clouds": "scattered"}, "rev": 5},
        extra_observation={"tip": "let them sleep"},
    ),
    "naptuft": OtherGame(
        slug="naptuft",
        init=naptuft.init,
        step=naptuft.step,
        served=naptuft.served,
        carry="id",
        hidden=True,
        internal=None,
        extra_state={"mood": "content"},
        extra_observation={"mood": "content", "catName": "Tuft"},
    ),
}
