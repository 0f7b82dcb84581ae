"""How the package is installed: every package listed in pyproject, the top-level
``strategies/`` folder as ``sunbot.strategies`` (no link), and a checkout that finds it
without an install of its own."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

from sunbot._checkout import NAME, CheckoutStrategies, find_checkout_strategies
from tests.test_layout import ROOT, modules


def _setuptools() -> dict[str, object]:
    config: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]
    return config


def test_pyproject_lists_every_package_and_maps_the_strategies_folder() -> None:
    config = _setuptools()
    packages = {name for name, path in modules().items() if path.name == "__init__.py"}
    assert sorted(packages) == config["packages"]  # sorted there too, and whole
    assert config["package-dir"] == {"sunbot.strategies": "strategies"}
    assert not (ROOT / "sunbot" / "strategies").exists()  # no link: the folder is mapped


def test_mypy_reads_the_strategies_folder_as_sunbot_strategies() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["packages"] == ["sunbot", "strategies"] and mypy["strict"] is True
    stub = (ROOT / mypy["mypy_path"] / "sunbot" / "strategies.pyi").read_text()
    assert "from strategies import *" in stub


def _checkout(tmp_path: Path, *, strategies: bool = True, pyproject: bool = True) -> Path:
    (tmp_path / "sunbot").mkdir(parents=True)
    if pyproject:
        (tmp_path / "pyproject.toml").write_text("[project]\nname = 'sunbot'\n")
    if strategies:
        (tmp_path / "strategies").mkdir()
        (tmp_path / "strategies" / "__init__.py").write_text("")
    return tmp_path / "sunbot"


def test_the_checkout_finder_answers_for_sunbot_strategies_alone(tmp_path: Path) -> None:
    folder = _checkout(tmp_path).parent / "strategies"
    finder = CheckoutStrategies(folder)
    spec = finder.find_spec(NAME, None)
    assert spec is not None and spec.origin == str(folder / "__init__.py")
    assert spec.submodule_search_locations == [str(folder)]
    assert finder.find_spec("sunbot.strategies_x", None) is None
    assert finder.find_spec("strategies", None) is None  # a user's own package is theirs


def test_the_finder_is_added_once_and_only_in_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    others = [f for f in sys.meta_path if not isinstance(f, CheckoutStrategies)]
    monkeypatch.setattr(sys, "meta_path", list(others))
    assert not find_checkout_strategies(_checkout(tmp_path / "a", pyproject=False))
    assert not find_checkout_strategies(_checkout(tmp_path / "b", strategies=False))
    installed = _checkout(tmp_path / "c")
    (installed / "strategies").mkdir()  # an install: sunbot/strategies is there
    assert not find_checkout_strategies(installed)
    assert sys.meta_path == others
    assert find_checkout_strategies(_checkout(tmp_path / "d"))
    assert not find_checkout_strategies(_checkout(tmp_path / "e"))  # once per process
    assert isinstance(sys.meta_path[-1], CheckoutStrategies)
    assert sys.meta_path[-1].folder == tmp_path / "d" / "strategies"


def test_sunbot_strategies_is_the_top_level_folder() -> None:
    import sunbot.strategies
    import sunbot.strategies.keelhold

    assert Path(sunbot.strategies.__file__) == ROOT / "strategies" / "__init__.py"
    assert Path(sunbot.strategies.keelhold.__file__) == ROOT / "strategies" / "keelhold.py"
