"""The certificate ``sunbot certify`` writes beside a model file that passed, signed.

``models/maze.py`` gets ``models/maze.certificate.json``: one entry per (class, game) that
passed, each with the file's SHA-256 at the time, the server and seeds it was checked on, the
agreement figures and a ``signature``: an HMAC-SHA256 (``cryptography``) of the rest of the
entry under a secret key of this user's sunbot, ``certificate.key`` in its state folder
(:func:`sunbot._state.state_dir`; 32 random bytes, made on the first signature, owner-only).

A run that loads the model looks its entry up (:func:`find`). An entry whose hash is not the
file's current one is stale and not used, so a run records a model as certified only when
that very file passed. An entry whose signature does not verify under the key (hand-written,
edited, planted by a model's code, written by another user's sunbot, or from a sunbot that
did not sign yet) is refused with one line (:attr:`Lookup.refused`) and the model is
recorded as uncertified.

What a certificate covers: the bytes of the one model file, not other files the model
loads. What it proves: that this user's sunbot wrote it (it is tamper-evident per user),
not anything to someone else, who cannot check the signature.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac

from sunbot._state import state_dir
from sunbot._text.atomic_write import WriteFailed, write_atomic

log = logging.getLogger("sunbot.forward")

#: The ``type`` of a certificate file.
KIND = "sunbot-forward-model-certificates"
#: The field of an entry holding its signature, ``hmac-sha256:HEX``.
SIGNATURE = "signature"
#: The key file's name in the state folder.
KEY_NAME = "certificate.key"
_SCHEME = "hmac-sha256:"
#: Bound to every signature, so no other HMAC of this key passes for a certificate's.
_DOMAIN = b"sunbot forward-model certificate v1\n"
_KEY_BYTES = 32


class KeyUnusable(OSError):
    """The certificate key file cannot be read or made, or does not hold a key."""


@dataclass(frozen=True)
class Lookup:
    """What :func:`find` found: the ``entry`` honoured (signed by this sunbot, for this very
    file), or ``None``; ``refused`` is the one line saying why an entry for the file was not
    honoured (``None`` when there was nothing to refuse)."""

    entry: dict[str, Any] | None
    refused: str | None = None


def key_file() -> Path:
    """``certificate.key`` in sunbot's state folder: the secret certificates are signed
    with. Never in a transcript, a log or the project tree."""
    return state_dir() / KEY_NAME


def path_for(model_file: Path) -> Path:
    """The certificate file of ``model_file``: ``name.certificate.json`` beside it."""
    return model_file.with_name(f"{model_file.stem}.certificate.json")


def _parse_key(raw: bytes, path: Path) -> bytes:
    try:
        key = bytes.fromhex(raw.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != _KEY_BYTES:
        raise KeyUnusable(f"{path} holds no certificate key (delete it to make a new one;"
                          " certificates signed with it are then no longer honoured)")  # fmt: skip
    return key


def _make_key(path: Path) -> bytes:
    """A new key written to ``path`` owner-only (mode 0600), or the key another process
    wrote there first."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_bytes(_KEY_BYTES)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(key.hex().encode("ascii") + b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)  # never over a key already there: a race keeps the first
        except FileExistsError:
            return _parse_key(path.read_bytes(), path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return key


def load_key(*, create: bool) -> bytes | None:
    """This user's certificate key (:func:`key_file`); ``None`` when there is none yet and
    ``create`` is false.

    Raises:
        KeyUnusable: the key file cannot be read or made, or holds no key.
    """
    path = key_file()
    try:
        return _parse_key(path.read_bytes(), path)
    except FileNotFoundError:
        if not create:
            return None
    except OSError as exc:
        if isinstance(exc, KeyUnusable):
            raise
        raise KeyUnusable(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        return _make_key(path)
    except OSError as exc:
        if isinstance(exc, KeyUnusable):
            raise
        raise KeyUnusable(f"{path} cannot be made: {exc.strerror or exc}") from None


def _mac(key: bytes, entry: dict[str, Any]) -> hmac.HMAC:
    body = {k: v for k, v in entry.items() if k != SIGNATURE}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(_DOMAIN + text.encode("ascii"))
    return mac


def sign(entry: dict[str, Any], key: bytes) -> dict[str, Any]:
    """``entry`` (JSON values only) with its ``signature`` under ``key``."""
    return {**entry, SIGNATURE: _SCHEME + _mac(key, entry).finalize().hex()}


def verify(entry: dict[str, Any], key: bytes | None) -> bool:
    """Whether ``entry``'s signature is ``key``'s over the rest of it (compared in constant
    time); ``False`` without a key or a signature."""
    signature = entry.get(SIGNATURE)
    if key is None or not isinstance(signature, str) or not signature.startswith(_SCHEME):
        return False
    try:
        _mac(key, entry).verify(bytes.fromhex(signature.removeprefix(_SCHEME)))
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


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


def refusal(path: Path, why: str = "not signed by this sunbot") -> str:
    """The one line of a certificate not honoured."""
    return f"certificate {path} not valid ({why}): model unchecked"


def find(model_file: Path, name: str, sha256: str | None, game: str) -> Lookup:
    """The signed certificate entry of class ``name`` for ``game`` whose hash is ``sha256``
    (the file's current one): :class:`Lookup` of it; of ``None`` when none was written or the
    file changed since; of ``None`` and the line saying so when the entries for this very
    file do not verify (module doc)."""
    if sha256 is None:
        return Lookup(None)
    path = path_for(model_file)
    mine = [
        e
        for e in _entries(path)
        if e.get("class") == name and e.get("game") == game and e.get("sha256") == sha256
    ]
    if not mine:
        return Lookup(None)
    try:
        key = load_key(create=False)
    except KeyUnusable as exc:
        return Lookup(None, refusal(path, f"not checked: {exc}"))
    for entry in mine:
        if verify(entry, key):
            return Lookup(entry)
    return Lookup(None, refusal(path))


def write(model_file: Path, entry: dict[str, Any]) -> Path:
    """Sign ``entry`` (``class``, ``game``, ``sha256`` and the figures) and put it in the
    certificate file of ``model_file``, in place of the entry of the same class and game.
    Entries of other classes or games are kept only when their signature verifies.

    Raises:
        sunbot._text.atomic_write.WriteFailed: the file (or the key) cannot be written.
    """
    path = path_for(model_file)
    try:
        key = load_key(create=True)
    except KeyUnusable as exc:
        raise WriteFailed(key_file(), exc) from None
    assert key is not None
    same = (entry.get("class"), entry.get("game"))
    kept = [e for e in _entries(path) if (e.get("class"), e.get("game")) != same and verify(e, key)]
    body = {"type": KIND, "certificates": [*kept, sign(entry, key)]}
    write_atomic(path, json.dumps(body, indent=2, sort_keys=True) + "\n")
    return path


def withdraw(model_file: Path, name: str, game: str) -> Path | None:
    """After ``name`` diverged on ``game``: drop its entry and every entry that does not
    verify from the certificate file of ``model_file``, removing the file when none is
    left. Returns the file when it changed, else ``None``; when the key cannot be read,
    only the entry of ``name`` and ``game`` goes.

    Raises:
        sunbot._text.atomic_write.WriteFailed: the file cannot be rewritten or removed.
    """
    path = path_for(model_file)
    entries = _entries(path)
    if not entries and not path.exists():
        return None
    try:
        key = load_key(create=False)
        keep = [e for e in entries if verify(e, key)]
    except KeyUnusable:
        keep = entries
    kept = [e for e in keep if (e.get("class"), e.get("game")) != (name, game)]
    if kept == entries:
        return None
    if not kept:
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            raise WriteFailed(path, exc) from None
        return path
    write_atomic(path, json.dumps({"type": KIND, "certificates": kept}, indent=2, sort_keys=True)
                 + "\n")  # fmt: skip
    return path


__all__ = [
    "KEY_NAME",
    "KIND",
    "SIGNATURE",
    "KeyUnusable",
    "Lookup",
    "find",
    "key_file",
    "load_key",
    "path_for",
    "refusal",
    "sign",
    "verify",
    "withdraw",
    "write",
]
