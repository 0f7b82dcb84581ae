"""Steps per second of ``sunbot/Keelhold-v1`` on the engine backend, one process (one core).

    python benchmarks/envs_keelhold.py [--steps 200000] [--cap 4] [--write-docs]

The policy plays the lowest safe hatch (CAST_OFF at port), so runs last several voyages as
a trained policy's would; episodes restart with ``reset()`` on the next seed. Figures:
environment time only (``reset`` + ``step``, what an RL library pays per transition), the
whole loop with the policy's own time, and the whole loop per second of this process's CPU
time (what one dedicated core would do: on a shared, busy machine wall time also counts
the time other processes held the core). All include encoding every observation and
building every action mask. ``--write-docs`` also writes the figures into
``docs/benchmarks/rl.md`` (block ``envs-keelhold``).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import sunbot.envs  # noqa: F401  (registers the ids)


def lowest_safe(obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
    safe = np.flatnonzero(obs["bays"][0])
    return int(safe[0]) if safe.size else int(np.flatnonzero(mask)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--cap", type=int, default=4, help="max_voyages per episode")
    parser.add_argument("--write-docs", action="store_true", help="update docs/benchmarks/rl.md")
    args = parser.parse_args()
    env = gym.make("sunbot/Keelhold-v1", max_voyages=args.cap)
    seed, episodes, in_env = 1, 1, 0.0
    started, cpu_started = time.perf_counter(), time.process_time()
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed)
    in_env += time.perf_counter() - t0
    for _ in range(args.steps):
        action = lowest_safe(obs, info["action_mask"])
        t0 = time.perf_counter()
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            seed += 1
            episodes += 1
            obs, info = env.reset(seed=seed)
        in_env += time.perf_counter() - t0
    total = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    print(f"{args.steps} steps, {episodes} episodes (cap {args.cap} voyages)")
    print(f"environment only: {args.steps / in_env:,.0f} steps/s")
    print(f"with the policy:  {args.steps / total:,.0f} steps/s")
    print(f"with the policy, per CPU second: {args.steps / cpu:,.0f} steps/s")
    if args.write_docs:
        from docs_block import markdown_table, write_block

        rows = [
            ["environment only (`reset` + `step`)", f"{args.steps / in_env:,.0f}"],
            ["with the policy's own time", f"{args.steps / total:,.0f}"],
            ["with the policy, per CPU second", f"{args.steps / cpu:,.0f}"],
        ]
        table = markdown_table(
            ["`sunbot/Keelhold-v1`, engine backend, one process", "steps/s"], rows
        )
        note = f"{args.steps:,} steps, {episodes} episodes (cap {args.cap} voyages)."
        print(write_block("rl", "envs-keelhold", f"{note}\n\n{table}"))


if __name__ == "__main__":
    main()
