"""The bench's verdict direction for a game sunbot has no engine for: read from the spec its
server serves (a puzzle scored in moves is won by the lower score)."""

from __future__ import annotations

from sunbot.cli.bench import _score_order
from sunbot.games import GAMES, generic_game
from sunbot.testing.platform.app import create_platform_app
from tests.conftest import LoopbackServer


def test_a_served_ascending_order_makes_the_lower_score_better() -> None:
    with LoopbackServer(create_platform_app()) as srv:
        assert _score_order(generic_game("maze-runner"), srv.url) == (
            True,
            "spec.scoreOrder 'ascending'",
        )
        # a game sunbot knows keeps its own order; a game the server cannot serve is read
        # the usual way (the bench's rows stand, only the verdict's direction is unknown)
        assert _score_order(GAMES["keelhold"], srv.url) == (False, "")
        assert _score_order(generic_game("no-such-game"), srv.url) == (False, "")
