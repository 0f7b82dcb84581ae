"""examples/train_keelhold.py trains, and its policy plays as a strategy in bench's jobs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("scipy")

from sunbot import strategies
from sunbot.bench.jobs import Job, run_job

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def example_bot(monkeypatch):
    """The example bot importable and registered as the Keelhold strategy ``trained``."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    builtin = {**strategies.BUILTIN, "keelhold": dict(strategies.BUILTIN["keelhold"])}
    builtin["keelhold"]["trained"] = "keelhold_bot:TrainedKeelhold"
    monkeypatch.setattr(strategies, "BUILTIN", builtin)
    yield
    for name in ("keelhold_bot", "train_keelhold"):
        sys.modules.pop(name, None)


def test_the_tiny_run_trains_and_its_policy_plays_in_bench_jobs(example_bot, tmp_path, monkeypatch):
    import gymnasium as gym
    import train_keelhold
    from keelhold_bot import LinearPolicy

    out = tmp_path / "policy.json"
    assert train_keelhold.main(["--tiny", "--out", str(out)]) == 0
    weights = json.loads(out.read_text())["weights"]
    assert len(weights) == 11
    monkeypatch.setenv("SUNBOT_KEELHOLD_POLICY", str(out))
    env = gym.make("sunbot/Keelhold-v0", max_voyages=1)
    for seed in (3, 4):
        row = run_job(Job("keelhold", "trained", seed, cap=1))
        assert row.ended_by != "error", row.error
        assert row.refused == 0 and row.decisions > 0
        # the same policy on the environment scores the same
        expected = train_keelhold.episode_return(env, LinearPolicy(weights), seed)
        assert row.score == expected
    env.close()


def test_the_shipped_policy_beats_random_on_held_out_seeds(example_bot):
    seeds = range(5001, 5011)  # training used seeds 1..16
    trained = [run_job(Job("keelhold", "trained", s, cap=2)).score for s in seeds]
    rand = [run_job(Job("keelhold", "random", s, cap=2)).score for s in seeds]
    assert sum(trained) > 3 * sum(rand)
