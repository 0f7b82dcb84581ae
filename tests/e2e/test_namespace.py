"""The built-in strategies install as ``sunbot.strategies``: a user folder named
``strategies`` (a common name for a bot project's own code) must not shadow them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_python_m_sunbot_runs_beside_a_user_strategies_package(tmp_path: Path) -> None:
    own = tmp_path / "strategies"
    own.mkdir()
    (own / "__init__.py").write_text("raise ImportError('the user project, not sunbot')\n")
    out = tmp_path / "run.jsonl"
    cmd = [sys.executable, "-m", "sunbot", "play", "keelhold", "--seed", "7"]
    cmd += ["--max-voyages", "1", "--quiet", "--transcript", str(out)]
    res = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    result = json.loads(out.read_text().splitlines()[-1])
    assert result["type"] == "result" and result["divergences"] == 0
    assert result["endedBy"] == "cap"


def test_nothing_called_strategies_is_a_top_level_package_of_ours() -> None:
    import sunbot.strategies as ours
    from sunbot.games import GAMES

    assert ours.__name__ == "sunbot.strategies"
    assert "sunbot.strategies.keelhold:SafeGreedy" in GAMES["keelhold"].strategies.values()
