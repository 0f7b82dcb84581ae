"""sunbot's state folder: where it keeps what outlives a run on this machine for this user
(the embedded server's token key, the spend ledger, the certificate key).

``$SUNBOT_STATE_DIR`` when set, else ``$XDG_STATE_HOME/sunbot``, else
``~/.local/state/sunbot``. Code sunbot did not write, run in its sandbox, may not read it
(:mod:`sunbot.agents.sandbox`).
"""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    """The state folder (module doc); not created here, and not resolved."""
    base = os.environ.get("SUNBOT_STATE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "sunbot"


__all__ = ["state_dir"]
