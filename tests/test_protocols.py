"""The engine and mirror-hooks protocols: the games table plays the very modules that
``sunbot.testing.conformance`` holds to them for mypy, and each module has every member
with the protocol's arguments (a run-time check beside mypy's)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from sunbot.engines import Engine, MatchEngine
from sunbot.games import GAMES, get_game
from sunbot.mirror.hooks import MirrorHooks
from sunbot.testing import conformance

ENGINES = {
    "keelhold": conformance.KEELHOLD_ENGINE,
    "sunloaf": conformance.SUNLOAF_ENGINE,
    "naptuft": conformance.NAPTUFT_ENGINE,
    "harvest-watch": conformance.HARVEST_WATCH_ENGINE,
}
MIRRORS = {
    "keelhold": conformance.KEELHOLD_MIRROR,
    "sunloaf": conformance.SUNLOAF_MIRROR,
    "naptuft": conformance.NAPTUFT_MIRROR,
}


def _members(protocol: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(value)
        for name, value in vars(protocol).items()
        if callable(value) and not name.startswith("_")
    }


def _fits(module: Any, protocol: type) -> list[str]:
    """What ``module`` lacks of ``protocol``: a member, or positional arguments it cannot
    take (the protocol's, less ``self``), or keyword-only ones."""
    missing = []
    for name, wanted in _members(protocol).items():
        func = getattr(module, name, None)
        if not callable(func):
            missing.append(f"{name}: missing")
            continue
        params = list(wanted.parameters.values())[1:]
        args = [p for p in params if p.kind is inspect.Parameter.POSITIONAL_ONLY]
        needed = [p for p in args if p.default is inspect.Parameter.empty]
        keywords = {p.name: 0 for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
        try:
            inspect.signature(func).bind(*range(len(needed)), **keywords)
            inspect.signature(func).bind(*range(len(args)), **keywords)
        except TypeError as exc:
            missing.append(f"{name}: {exc}")
    return missing


def test_the_games_table_plays_the_checked_modules() -> None:
    assert set(ENGINES) == set(GAMES) and set(MIRRORS) == {
        slug for slug, g in GAMES.items() if g.mirror_ref is not None
    }
    for slug, module in ENGINES.items():
        info = get_game(slug)
        if info.kind == "match":
            assert info.match_engine is module
        else:
            assert info.engine is module
            with pytest.raises(ValueError, match="not a match game"):
                _ = info.match_engine
    for slug, module in MIRRORS.items():
        assert get_game(slug).mirror is module
    assert get_game("harvest-watch").mirror is None  # mirrored per seat instead


@pytest.mark.parametrize("slug", ["keelhold", "sunloaf", "naptuft"])
def test_each_init_step_engine_has_the_engine_api(slug: str) -> None:
    assert _fits(ENGINES[slug], Engine) == []
    assert set(_members(Engine)) == {
        "init", "legal_actions", "step", "observation", "score", "is_over",
    }  # fmt: skip


def test_the_match_engine_has_the_match_api() -> None:
    assert _fits(ENGINES["harvest-watch"], MatchEngine) == []
    assert _fits(ENGINES["harvest-watch"], Engine) != []  # it is not an init/step engine


@pytest.mark.parametrize("slug", sorted(MIRRORS))
def test_each_mirror_module_has_the_hooks(slug: str) -> None:
    assert _fits(MIRRORS[slug], MirrorHooks) == []


def test_the_fit_check_names_what_is_missing() -> None:
    class Half:
        @staticmethod
        def init(seed: int) -> dict[str, Any]:
            return {}

        @staticmethod
        def step(state: dict[str, Any]) -> dict[str, Any]:  # one argument short
            return state

    missing = _fits(Half, Engine)
    assert "legal_actions: missing" in missing and "score: missing" in missing
    assert [m for m in missing if m.startswith("step")] == ["step: too many positional arguments"]
    assert not any(m.startswith("init") for m in missing)
