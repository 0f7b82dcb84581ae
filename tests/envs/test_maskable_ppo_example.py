"""examples/train_maskable_ppo.py trains sb3-contrib's MaskablePPO on sunbot/Keelhold-v1 and
evaluates it against random on held-out seeds (skipped without ``.[rl-train]``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def example(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    import train_maskable_ppo

    yield train_maskable_ppo
    sys.modules.pop("train_maskable_ppo", None)


def test_the_tiny_run_trains_and_evaluates_both_policies_on_held_out_seeds(
    example, tmp_path, capsys
):
    model_file = tmp_path / "ppo.zip"
    results = example.main(["--tiny", "--save", str(model_file)])
    out = capsys.readouterr().out
    assert "trained 256 steps" in out and "held-out seeds 100001-100003" in out
    assert set(results) == {"maskable-ppo", "random"}
    assert all(len(scores) == 3 for scores in results.values())
    assert "refused 0" in out.splitlines()[1]  # the mask keeps the learner legal
    assert model_file.stat().st_size > 1000
    # the saved model plays the same scores through policy_of on the plain environment
    model = example.MaskablePPO.load(model_file)
    again, refused = example.evaluate(example.policy_of(model), [100_001, 100_002, 100_003], 2)
    assert again == results["maskable-ppo"] and refused == 0


def test_training_draws_only_training_seeds(example):
    env = example.make_training_env(max_voyages=1, seed=5)
    seeds = set()
    for _ in range(30):
        _, info = env.reset()
        seeds.add(info["seed"])
    assert seeds <= set(example.TRAIN_SEEDS) and len(seeds) > 20
    obs, _ = env.reset()
    assert obs.dtype == np.float32 and obs.min() >= 0.0 and obs.max() <= 1.0
    assert env.observation_space.contains(obs)
    env.close()


def test_the_scaler_maps_each_bound_to_0_and_1(example):
    space = gym.make(example.ENV_ID).observation_space
    low = {k: getattr(s, "low", np.zeros(s.shape, np.int8)) for k, s in space.items()}
    high = {k: getattr(s, "high", np.ones(s.shape, np.int8)) for k, s in space.items()}
    scale = example.scaler()
    assert scale(low).shape == (285,)  # every entry of the Dict, flattened
    assert np.allclose(scale(low), 0.0, atol=1e-6) and np.allclose(scale(high), 1.0, atol=1e-6)
    obs, _ = gym.make(example.ENV_ID).reset(seed=7)
    x = scale(obs)
    # flattened in key order: bays 14, hatches 21, hold 168, queue 12, then status at 215
    status = x[215:223]
    assert status[1] == pytest.approx(1 / 197)  # voyage 1 of 0..197
    assert status[3] == pytest.approx(0.5)  # trim 0 of -302..302
    assert status[7] == pytest.approx(0.0)  # castOffSafe null (-1) of -1..1


@pytest.mark.slow
def test_the_default_run_beats_random_by_far(example):
    results = example.main([])
    assert np.mean(results["maskable-ppo"]) > 3 * np.mean(results["random"])
