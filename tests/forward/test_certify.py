"""``certify``: a deliberately broken model flagged at its first divergence, correct models
passing with 0 divergences on 20 seeds, on the unseen test server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sunbot.certify.check import certify
from sunbot.cli.main import app
from tests.forward.conftest import MODELS


def test_the_broken_take_away_model_is_flagged_where_it_first_diverges(unseen_url: str) -> None:
    report = certify("take-away", f"{MODELS}:BrokenTakeAway", server=unseen_url, seeds=[1, 2])
    assert not report.passed
    first = report.first[0]
    # seed 1: a pile of 6; first takes 1, the house takes 1 (5 % 4), first takes 1, and the
    # house takes the last 3 (3 % 4): the broken model says the house always takes one
    assert (first.seed, first.policy, first.divergence.step) == (1, "first", 2)
    assert (first.divergence.path, first.divergence.expected, first.divergence.got) == (
        "observation.pile",
        2,
        0,
    )


GAMES = [("take-away", "TakeAway"), ("tic-tac-toe", "TicTacToe"), ("hidden-number", "HiddenNumber")]


@pytest.mark.parametrize(("game", "name"), GAMES)
def test_correct_models_pass(unseen_url: str, game: str, name: str) -> None:
    report = certify(game, f"{MODELS}:{name}", server=unseen_url, seeds=range(1, 4))
    assert report.passed, (game, [str(f) for f in report.first[:3]])
    assert report.trajectories == 6
    assert report.predictions > 6
    # the unseen server's extra envelope fields are no part of the observation
    assert report.unpredicted == set()


@pytest.mark.slow
@pytest.mark.parametrize(("game", "name"), GAMES)
def test_correct_models_pass_on_twenty_seeds(unseen_url: str, game: str, name: str) -> None:
    report = certify(game, f"{MODELS}:{name}", server=unseen_url, seeds=range(1, 21))
    assert report.passed, (game, [str(f) for f in report.first[:3]])
    assert (report.trajectories, report.divergences) == (40, 0)


def test_the_command_prints_the_agreement_and_writes_the_certificate(
    unseen_url: str, tmp_path: Path
) -> None:
    model = tmp_path / "take_away.py"
    model.write_text(Path(MODELS).read_text())
    runner = CliRunner()
    broken = runner.invoke(app, ["certify", "take-away", "--engine", f"{model}:BrokenTakeAway",
                                 "--server", unseen_url, "--seeds", "1-3"])  # fmt: skip
    assert broken.exit_code == 3, broken.output
    assert "seed 1 first step 2: observation.pile: model 2, server 0" in broken.output
    assert not (tmp_path / "take_away.certificate.json").exists()
    good = runner.invoke(app, ["certify", "take-away", "--engine", f"{model}:TakeAway",
                               "--server", unseen_url, "--seeds", "1-3", "--json"])  # fmt: skip
    assert good.exit_code == 0, good.output
    figures = json.loads(good.output)
    assert (figures["passed"], figures["divergences"], figures["trajectories"]) == (True, 0, 6)
    entry = json.loads((tmp_path / "take_away.certificate.json").read_text())["certificates"][0]
    assert (entry["class"], entry["game"], entry["seeds"]) == ("TakeAway", "take-away", "1-3")
    assert entry["sha256"] == figures["model"]["sha256"]


def test_a_bad_engine_is_a_usage_error(unseen_url: str) -> None:
    got = CliRunner().invoke(app, ["certify", "take-away", "--engine", "nope.py:X",
                                   "--server", unseen_url])  # fmt: skip
    assert got.exit_code == 2
    assert "no model file 'nope.py'" in got.output
