"""A loopback unseen server shared by a module's tests (a run on a URL needs a socket), and
a state folder of each test's own (the certificate key is made there, never in the home)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sunbot.testing.unseen import create_unseen_app
from tests.conftest import LoopbackServer

MODELS = "tests/forward/models.py"


@pytest.fixture(scope="module")
def unseen_url() -> Iterator[str]:
    with LoopbackServer(create_unseen_app()) as srv:
        yield srv.url


@pytest.fixture(autouse=True)
def state_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``SUNBOT_STATE_DIR`` set to a fresh folder: the certificate key of this test."""
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("SUNBOT_STATE_DIR", str(folder))
    return folder
