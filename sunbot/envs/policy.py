"""A trained policy as a sunbot strategy: ``sunbot play``, ``sunbot bench`` and transcripts
work with it unchanged.

A *policy* is any callable ``policy(observation, action_mask) -> action index``, where
``observation`` is the environment's encoding (``sunbot/envs/<game>.py``) and
``action_mask`` its ``int8`` mask of legal indices. :class:`PolicyStrategy` encodes the wire
observation the runner hands it (from any server: only published fields are read), builds
the mask from ``legal_actions``, asks the policy, and answers the action object::

    class MyBot(PolicyStrategy):
        game = "keelhold"

        def __init__(self, rng: random.Random) -> None:
            super().__init__("keelhold", load_my_policy())
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from sunbot.envs.core import Codec, Mask, legal_table
from sunbot.games import GAMES, resolve

#: ``policy(encoded observation, action mask) -> action index``.
Policy = Callable[[Any, Mask], int]


def codec_for(game: str) -> Codec:
    """A fresh codec of ``game`` (the games table's ``GameInfo.codec_ref``).

    Raises:
        KeyError: no environment encoding for ``game``; the message lists those there are.
    """
    info = GAMES.get(game)
    if info is None or info.codec_ref is None:
        there = ", ".join(g.slug for g in GAMES.values() if g.codec_ref is not None)
        raise KeyError(f"no environment encoding for {game!r}; there are: {there}")
    codec: Codec = resolve(info.codec_ref)()
    return codec


class PolicyStrategy:
    """A strategy (``choose(observation, legal_actions)``) playing ``policy``.

    Args:
        game: the game's slug (its codec encodes the observations).
        policy: ``policy(encoded observation, mask) -> action index``.
        rng: unused by the wrapper (the registry's factories take one); kept for policies
            that sample.

    ``choose`` raises ``ValueError`` when the policy answers an index outside the action
    space; an index the mask forbids is sent as is (the server refuses it and the runner
    counts the refusal), so a faulty policy shows up in the run's summary.
    """

    game: str = ""

    def __init__(self, game: str, policy: Policy, rng: random.Random | None = None) -> None:
        self.game = game
        self.codec = codec_for(game)
        self.policy = policy
        self.rng = rng or random.Random(0)

    def choose(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any:
        """The action the policy picks for this position.

        The observation is always encoded (a codec may remember earlier beats); when exactly
        one action is legal (Harvest Watch's talk and diary beats) it is answered without
        asking the policy. The chosen index answers the legal action it stands for (so a
        Harvest Watch index reads as the current beat's command).
        """
        encoded = self.codec.encode(observation)
        if len(legal_actions) == 1:
            return legal_actions[0]
        table = legal_table(self.codec, legal_actions)
        mask = np.zeros(self.codec.n_actions, dtype=np.int8)
        mask[list(table)] = 1
        index = int(self.policy(encoded, mask))
        top = self.codec.n_actions - 1
        if not 0 <= index <= top:
            raise ValueError(f"the policy answered index {index}; the action space is 0..{top}")
        return table.get(index) or self.codec.action(index)
