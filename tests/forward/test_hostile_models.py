"""A model that exits, raises a ``BaseException`` or answers what no comparison can walk
is one divergence per prediction with a one-line reason, never a silent pass or a crash."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sunbot.certify.check import certify
from sunbot.cli.main import app

HOSTILE = "tests/forward/hostile_models.py"

CASES = [
    ("Exits", "model raised: step: SystemExit: 0"),
    ("RaisesBase", "model raised: step: BaseException"),
    ("RaisesUnprintable", "model raised: step: _Unprintable: <unprintable>"),
    ("RaisesValueError", "model raised: from_observation: ValueError: nope"),
    ("HugeScore", "model's score gave an integer of 16610 bits, not a finite number"),
    ("HugeInt", "model's observation has a number too large (an integer of 16610 bits),"
                " at observation.x"),
    ("HoldsItself", "model's observation gave a value that holds itself, at observation.x"),
    ("IntKeys", "model's observation has a key that is no string (1), at observation.x"),
    ("Deep", "model's observation nests deeper than 100 levels, at observation.x[0][0]"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "reason"), CASES)
def test_a_hostile_model_is_a_divergence_with_its_reason(
    unseen_url: str, name: str, reason: str
) -> None:
    report = certify("take-away", f"{HOSTILE}:{name}", server=unseen_url, seeds=[1],
                     policies=["first"])  # fmt: skip
    assert report.errors == []  # the trajectory was played to its end, not cut short
    assert not report.passed
    assert report.divergences == report.model_errors > 0
    first = report.first[0].divergence
    assert (first.path, first.expected, first.got) == ("model", None, None)
    assert first.note.removeprefix("model: ").startswith(reason), first.note
    assert "\n" not in first.note


def test_the_command_says_the_model_raised_and_exits_3(unseen_url: str) -> None:
    got = CliRunner().invoke(app, ["certify", "take-away", "--engine", f"{HOSTILE}:Exits",
                                   "--server", unseen_url, "--seeds", "1", "--policy", "first",
                                   "--no-certificate"])  # fmt: skip
    assert got.exit_code == 3, got.output
    assert "seed 1 first step 1: model raised: step: SystemExit: 0\n" in got.output
    assert 'server "' not in got.output
    figures = CliRunner().invoke(app, ["certify", "take-away", "--engine",
                                       f"{HOSTILE}:RaisesValueError", "--server", unseen_url,
                                       "--seeds", "1", "--policy", "first", "--json"])  # fmt: skip
    assert figures.exit_code == 3
    first = json.loads(figures.stdout)["firstDivergences"][0]
    assert first["note"] == "model: model raised: from_observation: ValueError: nope"
