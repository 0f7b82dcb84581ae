"""examples/train_keelhold.py trains, and its policy, wrapped as a strategy, runs in
``sunbot bench`` as a bot file (examples/keelhold_trained_bot.py:TrainedKeelhold)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("scipy")

from typer.testing import CliRunner  # noqa: E402

from sunbot.cli.main import app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BOT = f"{EXAMPLES / 'keelhold_trained_bot.py'}:TrainedKeelhold"


@pytest.fixture
def example_modules(monkeypatch):
    """The example's modules importable as the training script imports them."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    yield
    for name in ("keelhold_trained_bot", "train_keelhold"):
        sys.modules.pop(name, None)


def bench(tmp_path: Path, *args: str) -> dict[str, list[tuple[int, int, str, int]]]:
    """Run ``sunbot bench keelhold ARGS`` (one worker); rows per strategy, by seed."""
    out = tmp_path / "out"
    res = CliRunner().invoke(
        app, ["bench", "keelhold", *args, "--workers", "1", "--out", str(out), "--run", "r"]
    )
    assert res.exit_code == 0, res.output
    rows: dict[str, list[tuple[int, int, str, int]]] = {}
    query = "SELECT strategy, seed, score, ended_by, refused, error FROM results ORDER BY seed"
    for strategy, seed, score, ended_by, refused, error in (
        sqlite3.connect(out / "bench.sqlite").execute(query).fetchall()
    ):
        assert error is None, error
        rows.setdefault(strategy, []).append((seed, score, ended_by, refused))
    return rows


def test_the_tiny_run_trains_and_its_policy_runs_in_sunbot_bench(
    example_modules, tmp_path, monkeypatch
):
    import train_keelhold
    from keelhold_trained_bot import LinearPolicy

    weights_file = tmp_path / "policy.json"
    assert train_keelhold.main(["--tiny", "--out", str(weights_file)]) == 0
    weights = json.loads(weights_file.read_text())["weights"]
    assert len(weights) == 11
    monkeypatch.setenv("SUNBOT_KEELHOLD_POLICY", str(weights_file))
    rows = bench(tmp_path, "-s", BOT, "--seeds", "3-4", "--cap", "voyages=1")[BOT]
    env = gym.make("sunbot/Keelhold-v1", max_voyages=1)
    for seed, score, ended_by, refused in rows:
        assert ended_by in ("rules", "cap") and refused == 0
        # bench's run scores what the same policy scores on the environment
        assert score == train_keelhold.episode_return(env, LinearPolicy(weights), seed)
    env.close()


def test_the_shipped_policy_beats_random_on_held_out_seeds(tmp_path):
    # training used seeds 1..16
    rows = bench(tmp_path, "-s", BOT, "-s", "random", "--seeds", "5001-5010", "--cap", "voyages=2")
    trained = [score for _, score, _, _ in rows[BOT]]
    rand = [score for _, score, _, _ in rows["random"]]
    assert len(trained) == len(rand) == 10
    assert sum(trained) > 3 * sum(rand)
