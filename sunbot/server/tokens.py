"""Opaque, authenticated state tokens (the platform protocol, "The local server").

A token is Fernet (AES-128-CBC + HMAC-SHA256, from ``cryptography``) over the zlib-compressed
JSON of ``{"g": slug, "v": 1, "s": state}``: the server detects any change, a token from
another game is refused, and the hidden parts (Naptuft's seed and deck) stay unreadable. A
fresh IV per token means two tokens of one state differ; decoding gives the same state.

Keys: :class:`TokenCodec` takes one or more Fernet keys (the first encrypts; all decrypt, for
rotation). ``SUNBOT_SERVER_KEYS`` (comma-separated) or a key file supplies them; otherwise a
fresh key is made per server process, so tokens do not outlive it.

A token must be the exact text this server issued: its base64 is decoded strictly
(:func:`_canonical`), since a lenient decoder skips characters outside the alphabet, stops
at the first padding and ignores the unused bits of the last character, so one appended or
changed character would otherwise decode to the same bytes and pass the HMAC.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import zlib
from pathlib import Path
from typing import Any

import orjson
from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from sunbot._state import state_dir

TOKEN_VERSION = 1
#: Largest token accepted, in characters: bounds the work a forged token can cause.
MAX_TOKEN_CHARS = 256_000
#: Largest decompressed payload, in bytes.
MAX_PAYLOAD_BYTES = 4_000_000


def embedded_key_file() -> Path:
    """``$SUNBOT_STATE_DIR/embedded-server.key`` (default ``~/.local/state/sunbot``, or
    ``$XDG_STATE_HOME/sunbot``): the embedded server's token key. A secret: never in a
    transcript, a log or the project tree."""
    return state_dir() / "embedded-server.key"


class BadKey(ValueError):
    """Key material that is not usable (the message never shows the key)."""


class BadToken(ValueError):
    """The token is not one this server issued for this game (or it expired).

    The message never includes the token, the key or the decrypted contents.
    """


def _canonical(token: str) -> bytes | None:
    """``token``'s bytes when it is exactly the url-safe base64 (with padding) of them;
    ``None`` for any other text (a character outside the alphabet, data after the padding,
    missing padding, unused bits set)."""
    try:
        raw = token.encode("ascii")
        blob = base64.urlsafe_b64decode(raw)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        return None
    return raw if base64.urlsafe_b64encode(blob) == raw else None


def _dump(payload: dict[str, Any]) -> bytes:
    """Compact JSON of a token's payload (orjson; the standard library for what orjson
    refuses: a lone surrogate, an integer past 64 bits)."""
    try:
        return orjson.dumps(payload)
    except TypeError:
        return json.dumps(payload, separators=(",", ":")).encode()


def _load(raw: bytes) -> Any:
    """A token's payload from its JSON (what :func:`_dump` wrote either way).

    Raises:
        ValueError: not JSON.
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


class TokenCodec:
    """Encrypts states into tokens and back.

    Args:
        keys: Fernet keys (urlsafe base64, 32 bytes decoded); the first one encrypts.
            ``None`` makes a fresh random key.
        ttl: seconds a token stays valid (``None``: forever).
    """

    def __init__(self, keys: list[bytes] | None = None, ttl: int | None = None) -> None:
        keys = keys or [Fernet.generate_key()]
        fernets = []
        for number, key in enumerate(keys, start=1):
            try:
                fernets.append(Fernet(key))
            except (ValueError, TypeError):
                raise BadKey(
                    f"key {number} is not a Fernet key (32 url-safe base64 bytes)"
                ) from None
        self._fernet = MultiFernet(fernets)
        self._ttl = ttl
        #: Tells codecs apart without showing a key: a digest of the keys and the ttl.
        self.identity = hashlib.sha256(b"\n".join([*keys, str(ttl).encode()])).hexdigest()

    @classmethod
    def embedded(cls) -> TokenCodec:
        """The embedded server's codec: ``SUNBOT_SERVER_KEYS`` if set, else a key kept in
        :func:`embedded_key_file` (created on first use, owner-only), so tokens in a
        transcript stay valid for ``sunbot play --resume`` in a later process."""
        if os.environ.get("SUNBOT_SERVER_KEYS"):
            return cls.from_environment()
        path = embedded_key_file()
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(Fernet.generate_key() + b"\n")
        try:
            return cls.from_environment(path)
        except BadKey as exc:
            raise BadKey(
                f"the embedded server's key file {path} is unusable ({exc}): delete it and a new "
                "one is made (tokens in older transcripts then no longer resume)"
            ) from None

    @classmethod
    def from_environment(cls, key_file: Path | None = None, ttl: int | None = None) -> TokenCodec:
        """Keys from ``key_file`` (one per line) or ``SUNBOT_SERVER_KEYS``, else a fresh key;
        ``ttl``: seconds a token stays valid (``None``: forever).

        Raises:
            BadKey: a key is malformed, or the key file is empty or not text.
            OSError: the key file cannot be read.
        """
        raw: list[str] = []
        if key_file is not None:
            try:
                text = key_file.read_bytes().decode("ascii")
            except UnicodeDecodeError:
                raise BadKey(f"{key_file} is not a text file of keys") from None
            raw = [line.strip() for line in text.splitlines() if line.strip()]
            if not raw:
                raise BadKey(f"{key_file} holds no key")
        elif os.environ.get("SUNBOT_SERVER_KEYS"):
            raw = [k.strip() for k in os.environ["SUNBOT_SERVER_KEYS"].split(",") if k.strip()]
        return cls([k.encode() for k in raw] or None, ttl)

    def encode(
        self, slug: str, state: dict[str, Any], issued_at: int | None = None, mark: str = ""
    ) -> str:
        """The token carrying ``state`` for game ``slug`` (``issued_at``: Unix seconds,
        default now; only tests back-date a token). ``mark``, when given, travels with it
        (:meth:`decode_marked`): the server names the code that made the state."""
        payload: dict[str, Any] = {"g": slug, "v": TOKEN_VERSION, "s": state}
        if mark:
            payload["m"] = mark
        deflate = zlib.compressobj(1, zlib.DEFLATED, 12, 4)  # a state is a few KiB: a small
        blob = deflate.compress(_dump(payload)) + deflate.flush()  # window sets up faster
        if issued_at is None:
            return self._fernet.encrypt(blob).decode("ascii")
        return self._fernet.encrypt_at_time(blob, issued_at).decode("ascii")

    def decode(self, slug: str, token: object) -> dict[str, Any]:
        """The state inside ``token`` (:meth:`decode_marked` without the mark).

        Raises:
            BadToken: as :meth:`decode_marked`.
        """
        return self.decode_marked(slug, token)[0]

    def decode_marked(self, slug: str, token: object) -> tuple[dict[str, Any], str]:
        """The state inside ``token`` and the mark it was issued with (``""``: none).

        Raises:
            BadToken: not a string, too long, not the exact text issued (a character
                appended, dropped or changed), made with another key, expired,
                or issued for another game.
        """
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise BadToken("badToken: the state token is missing or not a token")
        raw = _canonical(token)
        try:
            if raw is None:
                raise InvalidToken
            if self._ttl is None:
                blob = self._fernet.decrypt(raw)
            else:
                blob = self._fernet.decrypt(raw, ttl=self._ttl)
        except (InvalidToken, ValueError):
            reason = "badToken: the state token was altered, expired or not issued here"
            raise BadToken(reason) from None
        try:
            inflater = zlib.decompressobj()
            raw = inflater.decompress(blob, MAX_PAYLOAD_BYTES)
            if inflater.unconsumed_tail:
                raise ValueError("payload too large")
            payload = _load(raw)
        except (zlib.error, ValueError):
            raise BadToken("badToken: the state token does not hold a state") from None
        if not isinstance(payload, dict) or payload.get("v") != TOKEN_VERSION:
            raise BadToken("badToken: unsupported token version")
        if payload.get("g") != slug:
            raise BadToken(f"badToken: this token was issued for another game, not {slug}")
        state = payload.get("s")
        if not isinstance(state, dict):
            raise BadToken("badToken: the state token does not hold a state")
        mark = payload.get("m")
        return state, mark if isinstance(mark, str) else ""
