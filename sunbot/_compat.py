"""Old import paths, kept for one release: ``import sunbot.runner`` (and the other modules
that moved when the run path became one, listed in :data:`MOVED`) gives the module's new
home, with a ``DeprecationWarning`` naming it; so do the names that moved out of a module
that stays (:data:`MOVED_NAMES`, ``from sunbot.client import play_match``). Installed by
``sunbot/__init__.py``; nothing is imported until an old name is."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

#: old module name -> where its public names live now.
MOVED: dict[str, str] = {
    "sunbot.runner": "sunbot.runs.remote",
    "sunbot.match_play": "sunbot.runs.match",
    "sunbot.match_report": "sunbot.cli.match_report",
    "sunbot.replay": "sunbot.transcripts.replay",
    "sunbot.export": "sunbot.transcripts.export",
    "sunbot.resume": "sunbot.transcripts.resume",
    "sunbot.transcript_schema": "sunbot.transcripts.schema",
    "sunbot.probe_grammar": "sunbot.probe.grammar",
    "sunbot.safe_text": "sunbot._text.safe",
    "sunbot.terminal_text": "sunbot._text.terminal",
    "sunbot.atomic_write": "sunbot._text.atomic_write",
    "sunbot.stop_signals": "sunbot.cli.signals",
    "sunbot.cli_play": "sunbot.cli.play",
    "sunbot.cli_transcripts": "sunbot.cli.transcripts",
    "sunbot.cli_rules": "sunbot.cli.rules",
    "sunbot.cli_logging": "sunbot.cli.log",
    "sunbot.bench.cli": "sunbot.cli.bench",
    "sunbot.html.after_run": "sunbot.cli.replay_page",
    "sunbot.agents.checkbot": "sunbot.checkbot.check",
    "sunbot.agents.checkbot_report": "sunbot.checkbot.report",
}
#: names a moved module also had from a second new home (``sunbot.runner.RunSummary``).
ALSO: dict[str, tuple[str, ...]] = {
    "sunbot.runner": ("sunbot.runs.summary", "sunbot.runs.loop"),
    "sunbot.match_play": ("sunbot.cli.play_match",),
    "sunbot.terminal_text": ("sunbot.views.common",),
}


#: module -> {name: its new home}: names that moved out of a module that stays (the seat
#: loop out of the match client); the module's ``__getattr__`` is
#: :func:`forward_moved_names`.
MOVED_NAMES: dict[str, dict[str, str]] = {
    "sunbot.client.matches": {
        "play_seat": "sunbot.runs.seat_http",
        "play_match": "sunbot.runs.seat_http",
        "beat_budget": "sunbot.runs.seat_http",
        "POST_MARGIN_S": "sunbot.runs.seat_http",
        "POST_FAILURES": "sunbot.runs.seat_http",
        "SeatResult": "sunbot.runs.seats",
        "MatchStrategy": "sunbot.runs.seats",
        "OnEvent": "sunbot.runs.seats",
        "fallback_command": "sunbot.runs.seats",
        "seat_score": "sunbot.runs.seats",
        "final_ranks": "sunbot.runs.seats",
        "MAX_REFUSALS_PER_BEAT": "sunbot.runs.seats",
        "MAX_SEAT_REQUESTS": "sunbot.runs.seats",
    },
    "sunbot.client": {
        "play_seat": "sunbot.runs.seat_http",
        "play_match": "sunbot.runs.seat_http",
        "SeatResult": "sunbot.runs.seats",
    },
}


def forward_moved_names(module: str) -> Any:
    """A module ``__getattr__`` that gives the names :data:`MOVED_NAMES` lists for
    ``module`` from their new homes, with a ``DeprecationWarning`` naming it."""
    moved = MOVED_NAMES[module]

    def __getattr__(name: str) -> Any:
        home = moved.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is deprecated and will be removed: import it from {home}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(home), name)

    return __getattr__


class _Alias(importlib.abc.Loader):
    """Loads an old name as a module that forwards every attribute to the new homes."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is deprecated and will be removed: import from {new}",
            DeprecationWarning,
            stacklevel=2,
        )
        homes = [importlib.import_module(m) for m in (new, *ALSO.get(spec.name, ()))]
        module = ModuleType(spec.name, f"Deprecated: moved to {new}.")

        def forward(name: str) -> Any:
            for home in homes:
                if hasattr(home, name):
                    return getattr(home, name)
            raise AttributeError(f"module {spec.name!r} has no attribute {name!r}")

        module.__getattr__ = forward  # type: ignore[method-assign]
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module forwards."""


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias())


def install() -> None:
    """Put the old names' finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
