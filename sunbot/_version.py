"""The installed sunbot's version, for the layers below the package's face.

The transcript writer, the bench's job rows and the local server stamp it on what they
write; they import it from here so that none of them imports ``sunbot`` itself (the face,
which reaches the API and everything under it).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("sunbot")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+local"
