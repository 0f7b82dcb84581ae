"""Reinforcement-learning environments (optional extra: ``pip install 'sunbot[rl]'``).

Importing this package registers the single-player games with Gymnasium::

    import gymnasium as gym
    import sunbot.envs  # registers the ids

    env = gym.make("sunbot/Keelhold-v1", max_voyages=3)   # engine backend (fast)
    env = gym.make("sunbot/Keelhold-v1", server="embedded")  # through the client, mirror on
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Ids: ``sunbot/Keelhold-v1`` (option ``max_voyages``), ``sunbot/Sunloaf-v1`` and
``sunbot/Naptuft-v1`` (option ``max_days``); all take ``server`` and ``mirror``. Their
observation spaces have finite bounds from the rules (``docs/rl.md``); the ``-v0`` ids,
the same encodings unbounded and unclipped, stay registered for models trained on them
(:mod:`sunbot.envs.legacy`). Harvest Watch, a six-seat match, is a PettingZoo
``ParallelEnv``: ``sunbot.envs.harvest_watch.parallel_env()``. A trained policy plays as a
sunbot strategy through :class:`sunbot.envs.policy.PolicyStrategy`. The encodings are
documented in each game's module (``sunbot/envs/<game>.py``) and in ``docs/rl.md``.
"""

from __future__ import annotations

import gymnasium as gym

from sunbot.games import GAMES

#: The version of the encodings the games' ids are registered at (``-v1``: bounded spaces).
VERSION = 1


def versioned(env_id: str, version: int) -> str:
    """``env_id`` at ``version``: ``versioned("sunbot/Keelhold-v0", 1)`` is
    ``"sunbot/Keelhold-v1"`` (a name without a version gets one)."""
    name, sep, tail = env_id.rpartition("-v")
    base = name if sep and tail.isdigit() else env_id
    return f"{base}-v{version}"


#: Gymnasium id -> ``"module:class"`` of the environment at :data:`VERSION`, from the games
#: table (``GameInfo.env_id``, whose name it takes, and ``env_ref``).
ENV_IDS: dict[str, str] = {
    versioned(g.env_id, VERSION): g.env_ref
    for g in GAMES.values()
    if g.env_id is not None and g.env_ref is not None
}


def _v0_ref(env_ref: str) -> str:
    """The v0 class of an environment: ``<its class>V0`` in :mod:`sunbot.envs.legacy`."""
    return f"sunbot.envs.legacy:{env_ref.rpartition(':')[2]}V0"


#: Gymnasium id -> ``"module:class"`` of the v0 environments, kept for trained models.
LEGACY_ENV_IDS: dict[str, str] = {
    versioned(g.env_id, 0): _v0_ref(g.env_ref)
    for g in GAMES.values()
    if g.env_id is not None and g.env_ref is not None
}


def register_all() -> None:
    """Register every id of :data:`ENV_IDS` and :data:`LEGACY_ENV_IDS` with Gymnasium
    (again is harmless).

    ``gym.make`` adds no wrapper: no passive checker, and no ``OrderEnforcing`` (the
    environments refuse a step before ``reset`` or after the run's end themselves, with a
    ``RuntimeError``; the wrapper's call through cost 1 us of a 45 us Keelhold step)."""
    for env_id, entry in {**ENV_IDS, **LEGACY_ENV_IDS}.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id, entry_point=entry, disable_env_checker=True, order_enforce=False
            )


register_all()

__all__ = ["ENV_IDS", "LEGACY_ENV_IDS", "VERSION", "register_all", "versioned"]
