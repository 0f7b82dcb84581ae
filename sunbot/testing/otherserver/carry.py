"""How the other server carries a position between calls: three forms, none of them ours.

- :class:`IdTokens`: the ``stateToken`` is an opaque id; the state stays on the server
  (a bounded store: the oldest positions are forgotten first).
- :class:`SignedJson`: the ``stateToken`` is plain JSON (base64url) and an HMAC: readable
  by anyone, and any change is detected.
- :class:`Seal`: no token at all; the client sends the ``state`` back (``{state, action}``)
  and an HMAC in ``state.seal`` detects any change.

Each raises :class:`BadCarry` (a one-line reason) on anything it did not issue.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections import OrderedDict
from typing import Any


class BadCarry(ValueError):
    """A token or sealed state this server did not issue (or has forgotten)."""


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")


class IdTokens:
    """Positions kept on the server behind ids like ``pos-<24 hex>``; ``limit`` most."""

    def __init__(self, limit: int = 100_000) -> None:
        self._store: OrderedDict[str, tuple[str, bytes]] = OrderedDict()
        self.limit = limit

    def issue(self, slug: str, state: dict[str, Any]) -> str:
        """A new id for ``state`` of game ``slug``."""
        token = f"pos-{secrets.token_hex(12)}"
        self._store[token] = (slug, _canonical(state))
        while len(self._store) > self.limit:
            self._store.popitem(last=False)
        return token

    def read(self, slug: str, token: object) -> dict[str, Any]:
        """The state behind ``token``.

        Raises:
            BadCarry: unknown, forgotten or another game's id.
        """
        held = self._store.get(token) if isinstance(token, str) else None
        if held is None or held[0] != slug:
            raise BadCarry("unknown position id")
        state: dict[str, Any] = json.loads(held[1])
        return state


class SignedJson:
    """``base64url(JSON {game, state}) + "." + hex HMAC-SHA256`` under ``key``."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _sign(self, body: bytes) -> str:
        return hmac.new(self._key, body, hashlib.sha256).hexdigest()

    def issue(self, slug: str, state: dict[str, Any]) -> str:
        """The signed token of ``state`` for game ``slug``."""
        body = base64.urlsafe_b64encode(_canonical({"game": slug, "state": state}))
        return f"{body.decode('ascii')}.{self._sign(body)}"

    def read(self, slug: str, token: object) -> dict[str, Any]:
        """The state in ``token``.

        Raises:
            BadCarry: not a token, a bad signature, or another game's token.
        """
        if not isinstance(token, str) or token.count(".") != 1:
            raise BadCarry("not a signed token")
        body, sig = token.encode("ascii", "replace").split(b".")
        if not hmac.compare_digest(self._sign(body), sig.decode("ascii", "replace")):
            raise BadCarry("the token's signature does not match")
        try:
            payload = json.loads(base64.urlsafe_b64decode(body))
        except (binascii.Error, ValueError):
            raise BadCarry("the token holds no JSON") from None
        if not isinstance(payload, dict) or payload.get("game") != slug:
            raise BadCarry("the token is another game's")
        state: dict[str, Any] = payload["state"]
        return state


class Seal:
    """An HMAC of the served state, kept in the state's own ``seal`` field."""

    FIELD = "seal"

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, slug: str, state: dict[str, Any]) -> str:
        body = {k: v for k, v in state.items() if k != self.FIELD}
        return hmac.new(self._key, slug.encode() + _canonical(body), hashlib.sha256).hexdigest()

    def seal(self, slug: str, state: dict[str, Any]) -> dict[str, Any]:
        """``state`` with its ``seal`` added."""
        return {**state, self.FIELD: self._mac(slug, state)}

    def check(self, slug: str, state: object) -> dict[str, Any]:
        """``state`` without its seal, once the seal matches.

        Raises:
            BadCarry: not an object, no seal, or the state was changed.
        """
        if not isinstance(state, dict) or not isinstance(state.get(self.FIELD), str):
            raise BadCarry("the state carries no seal")
        if not hmac.compare_digest(self._mac(slug, state), state[self.FIELD]):
            raise BadCarry("the state was changed since it was served")
        return {k: v for k, v in state.items() if k != self.FIELD}
