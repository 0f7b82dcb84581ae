"""The safe actions a missed deadline plays, per known game (the games table names each
game's one as ``GameInfo.fallback_ref``; :func:`sunbot.agents.clock.default_fallback` calls
it). Each is cheap, pure and reads only what the rules publish."""

from __future__ import annotations

import importlib
import random
from typing import Any

from sunbot import strategies


def keelhold(observation: Any, legal: list[Any]) -> Any:
    """``first-safe``'s choice: the lowest safe bay; at port CAST_OFF while
    ``castOffSafe``, else END_RUN (``docs/rules/keelhold.md``)."""
    return strategies.create("keelhold", "first-safe", random.Random(0)).choose(observation, legal)


def sunloaf(observation: Any, legal: list[Any]) -> Any:
    """The rules' reference policy (NEXT_DAY at sunset; ``docs/rules/sunloaf.md``)."""
    return strategies.create("sunloaf", "reference", random.Random(0)).choose(observation, legal)


def naptuft(observation: Any, legal: list[Any]) -> Any:
    """The legal care of the lowest need; next-day at a day break
    (``docs/rules/naptuft.md``)."""
    if observation.get("phase") != "care":
        return legal[0]  # dayBreak: next-day comes first
    module = importlib.import_module("sunbot.strategies.naptuft")
    return module._lowest_legal(observation, legal)
