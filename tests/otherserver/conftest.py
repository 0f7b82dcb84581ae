"""Fixtures for runs against the other server (``sunbot.testing.otherserver``) on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sunbot.cli.main import app
from sunbot.testing.otherserver import OtherOptions, create_other_app
from tests.conftest import LoopbackServer

runner = CliRunner()

#: How each single-player game's run is capped in these tests (flag, value).
CAPS = {"keelhold": ("--max-voyages", "2"), "sunloaf": ("--max-days", "2"),
        "naptuft": ("--max-days", "2")}  # fmt: skip


@pytest.fixture(autouse=True)
def _state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(tmp_path / "state"))


@contextmanager
def other_server(
    bugs: frozenset[str] = frozenset(),
    throttle_every: int = 7,
    variants: frozenset[str] = frozenset(),
) -> Iterator[tuple[LoopbackServer, OtherOptions]]:
    """The other server on loopback, with its options (``bug_hits`` and ``variant_hits``
    fill as bugs and variants act)."""
    opts = OtherOptions(bugs=bugs, variants=variants, throttle_every=throttle_every)
    with LoopbackServer(create_other_app(opts)) as srv:
        yield srv, opts


def play(url: str, game: str, path: Path, *args: str) -> Any:
    """``sunbot play GAME --server URL --quiet --transcript PATH ARGS...``; the CLI result."""
    cmd = ["play", game, "--server", url, "--quiet", "--transcript", str(path), *args]
    return runner.invoke(app, cmd)


def records(path: Path) -> list[dict[str, Any]]:
    """The transcript's records, in order."""
    return [json.loads(x) for x in path.read_text().splitlines()]
