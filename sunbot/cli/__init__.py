"""The ``sunbot`` command (typer + rich): thin commands over :mod:`sunbot.api` and the
library, one module per command (``play``, ``play_match``, ``transcripts``, ``rules``,
``probe``, ``bench``, ``tournament``, ...), one console and exit-code enum (``console``),
log options (``log``), stop signals (``signals``). :func:`run_cli` is the entry point;
the typer ``app`` lives in :mod:`sunbot.cli.main` (imported on first use, so importing a command
module does not load every other)."""

from __future__ import annotations

import sys
from typing import Any


def run_cli() -> None:
    """Run the ``sunbot`` command line (:func:`sunbot.cli.main.main`); the console script's
    entry point (not named ``main``: that name is the submodule's once it is loaded). A
    Ctrl-C while the command's modules load (about half a second) ends with one line and
    exit code 130, not with a traceback."""
    try:
        from sunbot.cli.main import main as run
    except KeyboardInterrupt:
        sys.stderr.write("sunbot: interrupted while starting\n")
        raise SystemExit(130) from None
    run()


def __getattr__(name: str) -> Any:
    """``sunbot.cli.app``: the typer app, on first use (PEP 562)."""
    if name == "app":
        from sunbot.cli.main import app

        return app
    raise AttributeError(f"module 'sunbot.cli' has no attribute {name!r}")
