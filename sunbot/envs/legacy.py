"""The v0 encodings: ``sunbot/Keelhold-v0``, ``sunbot/Sunloaf-v0``, ``sunbot/Naptuft-v0``.

v0 is what the environments were before their observation spaces had real bounds: the same
keys, shapes and numbers as v1, but nothing clipped (a Sunloaf day past 33, a Naptuft day
past 7 or a streak past 2 reads as it is) and the spaces of ``Box(±2**30)`` (Naptuft's
``needs``: ``0..100``). Kept so that a model trained on v0 still loads (a learner compares
the observation space it was trained on) and sees the numbers it saw; new work uses v1
(:mod:`sunbot.envs`, ``docs/rl.md``).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from sunbot.envs.core import SunbotEnv
from sunbot.envs.keelhold import HATCHES, MAX_QUEUE, MAX_SLOTS, N_TERMS, KeelholdCodec
from sunbot.envs.naptuft import WISH_SLOTS, NaptuftCodec
from sunbot.envs.sunloaf import CATS, MAX_BOWLS, MAX_TURNS, SunloafCodec

#: v0's stand-in for "no bound".
BIG = 2**30
_I32 = np.int32


def _big(shape: tuple[int, ...], low: int = -BIG) -> gym.spaces.Box:
    return gym.spaces.Box(low, BIG, shape, _I32)


class KeelholdCodecV0(KeelholdCodec):
    """:class:`~sunbot.envs.keelhold.KeelholdCodec` without clipping, in v0's spaces."""

    clip = False

    def observation_space(self) -> gym.spaces.Dict:
        """v0's ``Dict``: every key ``Box(±2**30)`` but ``bays`` (``MultiBinary``)."""
        return gym.spaces.Dict(
            {
                "hold": _big((HATCHES, MAX_SLOTS, 3)),
                "queue": _big((MAX_QUEUE, 3)),
                "hatches": _big((HATCHES, 3)),
                "bays": gym.spaces.MultiBinary((2, HATCHES)),
                "status": _big((8,)),
                "terms": _big((2, N_TERMS)),
            }
        )


class SunloafCodecV0(SunloafCodec):
    """:class:`~sunbot.envs.sunloaf.SunloafCodec` without clipping, in v0's spaces."""

    clip = False

    def observation_space(self) -> gym.spaces.Dict:
        """v0's ``Dict``: ``Box(0 or ±2**30)`` keys, ``clouds`` ``MultiBinary(32)``."""
        return gym.spaces.Dict(
            {
                "room": _big((8, 7, 7), 0),
                "cats": _big((CATS, 5), 0),
                "bowls": _big((MAX_BOWLS, 3)),
                "status": _big((16,), -1),
                "clouds": gym.spaces.MultiBinary(MAX_TURNS),
            }
        )


class NaptuftCodecV0(NaptuftCodec):
    """:class:`~sunbot.envs.naptuft.NaptuftCodec` without clipping, in v0's spaces."""

    clip = False

    def observation_space(self) -> gym.spaces.Dict:
        """v0's ``Dict``: ``needs`` ``Box(0, 100)``, the other keys ``Box(0, 2**30)``."""
        return gym.spaces.Dict(
            {
                "needs": gym.spaces.Box(0, 100, (4,), _I32),
                "clock": _big((4,), 0),
                "wish": _big((WISH_SLOTS + 2,), 0),
                "status": _big((2,), 0),
                "forecast": _big((4, WISH_SLOTS + 4), 0),
            }
        )


class KeelholdEnvV0(SunbotEnv):
    """``sunbot/Keelhold-v0`` (options as ``sunbot/Keelhold-v1``)."""

    def __init__(
        self, *, max_voyages: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        codec = KeelholdCodecV0()
        super().__init__("keelhold", codec, cap=max_voyages, server=server, mirror=mirror)


class SunloafEnvV0(SunbotEnv):
    """``sunbot/Sunloaf-v0`` (options as ``sunbot/Sunloaf-v1``)."""

    def __init__(
        self, *, max_days: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("sunloaf", SunloafCodecV0(), cap=max_days, server=server, mirror=mirror)


class NaptuftEnvV0(SunbotEnv):
    """``sunbot/Naptuft-v0`` (options as ``sunbot/Naptuft-v1``)."""

    def __init__(
        self, *, max_days: int | None = None, server: str | None = None, mirror: bool = True
    ) -> None:
        super().__init__("naptuft", NaptuftCodecV0(), cap=max_days, server=server, mirror=mirror)


__all__ = [
    "KeelholdCodecV0", "KeelholdEnvV0", "NaptuftCodecV0", "NaptuftEnvV0", "SunloafCodecV0",
    "SunloafEnvV0",
]  # fmt: skip
