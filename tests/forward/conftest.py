"""A loopback unseen server shared by a module's tests (a run on a URL needs a socket)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sunbot.testing.unseen import create_unseen_app
from tests.conftest import LoopbackServer

MODELS = "tests/forward/models.py"


@pytest.fixture(scope="module")
def unseen_url() -> Iterator[str]:
    with LoopbackServer(create_unseen_app()) as srv:
        yield srv.url
