"""sunbot's generic path plays every platform test game with no code of its own for it:
``sunbot.play_async(slug, server=URL, strategy="random" or "first")`` (the server in-process
behind the same backend ``sunbot.play`` opens, 429s on), and the generic checks find
nothing to say about any answer."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

import sunbot
import sunbot.api
from sunbot.cli import app as cli
from sunbot.client import GameboardClient
from sunbot.games import GAMES
from sunbot.runs.remote import ServerBackend
from sunbot.testing.platform import create_platform_app
from tests.conftest import FAST_RETRY, LoopbackServer
from tests.testing.platform.helpers import SLUGS

URL = "http://platform.test"
#: Games that reach their end under each policy (the others end by the step cap): a random
#: player finishes the games with a natural end and never solves a puzzle; the first legal
#: action turns the same card or tile again and again in memory-match and the puzzles.
ENDS = {
    "random": {"checkers", "dots-and-boxes", "dice-dash", "memory-match", "solitaire",
               "tile-merge", "word-guess", "word-search"},
    "first": {"checkers", "dots-and-boxes", "dice-dash", "tile-merge", "word-guess",
              "word-search"},
}  # fmt: skip


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The platform test server in-process at :data:`URL` for ``sunbot.play_async``: every
    fifth request a 429, G-Bot at 2 plies, word-guess with its menu."""
    app = create_platform_app(rate_limit_every=5, retry_after_s=0, checkers_depth=2,
                              word_guess_menu=True)  # fmt: skip
    opened = sunbot.api.open_backend

    def open_backend(server: str | None, info: Any) -> Any:
        if server != URL:
            return opened(server, info)
        client = GameboardClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY)
        return ServerBackend(client, URL)

    monkeypatch.setattr(sunbot.api, "open_backend", open_backend)
    return app


def test_none_of_the_platform_games_has_code_in_sunbot():
    assert not set(SLUGS) & set(GAMES)


@pytest.mark.parametrize("strategy", ["random", "first"])
@pytest.mark.parametrize("slug", SLUGS)
async def test_the_generic_path_plays_each_game_with_no_finding(served, slug, strategy):
    ends = slug in ENDS[strategy]
    run = await sunbot.play_async(slug, seed=3, strategy=strategy, server=URL,
                                  max_steps=400 if ends else 25)  # fmt: skip
    assert run.checks == "generic" and run.divergences == [], run.divergences[:3]
    assert run.refused == 0 and run.responses_checked == run.steps + 1
    if ends:
        assert (run.game_over, run.ended_by, run.error) == (True, "rules", None)
    else:
        assert (run.game_over, run.ended_by, run.steps) == (False, "cap", 25)
    assert served.state.throttled > 0 and run.retries == served.state.throttled


async def test_the_live_word_guess_lists_no_action_so_a_menu_player_stops_with_one_line(
    monkeypatch,
):
    app = create_platform_app()  # no menu, as on the live game
    monkeypatch.setattr(sunbot.api, "open_backend", lambda server, info: ServerBackend(
        GameboardClient(transport=httpx.ASGITransport(app=app), policy=FAST_RETRY), URL))  # fmt: skip
    run = await sunbot.play_async("word-guess", seed=3, strategy="random", server=URL)
    assert run.ended_by == "error" and run.steps == 0
    assert run.error is not None and "no legal actions, yet gameOver is false" in run.error
    assert [d.note.split(":")[0] for d in run.divergences] == [
        "generic check gameOver.legalActions"]  # fmt: skip


def test_sunbot_play_on_a_loopback_server_from_the_command_line(tmp_path):
    app = create_platform_app(rate_limit_every=7, retry_after_s=0)
    transcript = tmp_path / "ws.jsonl"
    with LoopbackServer(app) as server:
        res = CliRunner().invoke(cli, ["play", "word-search", "--server", server.url, "--seed",
                                       "5", "--strategy", "first", "--json", "--transcript",
                                       str(transcript)])  # fmt: skip
        games = CliRunner().invoke(cli, ["games", "--server", server.url, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert (data["gameOver"], data["score"], data["checks"], data["divergences"]) == (
        True, 8, "generic", 0)  # fmt: skip
    listed = json.loads(games.output)["games"]
    assert {g["slug"] for g in listed} == set(SLUGS)
    assert {g["support"] for g in listed} == {"generic"}
    assert transcript.stat().st_size > 1000


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["random", "first"])
@pytest.mark.parametrize("slug", SLUGS)
async def test_many_seeds_play_with_no_finding(served, slug, strategy):
    ends = slug in ENDS[strategy]
    for seed in range(12):
        run = await sunbot.play_async(slug, seed=seed, strategy=strategy, server=URL,
                                      max_steps=1_000 if ends else 150)  # fmt: skip
        assert run.divergences == [] and run.refused == 0 and run.error is None, (seed, run.error)
        assert run.game_over == ends and run.ended_by == ("rules" if ends else "cap")
