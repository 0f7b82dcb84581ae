"""What a run may spend per UTC day: :class:`SpendCaps` (picklable, handed to workers)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from sunbot._state import state_dir

#: The ledger's file name in the state folder.
STORE_NAME = "spend.sqlite"


def default_store() -> Path:
    """``$SUNBOT_STATE_DIR/spend.sqlite`` (default ``~/.local/state/sunbot``, or
    ``$XDG_STATE_HOME/sunbot``): the one ledger every run of this user shares, beside the
    embedded server's key."""
    return state_dir() / STORE_NAME


@dataclass(frozen=True)
class SpendCaps:
    """Daily caps, counted in the ledger at ``store`` over every run that shares it.

    Attributes:
        store: the ledger file (:func:`default_store`).
        requests: requests to one server (its origin: scheme, host and port) per day;
            every request counts, retries included.
        tokens: a language model's prompt + completion tokens per day, as the agent
            reports them (each decision counted as at most the whole cap).
        usd: money per day, from those tokens at ``price``.
        price: USD per million prompt and completion tokens (``--llm-price``); needed by
            ``usd``.

    Raises:
        ValueError: a cap that is not a positive finite number, ``usd`` without a price.
    """

    store: Path
    requests: int | None = None
    tokens: int | None = None
    usd: float | None = None
    price: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        for name in ("requests", "tokens", "usd"):
            value = getattr(self, name)
            if value is not None and not (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and math.isfinite(value)
                and value > 0
            ):
                raise ValueError(f"the daily {name} cap must be a positive number, not {value!r}")
        if self.usd is not None and self.price is None:
            raise ValueError("a daily USD cap needs the model's price (--llm-price IN,OUT)")

    @property
    def limited(self) -> bool:
        """Whether any cap is set."""
        return self.model_limited or self.requests is not None

    @property
    def model_limited(self) -> bool:
        """Whether a model cap (tokens or USD) is set."""
        return self.tokens is not None or self.usd is not None
