"""The long-run example (examples/long-run): its config passes the commands' own checks and
its compose file runs options the bench has, so neither drifts from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.main import get_command

from sunbot.cli.config import option_specs
from sunbot.cli.main import app
from sunbot.config import load_settings

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "long-run"


def test_the_example_config_is_valid_for_the_commands():
    specs = option_specs(typer.Context(get_command(app)))
    settings, secrets = load_settings(None, specs, environ={}, cwd=EXAMPLE)
    assert settings.config is not None and secrets == []
    bench = settings.commands["bench"]
    assert bench["game"].value == "keelhold" and bench["server"].section is None
    assert bench["daily_requests"].value > 0


def test_the_compose_file_runs_the_image_with_options_the_bench_has():
    yaml = pytest.importorskip("yaml")  # PyYAML, which the test extra brings (schemathesis)
    compose = yaml.safe_load((EXAMPLE / "compose.yaml").read_text())
    bench = compose["services"]["bench"]
    keys = {s.key for s in option_specs(typer.Context(get_command(app)))["bench"]}
    flags = [a.lstrip("-") for a in bench["command"] if a.startswith("--")]
    assert bench["command"][0] == "bench" and set(flags) <= keys
    assert bench["environment"]["SUNBOT_CONFIG"] == "/config/sunbot.toml"
    assert "sunbot-data:/data" in bench["volumes"]
    assert compose["services"]["gameboard"]["build"] == "../.."
