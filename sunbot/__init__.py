"""sunbot: play the Gameboard agent games well, reliably and fast.

Layers (see ``docs/architecture.md``): pure rules engines (``sunbot.engines``), a local
Gameboard-compatible server (``sunbot.server``), an async client (``sunbot.client``), the
mirror that re-checks every server response (``sunbot.mirror``), the runner that plays one
run (``sunbot.runner``), transcripts and the ``sunbot`` command line (``sunbot.cli``).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("sunbot")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+local"

__all__ = ["__version__"]
