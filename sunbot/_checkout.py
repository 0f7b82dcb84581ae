"""``sunbot.strategies`` from a source checkout that is not installed as such.

The built-in strategies live in the checkout's top-level ``strategies/`` folder; an install
(``pip install .``, or ``-e .``) makes it ``sunbot.strategies`` (pyproject's
``package-dir``). Run from a checkout whose ``sunbot/`` is imported from the checkout itself
(``pytest`` or ``python -m sunbot`` in it, beside a regular install or none), nothing puts
the folder there: :func:`find_checkout_strategies` adds a finder that does, for that one
name. It is the last finder asked, so an install's copy always wins.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

NAME = "sunbot.strategies"


class CheckoutStrategies(importlib.abc.MetaPathFinder):
    """Finds :data:`NAME` in ``folder`` (its ``__init__.py``; submodules beside it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of :data:`NAME` from :attr:`folder`; ``None`` for any other module."""
        if fullname != NAME:
            return None
        return importlib.util.spec_from_file_location(
            fullname, self.folder / "__init__.py", submodule_search_locations=[str(self.folder)]
        )


def find_checkout_strategies(package: Path) -> bool:
    """Add a :class:`CheckoutStrategies` finder, last on ``sys.meta_path``, when ``package``
    (the ``sunbot/`` folder imported) has no ``strategies`` beside its modules and sits in a
    checkout (a ``pyproject.toml`` and ``strategies/__init__.py`` beside it). Returns whether
    it was added (once per process)."""
    root = package.parent
    folder = root / "strategies"
    if (package / "strategies").is_dir() or not (folder / "__init__.py").is_file():
        return False
    if not (root / "pyproject.toml").is_file():
        return False
    if any(isinstance(f, CheckoutStrategies) for f in sys.meta_path):
        return False
    sys.meta_path.append(CheckoutStrategies(folder))
    return True
