"""Types of the C extension :mod:`sunbot.envs._keelhold_encode` (``_keelhold_encode.c``):
:class:`~sunbot.envs.keelhold.KeelholdCodec`'s encoding and mask, the same numbers."""

from typing import Any

#: The layout it writes (checked against :mod:`sunbot.envs.keelhold` at import).
TERMS: tuple[str, ...]
CONDITIONS: tuple[str, ...]
PHASES: tuple[str, ...]
N_INTS: int
HATCHES: int
MAX_SLOTS: int
MAX_QUEUE: int
N_ACTIONS: int

def mask(legal: Any, out: Any) -> bool:
    """Write the action mask of ``legal`` (``KeelholdCodec.index`` of each action) into
    ``out`` (``int8``, ``N_ACTIONS``); ``False`` (``out`` untouched) when an action is not a
    dict whose ``type`` is a str (work it out in Python).

    Raises:
        ValueError: ``out`` of the wrong size. ``BufferError``: ``out`` not writable.
    """

class Filler:
    """Holds the codec's buffers: ``ints`` (``int32``, ``N_INTS``) and ``bays`` (``int8``,
    2 x 7), the bounds ``low``..``high`` (``int32`` buffers; ``None`` and ``None``: no
    clip) and ``parts``, the encoding's six ``(key, array)`` pairs (views of the buffers).

    Raises:
        ValueError: a buffer of the wrong size, or not six parts. ``BufferError``: a buffer
            not writable.
    """

    def __init__(
        self, ints: Any, bays: Any, low: Any, high: Any, parts: tuple[tuple[str, Any], ...]
    ) -> None: ...
    def __call__(self, observation: Any) -> dict[str, Any] | None:
        """Write the whole encoding of ``observation`` into the buffers, clipped into the
        bounds, and answer ``{key: a copy of its part}``; ``None`` when the observation is
        not one it handles (nothing that counts written: encode it in Python)."""
