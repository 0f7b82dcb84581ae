"""The job function: real values, caps, refusals, errors, determinism, and agreement with
the HTTP runner it mirrors."""

from __future__ import annotations

import random

import httpx
import pytest

import sunbot
from sunbot import strategies
from sunbot.bench.jobs import RESULT_FIELDS, TIMING_FIELDS, Job, run_job
from sunbot.client import GameboardClient
from sunbot.games import GAMES
from sunbot.runs.remote import play_run
from sunbot.server import TokenCodec, create_app
from sunbot.server.match_state import DEFAULT_BEAT_MS, Match
from tests.bench.fakes import GuardSeat, Starter
from tests.hw_args import hw_args


@pytest.fixture
def fakes(monkeypatch):
    for game, name, ref in [
        ("keelhold", "illegal", "tests.bench.fakes:Illegal"),
        ("keelhold", "crash", "tests.bench.fakes:Crash"),
        ("keelhold", "starter", "tests.bench.fakes:Starter"),
        ("sunloaf", "no-end", "tests.bench.fakes:NoEnd"),
        ("naptuft", "no-end", "tests.bench.fakes:NoEnd"),
        ("harvest-watch", "guard-seat", "tests.bench.fakes:GuardSeat"),
        ("harvest-watch", "bad-seat", "tests.bench.fakes:BadSeat"),
    ]:
        monkeypatch.setitem(GAMES[game].strategies, name, ref)


def test_keelhold_safe_greedy_seed_7_matches_the_play_figures():
    # Seed 7's uncapped safe-greedy run: 118,564 at voyage 14 (local choices /2: voyages
    # 12-14 have quotas 15, 16, 17).
    r = run_job(Job("keelhold", "safe-greedy", 7))
    assert (r.score, r.progress, r.progress_field) == (118_564, 14, "voyage")
    assert (r.cause, r.ended_by, r.error) == ("holdFull", "rules", None)
    assert (r.steps, r.refused, r.decisions) == (517, 0, 517)
    assert (r.seat, r.rank, r.cap) == (None, None, None)
    assert r.version == sunbot.__version__
    assert 0 < r.decision_p50_ms <= r.decision_p95_ms
    assert r.wall_s > 0
    assert tuple(r.to_row()) == RESULT_FIELDS


def test_cap_ends_the_run_at_port_of_that_voyage():
    r = run_job(Job("keelhold", "safe-greedy", 7, cap=3))
    assert (r.score, r.progress, r.ended_by, r.cause) == (4674, 3, "cap", "ended")
    # the END_RUN is a step but not a decision
    assert (r.steps, r.decisions) == (54, 53)


def test_first_safe_and_random_rows():
    fs = run_job(Job("keelhold", "first-safe", 7))
    assert (fs.score, fs.progress, fs.cause, fs.steps) == (1968, 2, "ended", 55)
    rnd = run_job(Job("keelhold", "random", 3))
    assert (rnd.score, rnd.progress, rnd.cause, rnd.steps) == (1795, 2, "lurch", 43)


def test_same_job_same_row_except_timings():
    a, b = (run_job(Job("keelhold", "random", 11)) for _ in range(2))
    assert a.deterministic() == b.deterministic()
    assert set(a.to_row()) - set(a.deterministic()) == set(TIMING_FIELDS)


@pytest.mark.parametrize("game", ["sunloaf", "naptuft"])
def test_other_single_player_games_with_the_random_baseline(game):
    r = run_job(Job(game, "random", 3))
    assert r.ended_by == "rules" and r.error is None
    assert r.progress_field == "day" and r.progress >= 1
    assert r.steps == r.decisions >= 1


@pytest.mark.parametrize(("game", "cap"), [("sunloaf", 1), ("sunloaf", 2), ("naptuft", 2)])
def test_day_cap_on_sunloaf_and_naptuft(fakes, game, cap):
    free = run_job(Job(game, "no-end", 1))
    assert free.ended_by == "rules" and free.progress > cap
    r = run_job(Job(game, "no-end", 1, cap=cap))
    assert (r.ended_by, r.progress) == ("cap", cap)
    assert r.steps == r.decisions + 1  # the end action is the cap's, not a decision
    assert r.score < free.score


def test_refused_actions_end_the_job_as_an_error(fakes):
    r = run_job(Job("keelhold", "illegal", 1))
    assert (r.ended_by, r.refused, r.steps, r.decisions) == ("error", 3, 3, 3)
    assert r.error.startswith("RuntimeError: 3 refused actions in a row")
    assert r.progress == 1 and r.cause is None


def test_strategy_exception_is_a_row_not_a_crash(fakes):
    r = run_job(Job("keelhold", "crash", 1))
    assert (
        r.ended_by == "error"
        and r.error == "ZeroDivisionError: boom (raised by the strategy crash at step 3)"
    )
    assert r.steps == 2 and r.decisions == 2


def test_unknown_strategy_is_an_error_row_and_unknown_game_raises():
    r = run_job(Job("keelhold", "nope", 1))
    assert r.ended_by == "error" and "unknown strategy 'nope'" in r.error
    with pytest.raises(KeyError):
        run_job(Job("chess", "random", 1))


def test_on_start_hook_is_called_with_game_and_seed(fakes):
    Starter.started.clear()
    run_job(Job("keelhold", "starter", 42))
    assert Starter.started == [("keelhold", 42)]


def test_harvest_watch_match_guard_seat(fakes):
    GuardSeat.seen.clear()
    r = run_job(Job("harvest-watch", "guard-seat", 7, seating="server"))
    # our seat is the match RNG's first draw, as the match server draws it
    assert r.seat == random.Random(7).sample(range(6), 1)[0] == 2
    # guard every day: 5.0 food, -1.0 a night -> out on night 5 (spec §7), after
    # 4 full days of 5 beats and 4 beats of day 5
    assert (r.progress, r.steps, r.decisions, r.refused) == (5, 24, 24, 0)
    assert (r.rank, r.score, r.cause, r.ended_by) == (3, 3, "lost", "rules")
    first = GuardSeat.seen[0]
    assert first["round"] == 1 and first["phase"] == "speech1"
    assert first["summary"]["you"] == 2 and first["summary"]["food"] == 5.0
    assert "legal" in GuardSeat.seen[3] and GuardSeat.seen[3]["phase"] == "action"
    again = run_job(Job("harvest-watch", "guard-seat", 7, seating="server"))
    assert again.deterministic() == r.deterministic()


def test_harvest_watch_refused_command_takes_the_default(fakes):
    r = run_job(Job("harvest-watch", "bad-seat", 1))
    # 2 speech beats a day for 5 days refused; the default speech applies instead
    assert (r.refused, r.steps, r.progress, r.ended_by) == (10, 24, 5, "rules")


async def test_job_agrees_with_the_http_runner():
    """The engine-only loop gives what `sunbot play` gets through the server."""
    client = GameboardClient(transport=httpx.ASGITransport(app=create_app(TokenCodec())))
    async with client:
        for game, name, seed, cap in [
            ("keelhold", "first-safe", 1, None),
            ("keelhold", "random", 5, None),
            ("keelhold", "safe-greedy", 7, 2),
            ("naptuft", "balancer", 3, 2),
            ("naptuft", "rotation", 4, 3),
            ("sunloaf", "reference", 2, 1),
        ]:
            bot = strategies.create(game, name, random.Random(seed))
            s = await play_run(client, game, seed, bot, strategy_name=name, cap=cap)
            r = run_job(Job(game, name, seed, cap))
            got = (r.score, r.steps, r.refused, r.ended_by, r.cause)
            assert got == (s.score, s.steps, s.refused, s.ended_by, s.cause), (game, name)
            assert r.progress == s.final_state[r.progress_field]


def _on_the_match_server(seed, name):
    """The same match through the server's own match object (fake clock, no HTTP)."""
    match, tickets = Match.create(seed=seed, seats=1, beat_ms=DEFAULT_BEAT_MS, start_ms=0, now=0)
    (seat, _token), now = tickets[0], 0
    bot = strategies.create("harvest-watch", name, random.Random(seed * 1000))
    while match.status != "done":
        view = match.view(seat, now)
        if view["next"]["rel"] == "act":
            data = view["data"]
            assert match.store(seat, data["round"], [bot.choose(*hw_args(data))], now) is None
        else:
            now = match.deadline
            match.catch_up(now)
    return seat, match.state["result"]["ranks"][seat], match.state["outNight"][seat]


@pytest.mark.parametrize("name", ["coalition", "random", "house"])
def test_match_job_plays_the_match_the_server_plays(name):
    for seed in range(1, 9):
        r = run_job(Job("harvest-watch", name, seed, seating="server"))
        seat, rank, out = _on_the_match_server(seed, name)
        assert (r.seat, r.rank) == (seat, rank), seed
        assert r.refused == 0 and r.ended_by == "rules"
        if out is not None:
            assert r.progress == out


class Illegal:
    """Sends an action no game accepts, every time."""

    game = "keelhold"

    def __init__(self, rng):
        pass

    def choose(self, observation, legal_actions):
        return {"type": "NOPE"}


def test_refusal_limit_is_the_loops(monkeypatch):
    from sunbot.runs.loop import MAX_REFUSALS_IN_A_ROW

    monkeypatch.setitem(GAMES["keelhold"].strategies, "illegal", "tests.bench.test_jobs:Illegal")
    r = run_job(Job("keelhold", "illegal", 1))
    assert r.ended_by == "error" and r.refused == MAX_REFUSALS_IN_A_ROW == r.steps
    assert r.error.startswith(f"RuntimeError: {MAX_REFUSALS_IN_A_ROW} refused actions in a row")


@pytest.mark.parametrize("n", [1, 2, 5, 40])
def test_decision_percentiles_are_numpys_linear_ones(n):
    import numpy as np

    from sunbot.bench.jobs import _percentiles

    timings = [((i * 7919) % 97) / 1e4 for i in range(1, n + 1)]
    p50, p95 = _percentiles(timings)
    want = np.percentile(np.array(timings) * 1000, [50, 95])
    assert (p50, p95) == pytest.approx((round(want[0], 4), round(want[1], 4)), abs=1e-9)
    assert _percentiles([]) == (None, None)
