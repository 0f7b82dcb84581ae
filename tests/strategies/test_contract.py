"""One strategy contract for every game: ``choose(observation, legal_actions)``, Harvest
Watch's beats mapped onto it, and the ``on_start`` / ``on_end`` hooks."""

from __future__ import annotations

import itertools
import random
from typing import Any, ClassVar

import httpx
import pytest

import sunbot
from sunbot import strategies
from sunbot.bench.jobs import Job, run_job
from sunbot.client import MatchClient
from sunbot.engines import harvest_watch as hw
from sunbot.engines.harvest_watch_seats import seat_data
from sunbot.games import GAMES
from sunbot.observations.harvest_watch import ballots, legal_actions
from sunbot.runs.match import LOCAL_BEAT_MS
from sunbot.runs.seat_http import play_match
from sunbot.runs.seats import seat_score
from sunbot.server import TokenCodec, create_app
from sunbot.server.clock import FakeClock
from tests.client.test_match_loop import fake_sleep


def _at(phase: str) -> dict[str, Any]:
    """A 6-seat state at the first beat of ``phase`` on day 1 (everyone farms)."""
    state = hw.init(3, 6)
    while state["phase"] != phase:
        cmds = {s: [hw.default_command(state["phase"])] for s in range(6)}
        if state["phase"] == "action":
            cmds = {s: [{"act": "farm"}] for s in range(6)}
        state = hw.resolve_beat(state, cmds)
    return state


def test_ballots_by_hand():
    # seat 2 votes with seats 0, 2, 3 living: giveTo is never the voter nor the punished
    assert ballots(2, [3, 0, 2]) == [
        {"punish": None},
        {"punish": 0, "giveTo": 3},
        {"punish": 2, "giveTo": 0},
        {"punish": 2, "giveTo": 3},
        {"punish": 3, "giveTo": 0},
    ]
    # only seats a table has (0..5), each once: a server listing 100,000 living seats (it
    # took 22 GB building 10^10 ballots) gives the 1 + 5 + 5 * 4 ballots of six seats
    many = ballots(0, [*range(100_000), 4, 4, -1])
    assert len(many) == 26 and many == ballots(0, [0, 1, 2, 3, 4, 5])


@pytest.mark.parametrize("seat", [0, 4])
def test_vote_legal_actions_are_exactly_the_ballots_the_engine_accepts(seat):
    state = _at("vote")
    data = seat_data(state, seat, can_act=True, pending=None)
    legal = legal_actions(data)
    assert len(legal) == 1 + 5 + 5 * 4  # abstain; self-fine: 5 recipients; others: 4
    tried = [{"punish": None}] + [
        {"punish": n, "giveTo": m} for n, m in itertools.product(range(-1, 7), repeat=2)
    ]
    accepted = [b for b in tried if hw.validate_command(state, seat, b) is None]
    assert sorted(map(str, accepted)) == sorted(map(str, legal))


def test_action_speech_and_diary_beats():
    action = seat_data(_at("action"), 1, can_act=True, pending=None)
    assert legal_actions(action) == action["legal"]
    assert legal_actions(action) is not action["legal"]  # a copy the bot may change
    for phase, key in (("speech1", "speech"), ("speech2", "speech"), ("diary", "diary")):
        data = seat_data(_at(phase), 1, can_act=True, pending=None)
        (example,) = legal_actions(data)
        assert example == data["schema"]["example"] and list(example) == [key]
        assert hw.validate_command(_at(phase), 1, example) is None
    watching = seat_data(_at("vote"), 1, can_act=False, pending=None)
    assert "schema" not in watching


class FirstLegal:
    """The README's plug-in, as written for any game: the first legal action."""

    game = "harvest-watch"
    ended: ClassVar[list[tuple[dict[str, Any], dict[str, Any]]]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any:
        return legal_actions[0]

    def on_end(self, observation: dict[str, Any], outcome: Any) -> None:
        FirstLegal.ended.append((observation, dict(outcome)))


async def test_a_two_argument_bot_plays_a_served_match_without_refusals():
    FirstLegal.ended.clear()
    clock = FakeClock()  # a fake clock: a busy machine must not make the seats late
    transport = httpx.ASGITransport(app=create_app(TokenCodec(), clock=clock))
    beats = {"speech": 200, "vote": 200, "action": 200, "diary": 200}
    async with MatchClient(transport=transport) as mc:
        mid, tickets = await mc.create("harvest-watch", seats=2, seed=5, beat_ms=beats, start_ms=0)
        players = [(t, FirstLegal(random.Random(i))) for i, t in enumerate(tickets)]
        results = await play_match(  # type: ignore[arg-type]
            mc, mid, players, sleep=fake_sleep(clock, [])
        )
    for r in results:
        assert r.error is None and r.ranks is not None
        assert sum(r.refusals.values()) == 0
    assert len(FirstLegal.ended) == 2
    for r, (last, outcome) in zip(results, FirstLegal.ended, strict=False):
        assert outcome["endedBy"] == "rules" and outcome["error"] is None
        assert last["result"]["ranks"] == r.ranks
    scores = sorted(o["score"] for _, o in FirstLegal.ended)
    assert scores == sorted(seat_score(r.seat, r.ranks) for r in results)


def test_seat_score():
    assert seat_score(2, [3, 1, 2, 4, 4, 5]) == 4  # ranks 3, 4, 4, 5 are below 2
    assert seat_score(0, None) == 0


class Ender:
    ended: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any:
        return legal_actions[0]

    def on_end(self, observation: dict[str, Any], outcome: Any) -> None:
        Ender.ended.append((observation.get("phase", "?"), dict(outcome)))
        raise RuntimeError("a broken hook is logged, not fatal")


@pytest.mark.parametrize("game", ["keelhold", "naptuft", "harvest-watch"])
def test_bench_calls_on_end_once_with_the_rows_outcome(monkeypatch, game):
    monkeypatch.setitem(GAMES[game].strategies, "ender", "tests.strategies.test_contract:Ender")
    Ender.ended.clear()
    row = run_job(Job(game, "ender", 3, cap=2))
    assert row.ended_by != "error"
    ((phase, outcome),) = Ender.ended
    assert outcome == {"game": game, "score": row.score, "endedBy": row.ended_by, "error": None}
    assert phase in ("over", "done")


class CapTaker:
    """on_start with the cap keyword; records what it was told."""

    game = "naptuft"
    started: ClassVar[list[tuple[str, int | None, int | None]]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def on_start(self, game: str, seed: int | None, *, cap: int | None = None) -> None:
        CapTaker.started.append((game, seed, cap))

    def choose(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any:
        return legal_actions[0]


def test_notify_start_passes_the_cap_only_to_hooks_that_take_it():
    seen: list[tuple[Any, ...]] = []

    class Old:
        def on_start(self, game: str, seed: int | None) -> None:
            seen.append(("old", game, seed))

    class Loose:
        def on_start(self, game: str, seed: int | None, **extra: Any) -> None:
            seen.append(("loose", game, seed, extra))

    strategies.notify_start(Old(), "naptuft", 4, 10)
    strategies.notify_start(Loose(), "sunloaf", 5, None)
    strategies.notify_start(object(), "keelhold", 6, 3)  # no hook: nothing to call
    assert seen == [("old", "naptuft", 4), ("loose", "sunloaf", 5, {"cap": None, "spec": None})]


@pytest.mark.parametrize("cap", [2, None])
def test_bench_and_play_tell_on_start_the_runs_cap(monkeypatch, cap):
    monkeypatch.setitem(
        GAMES["naptuft"].strategies, "cap-taker", "tests.strategies.test_contract:CapTaker"
    )
    CapTaker.started.clear()
    run_job(Job("naptuft", "cap-taker", 3, cap=cap))
    sunbot.play("naptuft", seed=3, strategy=CapTaker, max_days=2)
    assert CapTaker.started == [("naptuft", 3, cap), ("naptuft", 3, 2)]


class SeatStarter(CapTaker):
    """CapTaker for a Harvest Watch seat."""

    game = "harvest-watch"
    started: ClassVar[list[tuple[str, int | None, int | None]]] = []

    def on_start(self, game: str, seed: int | None, *, cap: int | None = None) -> None:
        SeatStarter.started.append((game, seed, cap))


def test_a_match_tells_each_of_our_seats_on_start(monkeypatch, tmp_path):
    monkeypatch.setattr("sunbot.runs.match.LOCAL_BEAT_MS", dict.fromkeys(LOCAL_BEAT_MS, 5000))
    SeatStarter.started.clear()
    run = sunbot.play(
        "harvest-watch", seed=4, strategy=SeatStarter, seats=2, transcript=tmp_path / "m.jsonl"
    )
    assert run.ended_by == "rules", run.error
    assert SeatStarter.started == [("harvest-watch", 4, None)] * 2
