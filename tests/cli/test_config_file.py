"""The config file (issue 38): every option's default from ``sunbot.toml`` or ``--config``,
a wrong key or type as one line naming the file, line and key, secrets only by reference
and never shown."""

from __future__ import annotations

import json
import os

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from sunbot.cli.config import option_specs
from sunbot.cli.main import app
from sunbot.config import load_settings
from sunbot.config.options import _field_type

runner = CliRunner()
SECRET = "sk-never-shown-0123456789abcdef"


def _one_line_error(res, *needles: str) -> str:
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A working folder of its own, with no config named by the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SUNBOT_CONFIG", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # restored after the test
    return tmp_path


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ('[bench]\nworkers = "two"\n', ["sunbot.toml:2: [bench] workers:", "valid integer"]),
        ("# runs\n[bench]\nwokers = 2\n", ["sunbot.toml:3: [bench] wokers:", "did you mean workers"]),
        ("[bench]\n\nworkers = 500\n", ["sunbot.toml:3: [bench] workers:", "less than or equal to 64"]),
        ('seeds = "1-x"\n', ["sunbot.toml:1: seeds:", "'1-x' is not a seed", "as for sunbot bench"]),
        ("[bnech]\nworkers = 2\n", ["sunbot.toml:1: bnech: not a sunbot command (did you mean bench?)"]),
        ('[play]\nstrict = "yes"\n', ["sunbot.toml:2: [play] strict:", "valid boolean"]),
        ('[bench]\nbackend = "mars"\n', ["sunbot.toml:2: [bench] backend:", "'local' or 'ray'"]),
        ("[bench]\nstrategy = [1]\n", ["sunbot.toml:2: [bench] strategy[0]:", "valid string"]),
        ("bench.workers = 1.5\n", ["sunbot.toml:1: [bench] workers:", "valid integer"]),
        ("[bench]\nworkers = \n", ["sunbot.toml:2: not valid TOML"]),
        ('OPENAI_API_KEY = "sk-1"\n', ["sunbot.toml:1: OPENAI_API_KEY:", "secrets go in [secrets]"]),
        ('[secrets]\nOPENAI_API_KEY = "sk-1"\n', ["sunbot.toml:2: [secrets] OPENAI_API_KEY:", "never written in the file"]),
        ('server = "https://me:hunter22@gb.example"\n', ["sunbot.toml:1: server: a password in a URL"]),
        ('[mcp]\ntoken = "hunter22-hunter22-x"\n', ["sunbot.toml:2: [mcp] token: a secret", "SUNBOT_MCP_TOKEN"]),
        ('token = "hunter22-hunter22-x"\n', ["sunbot.toml:1: token: a secret"]),
        ('[play]\nllm-url = "http://h/v1?api_key=hunter22"\n', ["sunbot.toml:2: [play] llm-url:", "carries a credential"]),
        ('[play]\nstrategy = "exec:curl -H \'Authorization: Bearer hunter22hunter22\' x"\n', ["sunbot.toml:2: [play] strategy:", "carries a credential"]),
        ('[bench]\nstrategy = ["random", "exec:bot --key sk-hunter22hunter22hunter22"]\n', ["sunbot.toml:2: [bench] strategy:", "carries a credential"]),
    ],
)  # fmt: skip
def test_a_wrong_key_or_value_is_one_line_naming_file_line_and_key(here, text, needles):
    (here / "sunbot.toml").write_text(text)
    line = _one_line_error(runner.invoke(app, ["games"]), *needles)
    assert "sk-1" not in line and "hunter22" not in line


def test_every_option_of_every_command_takes_its_own_default_from_the_file(here):
    """Generic over the options: any option a command has (one added later too) can be
    set in the file, and its built-in default passes the file's checks."""
    group = get_command(app)
    specs = option_specs(typer.Context(group))
    assert {"play", "bench", "tournament", "serve", "replay", "status"} <= set(specs)
    for command, options in specs.items():
        values = {}
        for spec in options:
            default = spec.default
            if default is None or default == () or spec.key in ("version",):
                continue
            value = getattr(default, "value", default)
            values[spec.key] = str(value) if _field_type(spec.annotation) is str else value
        if not values:
            continue
        (here / "sunbot.toml").write_text(f"[{command}]\n" + "".join(
            f"{k} = {json.dumps(v)}\n" for k, v in values.items()
        ))  # fmt: skip
        settings, _ = load_settings(None, specs, environ={}, cwd=here)
        assert set(settings.commands[command]) == {s.name for s in options if s.key in values}, (
            command
        )


def test_the_file_gives_defaults_and_the_command_line_wins(here):
    (here / "run.toml").write_text(
        "max-days = 2\n[play]\nseed = 5\nquiet = true\nno-transcript = true\n"
    )
    res = runner.invoke(app, ["play", "naptuft", "--json", "--config", "run.toml"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["seed"] == 5 and summary["endedBy"] == "cap" and summary["transcript"] is None
    given = runner.invoke(
        app, ["play", "naptuft", "--json", "--seed", "5", "--max-days", "2", "--no-transcript"]
    )
    assert json.loads(given.output)["steps"] == summary["steps"]  # max-days = 2 applied
    res = runner.invoke(app, ["--config", "run.toml", "play", "naptuft", "--json", "--seed", "9"])
    assert json.loads(res.output)["seed"] == 9
    assert not (here / "transcripts").exists()  # no-transcript = true came from the file


def test_sunbot_toml_in_the_working_folder_and_sunbot_config(here, monkeypatch):
    (here / "sunbot.toml").write_text("[play]\nseed = 11\nno-transcript = true\n")
    res = runner.invoke(app, ["play", "naptuft", "--json", "--max-days", "1"])
    assert json.loads(res.output)["seed"] == 11
    (here / "other.toml").write_text("[play]\nseed = 12\nno-transcript = true\n")
    monkeypatch.setenv("SUNBOT_CONFIG", str(here / "other.toml"))
    res = runner.invoke(app, ["play", "naptuft", "--json", "--max-days", "1"])
    assert json.loads(res.output)["seed"] == 12
    monkeypatch.setenv("SUNBOT_CONFIG", str(here / "gone.toml"))
    _one_line_error(
        runner.invoke(app, ["games"]), "gone.toml: no such file (given by $SUNBOT_CONFIG)"
    )


def test_config_show_masks_secrets(here, monkeypatch):
    key = here / "openai.key"
    key.write_text(SECRET + "\n")
    key.chmod(0o600)
    (here / "sunbot.toml").write_text(
        'server = "http://127.0.0.1:9"\n[bench]\nworkers = 2\n\n'
        '[secrets]\nOPENAI_API_KEY = { file = "openai.key" }\n'
    )
    monkeypatch.setenv("OPENAI_BASE_URL", "http://user:pa55word@llm.example/v1")
    res = runner.invoke(app, ["config", "show"])
    assert res.exit_code == 0, res.output
    text = res.output
    assert SECRET not in text and "pa55word" not in text
    assert 'OPENAI_API_KEY = "***"  # from file openai.key, 31 characters' in text
    assert "workers = 2 # sunbot.toml:3" in " ".join(text.split())
    assert "http://user:***@llm.example/v1" in text
    assert os.environ["OPENAI_API_KEY"] == SECRET  # handed to the run, not shown
    shown = runner.invoke(app, ["config", "show", "bench", "--json"])
    data = json.loads(shown.output)
    assert data["secrets"]["OPENAI_API_KEY"]["value"] == "***"
    assert data["commands"]["bench"]["workers"] == {"value": 2, "from": "sunbot.toml:3"}
    assert data["commands"]["bench"]["backend"] == {"value": "local", "from": "built-in"}
    assert SECRET not in shown.output


def test_the_environment_wins_over_a_secret_reference(here, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment-000")
    (here / "sunbot.toml").write_text('[secrets]\nOPENAI_API_KEY = { env = "OTHER_KEY" }\n')
    res = runner.invoke(app, ["config", "show", "--json"])
    assert json.loads(res.output)["secrets"]["OPENAI_API_KEY"]["from"] == "environment"
    assert os.environ["OPENAI_API_KEY"] == "sk-from-the-environment-000"


def test_an_absent_secret_is_a_warning_and_other_commands_run(here, monkeypatch):
    # a secret's source that is absent stops only what needs it: `games` runs, with one
    # warning line naming the file, line and secret, and `config show` says 0 characters
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("NOT_SET_KEY_VAR", raising=False)
    (here / "sunbot.toml").write_text(
        '[secrets]\nOPENAI_API_KEY = { file = "none.key" }\n'
        'SUNBOT_MCP_TOKEN = { env = "NOT_SET_KEY_VAR" }\n'
    )
    res = runner.invoke(app, ["config", "show", "--json"])
    assert res.exit_code == 0, res.output
    warnings = [line for line in res.output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 2
    assert (
        "sunbot.toml:2: [secrets] OPENAI_API_KEY:" in warnings[0]
        and "does not exist" in warnings[0]
    )
    assert "sunbot.toml:3: [secrets] SUNBOT_MCP_TOKEN:" in warnings[1]
    assert "NOT_SET_KEY_VAR is not set" in warnings[1]
    shown = json.loads(
        "\n".join(line for line in res.output.splitlines() if not line.startswith("warning:"))
    )
    assert shown["secrets"]["OPENAI_API_KEY"]["characters"] == 0
    assert shown["secrets"]["OPENAI_API_KEY"]["value"] == "(not set)"
    assert "OPENAI_API_KEY" not in os.environ and "SUNBOT_MCP_TOKEN" not in os.environ


def test_an_unreadable_secret_file_is_one_line(here):
    (here / "none.key").mkdir()
    (here / "sunbot.toml").write_text('[secrets]\nOPENAI_API_KEY = { file = "none.key" }\n')
    _one_line_error(
        runner.invoke(app, ["games"]),
        "sunbot.toml:2: [secrets] OPENAI_API_KEY:",
        "not a regular file",
    )


def test_a_secret_file_others_may_read_is_a_warning_naming_the_line(here, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    key = here / "open.key"
    key.write_text(SECRET + "\n")
    key.chmod(0o644)
    (here / "sunbot.toml").write_text('[secrets]\nOPENAI_API_KEY = { file = "open.key" }\n')
    res = runner.invoke(app, ["config", "show"])
    assert res.exit_code == 0, res.output
    (warning,) = [line for line in res.output.splitlines() if line.startswith("warning:")]
    assert "sunbot.toml:2: [secrets] OPENAI_API_KEY:" in warning
    assert "open.key is readable by others: chmod 600 it" in warning
    assert SECRET not in res.output


def test_a_secret_file_holding_a_nul_byte_is_one_line(here):
    nul = here / "nul.key"
    nul.write_bytes(b"sk-abc\x00def\n")
    nul.chmod(0o600)
    (here / "sunbot.toml").write_text('[secrets]\nOPENAI_API_KEY = { file = "nul.key" }\n')
    line = _one_line_error(
        runner.invoke(app, ["games"]), "sunbot.toml:2: [secrets] OPENAI_API_KEY:"
    )
    assert "holds a NUL byte" in line and "sk-abc" not in line
