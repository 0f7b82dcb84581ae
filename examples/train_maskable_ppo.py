"""Train sb3-contrib's MaskablePPO on ``sunbot/Keelhold-v1`` and compare it with random.

Install (CPU torch first, so pip does not pull a CUDA build)::

    pip install torch --index-url <your CPU wheel index>   # or a local CPU wheel
    pip install '.[rl-train]'
    python examples/train_maskable_ppo.py --steps 20000 --max-voyages 2 --eval 50

What it shows:

- **The action mask.** ``MaskablePPO`` asks the environment for ``action_masks()``
  (through the wrappers, with ``get_wrapper_attr``) and samples only legal indices, in
  training and in ``predict(..., action_masks=mask)``.
- **The bounds.** Every ``Box`` of the v1 spaces is bounded by the rules, so gymnasium's own
  wrappers can flatten the ``Dict`` and rescale every entry to ``[0, 1]`` by its bounds
  (``FlattenObservation``, ``DtypeObservation``, ``RescaleObservation``): the scale a
  neural network wants. Rewards (score points) are divided by 100 for PPO's value function.
- **Held-out seeds.** Training plays seeds ``1..1000`` (drawn at random per episode);
  the evaluation plays seeds from 100,001 on, with the trained policy (deterministic) and
  with random (uniform among the legal indices, the rule of sunbot's ``random``
  strategy), and prints both. ``policy_of`` turns the model into
  ``policy(observation, mask) -> index`` on the plain environment's encoding: the same
  function plays in ``sunbot play``/``sunbot bench`` through
  ``sunbot.envs.policy.PolicyStrategy("keelhold", policy)``.

``--tiny`` is the test's smoke run (a few hundred steps, seconds).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from gymnasium.wrappers import (
    DtypeObservation,
    FlattenObservation,
    RescaleObservation,
    TransformReward,
)
from sb3_contrib import MaskablePPO

import sunbot.envs  # noqa: F401  (registers sunbot/Keelhold-v1)

ENV_ID = "sunbot/Keelhold-v1"
TRAIN_SEEDS = range(1, 1001)
EVAL_FROM = 100_001
REWARD_SCALE = 100.0
Policy = Callable[[Any, np.ndarray], int]


class TrainingSeeds(gym.Wrapper[Any, Any, Any, Any]):
    """Every ``reset`` plays a seed drawn from ``seeds`` (so evaluation seeds stay unseen)."""

    def __init__(self, env: gym.Env[Any, Any], seeds: range, rng: random.Random) -> None:
        super().__init__(env)
        self.seeds, self.rng = seeds, rng

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        return self.env.reset(seed=self.rng.choice(self.seeds), options=options)


def scaled(env: gym.Env[Any, Any]) -> gym.Env[Any, Any]:
    """``env`` with its ``Dict`` observation flattened and every entry in ``[0, 1]``."""
    flat = DtypeObservation(FlattenObservation(env), np.float32)
    return RescaleObservation(flat, np.float32(0.0), np.float32(1.0))


def make_training_env(max_voyages: int, seed: int) -> gym.Env[Any, Any]:
    """The training environment: training seeds, scaled observations, rewards / 100."""
    env = TrainingSeeds(gym.make(ENV_ID, max_voyages=max_voyages), TRAIN_SEEDS, random.Random(seed))
    return TransformReward(scaled(env), lambda r: float(r) / REWARD_SCALE)


def scaler() -> Callable[[Any], np.ndarray]:
    """The training wrappers' observation transform, for the plain environment's encoding
    (a ``Dict`` of arrays -> a float32 vector in ``[0, 1]``)."""
    chain: list[gym.ObservationWrapper[Any, Any, Any]] = []
    env = scaled(gym.make(ENV_ID))
    while isinstance(env, gym.Wrapper):
        if isinstance(env, gym.ObservationWrapper):
            chain.insert(0, env)
        env = env.env

    def scale(observation: Any) -> np.ndarray:
        for wrapper in chain:
            observation = wrapper.observation(observation)
        return np.asarray(observation)

    return scale


def policy_of(model: MaskablePPO) -> Policy:
    """``policy(observation, mask) -> index`` on the plain environment's encoding: the
    training wrappers' scaling, then the model's most likely legal action."""
    scale = scaler()

    def policy(observation: Any, mask: np.ndarray) -> int:
        obs = scale(observation)
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return policy


def random_policy(seed: int) -> Policy:
    """Uniform among the legal indices, from its own generator."""
    rng = random.Random(seed)
    return lambda observation, mask: rng.choice(np.flatnonzero(mask).tolist())


def evaluate(policy: Policy, seeds: list[int], max_voyages: int) -> tuple[list[float], int]:
    """Each seed's score under ``policy``, and how many of its actions the rules refused."""
    env = gym.make(ENV_ID, max_voyages=max_voyages)
    scores, refused = [], 0
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        for _ in range(20_000):  # the rules' own guard on placements
            obs, _, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
            refused += "refused" in info
            if terminated or truncated:
                break
        scores.append(float(info["score"]))
    env.close()
    return scores, refused


def train(steps: int, max_voyages: int, seed: int, tiny: bool) -> MaskablePPO:
    """MaskablePPO with an MLP policy, ``steps`` environment steps."""
    env = make_training_env(max_voyages, seed)
    n_steps, batch = (128, 32) if tiny else (512, 64)
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=batch, seed=seed)
    model.learn(total_timesteps=steps)
    env.close()
    return model


def main(argv: list[str] | None = None) -> dict[str, list[float]]:
    """Train, evaluate both policies on held-out seeds, print the comparison; returns each
    policy's scores by seed (``{"maskable-ppo": [...], "random": [...]}``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="training steps")
    parser.add_argument("--max-voyages", type=int, default=2, help="episode cap (voyages)")
    parser.add_argument("--eval", type=int, default=50, help="held-out evaluation seeds")
    parser.add_argument("--seed", type=int, default=0, help="the learner's own seed")
    parser.add_argument("--save", type=Path, help="write the trained model (.zip) here")
    parser.add_argument("--tiny", action="store_true", help="smoke run: seconds")
    args = parser.parse_args(argv)
    if args.tiny:
        args.steps, args.eval = 256, 3
    torch.set_num_threads(1)  # small networks: one thread is fastest and shares the machine
    started = time.perf_counter()
    model = train(args.steps, args.max_voyages, args.seed, args.tiny)
    secs = time.perf_counter() - started
    if args.save:
        model.save(args.save)
    seeds = list(range(EVAL_FROM, EVAL_FROM + args.eval))
    results: dict[str, list[float]] = {}
    print(f"trained {args.steps:,} steps in {secs:.1f} s; held-out seeds {seeds[0]}-{seeds[-1]}"
          f" (cap {args.max_voyages} voyages):")  # fmt: skip
    for name, policy in (("maskable-ppo", policy_of(model)), ("random", random_policy(1))):
        scores, refused = evaluate(policy, seeds, args.max_voyages)
        results[name] = scores
        print(f"  {name:<13} mean score {np.mean(scores):8.1f}   median {np.median(scores):8.1f}"
              f"   refused {refused}")  # fmt: skip
    return results


if __name__ == "__main__":
    main()
