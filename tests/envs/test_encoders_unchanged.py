"""The incremental Keelhold and Naptuft encoders give exactly the observations the stateless
ones gave (``previous_encoders``), v1 and v0, through the environment and through one codec
fed positions of several runs in turn (its remembered parts must never leak between them).
The masks are the legal actions' at every step. The engine backend hands the engine state (hidden fields included) to the encoder: the
reference reads the published observation, so an encoder that read a hidden field differs."""

from __future__ import annotations

import random

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import sunbot.envs  # noqa: E402, F401  (registers the ids)
from sunbot import strategies  # noqa: E402
from sunbot.envs.keelhold import KeelholdCodec  # noqa: E402
from sunbot.envs.legacy import KeelholdCodecV0, NaptuftCodecV0  # noqa: E402
from sunbot.envs.naptuft import NaptuftCodec  # noqa: E402
from sunbot.games import get_game  # noqa: E402
from tests.envs import previous_encoders as previous  # noqa: E402

CASES = {  # game -> (env id, env options, v1 codec, v0 codec, a cheap strategy)
    "keelhold": (
        "sunbot/Keelhold-v1",
        {"max_voyages": 3},
        KeelholdCodec,
        KeelholdCodecV0,
        "first-safe",
    ),
    "naptuft": ("sunbot/Naptuft-v1", {"max_days": 4}, NaptuftCodec, NaptuftCodecV0, "rotation"),
}


def _reference(game: str, observation, clip: bool = True):
    return getattr(previous, game)(observation, clip=clip)


def _assert_equal(got, want, where) -> None:
    assert got.keys() == want.keys(), where
    for key in want:
        assert got[key].dtype == want[key].dtype, (where, key)
        assert got[key].shape == want[key].shape, (where, key)
        assert np.array_equal(got[key], want[key]), (where, key, got[key], want[key])


def _policy(game: str, seed: int):
    """A cheap strategy's choice, a random legal action one time in five (so that runs
    last into later voyages and days, and still go where the strategy would not)."""
    rng = random.Random(seed)
    bot = strategies.create(game, CASES[game][4], random.Random(seed))

    def choose(observation, legal):
        return rng.choice(legal) if rng.random() < 0.2 else bot.choose(observation, legal)

    return choose


def _run(game: str, seed: int, steps: int) -> list[dict]:
    """The engine states of one run under :func:`_policy` (at most ``steps``)."""
    eng = get_game(game).engine
    choose = _policy(game, seed)
    state = eng.init(seed)
    states = [state]
    for _ in range(steps):
        if eng.is_over(state):
            break
        state = eng.step(state, choose(eng.observation(state), eng.legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_environment_returns_the_previous_encoding_at_every_step(game):
    env_id, options, *_ = CASES[game]
    eng = get_game(game).engine
    env = gym.make(env_id, **options)
    codec = env.unwrapped.codec
    steps = 0
    for seed in (24, 25, 3):  # 24 and 25 jam hatches
        obs, info = env.reset(seed=seed)
        state = eng.init(seed)
        choose = _policy(game, seed)
        _assert_equal(obs, _reference(game, eng.observation(state)), (seed, 0))
        for t in range(1, 400):
            action = choose(eng.observation(state), eng.legal_actions(state))
            obs, _, terminated, truncated, info = env.step(codec.index(action))
            state = eng.step(state, action)
            _assert_equal(obs, _reference(game, eng.observation(state)), (seed, t))
            legal = [codec.index(a) for a in eng.legal_actions(state)]
            assert np.flatnonzero(info["action_mask"]).tolist() == sorted(legal), (seed, t)
            steps += 1
            if terminated or truncated:
                break
    assert steps > 60  # the runs went well past the opening
    env.close()


@pytest.mark.parametrize("game", sorted(CASES))
@pytest.mark.parametrize("clip", [True, False])
def test_one_codec_fed_several_runs_in_turn_encodes_each_position_afresh(game, clip):
    _, _, v1, v0, _ = CASES[game]
    codec = v1() if clip else v0()
    eng = get_game(game).engine
    runs = [_run(game, seed, 120) for seed in (23, 24, 25)]  # 24 and 25 jam hatches
    order = [(r, t) for t in range(max(map(len, runs))) for r in range(3) if t < len(runs[r])]
    order += [(0, t) for t in range(len(runs[0]) - 1, -1, -1)]  # and backwards through one
    for r, t in order:
        state = runs[r][t]
        want = _reference(game, eng.observation(state), clip=clip)
        _assert_equal(codec.encode(state), want, (r, t))
        _assert_equal(codec.encode(eng.observation(state)), want, (r, t, "observation"))


def test_a_refused_observation_is_one_clear_error_and_the_next_encodings_are_right():
    codec = KeelholdCodec()
    eng = get_game("keelhold").engine
    run = _run("keelhold", 31, 40)
    assert len(run) > 3
    codec.encode(run[1])
    long_queue = {**run[2], "queue": [*run[2]["queue"], *run[2]["queue"], *run[2]["queue"]]}
    with pytest.raises(ValueError, match="queue has"):
        codec.encode(long_queue)
    crate = {"weight": 2**40, "cargo": None}
    huge = {**run[2], "hold": [[crate], *run[2]["hold"][1:]]}
    with pytest.raises(ValueError, match="does not fit 32 bits"):
        codec.encode(huge)
    for t in (2, 1, 3):
        _assert_equal(codec.encode(run[t]), _reference("keelhold", eng.observation(run[t])), t)
