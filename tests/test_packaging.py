"""How the package is installed: every package listed in pyproject, the built-in strategies
as the ``sunbot.strategies`` subpackage, where the folder tree is the import tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.test_layout import ROOT, modules


def _setuptools() -> dict[str, object]:
    config: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]
    return config


def test_pyproject_lists_every_package_and_maps_no_folder() -> None:
    config = _setuptools()
    packages = {name for name, path in modules().items() if path.name == "__init__.py"}
    assert sorted(packages) == config["packages"]  # sorted there too, and whole
    assert "package-dir" not in config  # every import name is its folder


def test_mypy_checks_the_one_package_strictly() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["packages"] == ["sunbot"] and mypy["strict"] is True


def test_sunbot_strategies_is_the_packages_own_folder() -> None:
    import sunbot.strategies
    import sunbot.strategies.keelhold

    assert Path(sunbot.strategies.__file__) == ROOT / "sunbot" / "strategies" / "__init__.py"
    assert (
        Path(sunbot.strategies.keelhold.__file__) == ROOT / "sunbot" / "strategies" / "keelhold.py"
    )
