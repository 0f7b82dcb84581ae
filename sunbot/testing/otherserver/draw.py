"""The other server's randomness: counter-based hashes instead of a stored cursor.

Every draw is ``blake2b`` of the game, the seed and a label naming what is drawn (a crate
id, a turn, a voyage, a day), so a draw needs no cursor at all: the other server keeps no
``rng`` anywhere, which is the point (the platform protocol, "Where two faithful
servers may differ": another generator, or no visible cursor).
"""

from __future__ import annotations

import hashlib
import random


def digest(game: str, seed: int, *label: object) -> bytes:
    """32 bytes determined by ``game``, ``seed`` and ``label`` (e.g. ``("crate", 17)``)."""
    text = ":".join(str(x) for x in ("other", game, seed, *label))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=32).digest()


def below(game: str, seed: int, n: int, *label: object) -> int:
    """A number ``0..n-1`` drawn by :func:`digest` (``n >= 1``)."""
    return int.from_bytes(digest(game, seed, *label)[:8], "big") % n


def generator(game: str, seed: int, *label: object) -> random.Random:
    """A ``random.Random`` seeded by :func:`digest`, for draws that need several numbers."""
    return random.Random(int.from_bytes(digest(game, seed, *label), "big"))
