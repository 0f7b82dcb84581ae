"""The ``sunbot`` command (typer + rich): thin commands over :mod:`sunbot.api` and the
library, one module per command (``play``, ``play_match``, ``transcripts``, ``rules``,
``probe``, ``bench``, ``tournament``, ...), one console and exit-code enum (``console``),
log options (``log``), stop signals (``signals``). ``main`` is the entry point; the typer
``app`` lives in :mod:`sunbot.cli.main` (imported on first use, so importing a command
module does not load every other)."""

from __future__ import annotations

from typing import Any


def main() -> None:
    """Run the ``sunbot`` command line (:func:`sunbot.cli.main.main`)."""
    from sunbot.cli.main import main as run

    run()


def __getattr__(name: str) -> Any:
    """``sunbot.cli.app``: the typer app, on first use (PEP 562)."""
    if name == "app":
        from sunbot.cli.main import app

        return app
    raise AttributeError(f"module 'sunbot.cli' has no attribute {name!r}")
