"""The certificate ``sunbot certify`` writes beside a model file that passed.

``models/maze.py`` gets ``models/maze.certificate.json``: one entry per (class, game) that
passed, each with the file's SHA-256 at the time, the server and seeds it was checked on and
the agreement figures. A run that loads the model looks its entry up
(:func:`find`); an entry whose hash is not the file's current one is stale and not used, so
a run records a model as certified only when that very file passed.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from sunbot._text.atomic_write import write_atomic

log = logging.getLogger("sunbot.forward")

#: The ``type`` of a certificate file.
KIND = "sunbot-forward-model-certificates"


def path_for(model_file: Path) -> Path:
    """The certificate file of ``model_file``: ``name.certificate.json`` beside it."""
    return model_file.with_name(f"{model_file.stem}.certificate.json")


def _entries(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        log.info("certificate %s not read: %s", path, exc)
        return []
    entries = data.get("certificates") if isinstance(data, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def find(model_file: Path, name: str, sha256: str | None, game: str) -> dict[str, Any] | None:
    """The certificate entry of class ``name`` for ``game`` whose hash is ``sha256`` (the
    file's current one), or ``None`` (none written, or the file changed since)."""
    if sha256 is None:
        return None
    for entry in _entries(path_for(model_file)):
        if entry.get("class") == name and entry.get("game") == game:
            return entry if entry.get("sha256") == sha256 else None
    return None


def write(model_file: Path, entry: dict[str, Any]) -> Path:
    """Add ``entry`` (``class``, ``game``, ``sha256`` and the figures) to the certificate
    file of ``model_file``, replacing the entry of the same class and game.

    Raises:
        sunbot._text.atomic_write.WriteFailed: the file cannot be written.
    """
    path = path_for(model_file)
    kept = [
        e
        for e in _entries(path)
        if not (e.get("class") == entry.get("class") and e.get("game") == entry.get("game"))
    ]
    body = {"type": KIND, "certificates": [*kept, entry]}
    write_atomic(path, json.dumps(body, indent=2, sort_keys=True) + "\n")
    return path


__all__ = ["KIND", "find", "path_for", "write"]
