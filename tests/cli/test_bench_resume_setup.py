"""``sunbot bench --resume`` keeps one run's ``search`` rows to one forward model and one
set of search options: a resume with another model is refused in one line, nothing run."""

from __future__ import annotations

import csv
from pathlib import Path

from typer.testing import CliRunner

from sunbot.cli import app
from tests.forward.conftest import MODELS, unseen_url  # noqa: F401 (a fixture)

runner = CliRunner()


def _bench(url: str, out: Path, model: str, seeds: str, *more: str) -> tuple[int, str]:
    res = runner.invoke(
        app, ["bench", "take-away", "--server", url, "-s", "search", "--engine",
              f"{MODELS}:{model}", "--seeds", seeds, "--run", "mix", "--out", str(out),
              "--workers", "1", *more],
    )  # fmt: skip
    return res.exit_code, " ".join(res.output.split())


def test_a_resume_with_another_model_is_refused(unseen_url: str, tmp_path: Path) -> None:  # noqa: F811
    code, text = _bench(unseen_url, tmp_path, "TakeAway", "1-2")
    assert code == 0, text
    code, text = _bench(unseen_url, tmp_path, "BrokenTakeAway", "1-4", "--resume")
    assert code == 2, text
    assert "run 'mix' holds search rows played with --engine 'TakeAway (sha256" in text
    assert "not 'BrokenTakeAway (sha256" in text and "choose another --run" in text
    rows = list(csv.DictReader((tmp_path / "mix" / "results.csv").open()))
    assert sorted(int(r["seed"]) for r in rows) == [1, 2]  # nothing ran, nothing pooled
    code, text = _bench(unseen_url, tmp_path, "TakeAway", "1-3", "--resume")  # the same model
    assert code == 0 and "2 already stored, 1 to run" in text, text
