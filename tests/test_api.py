"""The Python API (``sunbot.play``, ``sunbot.play_async``, the re-exports): same figures as
the command line, from a script, inside a running loop, and awaited."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

import sunbot
from sunbot import api
from sunbot.cli.main import app

runner = CliRunner()


@pytest.fixture(scope="module")
def cli_keelhold_7(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The result line of ``sunbot play keelhold --seed 7 --max-voyages 3``."""
    path = tmp_path_factory.mktemp("cli") / "k.jsonl"
    args = ["play", "keelhold", "--seed", "7", "--max-voyages", "3", "--quiet"]
    res = runner.invoke(app, [*args, "--transcript", str(path)])
    assert res.exit_code == 0, res.output
    result: dict[str, Any] = json.loads(path.read_text().splitlines()[-1])
    return result


def _same(summary: sunbot.RunSummary, cli: dict[str, Any]) -> None:
    assert summary.score == cli["score"] > 0
    assert (summary.steps, summary.ended_by, summary.divergences) == (cli["steps"], "cap", [])
    assert summary.responses_checked == cli["responsesChecked"] == summary.steps + 1
    assert summary.final_state is not None and summary.final_state["voyage"] == 3


def test_play_from_a_script_equals_the_cli(cli_keelhold_7):
    _same(sunbot.play("keelhold", seed=7, max_voyages=3), cli_keelhold_7)


async def test_play_inside_a_running_loop_equals_the_cli(cli_keelhold_7):
    asyncio.get_running_loop()  # as in a notebook cell: asyncio.run would fail here
    _same(sunbot.play("keelhold", seed=7, max_voyages=3), cli_keelhold_7)


async def test_play_async_equals_the_cli(cli_keelhold_7):
    _same(await sunbot.play_async("keelhold", seed=7, max_voyages=3), cli_keelhold_7)


def test_strategy_as_function_class_or_object_and_transcript(tmp_path):
    first = sunbot.play("naptuft", seed=3, max_days=2, strategy=lambda obs, legal: legal[0])
    assert first.strategy == "<lambda>" and first.steps > 0 and not first.divergences

    class Feed:
        def choose(self, observation: Any, legal_actions: list[Any]) -> Any:
            return legal_actions[0]

    path = tmp_path / "n.jsonl"
    by_class = sunbot.play("naptuft", seed=3, max_days=2, strategy=Feed, transcript=path)
    assert by_class.score == first.score and by_class.steps == first.steps
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["strategy"] == "Feed" and lines[-1]["score"] == first.score
    by_object = sunbot.play("naptuft", seed=3, max_days=2, strategy=Feed(), mirror=False)
    assert by_object.score == first.score and by_object.responses_checked == 0


def test_no_transcript_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    summary = sunbot.play("keelhold", seed=1, max_voyages=1)
    assert summary.transcript is None and list(tmp_path.iterdir()) == []


def test_harvest_watch_match_through_the_api():
    s = sunbot.play("harvest-watch", seed=4, strategy="guard")
    assert s.ended_by == "rules" and s.match_id and s.ranks is not None and len(s.ranks) == 6
    ours = s.ranks[s.final_state["summary"]["you"]]
    assert s.score == sum(r > ours for r in s.ranks) > 0  # guard outlives some house bots
    assert s.divergences == [] and s.responses_checked > 0
    (seat,) = s.seats  # our one seat, as the final view names it
    assert seat.seat == s.final_state["summary"]["you"] and seat.rank == ours
    assert seat.food == s.final_state["summary"]["food"]
    assert seat.alive == (seat.seat in s.final_state["summary"]["aliveSeats"])
    firsts = [str(i) for i, r in enumerate(s.ranks) if r == 1]  # seed 4: a draw of two
    who = f"seat {firsts[0]} " if len(firsts) == 1 else f"seats {' and '.join(firsts)} draw"
    assert s.outcome is not None and s.outcome.startswith(who)


def test_harvest_watch_score_with_several_seats_is_our_best_seats():
    s = sunbot.play("harvest-watch", seed=7, seats=2, strategy="guard")
    assert s.ranks is not None and len(s.seats) == 2
    assert sorted(x.seat for x in s.seats) == [x.seat for x in s.seats]
    best = min(s.ranks[x.seat] for x in s.seats)
    assert all(x.rank == s.ranks[x.seat] for x in s.seats)
    assert s.score == sum(r > best for r in s.ranks)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "keelhold", "max_days": 3}, "max_days does not apply to keelhold"),
        ({"game": "sunloaf", "max_days": 0}, "max_days must be at least 1"),
        ({"game": "keelhold", "strategy": "nope"}, "unknown strategy 'nope'"),
        ({"game": "harvest-watch", "max_voyages": 2}, "do not apply to harvest-watch"),
        ({"game": "keelhold", "seats": 2}, "match games only"),
        ({"game": "keelhold", "seed": 2**63}, "seed must fit a signed 64-bit integer"),
        ({"game": "keelhold", "seed": "x"}, "seed must be an integer, got str 'x'"),
        ({"game": "keelhold", "seed": 1.5}, "seed must be an integer, got float 1.5"),
        ({"game": "keelhold", "seed": True}, "seed must be an integer, got bool True"),
        ({"game": "harvest-watch", "seed": "7"}, "seed must be an integer, got str '7'"),
        (
            {"game": "keelhold", "server": "gameboard.gg"},
            "server: 'gameboard.gg' is not a URL: did you mean http://gameboard.gg\\?",
        ),
        ({"game": "keelhold", "server": "ftp://host"}, "'ftp://host' is not a server URL such as"),
        ({"game": "harvest-watch", "server": "http://"}, "'http://' is not a server URL such as"),
        ({"game": "keelhold", "transcript": "/no/such/dir/x.jsonl"}, "no folder /no/such/dir"),
        ({"game": "harvest-watch", "transcript": "/no/such/d/x.jsonl"}, "no folder /no/such/d"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sunbot.play(**kwargs)


def test_reexports_are_the_real_pieces():
    from sunbot.client import GameboardClient
    from sunbot.strategies import Strategy

    assert sunbot.GameboardClient is GameboardClient and sunbot.Strategy is Strategy
    assert sunbot.strategies.names("keelhold")[0] == "planner"
    assert sunbot.get_game("sunloaf").engine is sunbot.engines.sunloaf
    assert sunbot.observations.harvest_watch.SPEECH_MAX == 200
    for name in sunbot.__all__:
        assert getattr(sunbot, name) is not None
    with pytest.raises(AttributeError):
        sunbot.nothing_here  # noqa: B018


def test_random_seed_when_none_is_given():
    s = sunbot.play("keelhold", max_voyages=1, strategy="first-safe")
    assert s.seed is not None and 0 <= s.seed < 2**31
    again = sunbot.play("keelhold", seed=s.seed, max_voyages=1, strategy="first-safe")
    assert again.score == s.score
    assert random  # the seed came from the system source, not the random module's state


def test_the_resume_command_names_a_server_other_than_the_embedded_one_without_its_password():
    assert api.resume_command("cut.jsonl", None) == "sunbot play --resume cut.jsonl"
    assert api.resume_command("cut.jsonl", api.ENGINE) == "sunbot play --resume cut.jsonl"
    assert (
        api.resume_command("cut.jsonl", "http://bob:s3cret@127.0.0.1:8001/")
        == "sunbot play --resume cut.jsonl --server http://127.0.0.1:8001/"
    )
