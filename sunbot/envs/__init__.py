"""Reinforcement-learning environments (optional extra: ``pip install 'sunbot[rl]'``).

Importing this package registers the single-player games with Gymnasium::

    import gymnasium as gym
    import sunbot.envs  # registers the ids

    env = gym.make("sunbot/Keelhold-v0", max_voyages=3)   # engine backend (fast)
    env = gym.make("sunbot/Keelhold-v0", server="embedded")  # through the client, mirror on
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Ids: ``sunbot/Keelhold-v0`` (option ``max_voyages``), ``sunbot/Sunloaf-v0`` and
``sunbot/Naptuft-v0`` (option ``max_days``); all take ``server`` and ``mirror``. Harvest
Watch, a six-seat match, is a PettingZoo ``ParallelEnv``:
``sunbot.envs.harvest_watch.parallel_env()``. A trained policy plays as a sunbot strategy
through :class:`sunbot.envs.policy.PolicyStrategy`. The encodings are documented in each
game's module (``sunbot/envs/<game>.py``) and in ``docs/rl.md``.
"""

from __future__ import annotations

import gymnasium as gym

from sunbot.games import GAMES

#: Gymnasium id -> ``"module:class"`` of the environment, as the games table gives them
#: (``GameInfo.env_id`` and ``env_ref``).
ENV_IDS: dict[str, str] = {
    g.env_id: g.env_ref for g in GAMES.values() if g.env_id is not None and g.env_ref is not None
}


def register_all() -> None:
    """Register every id of :data:`ENV_IDS` with Gymnasium (again is harmless)."""
    for env_id, entry in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry, disable_env_checker=True)


register_all()

__all__ = ["ENV_IDS", "register_all"]
