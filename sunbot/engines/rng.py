"""mulberry32, the 32-bit random generator whose cursor lives in the game state.

Pinned by Sunloaf §9, "Day generation" (its test vectors: ``tests/engines/test_rng.py``);
Keelhold uses the same generator for its local generation (``docs/rules/keelhold.md``). The
cursor is a uint32; every draw returns the new cursor and a uint32 value, so states stay
plain JSON.
"""

from __future__ import annotations

MASK32 = 0xFFFFFFFF


def next_u32(cur: int) -> tuple[int, int]:
    """Advance the cursor once: returns ``(new_cursor, value)``, both in ``0..2**32-1``."""
    cur = (cur + 0x6D2B79F5) & MASK32
    t = ((cur ^ (cur >> 15)) * (cur | 1)) & MASK32
    t = ((t + (((t ^ (t >> 7)) * (t | 61)) & MASK32)) & MASK32) ^ t
    return cur, (t ^ (t >> 14)) & MASK32


def rand_int(cur: int, n: int) -> tuple[int, int]:
    """One draw mapped to ``0..n-1`` as ``(value * n) >> 32``: returns ``(cursor, k)``.

    Raises:
        ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"rand_int needs n >= 1, got {n}")
    cur, value = next_u32(cur)
    return cur, (value * n) >> 32
