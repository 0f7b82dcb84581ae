"""One Gymnasium environment class for the single-player games, parameterised by a codec.

A :class:`Codec` (one per game, in ``sunbot/envs/<game>.py``) turns a wire observation into
fixed-shape arrays, and a discrete action index into the game's action object. The
environment itself is game-agnostic:

- ``reset(seed=n)`` plays the game's init for seed ``n`` (without a seed, one is drawn from
  the environment's ``np_random``), ``step(i)`` sends action ``i``.
- reward = the run's score after the step minus before it (the score never decreases);
  ``terminated`` once the rules end the run; ``truncated`` once the run reaches the cap
  (``max_voyages`` / ``max_days``: at port/sunset/dayBreak with that many done, as the
  CLI's caps).
- ``info["action_mask"]`` (``int8``, one entry per action index, 1 = legal) and
  :meth:`SunbotEnv.action_masks` (sb3-contrib's MaskablePPO convention). An index the rules
  refuse leaves the position unchanged, pays 0 and sets ``info["refused"]`` (the reason).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding

from sunbot.envs.backends import Action, Answer, Observation, Stepper
from sunbot.games import GameInfo, get_game

Mask = npt.NDArray[np.int8]
Int32s = npt.NDArray[np.int32]
#: An encoded observation: key -> NumPy array (the codec's ``Dict`` space).
EncodedObs = dict[str, Any]


class Codec(Protocol):
    """A game's fixed-shape view of its observations and actions."""

    #: Number of discrete action indices.
    n_actions: int

    def observation_space(self) -> gym.spaces.Space[Any]:
        """The space :meth:`encode` returns values of."""
        ...

    def encode(self, observation: Observation) -> Any:
        """Arrays (a dict of them, or one) from a wire observation's published fields only.

        Raises:
            ValueError: the observation does not fit the fixed shapes.
        """
        ...

    def action(self, index: int) -> Action:
        """The action object of index ``index`` (``0 <= index < n_actions``)."""
        ...

    def index(self, action: Action) -> int | None:
        """The index of ``action``, ``None`` if it has none."""
        ...


def int_box(low: npt.ArrayLike, high: npt.ArrayLike) -> gym.spaces.Box:
    """An ``int32`` ``Box`` with element-wise bounds ``low`` and ``high`` (arrays of one
    shape, or a scalar broadcast to the other's shape).

    Raises:
        ValueError: the shapes differ, or some ``low`` is not below its ``high`` (every
            element must have room to vary: a learner scales by ``high - low``).
    """
    lo, hi = np.broadcast_arrays(np.asarray(low, dtype=np.int32), np.asarray(high, dtype=np.int32))
    if not (lo < hi).all():
        raise ValueError("every bound needs low < high")
    return gym.spaces.Box(lo.copy(), hi.copy(), lo.shape, np.int32)


def legal_table(codec: Codec, legal_actions: list[Action]) -> dict[int, Action]:
    """Index -> the legal action it stands for (the first, if several share an index)."""
    table: dict[int, Action] = {}
    for action in legal_actions:
        i = codec.index(action)
        if i is not None:
            table.setdefault(i, action)
    return table


def mask_of(codec: Codec, legal_actions: list[Action]) -> Mask:
    """``int8`` vector of ``codec.n_actions``: 1 at the index of each legal action."""
    mask = np.zeros(codec.n_actions, dtype=np.int8)
    index = codec.index
    for action in legal_actions:
        i = index(action)
        if i is not None:
            mask[i] = 1
    return mask


class SunbotEnv(gym.Env[Any, np.int64]):
    """A single-player Gameboard game as a Gymnasium environment.

    Args:
        slug: the game (``keelhold``, ``sunloaf``, ``naptuft``).
        codec: the game's :class:`Codec`.
        cap: truncate once this many voyages/days are done (``None``: play until the
            rules end the run).
        server: ``None`` (the engine in-process, the default), ``"embedded"`` (the local
            server through the client) or an http(s) URL of a Gameboard server.
        mirror: with a server, recompute every answer with our engine; divergences are in
            ``info["divergences"]``.

    Gymnasium's generator (``np_random``) is made from the seed :meth:`reset` was given at
    its first use, not at every reset: it is the same generator, and an episode that never
    draws from it (a reset with a seed does not) does not pay for making it.

    Raises:
        KeyError: unknown game. ``ValueError``: a bad ``server`` or ``cap``.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (gymnasium's attribute)

    def __init__(
        self,
        slug: str,
        codec: Codec,
        *,
        cap: int | None = None,
        server: str | None = None,
        mirror: bool = True,
    ) -> None:
        if cap is not None and cap < 1:
            raise ValueError(f"the cap must be at least 1, got {cap}")
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self.game: GameInfo = get_game(slug)
        self.codec = codec
        self.cap = cap
        self.observation_space = codec.observation_space()
        self.action_space = gym.spaces.Discrete(codec.n_actions)
        self.backend = Stepper(self.game, server, mirror=mirror)
        #: the answers are checked (a server with the mirror): findings go into ``info``
        self._checked = server is not None and mirror
        self._n_actions = codec.n_actions
        self._answer: Answer | None = None
        self._ended = False  # over or capped: step() refuses until reset()
        self._legal: list[Action] | None = None  # the legal actions self._mask is of
        self._mask: Mask = np.zeros(codec.n_actions, dtype=np.int8)
        #: a codec's own mask writer, ``mask_into(legal_actions, out) -> bool`` (optional:
        #: ``False`` leaves it to :func:`mask_of`); it writes into ``self._mask`` in place
        self._mask_into: Callable[[list[Action], Mask], bool] | None = getattr(
            codec, "mask_into", None
        )
        self.seed_played: int | None = None

    @property
    def _np_random(self) -> np.random.Generator | None:
        """gymnasium's generator, made at first use from the seed of the last seeded reset
        (``None`` before any)."""
        if self._rng is None and self._rng_seed is not None:
            self._rng = seeding.np_random(self._rng_seed)[0]
        return self._rng

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self._rng, self._rng_seed = value, None

    def _info(self, answer: Answer) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "score": answer.score,
            "seed": self.seed_played,
        }
        if answer.refused is not None:
            info["refused"] = answer.refused
        if self._checked:
            found = self.backend.found
            if found:
                info["divergences"] = list(found)
        return info

    def _capped(self, observation: Observation) -> bool:
        return self.cap is not None and self.game.cap_action(observation, self.cap) is not None

    def _take(self, answer: Answer) -> bool:
        """Hold ``answer`` as the position and its mask (worked out again only when the
        legal actions differ from the last ones); whether the cap truncates it."""
        self._answer = answer
        legal = answer.legal_actions
        into = self._mask_into
        if into is not None and into(legal, self._mask):
            self._legal = None  # not what self._mask is of once the codec wrote it
        elif legal != self._legal:
            self._mask = mask_of(self.codec, legal)
            self._legal = legal
        capped = self._capped(answer.observation)
        self._ended = answer.game_over or capped
        return capped

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[EncodedObs, dict[str, Any]]:
        """Start a run: the game's init for ``seed`` (or for a seed drawn from
        ``np_random``). Returns ``(observation, info)``.

        Raises:
            gymnasium.error.Error: ``seed`` is not an integer >= 0 (gymnasium's rule).
        """
        if type(seed) is int and seed >= 0:  # gymnasium's generator is made at first use
            self._rng, self._rng_seed, self._np_random_seed = None, seed, seed
        else:
            super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**31))
        self.seed_played = game_seed
        answer = self.backend.init(game_seed)
        self._take(answer)
        return self.codec.encode(answer.observation), self._info(answer)

    def step(self, action: np.int64 | int) -> tuple[EncodedObs, float, bool, bool, dict[str, Any]]:
        """Play action index ``action``.

        Raises:
            RuntimeError: before :meth:`reset`, or after the run ended.
            ValueError: ``action`` is not an index of the action space.
        """
        prev = self._answer
        if prev is None:
            raise RuntimeError("call reset() before step()")
        if self._ended:
            raise RuntimeError("the run is over: call reset()")
        i = int(action)
        if not 0 <= i < self._n_actions:
            raise ValueError(f"action must be an index 0..{self._n_actions - 1}, got {i}")
        answer = self.backend.act(self.codec.action(i))
        if answer.refused is None:
            capped = self._take(answer)
        else:  # the position is unchanged: so are its mask and its cap
            self._answer, capped = answer, False
        reward = float(answer.score - prev.score)
        obs = self.codec.encode(answer.observation)
        return obs, reward, answer.game_over, capped and not answer.game_over, self._info(answer)

    def action_masks(self) -> Mask:
        """The current action mask (1 = legal), as sb3-contrib's MaskablePPO asks for it."""
        return self._mask.copy()

    def close(self) -> None:
        """Release the backend (a server backend's connections and event loop)."""
        self.backend.close()
