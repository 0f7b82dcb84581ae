"""Shared helpers of the environment tests: play a run, compare two runs."""

from __future__ import annotations

import gymnasium as gym
import numpy as np


def random_legal(seed: int, avoid: tuple[int, ...] = ()):
    """A policy choosing uniformly among the legal indices, from its own generator; indices
    in ``avoid`` (e.g. the end-run action) only when nothing else is legal."""
    rng = np.random.default_rng(seed)

    def policy(obs, mask) -> int:
        legal = [i for i in np.flatnonzero(mask).tolist() if i not in avoid]
        return int(rng.choice(legal or np.flatnonzero(mask)))

    return policy


def play(env, seed: int, policy, limit: int = 2000):
    """``[(obs, reward, terminated, truncated), ...]`` from reset to the end, and the last
    info."""
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, False)]
    for _ in range(limit):
        obs, reward, term, trunc, info = env.step(policy(obs, info["action_mask"]))
        out.append((obs, reward, term, trunc))
        if term or trunc:
            break
    return out, info


def assert_same_runs(a, b) -> None:
    """Equal observations (every array), rewards and end flags, step by step."""
    assert len(a) == len(b)
    for i, ((oa, ra, ta, ua), (ob, rb, tb, ub)) in enumerate(zip(a, b, strict=True)):
        assert (ra, ta, ua) == (rb, tb, ub), i
        assert oa.keys() == ob.keys()
        for key in oa:
            assert np.array_equal(oa[key], ob[key]), (i, key)


def assert_backends_agree(env_id: str, seed: int, make_policy, **options) -> None:
    """The engine backend and the embedded server (mirror on) give the same run for the
    same seed and a policy built afresh for each by ``make_policy()``."""
    engine = gym.make(env_id, **options)
    server = gym.make(env_id, server="embedded", **options)
    a, info_a = play(engine, seed, make_policy())
    b, info_b = play(server, seed, make_policy())
    assert len(a) > 5
    assert_same_runs(a, b)
    assert info_a["score"] == info_b["score"]
    assert "divergences" not in info_b
    engine.close()
    server.close()
