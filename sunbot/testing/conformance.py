"""Every game's modules held to the protocols their callers type them with.

Each name below is a module assigned to its protocol, so ``mypy`` fails when a module drifts
from it (a function renamed or dropped, another signature): the engines to
:class:`~sunbot.engines.Engine` or :class:`~sunbot.engines.MatchEngine`, the mirror hooks to
:class:`~sunbot.mirror.hooks.MirrorHooks`. ``tests/test_protocols.py`` checks that the games
table names these very modules, so the check covers the modules that are played.
"""

from __future__ import annotations

from sunbot.engines import Engine, MatchEngine
from sunbot.engines import harvest_watch as harvest_watch_engine
from sunbot.engines import keelhold as keelhold_engine
from sunbot.engines import naptuft as naptuft_engine
from sunbot.engines import sunloaf as sunloaf_engine
from sunbot.mirror import keelhold as keelhold_mirror
from sunbot.mirror import naptuft as naptuft_mirror
from sunbot.mirror import sunloaf as sunloaf_mirror
from sunbot.mirror.hooks import MirrorHooks

KEELHOLD_ENGINE: Engine = keelhold_engine
SUNLOAF_ENGINE: Engine = sunloaf_engine
NAPTUFT_ENGINE: Engine = naptuft_engine
HARVEST_WATCH_ENGINE: MatchEngine = harvest_watch_engine

KEELHOLD_MIRROR: MirrorHooks = keelhold_mirror
SUNLOAF_MIRROR: MirrorHooks = sunloaf_mirror
NAPTUFT_MIRROR: MirrorHooks = naptuft_mirror
