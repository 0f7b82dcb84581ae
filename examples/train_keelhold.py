"""Train a Keelhold policy on ``sunbot/Keelhold-v1`` and save it for ``keelhold_trained_bot.py``.

Method: direct policy search. The policy is linear in 11 features of the observation
(``keelhold_trained_bot.features``); SciPy's differential evolution (an evolution strategy, like
the ones used for RL policy search) tunes the 11 weights to maximise the mean episode
return (the run's score, capped at ``--max-voyages``) over the training seeds. Everything
is played on the engine backend through the Gymnasium interface, with the action mask.
Any Gymnasium-compatible learner could take its place: the environment is the same one
that sb3-contrib's ``MaskablePPO`` expects (``env.action_masks()``; see
``examples/train_maskable_ppo.py``).

Full run (the README quotes its figure)::

    python examples/train_keelhold.py --generations 30 --episodes 16 --max-voyages 4
    sunbot bench keelhold -s examples/keelhold_trained_bot.py:TrainedKeelhold -s random \\
        --seeds 1001-1200 --cap voyages=4

Training seeds are 1..``--episodes``; evaluate on other (held-out) seeds. ``--tiny`` is
the CI smoke run (seconds); it writes to ``--out`` like any run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
from scipy.optimize import differential_evolution

sys.path.insert(0, str(Path(__file__).resolve().parent))

from keelhold_trained_bot import DEFAULT_WEIGHTS, N_FEATURES, LinearPolicy

import sunbot.envs  # noqa: F401  (registers sunbot/Keelhold-v1)


def episode_return(env: gym.Env, policy: LinearPolicy, seed: int) -> float:
    """One episode's total reward (= the run's score at its end or cap)."""
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    for _ in range(20_000):  # the rules' own guard on placements
        obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        total += float(reward)
        if terminated or truncated:
            done = True
            break
    if not done:
        raise RuntimeError(f"seed {seed}: no end within 20,000 steps")
    return total


def mean_return(env: gym.Env, weights: np.ndarray, seeds: list[int]) -> float:
    """Mean return of the linear policy with ``weights`` over ``seeds``."""
    policy = LinearPolicy(weights)
    return float(np.mean([episode_return(env, policy, s) for s in seeds]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=30, help="evolution generations")
    parser.add_argument("--episodes", type=int, default=16, help="training seeds 1..N")
    parser.add_argument("--max-voyages", type=int, default=4, help="episode cap (voyages)")
    parser.add_argument("--popsize", type=int, default=6, help="population per weight")
    parser.add_argument("--seed", type=int, default=0, help="the optimiser's own seed")
    parser.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS, help="weights file")
    parser.add_argument("--tiny", action="store_true", help="CI smoke run: seconds")
    args = parser.parse_args(argv)
    if args.tiny:
        args.generations, args.episodes, args.max_voyages, args.popsize = 2, 2, 1, 2
    env = gym.make("sunbot/Keelhold-v1", max_voyages=args.max_voyages)
    seeds = list(range(1, args.episodes + 1))
    started = time.perf_counter()

    def loss(weights: np.ndarray) -> float:
        return -mean_return(env, weights, seeds)

    def report(xk: np.ndarray, convergence: float = 0.0) -> None:
        print(f"  best mean return so far {-loss(xk):9.1f}", flush=True)

    result = differential_evolution(
        loss,
        bounds=[(-5.0, 5.0)] * N_FEATURES,
        maxiter=args.generations,
        popsize=args.popsize,
        seed=args.seed,
        polish=False,
        callback=report,
        tol=0,
    )
    LinearPolicy(result.x).save(args.out)
    secs = time.perf_counter() - started
    print(f"trained in {secs:.1f} s: mean training return {-result.fun:.1f}; wrote {args.out}")
    env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
